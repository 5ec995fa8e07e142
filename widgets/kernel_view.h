// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel family's view (svm, libsvm, silp, simplemkl; ALGORITHMS.md §4): three tabs, each
// one QCustomPlot, so that every panel stays readable in the main window's centre (about
// 480 × 400 pixels at 1280 × 800):
//   * "Decision function": for 2-D data the decision function f as a colour map (the snapshot's
//   DecisionGrid)
//     with f = 0 and the margins f = ±1, the training points by class and the support vectors,
//     free (0 < α < C) and bound (α = C) marked differently; for other data αᵢ per example;
//   * "Kernel weights": the model of D(β) over the simplex: K = 2 every plane as a line over β₁ ∈
//   [0, 1], their
//     maximum, D at the iterates and the LP minimiser; K = 3 the triangle of weights
//     (barycentric) as a heat map of the model max_i Σₖ βₖ Sₖ(αᵢ) with the iterates and the
//     LP minimiser; on request ("Evaluate D(β) on a grid") the true D from fresh SVM solves
//     on a worker thread (the snapshot's KernelSetup, never the run's solver), drawn over it;
//     and beside it the weights βₖ per iteration, one line per kernel (with many kernels only
//     the largest few are named and coloured);
//   * "Convergence": the dual objective and the maximal KKT violation (log scale) per
//     iteration, and below SVM calls and SMO iterations per outer step.
// File › Export saves the tab shown. A regularisation path (`mklpath`) is drawn by its own view
// (mkl_path_view.h), which this view shows in place of its tabs for path snapshots.
// The status line reads the training and test errors and the support vectors. The dataset's
// test split is the family's problem control.
#pragma once

#include <QFutureWatcher>
#include <QPointer>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "family_view.h"
#include "kernel/kernel_solver.h"
#include "test_split_controls.h"

class QCPAxisRect;
class QCPColorMap;
class QCPColorScale;
class QCPCurve;
class QCPGraph;
class QCPItemText;
class QCPLegend;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QTabWidget;

namespace cplab::widgets {

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

    // For tests and scripts: the evaluation of D on a grid (the button's action), whether it
    // runs, and the points and values of the last finished one for the shown run (β, D(β)).
    void evaluateObjectiveGrid();
    bool evaluating() const;
    const std::vector<Eigen::VectorXd>& evaluatedPoints() const { return evaluatedPoints_; }
    const std::vector<double>& evaluatedValues() const { return evaluatedValues_; }
    // Drawn items, for tests: support vectors marked free / bound, contour segments of f = 0,
    // planes drawn in the model panel, kernels named in the weights' legend.
    int freeSupportVectorCount() const;
    int boundSupportVectorCount() const;
    int zeroContourSegments() const { return zeroSegments_; }
    int modelPlaneCount() const { return planesDrawn_; }
    int namedKernelCount() const;
    // The tabs, for tests and scripts: 0 decision function, 1 kernel weights, 2 convergence.
    void showTab(int index);
    // The view of mklpath runs (shown instead of the tabs for their snapshots).
    MklPathView* pathView() const { return pathView_; }

  signals:
    // The grid evaluation ended (finished, cancelled or failed; `message` says which).
    void objectiveGridEvaluated(bool ok, const QString& message);

  private:
    struct Job;

    void setupTrainingData(const KernelSnapshot& s);
    void drawDecision(const KernelSnapshot& s);
    void drawAlphas(const KernelSnapshot& s);
    void drawModel(const KernelSnapshot& s);
    void drawModelLine(const KernelSnapshot& s);
    void drawModelTriangle(const KernelSnapshot& s);
    void hideModel(const QString& note);
    void drawWeightBars(const KernelSnapshot& s);
    void setTrace(std::span<const IterationRecord> records, const std::vector<std::string>& columns,
                  int runId);
    void rebuildWeightGraphs(const std::vector<std::string>& labels);
    void styleWeightGraphs();
    void updateEvaluateControls();
    void onEvaluationFinished();
    void fixAspect();
    void scheduleReplots();

