// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline as an animation (File › Export animation…, `cplab --export-animation`): every
// kept snapshot of the selected run in a range is shown through the window (the timeline
// moved to it) and the centre — or only the family view — is grabbed as a frame, one frame
// per turn of the event loop (widgets are drawn on the GUI thread only); each frame is then
// encoded by a worker (QtConcurrent) into an animated GIF or numbered PNG frames
// (widgets/common/gif_writer.h, frame_sequence.h) and dropped before the next is drawn, so
// that memory holds one frame whatever their number; the output is written atomically: a
// cancel or a failure writes nothing.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QString>
#include <atomic>
#include <memory>
#include <vector>

#include "frame_sequence.h"

class QWidget;

namespace cplab {

class Playback;

namespace widgets {
class BoundsPlot;
}

struct AnimationSettings {
    QString path;   // .gif, a folder ending in '/', or a PNG pattern (frame_sequence.h)
    int first = 0;  // the first iteration of the selected run to show
    int last = -1;  // the last (-1: its newest)
    double framesPerSecond = 4;  // in [0.1, 50]
    double holdSeconds = 2;      // how long the last frame stays before the GIF loops
    bool viewOnly = false;       // the family view alone, not the whole centre
    double scale = 1.0;          // frames scaled (0.25 to 1) from their size on screen
};

// Why `settings` cannot be used (a range, rate or scale out of bounds, a path of no known
// target); empty when they can.
QString checkAnimationSettings(const AnimationSettings& settings);

class AnimationExport : public QObject {
    Q_OBJECT
  public:
    // `iterations`: the kept snapshots' iterations to show, ascending, through `playback`
    // (the window's timeline, put back where it was when drawing ends) with `bounds` cut at
    // the marker; `area` the widget grabbed.
    AnimationExport(Playback* playback, widgets::BoundsPlot* bounds, QWidget* area,
                    std::vector<int> iterations, AnimationSettings settings);
    ~AnimationExport() override;

    // Draws the frames (one per event-loop turn), each encoded in a worker before the next.
    void start();
    // Stops drawing or encoding; finished(false, …) follows and nothing is written.
    void cancel();
    int frameCount() const { return static_cast<int>(iterations_.size()); }
    bool running() const { return running_; }
    // Steps done of 2 × frameCount() (drawing, then encoding).
    int stepsDone() const { return drawn_ + encoded_.load(); }
    const AnimationSettings& settings() const { return settings_; }

  signals:
    void progressed(int done, int total);
    void finished(bool ok, const QString& message);

  private:
    void drawNext();
    void grabFrame();
    void restoreTimeline();
    // Hands `frame` to the sink on a worker; drawNext() follows when it is encoded.
    void encode(QImage frame);
    void encoded();
    void finishOutput();
    void finish(bool ok, const QString& message);

    QPointer<Playback> playback_;
    QPointer<widgets::BoundsPlot> bounds_;
    QPointer<QWidget> area_;
    std::vector<int> iterations_;
    AnimationSettings settings_;
    std::unique_ptr<widgets::FrameSink> sink_;  // null once finished
    QSize frameSize_;                           // the first frame's
    int drawn_ = 0;
    std::atomic<int> encoded_{0};
    std::atomic<bool> cancel_{false};
    bool running_ = false;
    bool wasLive_ = true;
    int wasAt_ = 0;
    QFutureWatcher<QString>* worker_ = nullptr;
};

}  // namespace cplab
