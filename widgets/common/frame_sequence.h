// SPDX-License-Identifier: GPL-3.0-or-later
// An animation's frames are streamed: each is handed to a FrameSink as soon as it is drawn,
// encoded (a GIF frame appended, a PNG file written beside its target) and dropped, so that
// memory holds about one frame whatever the number of frames (all of them were kept before:
// 3.6 GB for 9 frames of 8192²). A size whose single frame cannot fit is refused before any
// work (animationSizeProblem). The sinks run on any thread, one call at a time; no widgets.
#pragma once

#include <QImage>
#include <QRect>
#include <QSize>
#include <QString>
#include <memory>
#include <vector>

namespace cplab::widgets {

// Where an animation goes, by its path: an animated GIF (".gif"), or numbered PNG frames — a
// folder ("frames/": frames/frame0001.png …) or a pattern with one printf-style number
// ("shot-%04d.png", "%d.png").
enum class AnimationTarget { Gif, PngFrames };
// The target `path` names; false with *why (naming the path and what is expected) otherwise.
bool animationTarget(const QString& path, AnimationTarget* target, QString* why);
// The file of PNG frame `index` (1-based) for a folder or pattern path.
QString framePath(const QString& path, int index);

// The largest side a GIF can have (its logical screen's 16-bit width and height).
inline constexpr int kGifMaxSide = 65535;
// The memory an export holds at once for frames of `frame` pixels grabbed at `grabbed` pixels
// (larger when the frames are scaled down): the grab and its image, the frame, the previous
// frame it is compared with, its palette indices, and the palette caches.
double animationBytes(QSize grabbed, QSize frame);
// Why frames of `frame` pixels (grabbed at `grabbed`) cannot be exported to `target`: an empty
// size, a GIF side above kGifMaxSide, or more memory than the budget (core/memory_budget.h),
// naming the sizes ("needs 5.3 GB: 16,384 x 16,384 pixels x 21 B; about 2.1 GB available");
// empty when they can.
QString animationSizeProblem(AnimationTarget target, QSize grabbed, QSize frame);

// The PNG frames rule: frames written into a folder never mix with older ones. The export
// replaces the files it names (framePath(path, 1 … count)) and nothing else; a file of the
// same pattern that it would not replace (frame0009.png of an older, longer sequence,
// shot-01.png beside shot-%d.png's shot-1.png) makes it refuse, naming them, before any
// frame is drawn and again before the frames are renamed into place. Nothing is deleted.
QString foreignFrames(const QString& path, int count);

// The rectangle in which `a` and `b` (same size, RGB32) differ; empty when they are equal.
QRect differingRect(const QImage& a, const QImage& b);

// Where streamed frames go. add() takes the frames in order, every one of the first's size;
// finish() completes the output once every frame is added. A sink destroyed unfinished (a
// failure, a cancel) leaves nothing: no output, no temporary file.
class FrameSink {
  public:
    virtual ~FrameSink() = default;
    // False with *why (naming the path) when the frame cannot be encoded or written: a null
    // image (a failed allocation) is such a failure, never an unchanged frame.
    virtual bool add(const QImage& frame, QString* why) = 0;
    virtual bool finish(QString* why) = 0;
};

// Numbered PNG frames (framePath, from 1): each written to a temporary file beside its target
// as it comes; finish() renames all of them into place once `count` are written and
// foreignFrames still finds nothing.
class PngFrameWriter : public FrameSink {
  public:
    PngFrameWriter(QString path, int count);
    ~PngFrameWriter() override;
    bool add(const QImage& frame, QString* why) override;
    bool finish(QString* why) override;

  private:
    struct Pending;
    QString path_;
    int count_;
    std::vector<std::unique_ptr<Pending>> written_;
};

}  // namespace cplab::widgets
