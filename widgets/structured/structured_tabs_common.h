// SPDX-License-Identifier: GPL-3.0-or-later
// What the structured view's tabs (structured_model_tab.h, structured_lattice_tab.h) share:
// label names on axes, axes reset for a new problem, and the shape of a label's features when they
// are an image.
#pragma once

#include <QString>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "data/sequence_format.h"
#include "qcustomplot.h"

namespace cplab::widgets {

// Labels named on the axes up to this many (beyond, numbers).
inline constexpr int kNamedLabels = 40;

inline QString labelName(const std::vector<std::string>& names, int y) {
    return y < static_cast<int>(names.size()) ? QString::fromStdString(names[y])
                                              : QString::number(y);
}

// The rows × columns of one label's emission image: Taskar's letters are 16 × 8 pixels, other
// square dimensions square images; {0, 0} when the features are not an image.
inline std::pair<int, int> imageShape(int features) {
    if (features == kOcrPixels) return {16, 8};
    const int side = static_cast<int>(std::lround(std::sqrt(static_cast<double>(features))));
    if (side >= 4 && side * side == features) return {side, side};
    return {0, 0};
}

// An axis as before any problem (after clear()): no title, numbered ticks, range 0 to 1.
inline void resetAxis(QCPAxis* axis) {
    axis->setLabel({});
    axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    axis->setRange(0, 1);
}

}  // namespace cplab::widgets
