// SPDX-License-Identifier: GPL-3.0-or-later
// A one-line label that shows as much of its text as fits and ends with "…" where it cuts, so
// that a cut text never reads as a different one ("training error 0" of "… 0.144"); the whole
// text is its tooltip. It never asks for more width than it is given.
#pragma once

#include <QLabel>
#include <QString>

namespace cplab::widgets {

class ElidedLabel : public QLabel {
    Q_OBJECT
  public:
    explicit ElidedLabel(QWidget* parent = nullptr);

    void setFullText(const QString& text);
    const QString& fullText() const { return full_; }

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    void elide();

    QString full_;
};

}  // namespace cplab::widgets
