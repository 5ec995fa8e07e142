// SPDX-License-Identifier: GPL-3.0-or-later
// The polytope family's view: Frank–Wolfe on a polygon (PolytopePlot).
#pragma once

#include <QPointer>

#include "family_view.h"

namespace cplab::widgets {

class TypedProblemControls;
class PolytopePlot;

class PolytopeView final : public FamilyView {
    Q_OBJECT
  public:
    explicit PolytopeView(QWidget* parent = nullptr);

    bool showFrame(const ViewFrame& frame) override;
    void clear() override;
    QCustomPlot* plot() const override;
    // The typed problem's fields (typed_problem_controls.h).
    QWidget* problemControls() override;
    OptionValues problemOptions() const override;
    PolytopePlot* polygonPlot() const { return plot_; }

  private:
    PolytopePlot* plot_;
    QPointer<TypedProblemControls> typed_;  // owned by the problem panel once placed
};

FamilyView* polytopeView(QWidget* parent);

}  // namespace cplab::widgets
