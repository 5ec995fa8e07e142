// SPDX-License-Identifier: GPL-3.0-or-later
#include "gap_progress.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "plot_style.h"

namespace cplab::widgets {

namespace {

constexpr int kBarWidth = 80;  // px, at most
constexpr int kBarHeight = 8;
constexpr int kSpacing = 8;
const QColor kTrough{225, 225, 225};

}  // namespace

GapProgress::GapProgress(QWidget* parent) : QProgressBar(parent) {
    setObjectName("gapProgress");
    setRange(0, 1000);
    setTextVisible(true);
    reset(1e-6);
}

double GapProgress::progress(double initialGap, double gap, double epsilon) {
    if (!(gap > epsilon) || gap <= 0) return 1.0;
    if (!(initialGap > epsilon) || !std::isfinite(initialGap) || !std::isfinite(gap)) return 0.0;
    const double total = std::log(initialGap) - std::log(std::max(epsilon, 1e-300));
    const double done = std::log(initialGap) - std::log(gap);
    return std::clamp(done / total, 0.0, 1.0);
}

void GapProgress::reset(double epsilon) {
    finished_ = false;
    epsilon_ = epsilon;
    initial_ = 0.0;
    fraction_ = 0.0;
    setValue(0);
    setFormat(QString("gap -> tolerance %1").arg(epsilon_, 0, 'g', 3));
}

void GapProgress::setGap(double gap) {
    finished_ = false;
    if (initial_ <= 0.0 && std::isfinite(gap) && gap > 0) initial_ = gap;
    fraction_ = progress(initial_, gap, epsilon_);
    setValue(static_cast<int>(std::lround(1000 * fraction_)));
    setFormat(QString("gap %1 -> tolerance %2  (%3%)")
                  .arg(gap, 0, 'e', 2)
                  .arg(epsilon_, 0, 'g', 3)
                  .arg(static_cast<int>(100 * fraction_)));
}

void GapProgress::setPath(double start, double value, double end) {
    // The same log-scale measure as the gap's: value runs from start toward end.
    finished_ = false;
    fraction_ = start > 0 && end > 0 && value > 0 && start != end
                    ? std::clamp(std::log(value / start) / std::log(end / start), 0.0, 1.0)
                    : 0.0;
    setValue(static_cast<int>(std::lround(1000 * fraction_)));
    setFormat(QString("path %1 -> %2  (%3%)")
                  .arg(value, 0, 'e', 2)
                  .arg(end, 0, 'e', 2)
                  .arg(static_cast<int>(100 * fraction_)));
}

void GapProgress::setIterations(int iteration, int maxIterations) {
    finished_ = false;
    fraction_ = maxIterations > 0 ? std::clamp(double(iteration) / maxIterations, 0.0, 1.0) : 0.0;
    setValue(static_cast<int>(std::lround(1000 * fraction_)));
    setFormat(QString("iteration %1 of %2  (%3%)")
                  .arg(iteration)
                  .arg(maxIterations)
                  .arg(static_cast<int>(100 * fraction_)));
}

void GapProgress::setFinished(const QString& text) {
    finished_ = true;
    fraction_ = 1.0;
    setValue(maximum());
    setFormat(text);
    updateGeometry();
    update();
}

QRect GapProgress::barRect() const {
    const int width = std::min(kBarWidth, std::max(24, this->width() / 3));
    return {2, (height() - kBarHeight) / 2, width, kBarHeight};
}

QRect GapProgress::textRect() const {
    const int left = barRect().right() + 1 + kSpacing;
    return {left, 0, std::max(0, width() - left - 2), height()};
}

QSize GapProgress::sizeHint() const {
    // As wide as the longest progress text, so that the status bar does not jitter as the
    // numbers change; wider for a longer text (a finished run's sentence).
    const QFontMetrics metrics(font());
    const int text = std::max(metrics.horizontalAdvance("gap 0.00e-00 -> tolerance 0.000  (100%)"),
                              metrics.horizontalAdvance(this->text()));
    return {kBarWidth + kSpacing + text + 6, std::max(metrics.height() + 4, kBarHeight + 6)};
}

QSize GapProgress::minimumSizeHint() const {
    const QFontMetrics metrics(font());
    return {kBarWidth / 2 + kSpacing + metrics.horizontalAdvance("gap 0.00e+00") + 6,
            std::max(metrics.height() + 4, kBarHeight + 6)};
}

void GapProgress::paintEvent(QPaintEvent* /*event*/) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    // The trough and the chunk: a thin rounded bar, the text never on top of it.
    const QRectF bar = barRect();
    const double radius = kBarHeight / 2.0;
    painter.setPen(Qt::NoPen);
    painter.setBrush(kTrough);
    painter.drawRoundedRect(bar, radius, radius);
    if (fraction_ > 0) {
        QPainterPath trough;
        trough.addRoundedRect(bar, radius, radius);
        painter.setClipPath(trough);
        painter.setBrush(finished_ ? colors::kBest : colors::kModel);
        painter.drawRect(QRectF(bar.left(), bar.top(), bar.width() * fraction_, bar.height()));
        painter.setClipping(false);
    }
    const QRect room = textRect();
    painter.setPen(
        palette().color(isEnabled() ? QPalette::Active : QPalette::Disabled, QPalette::WindowText));
    painter.drawText(room, Qt::AlignVCenter | Qt::AlignLeft,
                     fontMetrics().elidedText(text(), Qt::ElideRight, room.width()));
}

}  // namespace cplab::widgets
