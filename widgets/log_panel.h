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
    void appendMessage(const QString& message);
    void appendError(const QString& message);
};

}  // namespace cplab::widgets
