// SPDX-License-Identifier: GPL-3.0-or-later
// The Frank–Wolfe view (ALGORITHMS.md §9): the polygon over the contours of f, the iterates'
// path, the vertex s_t chosen by the linear oracle, the away vertex, −∇f at x_t and, for the
// away-step variant, the active-set weights of the vertices.
#pragma once

#include <QWidget>
#include <memory>
#include <span>
#include <vector>

#include "family_view.h"
#include "polytope/frank_wolfe_snapshot.h"

class QCustomPlot;
class QCPCurve;
class QCPGraph;
class QCPItemLine;
class QCPItemText;

namespace cplab::widgets {

class PolytopePlot : public QWidget {
    Q_OBJECT
  public:
    explicit PolytopePlot(QWidget* parent = nullptr);

    // Draws `snapshot` (of run `selectedRunId`); the other runs of `race` on the same problem
    // (plain Frank–Wolfe against away steps) as their iterates' paths in their colours.
    void setSnapshot(std::shared_ptr<const FrankWolfeSnapshot> snapshot,
                     std::span<const RaceEntry> race = {}, int selectedRunId = 0);
    // For tests: the colours of the runs drawn as a race, in its order (empty without one).
    const std::vector<QColor>& raceColours() const { return raceColours_; }
    void clear();
    QCustomPlot* plot() const { return plot_; }

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    void setupProblem(const PolytopeView& view);
    void addContours(const PolytopeView& view);
    void addPolytope(const PolytopeProblem& p);
    void addIterateLayers(const PolytopeView& view);
    void drawRace(std::span<const RaceEntry> race, int selectedRunId);

    QCustomPlot* plot_;
    class CoalescedReplot* replot_ = nullptr;
    std::shared_ptr<const PolytopeView> view_;
    QCPCurve* polygon_ = nullptr;
    QCPCurve* contours_ = nullptr;
    QCPCurve* path_ = nullptr;
    std::vector<QCPCurve*> racePaths_;  // the race's other runs
    std::vector<QColor> raceColours_;
    QCPGraph* current_ = nullptr;
    QCPGraph* fwVertex_ = nullptr;
    QCPGraph* awayVertex_ = nullptr;
    QCPGraph* optimum_ = nullptr;
    QCPCurve* direction_ = nullptr;
    QCPItemLine* gradientArrow_ = nullptr;
    std::vector<QCPItemText*> weightLabels_;
};

}  // namespace cplab::widgets
