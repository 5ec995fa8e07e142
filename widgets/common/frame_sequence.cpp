// SPDX-License-Identifier: GPL-3.0-or-later
// An animation's frames as changed rectangles, and PNG frames (frame_sequence.h).
#include "frame_sequence.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <cstring>
#include <memory>

#include "core/output_file.h"

namespace cplab::widgets {

namespace {

// The bounding rectangle of the pixels in which `a` and `b` (same size, RGB32) differ.
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

// The number pattern of a PNG frames path: "%d" or "%0Nd" (N a digit or two).
const QRegularExpression& numberPattern() {
    static const QRegularExpression pattern("%(0\\d{1,2})?d");
    return pattern;
}

}  // namespace

bool FrameSequence::add(const QImage& frame) {
    QImage image = frame.convertToFormat(QImage::Format_RGB32);
    image.setDevicePixelRatio(1.0);
    if (pieces_.empty()) {
        size_ = image.size();
        pieces_.push_back({QPoint(0, 0), image});
        last_ = image;
        return true;
    }
    if (image.size() != size_) return false;
    const QRect changed = differingRect(last_, image);
    pieces_.push_back({changed.topLeft(), changed.isEmpty() ? QImage() : image.copy(changed)});
    last_ = std::move(image);
    return true;
}

QRect FrameSequence::changedRect(int k) const {
    const Piece& piece = pieces_[static_cast<std::size_t>(k)];
    return piece.image.isNull() ? QRect() : QRect(piece.at, piece.image.size());
}

bool FrameSequence::replay(const std::function<bool(int, const QImage&)>& visit) const {
    QImage canvas;
    for (std::size_t k = 0; k < pieces_.size(); ++k) {
        const Piece& piece = pieces_[k];
        if (k == 0) {
            canvas = piece.image.copy();
        } else if (!piece.image.isNull()) {
            const auto rowBytes = static_cast<std::size_t>(piece.image.width()) * sizeof(QRgb);
            for (int y = 0; y < piece.image.height(); ++y) {
                auto* target = reinterpret_cast<QRgb*>(canvas.scanLine(piece.at.y() + y));
                std::memcpy(target + piece.at.x(), piece.image.constScanLine(y), rowBytes);
            }
        }
        if (!visit(static_cast<int>(k), canvas)) return false;
    }
    return true;
}

std::size_t FrameSequence::bytes() const {
    std::size_t total = 0;
    for (const Piece& piece : pieces_)
        total += static_cast<std::size_t>(piece.image.sizeInBytes());
    return total;
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

bool writePngFrames(const FrameSequence& frames, const QString& path,
                    const std::atomic<bool>* cancel, const std::function<void(int)>& progress,
                    QString* why) {
    std::vector<std::unique_ptr<AtomicOutput>> outputs;
    QString failure;
    const bool written = frames.replay([&](int k, const QImage& frame) {
        if (cancel && cancel->load()) return false;
        const QString file = framePath(path, k + 1);
        auto output = std::make_unique<AtomicOutput>(file.toStdString());
        if (output->temporaryPath().empty()) {
            failure = file + ": " + QString::fromStdString(output->error());
            return false;
        }
        if (!frame.save(QString::fromStdString(output->temporaryPath()), "PNG")) {
            failure = file + ": could not be written";
            return false;
        }
        outputs.push_back(std::move(output));
        if (progress) progress(k + 1);
        return true;
    });
    if (!written) {
        if (why) *why = failure.isEmpty() ? path + ": cancelled" : failure;
        return false;  // the outputs' destructors remove every temporary file
    }
    for (std::size_t k = 0; k < outputs.size(); ++k) {
        if (const auto error = outputs[k]->commit()) {
            if (why)
                *why = framePath(path, static_cast<int>(k) + 1) + ": " +
                       QString::fromStdString(*error);
            return false;
        }
    }
    return true;
}

}  // namespace cplab::widgets
