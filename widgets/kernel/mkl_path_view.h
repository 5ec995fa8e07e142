// SPDX-License-Identifier: GPL-3.0-or-later
// The view of the MKL regularisation path (solver `mklpath`, ALGORITHMS.md §5), shown by the
// kernel family's view when a run's snapshots are path snapshots. Three tabs, the first two a
// QCustomPlot of two panels sharing the axis log₁₀ λ (reversed: the path runs from λ₀ on the
// left towards lambda_min on the right):
//   * "Kernel weights": ηⱼ against log₁₀ λ, one named curve per kernel (log scale: inactive
//     kernels keep the barrier's small weight 2μ/(λ dⱼ²)); below, the number of active kernels;
//   * "Errors and steps": training and held-out error against log₁₀ λ, with the number of
//     active kernels on the right axis; below, the predictor's step in σ = log λ and the
//     corrector's Newton steps per point;
//   * "Predictor at λ": a click on either of the first two tabs picks the path point nearest
//     to the clicked log₁₀ λ (marked there by a vertical line) and shows its predictor: for
//     2-D data f(x) = −Σⱼ ηⱼ Σᵢ αᵢ Kⱼ(xᵢ, x) as a colour map over the data's box with the
//     training points (classification: f = 0 drawn, colours by class); for 1-D data the
//     regression curve (or score) with the points; otherwise (or a precomputed kernel) the
//     kernel weights ηⱼ at that λ as bars (mkl_predictor_tab.h).
// The curves are drawn from the run's records (columns lambda, eta:<label>, train_error, …) as
// the path advances; the snapshot names the kernels and carries every accepted point's α and
// the picture of its predictor (made on the solver's thread, shared with the solver).
#pragma once

#include <QPoint>
#include <QPointF>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "family_view.h"
#include "kernel/mkl_path_snapshot.h"
#include "mkl_predictor_tab.h"

class QCPAxisRect;
class QCPBars;
class QCPColorMap;
class QCPColorScale;
class QCPCurve;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QCPLegend;
class QMouseEvent;
class QTabWidget;

namespace cplab::widgets {

class CoalescedReplot;

class MklPathView final : public FamilyView {
    Q_OBJECT
  public:
    explicit MklPathView(QWidget* parent = nullptr);
    ~MklPathView() override;

    bool showFrame(const ViewFrame& frame) override;
    void clear() override;
    QCustomPlot* plot() const override;
    QString statusText(const ViewFrame& frame) const override;

    // For tests: the kernels drawn (one named curve each) and the path points drawn.
    int kernelCurveCount() const { return static_cast<int>(etaGraphs_.size()); }
    int pointCount() const;
    // 0 kernel weights, 1 errors and steps, 2 predictor at the selected λ.
    void showTab(int index);
    int currentTab() const;
    int tabCount() const;

    // The click's action: the path point nearest to log₁₀ λ = `log10Lambda` (of the shown
    // snapshot's points) is selected and its predictor drawn; false when there is none.
    bool selectNearest(double log10Lambda);
    // Selects point `index` (0 = λ₀) of the shown snapshot and draws its predictor.
    bool selectPoint(int index);
    // The selection, for tests: the point (−1 none), its λ and ηⱼ, and what was drawn.
    int selectedPoint() const { return selected_; }
    double selectedLambda() const { return selectedLambda_; }
    const Eigen::VectorXd& selectedEta() const { return selectedEta_; }
    using PredictorKind = MklPredictorTab::Kind;
    PredictorKind predictorKind() const { return predictorTab_->kind(); }
    // Map: the grid (cell centres) and f at (ix, iy); Curve: the abscissae and f; Bars: η.
    int predictorGridSize() const;
    QPointF predictorGridPoint(int ix, int iy) const;
    double predictorValue(int ix, int iy) const;
    std::vector<double> barValues() const;
    // The pixel of point `index` on the kernel-weights plot (for simulated clicks).
    QPoint pointPixel(int index) const;
    QCustomPlot* weightsPlot() const { return weightsPlot_; }

  private:
    // The errors, the active kernels on the right, and below the steps, with their legends.
    void createErrorCurves(QCPLegend* errorLegend, QCPLegend* stepLegend);
    void rebuildKernelGraphs(const std::vector<std::string>& labels);
    void setTrace(std::span<const IterationRecord> records, const std::vector<std::string>& columns,
                  int runId);
    void rescale();
    void onRelease(QCustomPlot* plot, QMouseEvent* event);
    void clearPredictor(const QString& note);

    QTabWidget* tabs_;
    QCustomPlot* weightsPlot_;
    QCustomPlot* errorsPlot_;
    CoalescedReplot* weightsReplot_ = nullptr;
    CoalescedReplot* errorsReplot_ = nullptr;
    QCPAxisRect* etaRect_ = nullptr;
    QCPAxisRect* activeRect_ = nullptr;
    QCPAxisRect* errorRect_ = nullptr;
    QCPAxisRect* stepRect_ = nullptr;
    QCPLegend* etaLegend_ = nullptr;
    std::vector<QCPGraph*> etaGraphs_;
    std::vector<std::string> kernelLabels_;
    QCPGraph* active_ = nullptr;
    QCPGraph* activeOnErrors_ = nullptr;  // the same count on the errors tab (right axis)
    QCPGraph* trainError_ = nullptr;
    QCPGraph* testError_ = nullptr;
    QCPGraph* sigmaStep_ = nullptr;
    QCPGraph* newtonSteps_ = nullptr;
    std::size_t shown_ = 0;
    int run_ = -1;
    std::shared_ptr<const MklPathSnapshot> snapshot_;
    // λ and ηⱼ of every path point shown: λ₀ from the snapshot, then one per record.
    std::vector<double> pointLambdas_;
    std::vector<Eigen::VectorXd> pointEtas_;
    // Points that can be selected: those with a record and an α in the snapshot.
    int selectablePoints() const;

    MklPredictorTab* predictorTab_;
    QCPItemStraightLine* etaMarker_ = nullptr;
    QCPItemStraightLine* errorMarker_ = nullptr;
    QPoint pressed_;
    int selected_ = -1;
    double selectedLambda_ = 0.0;
    Eigen::VectorXd selectedEta_;
};

}  // namespace cplab::widgets
