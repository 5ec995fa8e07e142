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
    slide_ = new QLabel(this);
    slide_->setObjectName("captionSlide");
    slide_->setWordWrap(true);
    slide_->hide();
    beat_ = new QLabel(this);
    beat_->setObjectName("captionBeat");
    beat_->setWordWrap(true);
    // Fonts and colours by font resolution and palette, not style sheets: the window's scale
    // (presentation mode) reaches these labels only so.
    QFont bold;
    bold.setBold(true);  // only the weight: the rest resolves from the window's font
    beat_->setFont(bold);
    slide_->setFont(bold);
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
    layout->addWidget(slide_);
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
    updateVisibility();
}

void CaptionBar::setSlide(const QString& text) {
    slide_->setText(text);
    slide_->setVisible(!text.isEmpty());
    updateVisibility();
}

// Shown while there is a demo's story or a lecture's slide to tell.
void CaptionBar::updateVisibility() {
    setVisible(!watchFull_.isEmpty() || !slide_->text().isEmpty());
}

void CaptionBar::resizeEvent(QResizeEvent* event) {
    QFrame::resizeEvent(event);
    elideWatch();
}

void CaptionBar::changeEvent(QEvent* event) {
    QFrame::changeEvent(event);
    if (event->type() == QEvent::FontChange) elideWatch();
}

namespace {

// The first `lines` lines of `text` wrapped at `width` in `font`, the last one cut with "…"
// where the rest does not fit.
QString firstLines(const QString& text, const QFont& font, int width, int lines) {
    QTextLayout layout(text, font);
    layout.beginLayout();
    int shownEnd = static_cast<int>(text.size());
    for (int line = 0;; ++line) {
        QTextLine wrapped = layout.createLine();
        if (!wrapped.isValid()) break;
        wrapped.setLineWidth(width);
        if (line == lines - 1 && wrapped.textStart() + wrapped.textLength() < text.size()) {
            const QString last = text.mid(wrapped.textStart());
            const QString cut = QFontMetrics(font).elidedText(last, Qt::ElideRight, width);
            layout.endLayout();
            return text.left(wrapped.textStart()) + cut;
        }
        shownEnd = wrapped.textStart() + wrapped.textLength();
    }
    layout.endLayout();
    return text.left(shownEnd);
}

}  // namespace

// What to watch and what the step did: two lines each at most (whole in their tooltips), so
// that a long text never takes the view's height (1280×720 with 150 % fonts).
void CaptionBar::elideWatch() {
    constexpr int kLines = 2;
    const int width = std::max(50, contentsRect().width() - 16);
    watch_->setText(firstLines(watchFull_, watch_->font(), width, kLines));
    // The step's text has two fifths of the row beside the beat.
    events_->setText(
        firstLines(eventsFull_, events_->font(), std::max(50, width * 2 / 5 - 8), kLines));
}

void CaptionBar::setBeat(int index, int count, const QString& text) {
    beat_->setText(index < 0 || count <= 0
                       ? QString()
                       : QString("%1/%2  %3").arg(index + 1).arg(count).arg(text));
}

void CaptionBar::setEvents(const QString& text) {
    eventsFull_ = text;
    events_->setToolTip(text);
    events_->setVisible(!text.isEmpty());
    elideWatch();
}

void CaptionBar::clear() {
    beat_->clear();
    setEvents({});
    watchFull_.clear();
    watch_->clear();
    updateVisibility();
}

QString CaptionBar::beatText() const {
    return beat_->text();
}
QString CaptionBar::eventsText() const {
    return eventsFull_;
}
QString CaptionBar::watchText() const {
    return watch_->toolTip();
}
QString CaptionBar::slideText() const {
    return slide_->text();
}

}  // namespace cplab::widgets
