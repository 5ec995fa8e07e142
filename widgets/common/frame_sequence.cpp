// SPDX-License-Identifier: GPL-3.0-or-later
// Animation targets, their size and folder rules, and PNG frames (frame_sequence.h).
#include "frame_sequence.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <cstring>

#include "core/memory_budget.h"
#include "core/output_file.h"

namespace cplab::widgets {

namespace {

// The number pattern of a PNG frames path: "%d" or "%0Nd" (N a digit or two).
const QRegularExpression& numberPattern() {
    static const QRegularExpression pattern("%(0\\d{1,2})?d");
    return pattern;
}

// Bytes per pixel an export holds: the grab and its image (4 + 4 per grabbed pixel); the
// frame, its fitted copy, the previous frame and its palette indices (4 + 4 + 4 + 1 per
// frame pixel); and the two palette caches (a 2-byte index per 24-bit colour each).
constexpr double kGrabBytes = 8;
constexpr double kFrameBytes = 13;
constexpr double kPaletteCacheBytes = 2.0 * 2 * (1 << 24);

}  // namespace

QRect differingRect(const QImage& a, const QImage& b) {
    int top = -1, bottom = -1, left = a.width(), right = -1;
    for (int y = 0; y < a.height(); ++y) {
        const auto* p = reinterpret_cast<const QRgb*>(a.constScanLine(y));
        const auto* q = reinterpret_cast<const QRgb*>(b.constScanLine(y));
        if (std::memcmp(p, q, static_cast<std::size_t>(a.width()) * sizeof(QRgb)) == 0) continue;
        if (top < 0) top = y;
        bottom = y;
        int x0 = 0;
        while (p[x0] == q[x0])
            ++x0;
        int x1 = a.width() - 1;
        while (p[x1] == q[x1])
            --x1;
        left = std::min(left, x0);
        right = std::max(right, x1);
    }
    if (top < 0) return {};
    return QRect(QPoint(left, top), QPoint(right, bottom));
}

bool animationTarget(const QString& path, AnimationTarget* target, QString* why) {
    if (path.endsWith(".gif", Qt::CaseInsensitive)) {
        *target = AnimationTarget::Gif;
        return true;
    }
    const bool folder = path.endsWith('/');
    const bool pattern = path.endsWith(".png", Qt::CaseInsensitive) &&
                         path.count(numberPattern()) == 1 && path.count('%') == 1;
    if (folder || pattern) {
        const QString dir = folder ? path : QFileInfo(path).path();
        if (!QFileInfo(dir).isDir()) {
            if (why) *why = path + ": the folder " + dir + " does not exist";
            return false;
        }
        *target = AnimationTarget::PngFrames;
        return true;
    }
    if (why)
        *why = path +
               ": expected an animated GIF (.gif), a folder for PNG frames (ending in '/') or a "
               "PNG pattern with one frame number such as frame-%04d.png";
    return false;
}

QString framePath(const QString& path, int index) {
    if (path.endsWith('/')) return path + QString("frame%1.png").arg(index, 4, 10, QChar('0'));
    const auto match = numberPattern().match(path);
    const int width = match.captured(1).isEmpty() ? 0 : match.captured(1).mid(1).toInt();
    QString result = path;
    return result.replace(match.capturedStart(), match.capturedLength(),
                          QString("%1").arg(index, width, 10, QChar('0')));
}

double animationBytes(QSize grabbed, QSize frame) {
    return kGrabBytes * grabbed.width() * grabbed.height() +
           kFrameBytes * frame.width() * frame.height() + kPaletteCacheBytes;
}

QString animationSizeProblem(AnimationTarget target, QSize grabbed, QSize frame) {
    const auto pixels = [](QSize s, const char* what) {
        return sizeProduct({{double(s.width()), ""}, {double(s.height()), what}});
    };
    if (frame.isEmpty())
        return QString("frames of %1 x %2 pixels: nothing to draw")
            .arg(frame.width())
            .arg(frame.height());
    if (target == AnimationTarget::Gif &&
        (frame.width() > kGifMaxSide || frame.height() > kGifMaxSide))
        return QString::fromStdString("frames of " + pixels(frame, "pixels") +
                                      ": a GIF is at most 65,535 pixels on a side (PNG frames "
                                      "or a smaller scale or window)");
    std::string product = grabbed == frame ? pixels(frame, "pixels") + " x 21 B"
                                           : pixels(grabbed, "pixels grabbed") + " x 8 B + " +
                                                 pixels(frame, "pixels framed") + " x 13 B";
    product += " + 64 MB of palette caches";
    const std::string why = memoryShortfall(animationBytes(grabbed, frame), product);
    return why.empty() ? QString() : QString::fromStdString("one frame " + why);
}

QString foreignFrames(const QString& path, int count) {
    const bool folder = path.endsWith('/');
    const QFileInfo info(path);
    const QString dir = folder ? path : info.path();
    const QString name = folder ? QString("frame%04d.png") : info.fileName();
    const auto match = numberPattern().match(name);
    if (!match.hasMatch()) return {};  // the number is in a folder's name: one file per folder
    const QRegularExpression ours(
        "^" + QRegularExpression::escape(name.left(match.capturedStart())) + "(\\d+)" +
        QRegularExpression::escape(name.mid(match.capturedEnd())) + "$");
    // framePath(path, k) writes k in at least `width` digits, zero-padded: a file of the
    // pattern is one the export replaces when its digits are exactly that text of some k in
    // 1 … count. Read off its digits, so each name is judged once (it was compared with all
    // count names: 20,000 files and frames took 400 million comparisons).
    const int width = match.captured(1).isEmpty() ? 0 : match.captured(1).mid(1).toInt();
    const auto replaced = [&](const QString& digits) {
        if (digits.size() > 10) return false;  // beyond any int count
        const long long k = digits.toLongLong();
        return k >= 1 && k <= count && digits == QString("%1").arg(k, width, 10, QChar('0'));
    };
    QStringList foreign;
    const QStringList names = QDir(dir).entryList(
        QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
    for (const QString& file : names) {
        const auto found = ours.match(file);
        if (found.hasMatch() && !replaced(found.captured(1))) foreign << file;
    }
    if (foreign.isEmpty()) return {};
    const QString shown =
        foreign.size() <= 3 ? foreign.join(", ") : foreign.first() + " ... " + foreign.last();
    return QString(
               "%1: the folder holds %2 frame file(s) of this pattern that these %3 frames "
               "would not replace (%4): the sequence would mix with them; remove them or "
               "choose another folder")
        .arg(path)
        .arg(foreign.size())
        .arg(count)
        .arg(shown);
}

struct PngFrameWriter::Pending {
    explicit Pending(const QString& file) : target(file), output(file.toStdString()) {}
    QString target;
    AtomicOutput output;
};

PngFrameWriter::PngFrameWriter(QString path, int count) : path_(std::move(path)), count_(count) {}

// The pending outputs' destructors remove every temporary file not renamed into place.
PngFrameWriter::~PngFrameWriter() = default;

bool PngFrameWriter::add(const QImage& frame, QString* why) {
    const QString file = framePath(path_, static_cast<int>(written_.size()) + 1);
    if (frame.isNull()) {
        if (why) *why = file + ": the frame could not be drawn (out of memory?)";
        return false;
    }
    auto pending = std::make_unique<Pending>(file);
    if (pending->output.temporaryPath().empty()) {
        if (why) *why = file + ": " + QString::fromStdString(pending->output.error());
        return false;
    }
    if (!frame.save(QString::fromStdString(pending->output.temporaryPath()), "PNG")) {
        if (why) *why = file + ": could not be written";
        return false;
    }
    written_.push_back(std::move(pending));
    return true;
}

bool PngFrameWriter::finish(QString* why) {
    if (static_cast<int>(written_.size()) != count_) {
        if (why)
            *why =
                QString("%1: %2 of %3 frames written").arg(path_).arg(written_.size()).arg(count_);
        return false;
    }
    // Files of the pattern may have appeared while the frames were drawn.
    if (const QString foreign = foreignFrames(path_, count_); !foreign.isEmpty()) {
        if (why) *why = foreign;
        return false;
    }
    for (const auto& pending : written_) {
        if (const auto error = pending->output.commit()) {
            if (why) *why = pending->target + ": " + QString::fromStdString(*error);
            return false;
        }
    }
    return true;
}

}  // namespace cplab::widgets
