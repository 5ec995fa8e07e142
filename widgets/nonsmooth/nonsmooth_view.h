// SPDX-License-Identifier: GPL-3.0-or-later
// The nonsmooth family's view: the cutting-plane model of Kelley's and the bundle method
// (CuttingPlanePlot).
#pragma once

#include <QPointer>

#include "family_view.h"

namespace cplab::widgets {

class TypedProblemControls;
class CuttingPlanePlot;

class NonsmoothView final : public FamilyView {
    Q_OBJECT
  public:
    explicit NonsmoothView(QWidget* parent = nullptr);

    bool showFrame(const ViewFrame& frame) override;
    void clear() override;
    QCustomPlot* plot() const override;
    // The typed problem's fields (typed_problem_controls.h).
    QWidget* problemControls() override;
    OptionValues problemOptions() const override;
    CuttingPlanePlot* modelPlot() const { return plot_; }

  private:
    CuttingPlanePlot* plot_;
    QPointer<TypedProblemControls> typed_;  // owned by the problem panel once placed
};

FamilyView* nonsmoothView(QWidget* parent);

}  // namespace cplab::widgets
