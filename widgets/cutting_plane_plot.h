// SPDX-License-Identifier: GPL-3.0-or-later
// The cutting-plane model view of Kelley's and the bundle method (ALGORITHMS.md §1–2).
// 1-D: f, every plane as a line, the model f_t, iterates, the model minimum; for the bundle
// method also the prox-centre and the prox objective. 2-D: heat map and contours of f, each
// plane's region of the model (its edges are the model's kink lines), the iterates' path.
// Draws snapshots only; holds no solver.
#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "nonsmooth/cutting_plane_view.h"

class QCustomPlot;
class QCPGraph;
class QCPCurve;
class QCPColorMap;
class QCPItemEllipse;

namespace cplab::widgets {

class CuttingPlanePlot : public QWidget {
    Q_OBJECT
  public:
    explicit CuttingPlanePlot(QWidget* parent = nullptr);

    void setSnapshot(std::shared_ptr<const CuttingPlaneSnapshot> snapshot);
    void clear();

    QCustomPlot* plot() const { return plot_; }
    // Lines drawn for planes: 1-D one line per plane, 2-D one kink polygon per plane that is
    // somewhere active.
    int planeLineCount() const;
    // Planes of the snapshot shown (0 without one).
    int planeCount() const;

  private:
    void setupFunction(const FunctionView& view);
    void draw1d(const CuttingPlaneSnapshot& s);
    void draw2d(const CuttingPlaneSnapshot& s);
    QCPCurve* planeCurve(std::size_t index);
    void labelPlane(QCPCurve* curve, std::size_t index, bool newest);
    void trimPlaneCurves(std::size_t count);

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
    int activePlaneCurves_ = 0;
};

}  // namespace cplab::widgets
