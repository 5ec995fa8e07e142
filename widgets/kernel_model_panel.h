// SPDX-License-Identifier: GPL-3.0-or-later
// The left panel of the kernel view's "Kernel weights" tab (kernel_weights_tab.h): the model of
// D(β) over the simplex. K = 2: every plane as a line over β₁ ∈ [0, 1], their maximum, D at
// the iterates and the LP minimiser; K = 3: the triangle of weights (barycentric) as a heat map
// of the model max_i Σₖ βₖ Sₖ(αᵢ) with the iterates and the LP minimiser; where D(β) was
// evaluated on a grid for the snapshot's setup, the true D drawn over it (K = 2) or in its place
// (K = 3). More than three kernels: the current weights as bars, the largest in their colours.
#pragma once

#include <vector>

#include "kernel/kernel_snapshot.h"
#include "objective_grid.h"
#include "qcustomplot.h"

namespace cplab::widgets {

class KernelModelPanel {
  public:
    // Draws into `rect` of `plot` (the tab's plot, which owns every item).
    KernelModelPanel(QCustomPlot* plot, QCPAxisRect* rect);

    // Draws `s`; `grid` is D(β) evaluated on a grid for some run (drawn only when it is for
    // s.setup), or null.
    void draw(const KernelSnapshot& s, const ObjectiveGridValues* grid);
    // Nothing drawn but `note` (may be empty).
    void hide(const QString& note);
    int planeCount() const { return planesDrawn_; }
    // The triangle keeps its shape: one unit on y as long as one on x (before each replot).
    void fixAspect();

  private:
    void createModelItems();
    void createWeightBars();
    void drawWeightBars(const KernelSnapshot& s);
    void drawLine(const KernelSnapshot& s, const ObjectiveGridValues* grid);
    void drawLinePlanes(const KernelSnapshot& s, double* lo);
    void drawTriangle(const KernelSnapshot& s, const ObjectiveGridValues* grid);
    void fillTriangleMap(const KernelSnapshot& s, const ObjectiveGridValues* grid);
    void drawTriangleMarks(const KernelSnapshot& s);
    void showAxes(bool shown);

    QCustomPlot* plot_;
    QCPAxisRect* rect_;
    QCPLegend* legend_ = nullptr;
    QCPColorMap* map_ = nullptr;
    QCPColorScale* scale_ = nullptr;  // inset under the triangle
    QCPCurve* planesCurve_ = nullptr;
    QCPCurve* newestPlane_ = nullptr;
    QCPGraph* modelMax_ = nullptr;
    QCPGraph* evaluatedCurve_ = nullptr;
    QCPCurve* iteratePath_ = nullptr;
    QCPGraph* iterateValues_ = nullptr;
    QCPGraph* lpMinimiser_ = nullptr;
    QCPCurve* triangle_ = nullptr;
    QCPItemText* vertexLabels_[3] = {nullptr, nullptr, nullptr};
    QCPItemText* note_ = nullptr;
    std::vector<QCPGraph*> weightBars_;  // one per coloured kernel, then the grey rest
    QCPGraph* otherBars_ = nullptr;
    bool triangleShown_ = false;
    int planesDrawn_ = 0;
};

}  // namespace cplab::widgets
