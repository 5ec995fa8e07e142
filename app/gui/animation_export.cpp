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
      settings_(std::move(settings)),
      frames_(std::make_shared<widgets::FrameSequence>()) {}

AnimationExport::~AnimationExport() {
    cancel_ = true;
    if (worker_) worker_->waitForFinished();
}

void AnimationExport::start() {
    if (running_ || !playback_ || !bounds_ || !area_) return;
    running_ = true;
    wasLive_ = playback_->live();
    wasAt_ = playback_->shownIteration();
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
        return encode();
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
        if (settings_.scale < 1)
            frame = frame.scaled(frame.size() * settings_.scale, Qt::IgnoreAspectRatio,
                                 Qt::SmoothTransformation);
        // The family view's height follows the caption's lines: every frame takes the first
        // one's size (the picture at its top left, white where it is smaller).
        if (frames_->count() > 0 && frame.size() != frames_->size()) {
            QImage fitted(frames_->size(), QImage::Format_RGB32);
            fitted.fill(Qt::white);
            QPainter(&fitted).drawImage(QPoint(0, 0), frame);
            frame = fitted;
        }
        frames_->add(frame);
        ++drawn_;
        emit progressed(stepsDone(), 2 * frameCount());
        drawNext();
    } catch (const std::exception& e) {
        restoreTimeline();
        finish(false, settings_.path + ": " + e.what());
    }
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

void AnimationExport::encode() {
    worker_ = new QFutureWatcher<QString>(this);
    connect(worker_, &QFutureWatcher<QString>::finished, this, [this] {
        const QString failure = worker_->result();
        finish(failure.isEmpty(), failure.isEmpty() ? settings_.path : failure);
    });
    // The worker reads only the frames (shared, no longer written) and the settings' copy.
    worker_->setFuture(QtConcurrent::run([this, frames = frames_, settings = settings_] {
        try {
            const auto progress = [this](int done) {
                encoded_ = done;
                emit progressed(stepsDone(), 2 * frameCount());
            };
            widgets::AnimationTarget target = widgets::AnimationTarget::Gif;
            QString why;
            widgets::animationTarget(settings.path, &target, &why);
            bool ok = false;
            if (target == widgets::AnimationTarget::Gif) {
                widgets::GifTiming timing;
                timing.delayCentiseconds = centiseconds(1.0 / settings.framesPerSecond);
                timing.lastDelayCentiseconds =
                    std::max(timing.delayCentiseconds, centiseconds(settings.holdSeconds));
                ok = widgets::writeGif(*frames, settings.path, timing, &cancel_, progress, &why);
            } else {
                ok = widgets::writePngFrames(*frames, settings.path, &cancel_, progress, &why);
            }
            return ok ? QString() : why;
        } catch (const std::exception& e) {
            return settings.path + ": " + e.what();
        }
    }));
}

void AnimationExport::finish(bool ok, const QString& message) {
    running_ = false;
    emit finished(ok, message);
}

}  // namespace cplab
