// SPDX-License-Identifier: GPL-3.0-or-later
// The cutting-plane model view of Kelley's and the bundle method (ALGORITHMS.md §1–2).
// 1-D: f, every plane as a line, the model f_t, iterates, the model minimum; for the bundle
// method also the prox-centre and the prox objective. 2-D: heat map and contours of f, each
// plane's region of the model (its edges are the model's kink lines), the iterates' path with
// the newest numbered. In a race (Kelley against the bundle method on one function) every run's
// iterates (2-D) or model and oracle points (1-D) are drawn in the run's colour and named by
// its label over the selected run's full picture. Draws snapshots only; holds no solver.
#pragma once

#include <QWidget>
#include <memory>
#include <span>
#include <vector>

#include "family_view.h"
#include "nonsmooth/cutting_plane_view.h"

class QCustomPlot;
class QCPGraph;
class QCPCurve;
class QCPColorMap;
class QCPItemEllipse;

namespace cplab::widgets {

class IterateLabels;

class CuttingPlanePlot : public QWidget {
    Q_OBJECT
  public:
    explicit CuttingPlanePlot(QWidget* parent = nullptr);
    ~CuttingPlanePlot() override;

    // Draws `snapshot`, the one of run `selectedRunId` of `race`; the race's other runs on the
    // same function are drawn beside it (a race of one run, or none, draws the run alone).
    void setSnapshot(std::shared_ptr<const CuttingPlaneSnapshot> snapshot,
                     std::span<const RaceEntry> race = {}, int selectedRunId = 0);
    void clear();

    QCustomPlot* plot() const { return plot_; }
    // Lines drawn for planes: 1-D one line per plane, 2-D one kink polygon per plane that is
    // somewhere active.
    int planeLineCount() const;
    // Planes of the snapshot shown (0 without one).
    int planeCount() const;
    // For tests: the runs drawn as a race (0 without one), the colour of each one's iterates
    // (2-D) or model (1-D) in the race's order, and the numbers beside the iterates.
    int raceRunCount() const;
    std::vector<QColor> raceColours() const;
    const IterateLabels& iterateLabels() const { return *labels_; }

  private:
    void placeLegend(bool beside);
    void setupFunction(const FunctionView& view);
    void setup1d(const FunctionView& view);
    void setup2d(const FunctionView& view);
    void addHeatMap(const FunctionView& view);
    void addContours(const FunctionView& view);
    void draw1d(const CuttingPlaneSnapshot& s);
    void draw2d(const CuttingPlaneSnapshot& s);
    QCPCurve* planeCurve(std::size_t index);
    void labelPlane(QCPCurve* curve, std::size_t index, bool newest);
    void trimPlaneCurves(std::size_t count);
    void drawRace(std::span<const RaceEntry> race, int selectedRunId);
    void drawRaceRun(const RaceEntry& entry, const CuttingPlaneSnapshot& s, std::size_t slot);
    void styleSelected(const RaceEntry* entry);
    void numberIterates(const CuttingPlaneSnapshot& s, const QColor& colour);
    // A plane that lies above f where f was evaluated (f is not convex): that plane and the
    // point, marked in the error colour.
    void drawPlaneAboveF(const CuttingPlaneSnapshot& s);

    QCustomPlot* plot_;
    class CoalescedReplot* replot_ = nullptr;
    std::shared_ptr<const FunctionView> function_;  // what the static layers show
    std::shared_ptr<const CuttingPlaneSnapshot> snapshot_;

    // Static layers (per function).
    QCPGraph* fGraph_ = nullptr;
    QCPColorMap* heatMap_ = nullptr;
    QCPCurve* contours_ = nullptr;
    QCPGraph* optimum_ = nullptr;
    // Per snapshot.
    std::vector<QCPCurve*> planeCurves_;
    QCPGraph* model_ = nullptr;
    QCPGraph* prox_ = nullptr;
    QCPCurve* path_ = nullptr;
    QCPGraph* iterates_ = nullptr;
    QCPGraph* candidate_ = nullptr;
    QCPCurve* gapSegment_ = nullptr;
    QCPGraph* best_ = nullptr;
    QCPGraph* center_ = nullptr;
    QCPItemEllipse* ball_ = nullptr;
    QCPCurve* aboveF_ = nullptr;       // 1-D: the plane that lies above f, down to f
    QCPCurve* aboveFPoint_ = nullptr;  // where it lies above f
    int activePlaneCurves_ = 0;
    // The race's other runs: 2-D their paths; 1-D their models and oracle points.
    std::vector<QCPCurve*> racePaths_;
    std::vector<QCPGraph*> raceModels_;
    std::vector<QCPGraph*> racePoints_;
    std::vector<QColor> raceColours_;  // every run drawn, the selected one included
    std::unique_ptr<IterateLabels> labels_;
};

}  // namespace cplab::widgets
