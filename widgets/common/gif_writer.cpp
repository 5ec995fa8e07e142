// SPDX-License-Identifier: GPL-3.0-or-later
// Animated GIFs streamed frame by frame: adaptive palettes, frame differencing, giflib's
// encoder (gif_writer.h).
#include "gif_writer.h"

#include <gif_lib.h>

#include <QImage>
#include <algorithm>
#include <array>
#include <new>

#include "core/output_file.h"

namespace cplab::widgets {

// The encoder state's types (GifStream::State holds them: a named namespace, not an anonymous
// one, since that state has external linkage).
namespace gif_detail {

// Colour → palette index: exact for the palette's colours, else the nearest (cached in a
// table of every 24-bit colour; reset() forgets only the entries it filled).
class PaletteMap {
  public:
    PaletteMap() : cache_(std::size_t{1} << 24, -1) {}
    void reset(std::vector<QRgb> palette) {
        if (touched_.size() > (std::size_t{1} << 20)) {
            std::fill(cache_.begin(), cache_.end(), std::int16_t(-1));
        } else {
            for (const QRgb key : touched_)
                cache_[key] = -1;
        }
        touched_.clear();
        palette_ = std::move(palette);
        for (std::size_t k = 0; k < palette_.size(); ++k) {
            std::int16_t& slot = cache_[palette_[k] & RGB_MASK];
            if (slot < 0) {
                slot = static_cast<std::int16_t>(k);
                touched_.push_back(palette_[k] & RGB_MASK);
            }
        }
    }
    GifPixelType operator()(QRgb colour) {
        const QRgb key = colour & RGB_MASK;
        std::int16_t& slot = cache_[key];
        if (slot < 0) {
            slot = static_cast<std::int16_t>(nearest(colour));
            touched_.push_back(key);
        }
        return static_cast<GifPixelType>(slot);
    }
    QRgb colour(GifPixelType index) const { return palette_[index]; }
    const std::vector<QRgb>& palette() const { return palette_; }

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
    std::vector<QRgb> palette_;
    std::vector<std::int16_t> cache_;
    std::vector<QRgb> touched_;
};

// giflib's file, closed on every path out.
struct GifCloser {
    void operator()(GifFileType* gif) const {
        int error = 0;
        EGifCloseFile(gif, &error);
    }
};
using GifFile = std::unique_ptr<GifFileType, GifCloser>;

}  // namespace gif_detail

using gif_detail::GifFile;
using gif_detail::PaletteMap;

namespace {

using Entry = std::pair<QRgb, std::uint64_t>;  // a colour and how many pixels have it

constexpr int kTransparent = 255;  // the palettes' last index: "unchanged" in later frames
// A changed pixel whose nearest colour of the global palette is off by more than this in a
// channel is poorly drawn by it; a frame with more than 1 in 1000 such pixels gets a local
// palette (a curve of a colour the first frame did not have).
constexpr int kPoorChannel = 32;
constexpr std::uint64_t kPoorPerMille = 1;

int channel(QRgb c, int k) {
    return k == 0 ? qRed(c) : k == 1 ? qGreen(c) : qBlue(c);
}

bool poorlyDrawn(QRgb colour, QRgb drawn) {
    return std::abs(qRed(colour) - qRed(drawn)) > kPoorChannel ||
           std::abs(qGreen(colour) - qGreen(drawn)) > kPoorChannel ||
           std::abs(qBlue(colour) - qBlue(drawn)) > kPoorChannel;
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

struct GifColourMapFree {
    void operator()(ColorMapObject* map) const { GifFreeMapObject(map); }
};
using GifColourMap = std::unique_ptr<ColorMapObject, GifColourMapFree>;

// A 256-entry colour map of `palette` (white after its colours).
GifColourMap colourMapOf(const std::vector<QRgb>& palette) {
    GifColourMap map(GifMakeMapObject(256, nullptr));
    if (!map) throw std::bad_alloc();
    for (int k = 0; k < 256; ++k) {
        const QRgb c = k < static_cast<int>(palette.size()) ? palette[static_cast<std::size_t>(k)]
                                                            : qRgb(255, 255, 255);
        map->Colors[k] =
            GifColorType{static_cast<GifByteType>(qRed(c)), static_cast<GifByteType>(qGreen(c)),
                         static_cast<GifByteType>(qBlue(c))};
    }
    return map;
}

bool putLoopExtension(GifFileType* gif) {
    static const GifByteType netscape[] = "NETSCAPE2.0";
    static const GifByteType loopForever[] = {1, 0, 0};
    return EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
           EGifPutExtensionBlock(gif, 11, netscape) == GIF_OK &&
           EGifPutExtensionBlock(gif, 3, loopForever) == GIF_OK &&
           EGifPutExtensionTrailer(gif) == GIF_OK;
}

// One frame: its graphics control block (delay, transparency), its descriptor (with a local
// colour map, or null for the global one) and the indices in `rect`.
bool putFrame(GifFileType* gif, const QRect& rect, const std::vector<GifPixelType>& indices,
              int delay, bool transparent, const ColorMapObject* local) {
    GraphicsControlBlock control{};
    control.DisposalMode = DISPOSE_DO_NOT;
    control.UserInputFlag = false;
    control.DelayTime = delay;
    control.TransparentColor = transparent ? kTransparent : NO_TRANSPARENT_COLOR;
    GifByteType extension[4];
    const auto length = EGifGCBToExtension(&control, extension);
    if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(length), extension) !=
            GIF_OK ||
        EGifPutImageDesc(gif, rect.x(), rect.y(), rect.width(), rect.height(), false, local) !=
            GIF_OK)
        return false;
    for (int y = 0; y < rect.height(); ++y) {
        auto* row =
            const_cast<GifPixelType*>(indices.data() + static_cast<std::size_t>(y) * rect.width());
        if (EGifPutLine(gif, row, rect.width()) != GIF_OK) return false;
    }
    return true;
}

// Counts the colours of the pixels of `image` in `rect` (all of them, or with `previous` only
// those that differ from it).
ColourCounts countColours(const QImage& image, const QImage* previous, const QRect& rect) {
    ColourCounts counts;
    for (int y = rect.top(); y <= rect.bottom(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        const auto* before =
            previous ? reinterpret_cast<const QRgb*>(previous->constScanLine(y)) : nullptr;
        for (int x = rect.left(); x <= rect.right(); ++x)
            if (!before || row[x] != before[x]) ++counts[row[x] & RGB_MASK];
    }
    return counts;
}

}  // namespace

std::vector<QRgb> adaptivePalette(const ColourCounts& counts, int colours) {
    colours = std::clamp(colours, 2, 256);
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

struct GifStream::State {
    explicit State(const QString& path) : output(path.toStdString()) {}
    AtomicOutput output;
    GifFile gif;
    QImage previous;  // the last frame added, in full
    PaletteMap global, local;
    std::vector<GifPixelType> indices;
};

GifStream::GifStream(QString path, int count, GifTiming timing)
    : path_(std::move(path)), count_(count), timing_(timing) {}

// The state's output removes the temporary file unless finish() committed it.
GifStream::~GifStream() = default;

bool GifStream::fail(const QString& detail, QString* why) const {
    if (why) *why = path_ + ": " + detail;
    return false;
}

bool GifStream::open(const QImage& first, QString* why) {
    if (first.width() > kGifMaxSide || first.height() > kGifMaxSide)
        return fail(QString("frames of %1 x %2 pixels: a GIF is at most %3 pixels on a side")
                        .arg(first.width())
                        .arg(first.height())
                        .arg(kGifMaxSide),
                    why);
    state_ = std::make_unique<State>(path_);
    if (state_->output.temporaryPath().empty())
        return fail(QString::fromStdString(state_->output.error()), why);
    int error = 0;
    state_->gif.reset(EGifOpenFileName(state_->output.temporaryPath().c_str(), false, &error));
    if (!state_->gif) return fail(GifErrorString(error), why);
    state_->global.reset(adaptivePalette(countColours(first, nullptr, first.rect()), kTransparent));
    const GifColourMap map = colourMapOf(state_->global.palette());
    EGifSetGifVersion(state_->gif.get(), true);
    if (EGifPutScreenDesc(state_->gif.get(), first.width(), first.height(), 8, 0, map.get()) !=
            GIF_OK ||
        (timing_.loop && !putLoopExtension(state_->gif.get())))
        return fail(QString("could not be written (%1)").arg(GifErrorString(state_->gif->Error)),
                    why);
    return true;
}

bool GifStream::add(const QImage& frame, QString* why) {
    const int k = added_ + 1;
    if (frame.isNull())
        return fail(QString("frame %1 could not be drawn (out of memory?)").arg(k), why);
    try {
        const QImage image = frame.convertToFormat(QImage::Format_RGB32);
        if (image.isNull())
            return fail(QString("frame %1 could not be converted (out of memory?)").arg(k), why);
        if (added_ == 0 && !open(image, why)) return false;
        if (image.size() != state_->previous.size() && added_ > 0)
            return fail(QString("frame %1 is %2 x %3 pixels, not the first's %4 x %5")
                            .arg(k)
                            .arg(image.width())
                            .arg(image.height())
                            .arg(state_->previous.width())
                            .arg(state_->previous.height()),
                        why);
        if (!encodeFrame(image, why)) return false;
        state_->previous = image;
        ++added_;
        return true;
    } catch (const std::bad_alloc&) {
        return fail(QString("frame %1: out of memory").arg(k), why);
    }
}

namespace {

// Whether the changed pixels of `image` in `rect` (those that differ from `previous`) are
// drawn poorly by the global palette: more than kPoorPerMille in 1000 of them off by more
// than kPoorChannel in a channel.
bool needsLocalPalette(PaletteMap& global, const QImage& image, const QImage& previous,
                       const QRect& rect) {
    std::uint64_t changed = 0, poor = 0;
    for (int y = rect.top(); y <= rect.bottom(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        const auto* before = reinterpret_cast<const QRgb*>(previous.constScanLine(y));
        for (int x = rect.left(); x <= rect.right(); ++x) {
            if (row[x] == before[x]) continue;
            ++changed;
            poor += poorlyDrawn(row[x], global.colour(global(row[x])));
        }
    }
    return poor * 1000 > changed * kPoorPerMille;
}

}  // namespace

bool GifStream::encodeFrame(const QImage& image, QString* why) {
    State& s = *state_;
    const int delay =
        added_ + 1 == count_ ? timing_.lastDelayCentiseconds : timing_.delayCentiseconds;
    const QImage* previous = added_ == 0 ? nullptr : &s.previous;
    QRect rect = previous ? differingRect(*previous, image) : image.rect();
    PaletteMap* map = &s.global;
    GifColourMap local;
    if (rect.isEmpty()) {
        s.indices.assign(1, GifPixelType(kTransparent));
        rect = QRect(0, 0, 1, 1);
    } else {
        if (previous && needsLocalPalette(s.global, image, *previous, rect)) {
            s.local.reset(adaptivePalette(countColours(image, previous, rect), kTransparent));
            local = colourMapOf(s.local.palette());
            map = &s.local;
            ++localPalettes_;
        }
        s.indices.resize(static_cast<std::size_t>(rect.width()) * rect.height());
        GifPixelType* out = s.indices.data();
        for (int y = rect.top(); y <= rect.bottom(); ++y) {
            const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
            const auto* before =
                previous ? reinterpret_cast<const QRgb*>(previous->constScanLine(y)) : nullptr;
            for (int x = rect.left(); x <= rect.right(); ++x)
                *out++ =
                    before && row[x] == before[x] ? GifPixelType(kTransparent) : (*map)(row[x]);
        }
    }
    if (!putFrame(s.gif.get(), rect, s.indices, delay, previous != nullptr, local.get()))
        return fail(QString("could not be written (%1)").arg(GifErrorString(s.gif->Error)), why);
    return true;
}

bool GifStream::finish(QString* why) {
    if (!state_ || added_ != count_)
        return fail(QString("%1 of %2 frames written").arg(added_).arg(count_), why);
    int error = 0;
    if (EGifCloseFile(state_->gif.release(), &error) != GIF_OK)
        return fail(QString("could not be written (%1)").arg(GifErrorString(error)), why);
    if (const auto failure = state_->output.commit())
        return fail(QString::fromStdString(*failure), why);
    return true;
}

}  // namespace cplab::widgets
