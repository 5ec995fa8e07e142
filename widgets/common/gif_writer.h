// SPDX-License-Identifier: GPL-3.0-or-later
// Animated GIFs with giflib, streamed one frame at a time (frame_sequence.h's FrameSink): the
// first frame sets an adaptive global palette (the colours that cover most pixels exactly,
// the rest — antialiased edges, fills — by median cut); every later frame stores only the
// rectangle in which it differs from the one before, its unchanged pixels transparent, in the
// global palette, or in a local palette of its own when the global one misses its colours (a
// curve of a new colour). Memory: the previous frame and one frame's indices, whatever the
// number of frames. Runs on any thread; no Qt widgets.
#pragma once

#include <QRgb>
#include <QString>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "frame_sequence.h"

namespace cplab::widgets {

using ColourCounts = std::unordered_map<QRgb, std::uint64_t>;

// At most `colours` (≤ 256) colours for pixels counted in `counts` (colour → pixels):
// colours that cover at least 1/2000 of the pixels are kept exactly (up to half the
// palette), the rest are split by median cut (weighted by their counts), each box as its
// weighted mean. Fewer distinct colours than `colours` are kept as they are.
std::vector<QRgb> adaptivePalette(const ColourCounts& counts, int colours);

struct GifTiming {
    int delayCentiseconds = 25;      // per frame (4 frames per second)
    int lastDelayCentiseconds = 25;  // the last frame (a longer hold before the loop starts)
    bool loop = true;                // the NETSCAPE2.0 extension: repeat for ever
};

// Writes `count` frames as an animated GIF to `path`, atomically (core/output_file.h: a
// failure, a cancel or a sink destroyed before finish() leaves no file).
class GifStream : public FrameSink {
  public:
    GifStream(QString path, int count, GifTiming timing);
    ~GifStream() override;
    bool add(const QImage& frame, QString* why) override;
    bool finish(QString* why) override;
    // Frames added so far that carry a local palette (tests, the export's note).
    int localPalettes() const { return localPalettes_; }

  private:
    struct State;
    bool open(const QImage& first, QString* why);
    bool encodeFrame(const QImage& image, QString* why);
    bool fail(const QString& detail, QString* why) const;
    QString path_;
    int count_;
    GifTiming timing_;
    int added_ = 0;
    int localPalettes_ = 0;
    std::unique_ptr<State> state_;
};

}  // namespace cplab::widgets
