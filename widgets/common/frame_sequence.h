// SPDX-License-Identifier: GPL-3.0-or-later
// The frames of an animation as they are drawn (on the GUI thread), kept small: the first in
// full, every later one only as the rectangle in which it differs from the one before. Encoders
// (gif_writer.h, the PNG frames below) replay them on any thread once the drawing is done.
#pragma once

#include <QImage>
#include <QPoint>
#include <QString>
#include <atomic>
#include <functional>
#include <vector>

namespace cplab::widgets {

class FrameSequence {
  public:
    // Appends a frame (any format; kept as RGB32). False when its size is not the first's.
    bool add(const QImage& frame);
    int count() const { return static_cast<int>(pieces_.size()); }
    QSize size() const { return size_; }
    // Frame k's changed rectangle (all of frame 0; empty when nothing changed) and its pixels.
    QRect changedRect(int k) const;
    const QImage& changedPixels(int k) const { return pieces_[static_cast<std::size_t>(k)].image; }
    // Calls `visit` with each frame in full, in order, until it returns false; false then.
    bool replay(const std::function<bool(int index, const QImage& frame)>& visit) const;
    // Bytes held (for the progress dialog's note).
    std::size_t bytes() const;

  private:
    struct Piece {
        QPoint at;
        QImage image;  // null: the frame equals the one before
    };
    std::vector<Piece> pieces_;
    QImage last_;  // the newest frame in full, to compare the next one with
    QSize size_;
};

// Where an animation goes, by its path: an animated GIF (".gif"), or numbered PNG frames — a
// folder ("frames/": frames/frame0001.png …) or a pattern with one printf-style number
// ("shot-%04d.png", "%d.png").
enum class AnimationTarget { Gif, PngFrames };
// The target `path` names; false with *why (naming the path and what is expected) otherwise.
bool animationTarget(const QString& path, AnimationTarget* target, QString* why);
// The file of PNG frame `index` (1-based) for a folder or pattern path.
QString framePath(const QString& path, int index);

// Writes every frame as a PNG (framePath, numbered from 1). Each file is written beside its
// target and all are renamed into place only when every frame is written: a failure or a
// cancel (`cancel` set) leaves no frame. `progress` (may be empty) hears the frames done.
bool writePngFrames(const FrameSequence& frames, const QString& path,
                    const std::atomic<bool>* cancel, const std::function<void(int)>& progress,
                    QString* why);

}  // namespace cplab::widgets
