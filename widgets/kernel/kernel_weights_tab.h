// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel view's "Kernel weights" tab (kernel_view.h): the model of D(β) over the simplex
// (kernel_model_panel.h) and beside it the weights βₖ per iteration, one line per kernel (with
// many kernels only the largest few are named and coloured). Above them "Evaluate D(β) on a
// grid": the tab asks for fresh SVM solves at a grid of weights (objectiveGridRequested; the
// run controller's job answers, app/gui/objective_grid_job.h), shows their progress, can
// cancel them, and draws the values it gets back.
#pragma once

#include <QWidget>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/iteration_record.h"
#include "family_view.h"
#include "kernel/kernel_snapshot.h"
#include "objective_grid.h"

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;
class QCPLegend;
class QProgressBar;
class QPushButton;
class QVBoxLayout;

namespace cplab::widgets {

class CoalescedReplot;
class ElidedLabel;
class KernelModelPanel;

class KernelWeightsTab final : public QWidget {
    Q_OBJECT
  public:
    explicit KernelWeightsTab(QWidget* parent = nullptr);
    ~KernelWeightsTab() override;

    void clear();
    // Shows `s` of run `runId`: its model of D(β), or nothing when `hasData` is false (a
    // solver that rejected its input); the other runs of `race` beside it.
    void draw(std::shared_ptr<const KernelSnapshot> s, int runId, bool hasData,
              std::span<const RaceEntry> race = {});
    const KernelModelPanel& modelPanel() const { return *model_; }
    // Whether the kernels named by the beta:<label> columns are the ones drawn.
    bool drawsKernels(const std::vector<std::string>& columns) const;
    // Draws the weights of the records from `from` on (0: starts over).
    void appendRecords(std::span<const IterationRecord> trace,
                       const std::vector<std::string>& columns, std::size_t from);

    QCustomPlot* plot() const { return plot_; }
    CoalescedReplot* replots() const { return replots_; }
    int modelPlaneCount() const;
    int namedKernelCount() const;

    // D(β) on a grid: see KernelView.
    void evaluateObjectiveGrid();
    bool evaluating() const { return pending_ != nullptr; }
    const ObjectiveGridValues& evaluated() const { return evaluated_; }
    void setObjectiveGridProgress(int runId, int done);
    void finishObjectiveGrid(const ObjectiveGridResult& result);

  signals:
    void objectiveGridRequested(const cplab::widgets::ObjectiveGridRequest& request);
    void objectiveGridCancelRequested(int runId);
    void objectiveGridEvaluated(bool ok, const QString& message);

  private:
    void createEvaluateBar(QVBoxLayout* layout);
    void createWeightsPanel();
    void cancelEvaluation();
    void updateEvaluateControls();
    void rebuildWeightGraphs(const std::vector<std::string>& labels);
    void styleWeightGraphs();

    QCustomPlot* plot_;
    CoalescedReplot* replots_;
    std::unique_ptr<KernelModelPanel> model_;
    QCPAxisRect* betaRect_ = nullptr;
    QCPLegend* betaLegend_ = nullptr;
    std::vector<QCPGraph*> weightGraphs_;
    std::vector<std::string> weightLabels_;

    std::shared_ptr<const KernelSnapshot> snapshot_;
    int runId_ = -1;
    std::vector<RaceEntry> race_;  // its snapshots and styles (no records: they do not last)

    // Evaluation of D on a grid.
    QPushButton* evaluateButton_;
    QPushButton* cancelButton_;
    QProgressBar* progress_;
    ElidedLabel* evaluateNote_;  // elided: a long message must not squeeze the button
    std::unique_ptr<ObjectiveGridValues> pending_;  // asked for, values not yet back
    int pendingRun_ = -1;
    ObjectiveGridValues evaluated_;
    bool notePossible_ = true;  // the note is not the "no grid for this run" text
};

}  // namespace cplab::widgets
