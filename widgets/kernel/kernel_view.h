// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel family's view (svm, libsvm, silp, simplemkl; ALGORITHMS.md §4): three tabs, each
// one QCustomPlot, so that every panel stays readable in the main window's centre (about
// 480 × 400 pixels at 1280 × 800):
//   * "Decision function" (kernel_decision_tab.h): f as a colour map with f = 0, the margins
//     and the support vectors (2-D data), else αᵢ per example;
//   * "Kernel weights" (kernel_weights_tab.h): the model of D(β) over the simplex, on request
//     the true D from fresh SVM solves on a grid, and the weights βₖ per iteration;
//   * "Convergence" (kernel_progress_tab.h): the dual objective and the maximal KKT violation
//     per iteration, SVM calls and SMO iterations per outer step.
// File › Export saves the tab shown. A regularisation path (`mklpath`) is drawn by its own view
// (mkl_path_view.h), which this view shows in place of its tabs for path snapshots.
// The status line reads the training and test errors and the support vectors. The dataset's
// test split is the family's problem control.
// The view solves nothing itself: "Evaluate D(β) on a grid" emits objectiveGridRequested, and
// whoever serves it (the run controller's job, wired by app/gui/family_views.h) reports back
// through setObjectiveGridProgress and finishObjectiveGrid.
#pragma once

#include <QPointer>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "family_view.h"
#include "holdout_controls.h"
#include "kernel/kernel_snapshot.h"
#include "objective_grid.h"

class QStackedWidget;
class QTabWidget;

namespace cplab::widgets {

class KernelDecisionTab;
class KernelProgressTab;
class KernelWeightsTab;
class MklPathView;

class KernelView final : public FamilyView {
    Q_OBJECT
  public:
    explicit KernelView(QWidget* parent = nullptr);
    ~KernelView() override;

    bool showFrame(const ViewFrame& frame) override;
    void clear() override;
    QCustomPlot* plot() const override;
    QString statusText(const ViewFrame& frame) const override;
    QWidget* problemControls() override { return splitControls_; }
    OptionValues problemOptions() const override;
    bool setTestSplit(double testFraction, int seed) override;
    // The path view's tabs while it is shown, else the kernel view's own.
    bool showPage(int index) override;

    // For tests and scripts: the evaluation of D on a grid (the button's action: it runs until
    // finishObjectiveGrid reports its end), whether it runs, and the points and values of the
    // last finished one for the shown run (β, D(β)).
    void evaluateObjectiveGrid();
    bool evaluating() const;
    const std::vector<Eigen::VectorXd>& evaluatedPoints() const;
    const std::vector<double>& evaluatedValues() const;
    // Drawn items, for tests: support vectors marked free / bound, contour segments of f = 0,
    // planes drawn in the model panel, kernels named in the weights' legend.
    int freeSupportVectorCount() const;
    int boundSupportVectorCount() const;
    int zeroContourSegments() const;
    int modelPlaneCount() const;
    int namedKernelCount() const;
    // The tabs, for tests and scripts: 0 decision function, 1 kernel weights, 2 convergence.
    // The kernel weights are hidden for a run of one kernel (nothing to weigh).
    void showTab(int index);
    bool weightsTabShown() const;
    KernelProgressTab* progressTab() const { return progressTab_; }
    KernelWeightsTab* weightsTab() const { return weightsTab_; }
    // The view of mklpath runs (shown instead of the tabs for their snapshots).
    MklPathView* pathView() const { return pathView_; }

    // What the server of objectiveGridRequested reports: solves done so far, and the end.
    void setObjectiveGridProgress(int runId, int done);
    void finishObjectiveGrid(const cplab::widgets::ObjectiveGridResult& result);

  signals:
    // The button asks for D(β) at `request.points`, or to cancel the evaluation of run `runId`.
    void objectiveGridRequested(const cplab::widgets::ObjectiveGridRequest& request);
    void objectiveGridCancelRequested(int runId);
    // The grid evaluation ended (finished, cancelled or failed; `message` says which).
    void objectiveGridEvaluated(bool ok, const QString& message);

  private:
    void setTrace(std::span<const IterationRecord> records, const std::vector<std::string>& columns,
                  int runId);
    void scheduleReplots();

    // The tabs, or the path view for mklpath runs.
    QStackedWidget* stack_;
    MklPathView* pathView_;
    QTabWidget* tabs_;
    KernelDecisionTab* decisionTab_;
    KernelWeightsTab* weightsTab_;
    KernelProgressTab* progressTab_;

    std::shared_ptr<const KernelSnapshot> snapshot_;
    std::size_t traceShown_ = 0;
    int traceRun_ = -1;

    // The test split (problem controls): ours until a window takes it into its problem panel.
    QPointer<HoldoutControls> splitControls_;
};

FamilyView* kernelView(QWidget* parent);

}  // namespace cplab::widgets
