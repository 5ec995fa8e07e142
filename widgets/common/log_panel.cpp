// SPDX-License-Identifier: GPL-3.0-or-later
#include "log_panel.h"

#include <QFontDatabase>
#include <QScrollBar>
#include <QTime>

#include "plot_style.h"

namespace cplab::widgets {

LogPanel::LogPanel(QWidget* parent) : QPlainTextEdit(parent) {
    setObjectName("logPanel");
    setReadOnly(true);
    setMaximumBlockCount(5000);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setPointSize(9);
    setFont(mono);
}

void LogPanel::appendMessage(const QString& message) {
    appendPlainText(QTime::currentTime().toString("HH:mm:ss  ") + message);
    scrollToNewest();
}

void LogPanel::appendError(const QString& message) {
    appendHtml(QString("<span style='color:%1'>%2  error: %3</span>")
                   .arg(colors::kErrorText.name(), QTime::currentTime().toString("HH:mm:ss"),
                        message.toHtmlEscaped()));
    scrollToNewest();
    emit errorAppended(message);
}

void LogPanel::scrollToNewest() {
    verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

}  // namespace cplab::widgets
