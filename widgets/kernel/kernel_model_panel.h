// SPDX-License-Identifier: GPL-3.0-or-later
// The left panel of the kernel view's "Kernel weights" tab (kernel_weights_tab.h): the model of
// D(β) over the simplex. K = 2: every plane as a line over β₁ ∈ [0, 1], their maximum, D at
// the iterates and the LP minimiser; K = 3: the triangle of weights (barycentric) as a heat map
// of the model max_i Σₖ βₖ Sₖ(αᵢ) with the iterates and the LP minimiser; where D(β) was
// evaluated on a grid for the snapshot's setup, the true D drawn over it (K = 2) or in its place
// (K = 3). More than three kernels: the current weights as bars, the largest in their colours.
// In a race of runs on the same kernels, every run's iterates (K = 3: its path over the
// triangle; K = 2: D at its iterates) in the run's colour and named by its label.
#pragma once

#include <span>
#include <vector>

#include "family_view.h"
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
    void draw(const KernelSnapshot& s, const ObjectiveGridValues* grid,
              std::span<const RaceEntry> race = {}, int selectedRunId = 0);
    // For tests: the colours of the runs drawn as a race, in its order (empty without one).
    const std::vector<QColor>& raceColours() const { return raceColours_; }
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
    void drawRace(const KernelSnapshot& s, std::span<const RaceEntry> race, int selectedRunId);
    QCPCurve* raceCurve(std::size_t slot);
    void hideRace();

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
    std::vector<QCPCurve*> raceCurves_;  // the race's other runs
    std::vector<QColor> raceColours_;
    bool triangleShown_ = false;
    int planesDrawn_ = 0;
};

}  // namespace cplab::widgets