    // The tabs, or the path view for mklpath runs.
    QStackedWidget* stack_;
    MklPathView* pathView_;
    // Tabs and their plots.
    QTabWidget* tabs_;
    QCustomPlot* decisionPlot_;
    QCustomPlot* weightsPlot_;
    QCustomPlot* progressPlot_;
    class CoalescedReplot* decisionReplot_ = nullptr;
    class CoalescedReplot* weightsReplot_ = nullptr;
    class CoalescedReplot* progressReplot_ = nullptr;
    QCPAxisRect* mapRect_ = nullptr;
    QCPAxisRect* modelRect_ = nullptr;
    QCPAxisRect* betaRect_ = nullptr;
    QCPAxisRect* dualRect_ = nullptr;
    QCPAxisRect* callsRect_ = nullptr;
    QCPLegend* mapLegend_ = nullptr;
    QCPLegend* modelLegend_ = nullptr;
    QCPLegend* betaLegend_ = nullptr;
    // Decision panel.
    QCPColorMap* decisionMap_ = nullptr;
    QCPCurve* zeroContour_ = nullptr;
    QCPCurve* marginContours_ = nullptr;
    QCPGraph* positives_ = nullptr;
    QCPGraph* negatives_ = nullptr;
    QCPGraph* freeSvs_ = nullptr;
    QCPGraph* boundSvs_ = nullptr;
    QCPGraph* alphaPositive_ = nullptr;  // αᵢ per example when the data are not 2-D
    QCPGraph* alphaNegative_ = nullptr;
    QCPGraph* alphaBound_ = nullptr;  // the line α = C
    QCPItemText* mapNote_ = nullptr;
    // Model panel.
    QCPColorMap* modelMap_ = nullptr;
    QCPColorScale* modelScale_ = nullptr;  // inset under the triangle
    QCPCurve* planesCurve_ = nullptr;
    QCPCurve* newestPlane_ = nullptr;
    QCPGraph* modelMax_ = nullptr;
    QCPGraph* evaluatedCurve_ = nullptr;
    QCPCurve* iteratePath_ = nullptr;
    QCPGraph* iterateValues_ = nullptr;
    QCPGraph* lpMinimiser_ = nullptr;
    QCPCurve* triangle_ = nullptr;
    QCPItemText* vertexLabels_[3] = {nullptr, nullptr, nullptr};
    QCPItemText* modelNote_ = nullptr;
    // More than three kernels: the current weights as bars, the largest in their line colours.
    std::vector<QCPGraph*> weightBars_;  // one per coloured kernel, then the grey rest
    QCPGraph* otherBars_ = nullptr;
    bool triangleShown_ = false;
    int planesDrawn_ = 0;
    // Trace panels.
    std::vector<QCPGraph*> weightGraphs_;
    std::vector<std::string> weightLabels_;
    QCPGraph* dualObjective_ = nullptr;
    QCPGraph* kktViolation_ = nullptr;
    QCPGraph* smoPerStep_ = nullptr;
    QCPGraph* callsPerStep_ = nullptr;
    std::size_t traceShown_ = 0;
    int traceRun_ = -1;
    double lastSvmCalls_ = 0.0;
    double lastSmoIterations_ = 0.0;

    std::shared_ptr<const KernelSnapshot> snapshot_;
    std::shared_ptr<const Dataset> train_;  // the training set drawn (the setup's)
    bool twoD_ = false;
    int zeroSegments_ = 0;

    // Evaluation of D on a grid.
    QPushButton* evaluateButton_;
    QPushButton* cancelButton_;
    QProgressBar* progress_;
    QLabel* evaluateNote_;
    QFutureWatcher<void>* watcher_ = nullptr;
    std::shared_ptr<Job> job_;
    std::shared_ptr<const KernelSetup> evaluatedSetup_;
    std::vector<Eigen::VectorXd> evaluatedPoints_;
    std::vector<double> evaluatedValues_;
    int evaluatedDivisions_ = 0;  // lattice step 1/n of the triangle (K = 3)
    bool notePossible_ = true;    // the note is not the "no grid for this run" text

    // Problem controls.
    // The test split (problem controls): ours until a window takes it into its problem panel.
    QPointer<TestSplitControls> splitControls_;
};

FamilyView* kernelView(QWidget* parent);

}  // namespace cplab::widgets
