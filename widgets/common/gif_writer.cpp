// SPDX-License-Identifier: GPL-3.0-or-later
// Animated GIFs: adaptive palette, frame differencing, giflib's encoder (gif_writer.h).
#include "gif_writer.h"

#include <gif_lib.h>

#include <QImage>
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>

#include "core/output_file.h"

namespace cplab::widgets {

namespace {

using Histogram = std::unordered_map<QRgb, std::uint64_t>;
using Entry = std::pair<QRgb, std::uint64_t>;  // a colour and how many pixels have it

constexpr int kTransparent = 255;  // the palette's last index: "unchanged" in later frames

int channel(QRgb c, int k) {
    return k == 0 ? qRed(c) : k == 1 ? qGreen(c) : qBlue(c);
}

Histogram histogram(const FrameSequence& frames) {
    Histogram counts;
    for (int k = 0; k < frames.count(); ++k) {
        const QImage& pixels = frames.changedPixels(k);
        for (int y = 0; y < pixels.height(); ++y) {
            const auto* row = reinterpret_cast<const QRgb*>(pixels.constScanLine(y));
            for (int x = 0; x < pixels.width(); ++x)
                ++counts[row[x] & RGB_MASK];
        }
    }
    return counts;
}

// A box of median cut: entries [begin, end) of the colours being split.
struct Box {
    std::size_t begin = 0, end = 0;
    std::uint64_t weight = 0;
    int axis = 0;   // the channel of the widest range
    int range = 0;  // that range
};

Box makeBox(const std::vector<Entry>& entries, std::size_t begin, std::size_t end) {
    Box box{begin, end, 0, 0, 0};
    std::array<int, 3> low{255, 255, 255}, high{0, 0, 0};
    for (std::size_t k = begin; k < end; ++k) {
        box.weight += entries[k].second;
        for (int c = 0; c < 3; ++c) {
            low[c] = std::min(low[c], channel(entries[k].first, c));
            high[c] = std::max(high[c], channel(entries[k].first, c));
        }
    }
    for (int c = 0; c < 3; ++c) {
        if (high[c] - low[c] > box.range) {
            box.range = high[c] - low[c];
            box.axis = c;
        }
    }
    return box;
}

// Splits `entries` into at most `count` boxes by median cut; each box's weighted mean colour.
std::vector<QRgb> medianCut(std::vector<Entry> entries, int count) {
    std::vector<QRgb> colours;
    if (entries.empty() || count <= 0) return colours;
    std::vector<Box> boxes{makeBox(entries, 0, entries.size())};
    while (static_cast<int>(boxes.size()) < count) {
        // The box of most pixels times spread that can still be split.
        auto widest = boxes.end();
        double best = 0;
        for (auto it = boxes.begin(); it != boxes.end(); ++it) {
            const double score = static_cast<double>(it->weight) * it->range;
            if (it->end - it->begin > 1 && it->range > 0 && score > best) {
                best = score;
                widest = it;
            }
        }
        if (widest == boxes.end()) break;
        const Box box = *widest;
        std::sort(entries.begin() + static_cast<std::ptrdiff_t>(box.begin),
                  entries.begin() + static_cast<std::ptrdiff_t>(box.end),
                  [axis = box.axis](const Entry& a, const Entry& b) {
                      return channel(a.first, axis) < channel(b.first, axis);
                  });
        // The weighted median, leaving at least one colour on each side.
        std::uint64_t seen = 0;
        std::size_t cut = box.begin + 1;
        for (std::size_t k = box.begin; k + 1 < box.end; ++k) {
            seen += entries[k].second;
            cut = k + 1;
            if (2 * seen >= box.weight) break;
        }
        *widest = makeBox(entries, box.begin, cut);
        boxes.push_back(makeBox(entries, cut, box.end));
    }
    for (const Box& box : boxes) {
        std::array<double, 3> sum{0, 0, 0};
        for (std::size_t k = box.begin; k < box.end; ++k) {
            for (int c = 0; c < 3; ++c)
                sum[c] += static_cast<double>(channel(entries[k].first, c)) *
                          static_cast<double>(entries[k].second);
        }
        const double w = static_cast<double>(std::max<std::uint64_t>(box.weight, 1));
        colours.push_back(qRgb(static_cast<int>(sum[0] / w + 0.5),
                               static_cast<int>(sum[1] / w + 0.5),
                               static_cast<int>(sum[2] / w + 0.5)));
    }
    return colours;
}

// Colour → palette index: exact for the palette's colours, else the nearest (cached).
class PaletteMap {
  public:
    explicit PaletteMap(const std::vector<QRgb>& palette)
        : palette_(palette), cache_(std::size_t{1} << 24, -1) {
        for (std::size_t k = 0; k < palette_.size(); ++k) {
            std::int16_t& slot = cache_[palette_[k] & RGB_MASK];
            if (slot < 0) slot = static_cast<std::int16_t>(k);
        }
    }
    GifPixelType operator()(QRgb colour) {
        std::int16_t& slot = cache_[colour & RGB_MASK];
        if (slot < 0) slot = static_cast<std::int16_t>(nearest(colour));
        return static_cast<GifPixelType>(slot);
    }

