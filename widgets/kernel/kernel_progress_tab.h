// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel view's "Convergence" tab (kernel_view.h): the dual objective and the maximal KKT
// violation (log scale) per iteration, below SVM calls and SMO iterations per outer step, and
// at the bottom the training and test error. In a race the dual objective and the errors of
// every run are drawn in the run's colour (the KKT violation and the calls are the selected
// run's).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/iteration_record.h"
#include "family_view.h"
#include "qcustomplot.h"

namespace cplab::widgets {

class CoalescedReplot;
class RaceGraphs;

class KernelProgressTab final : public QCustomPlot {
    Q_OBJECT
  public:
    explicit KernelProgressTab(QWidget* parent = nullptr);
    ~KernelProgressTab() override;

    void clear();
    // Draws the records from `from` on (0: starts over).
    void appendRecords(std::span<const IterationRecord> trace,
                       const std::vector<std::string>& columns, std::size_t from);
    // Every run of `race` (the selected one is `selectedRunId`): the dual objective of each
    // when there are two or more, the errors of each (of the one run alone).
    void drawRace(std::span<const RaceEntry> race, int selectedRunId);
    CoalescedReplot* replots() const { return replots_; }
    // For tests: the dual-objective curves of the race and the error curves drawn.
    const RaceGraphs& raceObjectives() const { return *raceDual_; }
    const RaceGraphs& raceTrainErrors() const { return *raceTrain_; }

  private:
    void rescale(double lastIteration);
    void createErrorPanel(QCPMarginGroup* margins);

    CoalescedReplot* replots_;
    QCPAxisRect* dualRect_ = nullptr;
    QCPAxisRect* callsRect_ = nullptr;
    QCPAxisRect* errorRect_ = nullptr;
    QCPLegend* dualLegend_ = nullptr;
    std::unique_ptr<RaceGraphs> raceDual_;
    std::unique_ptr<RaceGraphs> raceTrain_;
    std::unique_ptr<RaceGraphs> raceTest_;
    QCPGraph* dualObjective_ = nullptr;
    QCPGraph* kktViolation_ = nullptr;
    QCPGraph* smoPerStep_ = nullptr;
    QCPGraph* callsPerStep_ = nullptr;
    double lastIteration_ = 1.0;  // of the selected run's records and the race's
    double lastSvmCalls_ = 0.0;
    double lastSmoIterations_ = 0.0;
};

}  // namespace cplab::widgets
