// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline drawn into frames and encoded off the GUI thread (animation_export.h).
#include "animation_export.h"

#include <QPainter>
#include <QTimer>
#include <QWidget>
#include <QtConcurrent/QtConcurrentRun>
#include <cmath>
#include <exception>

#include "bounds_plot.h"
#include "coalesced_replot.h"
#include "gif_writer.h"
#include "playback.h"
#include "timeline_bar.h"

namespace cplab {

namespace {

// After the timeline moves, the views' coalesced replots land within one interval.
constexpr int kSettleMs = widgets::CoalescedReplot::kIntervalMs + 20;

int centiseconds(double seconds) {
    return static_cast<int>(std::lround(std::clamp(seconds, 0.02, 600.0) * 100));
}

}  // namespace

QString checkAnimationSettings(const AnimationSettings& s) {
    widgets::AnimationTarget target;
    QString why;
    if (!widgets::animationTarget(s.path, &target, &why)) return why;
    if (!(s.framesPerSecond >= 0.1 && s.framesPerSecond <= 50))
        return QString("frame rate %1: expected 0.1 to 50 frames per second")
            .arg(s.framesPerSecond);
    if (!(s.holdSeconds >= 0 && s.holdSeconds <= 60))
        return QString("hold %1 s: expected 0 to 60 seconds").arg(s.holdSeconds);
    if (!(s.scale >= 0.25 && s.scale <= 1))
        return QString("scale %1: expected 0.25 to 1").arg(s.scale);
    if (s.first < 0 || (s.last >= 0 && s.last < s.first))
        return QString("range %1:%2: expected FIRST:LAST with 0 <= FIRST <= LAST")
            .arg(s.first)
            .arg(s.last);
    return {};
}

AnimationExport::AnimationExport(Playback* playback, widgets::BoundsPlot* bounds, QWidget* area,
                                 std::vector<int> iterations, AnimationSettings settings)
    : QObject(playback),
      playback_(playback),
      bounds_(bounds),
      area_(area),
      iterations_(std::move(iterations)),
      settings_(std::move(settings)) {}

AnimationExport::~AnimationExport() {
    cancel_ = true;
    // The worker encodes into sink_: wait for it before the members go.
    if (worker_) worker_->waitForFinished();
}

void AnimationExport::start() {
    if (running_ || !playback_ || !bounds_ || !area_) return;
    running_ = true;
    wasLive_ = playback_->live();
    wasAt_ = playback_->shownIteration();
    widgets::AnimationTarget target = widgets::AnimationTarget::Gif;
    widgets::animationTarget(settings_.path, &target, nullptr);
    if (target == widgets::AnimationTarget::Gif) {
        widgets::GifTiming timing;
        timing.delayCentiseconds = centiseconds(1.0 / settings_.framesPerSecond);
        timing.lastDelayCentiseconds =
            std::max(timing.delayCentiseconds, centiseconds(settings_.holdSeconds));
        sink_ = std::make_unique<widgets::GifStream>(settings_.path, frameCount(), timing);
    } else {
        sink_ = std::make_unique<widgets::PngFrameWriter>(settings_.path, frameCount());
    }
    worker_ = new QFutureWatcher<QString>(this);
    connect(worker_, &QFutureWatcher<QString>::finished, this, &AnimationExport::encoded);
    // Each frame shows the race up to its iteration, not its future.
    bounds_->setCutAtMarker(true);
    drawNext();
}

void AnimationExport::cancel() {
    cancel_ = true;
}

void AnimationExport::drawNext() {
    if (!playback_ || !bounds_ || !area_) return finish(false, "the window closed");
    if (cancel_) {
        restoreTimeline();
        return finish(false, settings_.path + ": cancelled");
    }
    if (drawn_ == frameCount()) {
        restoreTimeline();
        return finishOutput();
    }
    playback_->showIteration(iterations_[static_cast<std::size_t>(drawn_)]);
    QTimer::singleShot(kSettleMs, this, &AnimationExport::grabFrame);
}

void AnimationExport::grabFrame() {
    // Runs from the event loop: nothing may escape.
    try {
        if (!area_) return finish(false, "the window closed");
        QImage frame = area_->grab().toImage();
        frame.setDevicePixelRatio(1.0);  // device pixels, whatever the screen
        if (settings_.scale < 1 && !frame.isNull())
            frame = frame.scaled(frame.size() * settings_.scale, Qt::IgnoreAspectRatio,
                                 Qt::SmoothTransformation);
        if (frame.isNull()) {
            restoreTimeline();
            return finish(false, QString("%1: frame %2 could not be drawn (out of memory?)")
                                     .arg(settings_.path)
                                     .arg(drawn_ + 1));
        }
        // The family view's height follows the caption's lines: every frame takes the first
        // one's size (the picture at its top left, white where it is smaller).
        if (drawn_ == 0) frameSize_ = frame.size();
        if (frame.size() != frameSize_) {
            QImage fitted(frameSize_, QImage::Format_RGB32);
            if (!fitted.isNull()) {
                fitted.fill(Qt::white);
                QPainter(&fitted).drawImage(QPoint(0, 0), frame);
            }
            frame = fitted;  // null on a failed allocation: the sink refuses it
        }
        ++drawn_;
        emit progressed(stepsDone(), 2 * frameCount());
        encode(std::move(frame));
    } catch (const std::exception& e) {
        restoreTimeline();
        finish(false, settings_.path + ": " + e.what());
    }
}

void AnimationExport::encode(QImage frame) {
    // The worker alone touches the sink until it returns; the frame is its own copy.
    widgets::FrameSink* sink = sink_.get();
    worker_->setFuture(QtConcurrent::run([sink, frame = std::move(frame)] {
        try {
            QString why;
            return sink->add(frame, &why) ? QString() : why;
        } catch (const std::exception& e) {
            return QString("encoding a frame: ") + e.what();
        }
    }));
}

void AnimationExport::encoded() {
    const QString failure = worker_->result();
    if (!failure.isEmpty()) {
        restoreTimeline();
        return finish(false, failure);
    }
    ++encoded_;
    emit progressed(stepsDone(), 2 * frameCount());
    drawNext();
}

void AnimationExport::restoreTimeline() {
    if (!playback_ || !bounds_) return;
    bounds_->setCutAtMarker(false);
    if (wasLive_) {
        playback_->goLive();
    } else {
        playback_->showIteration(wasAt_);
    }
}

void AnimationExport::finishOutput() {
    QString why;
    const bool ok = sink_ && sink_->finish(&why);
    finish(ok, ok ? settings_.path : why);
}

void AnimationExport::finish(bool ok, const QString& message) {
    running_ = false;
    sink_.reset();  // unfinished: removes what it wrote
    emit finished(ok, message);
}

}  // namespace cplab
