// The view of the MKL regularisation path (solver `mklpath`, ALGORITHMS.md §5), shown by the
// kernel family's view when a run's snapshots are path snapshots. Two tabs, each a
// QCustomPlot of two panels sharing the axis log₁₀ λ (reversed: the path runs from λ₀ on the
// left towards lambda_min on the right):
//   * "Kernel weights": ηⱼ against log₁₀ λ, one named curve per kernel (log scale: inactive
//     kernels keep the barrier's small weight 2μ/(λ dⱼ²)); below, the number of active kernels;
//   * "Errors and steps": training and held-out error against log₁₀ λ; below, the predictor's
//     step in σ = log λ and the corrector's Newton steps per point.
// Everything is drawn from the run's records (columns lambda, eta:<label>, train_error, …) as
// the path advances; the snapshot only names the kernels and the error measure.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "family_view.h"
#include "kernel/mkl_path.h"

class QCPAxisRect;
class QCPGraph;
class QCPLegend;
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
    // 0 kernel weights, 1 errors and steps.
    void showTab(int index);

  private:
    void rebuildKernelGraphs(const std::vector<std::string>& labels);
    void setTrace(std::span<const IterationRecord> records, const std::vector<std::string>& columns,
                  int runId);
    void rescale();

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
    QCPGraph* trainError_ = nullptr;
    QCPGraph* testError_ = nullptr;
    QCPGraph* sigmaStep_ = nullptr;
    QCPGraph* newtonSteps_ = nullptr;
    std::size_t shown_ = 0;
    int run_ = -1;
    std::shared_ptr<const MklPathSnapshot> snapshot_;
};

}  // namespace cplab::widgets
