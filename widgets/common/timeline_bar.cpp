// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <algorithm>

namespace cplab::widgets {

TimelineBar::TimelineBar(QWidget* parent)
    : QWidget(parent),
      back_(new QPushButton(QString::fromUtf8("\u2190"), this)),
      slider_(new QSlider(Qt::Horizontal, this)),
      forward_(new QPushButton(QString::fromUtf8("\u2192"), this)),
      liveButton_(new QPushButton(tr("Live"), this)),
      caption_(new QLabel(this)) {
    setObjectName("timeline");
    slider_->setObjectName("timelineSlider");
    back_->setObjectName("timelineBack");
    forward_->setObjectName("timelineForward");
    liveButton_->setObjectName("timelineLive");
    back_->setToolTip(tr("One iteration back (Left arrow)"));
    forward_->setToolTip(tr("One iteration forward (Right arrow)"));
    liveButton_->setToolTip(tr("Follow the newest iteration"));
    slider_->setToolTip(tr("Scrub back through the selected run's iterations"));
    liveButton_->setCheckable(true);
    sizeArrows();
    slider_->setRange(0, 0);
    slider_->setPageStep(10);
    caption_->setMinimumWidth(130);
    slider_->setMinimumWidth(100);  // a track one can drag, even in a narrow centre

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    layout->addWidget(new QLabel(tr("Timeline"), this));
    layout->addWidget(back_);
    layout->addWidget(slider_, 1);
    layout->addWidget(forward_);
    layout->addWidget(caption_);
    layout->addWidget(liveButton_);

    connect(slider_, &QSlider::valueChanged, this, [this](int value) {
        live_ = value >= last_;
        updateLiveButton();
        if (live_) {
            emit liveChosen();
        } else {
            emit positionChosen(value);
        }
    });
    connect(back_, &QPushButton::clicked, this, &TimelineBar::stepBack);
    connect(forward_, &QPushButton::clicked, this, &TimelineBar::stepForward);
    connect(liveButton_, &QPushButton::clicked, this, [this] {
        setLive(true);
        emit liveChosen();
    });
    updateLiveButton();
}

void TimelineBar::setLast(int last) {
    last_ = std::max(0, last);
    const QSignalBlocker block(slider_);
    slider_->setMaximum(last_);
    if (live_) slider_->setValue(last_);
}

void TimelineBar::setPosition(int iteration) {
    slider_->setValue(std::clamp(iteration, 0, last_));  // emits through valueChanged
}

int TimelineBar::position() const {
    return live_ ? last_ : slider_->value();
}

void TimelineBar::setLive(bool live) {
    live_ = live;
    if (live_) {
        const QSignalBlocker block(slider_);
        slider_->setValue(last_);
    }
    updateLiveButton();
}

void TimelineBar::setCaption(const QString& text) {
    caption_->setText(text);
}

void TimelineBar::stepBack() {
    setPosition(position() - 1);
}

void TimelineBar::stepForward() {
    setPosition(position() + 1);
}

void TimelineBar::updateLiveButton() {
    const QSignalBlocker block(liveButton_);
    liveButton_->setChecked(live_);
}

void TimelineBar::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) sizeArrows();
}

void TimelineBar::sizeArrows() {
    const int width = std::max(32, 2 * fontMetrics().height());
    for (QPushButton* b : {back_, forward_})
        b->setFixedWidth(width);
}

}  // namespace cplab::widgets
