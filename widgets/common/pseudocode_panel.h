// SPDX-License-Identifier: GPL-3.0-or-later
// The solver's pseudocode, one numbered line each, with the lines the last step executed
// shaded and the line where it ended marked.
#pragma once

#include <QWidget>
#include <string>
#include <vector>

class QTextBrowser;
class QLabel;

namespace cplab::widgets {

class PseudocodePanel : public QWidget {
    Q_OBJECT
  public:
    explicit PseudocodePanel(QWidget* parent = nullptr);

    void setPseudocode(const QString& title, const std::vector<std::string>& lines);
    void setExecuted(const std::vector<int>& lines);
    void clear();

    // The line marked as current (the last executed), or −1.
    int currentLine() const { return current_; }
    QString html() const;

  private:
    void render();

    QLabel* title_;
    QTextBrowser* text_;
    std::vector<std::string> lines_;
    std::vector<int> executed_;
    int current_ = -1;
};

}  // namespace cplab::widgets
