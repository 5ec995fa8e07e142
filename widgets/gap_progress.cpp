// SPDX-License-Identifier: GPL-3.0-or-later
#include "gap_progress.h"

#include <algorithm>
#include <cmath>

namespace cplab::widgets {

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
    epsilon_ = epsilon;
    initial_ = 0.0;
    fraction_ = 0.0;
    setValue(0);
    setFormat(QString("gap -> tolerance %1").arg(epsilon_, 0, 'g', 3));
}

void GapProgress::setGap(double gap) {
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
    fraction_ = start > 0 && end > 0 && value > 0 && start != end
                    ? std::clamp(std::log(value / start) / std::log(end / start), 0.0, 1.0)
                    : 0.0;
    setValue(static_cast<int>(std::lround(1000 * fraction_)));
    setFormat(QString("path %1 -> %2  (%3%)")
                  .arg(value, 0, 'e', 2)
                  .arg(end, 0, 'e', 2)
                  .arg(static_cast<int>(100 * fraction_)));
}

}  // namespace cplab::widgets
