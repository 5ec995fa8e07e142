// SPDX-License-Identifier: GPL-3.0-or-later
// The linear family's view: the separating lines, OCAS's line-search slice, errors and planes
// (LinearModelPlot), the C-form objective in the status line, and the dataset's test split as
// the family's problem controls.
#pragma once

#include <QPointer>

#include "family_view.h"
#include "holdout_controls.h"

class QDoubleSpinBox;
class QSpinBox;

namespace cplab::widgets {

class LinearModelPlot;

class LinearView final : public FamilyView {
    Q_OBJECT
  public:
    explicit LinearView(QWidget* parent = nullptr);
    ~LinearView() override;

    bool showFrame(const ViewFrame& frame) override;
    void clear() override;
    QCustomPlot* plot() const override;
    QString statusText(const ViewFrame& frame) const override;
    QWidget* problemControls() override { return splitControls_; }
    OptionValues problemOptions() const override;
    bool setTestSplit(double testFraction, int seed) override;
    LinearModelPlot* modelPlot() const { return plot_; }

  private:
    LinearModelPlot* plot_;
    // The test split (problem controls): ours until a window takes it into its problem panel.
    QPointer<HoldoutControls> splitControls_;
};

FamilyView* linearView(QWidget* parent);

}  // namespace cplab::widgets
