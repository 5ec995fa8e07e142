// SPDX-License-Identifier: GPL-3.0-or-later
// The nonsmooth family's view: the cutting-plane model of Kelley's and the bundle method
// (CuttingPlanePlot).
#pragma once

#include "family_view.h"

namespace cplab::widgets {

class CuttingPlanePlot;

class NonsmoothView final : public FamilyView {
    Q_OBJECT
  public:
    explicit NonsmoothView(QWidget* parent = nullptr);

    bool showFrame(const ViewFrame& frame) override;
    void clear() override;
    QCustomPlot* plot() const override;
    CuttingPlanePlot* modelPlot() const { return plot_; }

  private:
    CuttingPlanePlot* plot_;
};

FamilyView* nonsmoothView(QWidget* parent);

}  // namespace cplab::widgets