  private:
    int nearest(QRgb colour) const {
        int best = 0;
        long bestDistance = -1;
        for (std::size_t k = 0; k < palette_.size(); ++k) {
            const long dr = qRed(colour) - qRed(palette_[k]);
            const long dg = qGreen(colour) - qGreen(palette_[k]);
            const long db = qBlue(colour) - qBlue(palette_[k]);
            // Weighted as the eye weighs the channels (green most, blue least).
            const long distance = 3 * dr * dr + 4 * dg * dg + 2 * db * db;
            if (bestDistance < 0 || distance < bestDistance) {
                bestDistance = distance;
                best = static_cast<int>(k);
            }
        }
        return best;
    }
    const std::vector<QRgb>& palette_;
    std::vector<std::int16_t> cache_;
};

// giflib's file, closed on every path out.
struct GifCloser {
    void operator()(GifFileType* gif) const {
        int error = 0;
        EGifCloseFile(gif, &error);
    }
};
using GifFile = std::unique_ptr<GifFileType, GifCloser>;

bool putLoopExtension(GifFileType* gif) {
    static const GifByteType netscape[] = "NETSCAPE2.0";
    static const GifByteType loopForever[] = {1, 0, 0};
    return EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
           EGifPutExtensionBlock(gif, 11, netscape) == GIF_OK &&
           EGifPutExtensionBlock(gif, 3, loopForever) == GIF_OK &&
           EGifPutExtensionTrailer(gif) == GIF_OK;
}

// One frame: its graphics control block (delay, transparency) and the indices in `rect`.
bool putFrame(GifFileType* gif, const QRect& rect, const std::vector<GifPixelType>& indices,
              int delay, bool transparent) {
    GraphicsControlBlock control{};
    control.DisposalMode = DISPOSE_DO_NOT;
    control.UserInputFlag = false;
    control.DelayTime = delay;
    control.TransparentColor = transparent ? kTransparent : NO_TRANSPARENT_COLOR;
    GifByteType extension[4];
    const auto length = EGifGCBToExtension(&control, extension);
    if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(length), extension) !=
            GIF_OK ||
        EGifPutImageDesc(gif, rect.x(), rect.y(), rect.width(), rect.height(), false, nullptr) !=
            GIF_OK)
        return false;
    for (int y = 0; y < rect.height(); ++y) {
        auto* row =
            const_cast<GifPixelType*>(indices.data() + static_cast<std::size_t>(y) * rect.width());
        if (EGifPutLine(gif, row, rect.width()) != GIF_OK) return false;
    }
    return true;
}

