// SPDX-License-Identifier: GPL-3.0-or-later
// Animated GIFs of a FrameSequence with giflib: one adaptive palette for the whole animation
// (a global colour table: the colours that cover most pixels exactly, the rest — antialiased
// edges, fills — by median cut), and frame differencing (each frame only the rectangle that
// changed on screen, its unchanged pixels transparent), so that a plot's animation stays
// small. Runs on any thread; no Qt widgets.
#pragma once

#include <QRgb>
#include <QString>
#include <atomic>
#include <functional>
#include <vector>

#include "frame_sequence.h"

namespace cplab::widgets {

// At most `colours` (≤ 256) colours for the pixels of every frame of `frames`: colours that
// cover at least 1/2000 of the pixels are kept exactly (up to half the palette), the rest
// are split by median cut (weighted by their counts), each box as its weighted mean. Fewer
// distinct colours than `colours` are kept as they are.
std::vector<QRgb> adaptivePalette(const FrameSequence& frames, int colours);

struct GifTiming {
    int delayCentiseconds = 25;      // per frame (4 frames per second)
    int lastDelayCentiseconds = 25;  // the last frame (a longer hold before the loop starts)
    bool loop = true;                // the NETSCAPE2.0 extension: repeat for ever
};

// Writes `frames` as an animated GIF to `path`, atomically (core/output_file.h: a failure or
// a cancel leaves no file). `progress` (may be empty) hears the frames written; `cancel`
// (may be null) is polled between frames. False with *why (naming the path) on failure.
bool writeGif(const FrameSequence& frames, const QString& path, const GifTiming& timing,
              const std::atomic<bool>* cancel, const std::function<void(int)>& progress,
              QString* why);

}  // namespace cplab::widgets
