// SPDX-License-Identifier: GPL-3.0-or-later
#include "caption_bar.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QTextLayout>
#include <QVBoxLayout>
#include <algorithm>

#include "plot_style.h"

namespace cplab::widgets {

CaptionBar::CaptionBar(QWidget* parent) : QFrame(parent) {
    setObjectName("captionBar");
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, QColor(250, 248, 235));
    setPalette(p);
    beat_ = new QLabel(this);
    beat_->setObjectName("captionBeat");
    beat_->setWordWrap(true);
    // Fonts and colours by font resolution and palette, not style sheets: the window's scale
    // (presentation mode) reaches these labels only so.
    QFont bold;
    bold.setBold(true);  // only the weight: the rest resolves from the window's font
    beat_->setFont(bold);
    QPalette grey = palette();
    grey.setColor(QPalette::WindowText, colors::kText);
    events_ = new QLabel(this);
    events_->setObjectName("captionEvents");
    events_->setWordWrap(true);
    events_->setPalette(grey);
    watch_ = new QLabel(this);
    watch_->setObjectName("captionWatch");
    watch_->setWordWrap(true);
    watch_->setPalette(grey);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 3, 8, 3);
    layout->setSpacing(1);
    auto* top = new QHBoxLayout;
    top->addWidget(beat_, 3);
    top->addWidget(events_, 2);
    layout->addLayout(top);
    layout->addWidget(watch_);
    clear();
}

void CaptionBar::setDemo(const QString& title, const QString& watch) {
    watchFull_ = title.isEmpty() ? QString() : title + ". " + watch;
    watch_->setToolTip(watch);
    elideWatch();
    setVisible(!title.isEmpty());
}

void CaptionBar::resizeEvent(QResizeEvent* event) {
    QFrame::resizeEvent(event);
    elideWatch();
}

void CaptionBar::changeEvent(QEvent* event) {
    QFrame::changeEvent(event);
    if (event->type() == QEvent::FontChange) elideWatch();
}

void CaptionBar::elideWatch() {
    constexpr int kLines = 2;
    const int width = std::max(50, contentsRect().width() - 16);
    QTextLayout layout(watchFull_, watch_->font());
    layout.beginLayout();
    int shownEnd = static_cast<int>(watchFull_.size());
    for (int line = 0;; ++line) {
        QTextLine text = layout.createLine();
        if (!text.isValid()) break;
        text.setLineWidth(width);
        if (line == kLines - 1 && text.textStart() + text.textLength() < watchFull_.size()) {
            // The last line shown ends in "…" where the rest is cut.
            const QString last = watchFull_.mid(text.textStart());
            const QString cut =
                QFontMetrics(watch_->font()).elidedText(last, Qt::ElideRight, width);
            watch_->setText(watchFull_.left(text.textStart()) + cut);
            layout.endLayout();
            return;
        }
        shownEnd = text.textStart() + text.textLength();
    }
    layout.endLayout();
    watch_->setText(watchFull_.left(shownEnd));
}

void CaptionBar::setBeat(int index, int count, const QString& text) {
    beat_->setText(index < 0 || count <= 0
                       ? QString()
                       : QString("%1/%2  %3").arg(index + 1).arg(count).arg(text));
}

void CaptionBar::setEvents(const QString& text) {
    events_->setText(text);
    events_->setToolTip(text);
    events_->setVisible(!text.isEmpty());
}

void CaptionBar::clear() {
    beat_->clear();
    setEvents({});
    watchFull_.clear();
    watch_->clear();
    setVisible(false);
}

QString CaptionBar::beatText() const {
    return beat_->text();
}
QString CaptionBar::eventsText() const {
    return events_->text();
}
QString CaptionBar::watchText() const {
    return watch_->toolTip();
}

}  // namespace cplab::widgets
