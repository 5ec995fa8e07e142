// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel view's "Convergence" tab (kernel_view.h): the dual objective and the maximal KKT
// violation (log scale) per iteration, and below SVM calls and SMO iterations per outer step.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/iteration_record.h"
#include "qcustomplot.h"

namespace cplab::widgets {

class CoalescedReplot;

class KernelProgressTab final : public QCustomPlot {
    Q_OBJECT
  public:
    explicit KernelProgressTab(QWidget* parent = nullptr);

    void clear();
    // Draws the records from `from` on (0: starts over).
    void appendRecords(std::span<const IterationRecord> trace,
                       const std::vector<std::string>& columns, std::size_t from);
    CoalescedReplot* replots() const { return replots_; }

  private:
    void rescale(double lastIteration);

    CoalescedReplot* replots_;
    QCPAxisRect* dualRect_ = nullptr;
    QCPAxisRect* callsRect_ = nullptr;
    QCPGraph* dualObjective_ = nullptr;
    QCPGraph* kktViolation_ = nullptr;
    QCPGraph* smoPerStep_ = nullptr;
    QCPGraph* callsPerStep_ = nullptr;
    double lastSvmCalls_ = 0.0;
    double lastSmoIterations_ = 0.0;
};

}  // namespace cplab::widgets