// Frame differencing on palette indices: maps frame k's changed pixels, marks those equal to
// what is on screen (`canvas`) transparent, and crops to the pixels that change. Returns the
// rectangle (1×1 and transparent when nothing changes) and fills *indices.
QRect differenceFrame(const FrameSequence& frames, int k, PaletteMap& map,
                      std::vector<GifPixelType>& canvas, std::vector<GifPixelType>* indices) {
    const int width = frames.size().width();
    const QRect rect = frames.changedRect(k);
    const QImage& pixels = frames.changedPixels(k);
    std::vector<GifPixelType> mapped(static_cast<std::size_t>(rect.width()) * rect.height());
    int left = rect.width(), right = -1, top = -1, bottom = -1;  // within rect
    for (int y = 0; y < rect.height(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(pixels.constScanLine(y));
        for (int x = 0; x < rect.width(); ++x) {
            const GifPixelType index = map(row[x]);
            auto& shown = canvas[static_cast<std::size_t>(rect.y() + y) * width + rect.x() + x];
            const bool same = k > 0 && index == shown;
            mapped[static_cast<std::size_t>(y) * rect.width() + x] =
                same ? GifPixelType(kTransparent) : index;
            shown = index;
            if (same) continue;
            left = std::min(left, x);
            right = std::max(right, x);
            if (top < 0) top = y;
            bottom = y;
        }
    }
    if (top < 0) {
        indices->assign(1, GifPixelType(kTransparent));
        return QRect(0, 0, 1, 1);
    }
    indices->clear();
    for (int y = top; y <= bottom; ++y) {
        const auto* row = mapped.data() + static_cast<std::size_t>(y) * rect.width();
        indices->insert(indices->end(), row + left, row + right + 1);
    }
    return QRect(QPoint(rect.x() + left, rect.y() + top),
                 QPoint(rect.x() + right, rect.y() + bottom));
}

bool encode(const FrameSequence& frames, GifFileType* gif, const GifTiming& timing,
            const std::atomic<bool>* cancel, const std::function<void(int)>& progress) {
    const std::vector<QRgb> palette = adaptivePalette(frames, kTransparent);
    ColorMapObject* colourMap = GifMakeMapObject(256, nullptr);
    if (!colourMap) return false;
    for (int k = 0; k < 256; ++k) {
        const QRgb c = k < static_cast<int>(palette.size()) ? palette[k] : qRgb(255, 255, 255);
        colourMap->Colors[k] =
            GifColorType{static_cast<GifByteType>(qRed(c)), static_cast<GifByteType>(qGreen(c)),
                         static_cast<GifByteType>(qBlue(c))};
    }
    EGifSetGifVersion(gif, true);
    const bool screen = EGifPutScreenDesc(gif, frames.size().width(), frames.size().height(), 8, 0,
                                          colourMap) == GIF_OK;
    GifFreeMapObject(colourMap);
    if (!screen || (timing.loop && !putLoopExtension(gif))) return false;
    PaletteMap map(palette);
    std::vector<GifPixelType> canvas(
        static_cast<std::size_t>(frames.size().width()) * frames.size().height(), 0);
    std::vector<GifPixelType> indices;
    for (int k = 0; k < frames.count(); ++k) {
        if (cancel && cancel->load()) return false;
        const QRect rect = differenceFrame(frames, k, map, canvas, &indices);
        const int delay =
            k + 1 == frames.count() ? timing.lastDelayCentiseconds : timing.delayCentiseconds;
        if (!putFrame(gif, rect, indices, delay, k > 0)) return false;
        if (progress) progress(k + 1);
    }
    return true;
}

}  // namespace

std::vector<QRgb> adaptivePalette(const FrameSequence& frames, int colours) {
    colours = std::clamp(colours, 2, 256);
    const Histogram counts = histogram(frames);
    std::vector<Entry> entries(counts.begin(), counts.end());
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    std::vector<QRgb> palette;
    std::uint64_t total = 0;
    for (const Entry& e : entries)
        total += e.second;
    std::size_t k = 0;
    const bool fits = entries.size() <= static_cast<std::size_t>(colours);
    // The flat colours exactly (all of them when they fit).
    while (k < entries.size() && (fits || (static_cast<int>(palette.size()) < colours / 2 &&
                                           entries[k].second * 2000 >= total)))
        palette.push_back(entries[k++].first);
    const auto rest = medianCut(
        std::vector<Entry>(entries.begin() + static_cast<std::ptrdiff_t>(k), entries.end()),
        colours - static_cast<int>(palette.size()));
    palette.insert(palette.end(), rest.begin(), rest.end());
    return palette;
}

bool writeGif(const FrameSequence& frames, const QString& path, const GifTiming& timing,
              const std::atomic<bool>* cancel, const std::function<void(int)>& progress,
              QString* why) {
    if (frames.count() == 0) {
        if (why) *why = path + ": no frames to write";
        return false;
    }
    AtomicOutput output(path.toStdString());
    if (output.temporaryPath().empty()) {
        if (why) *why = path + ": " + QString::fromStdString(output.error());
        return false;
    }
    int error = 0;
    GifFile gif(EGifOpenFileName(output.temporaryPath().c_str(), false, &error));
    if (!gif) {
        if (why) *why = path + ": " + GifErrorString(error);
        return false;
    }
    if (!encode(frames, gif.get(), timing, cancel, progress)) {
        if (why)
            *why = path + ": " +
                   (cancel && cancel->load()
                        ? QString("cancelled")
                        : QString("could not be written (%1)").arg(GifErrorString(gif->Error)));
        return false;  // the output's destructor removes the temporary file
    }
    const int closed = EGifCloseFile(gif.release(), &error);
    if (closed != GIF_OK) {
        if (why) *why = path + ": could not be written (" + GifErrorString(error) + ")";
        return false;
    }
    if (const auto failure = output.commit()) {
        if (why) *why = path + ": " + QString::fromStdString(*failure);
        return false;
    }
    return true;
}

}  // namespace cplab::widgets
