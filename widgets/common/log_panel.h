// SPDX-License-Identifier: GPL-3.0-or-later
// A read-only, bounded log of run events (started, converged, errors), newest at the bottom.
#pragma once

#include <QPlainTextEdit>

namespace cplab::widgets {

class LogPanel : public QPlainTextEdit {
    Q_OBJECT
  public:
    explicit LogPanel(QWidget* parent = nullptr);

  public slots:
    // Both scroll to the newest line, wherever the user had scrolled.
    void appendMessage(const QString& message);
    void appendError(const QString& message);

  signals:
    // An error was appended (the window shows it beyond the log, which may be hidden).
    void errorAppended(const QString& message);

  private:
    void scrollToNewest();
};

}  // namespace cplab::widgets
