// SPDX-License-Identifier: GPL-3.0-or-later
// The hold-out controls of the families that read datasets (linear, kernel, sparse): the
// fraction of a dataset held out as test set (0: none) and the seed of the split, as the
// problem options of a TestSplit (solvers/data/test_split.h). The main window places the widget
// in its problem panel and owns it from then on.
#pragma once

#include <QWidget>

#include "core/options.h"

class QDoubleSpinBox;
class QSpinBox;

namespace cplab::widgets {

class HoldoutControls final : public QWidget {
    Q_OBJECT

  public:
    explicit HoldoutControls(QWidget* parent = nullptr);

    // {test_fraction, seed} when a fraction is set, else empty.
    OptionValues problemOptions() const;
    // Sets the fraction (clamped to the spin box's [0, 0.9]) and the seed, as a user would.
    void setSplit(double testFraction, int seed);

  private:
    QDoubleSpinBox* testFraction_;
    QSpinBox* splitSeed_;
};

}  // namespace cplab::widgets
