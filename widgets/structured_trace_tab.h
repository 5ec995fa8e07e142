// SPDX-License-Identifier: GPL-3.0-or-later
// The structured view's "Gap and errors" tab (structured_view.h): against passes over the
// training words, the primal P(w) and the dual D(α) (top), the duality gap P − D on a log scale
// (methods without a dual have none), the letter error on the training and test words and the
// test word error, and the solver's own measure (bottom): n-slack's working-set size Σᵢ|Wᵢ|,
// 1-slack's planes and active planes, else the mean step γ of the pass (BCFW, FW, SSG).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/iteration_record.h"
#include "qcustomplot.h"

namespace cplab::widgets {

class CoalescedReplot;

class StructuredTraceTab final : public QCustomPlot {
    Q_OBJECT
  public:
    explicit StructuredTraceTab(QWidget* parent = nullptr);

    void clear();
    // Draws the records of run `runId` (another run, or fewer records, starts over).
    void setTrace(std::span<const IterationRecord> records, const std::vector<std::string>& columns,
                  int runId);
    CoalescedReplot* replots() const { return replots_; }

    // For tests: see StructuredView.
    int primalPointCount() const { return primal_->dataCount(); }
    int gapPointCount() const { return gap_->dataCount(); }
    int testErrorPointCount() const { return testError_->dataCount(); }
    int testWordErrorPointCount() const { return testWordError_->dataCount(); }
    double ownValue(int curve, int index) const;

  private:
    enum class OwnMeasure { None, WorkingSets, Planes, MeanStep };
    void createPanels();
    void createGraphs();
    // The own measure's columns in `columns` (−1 where there is none), and its kind set.
    void chooseOwnMeasure(const std::vector<std::string>& columns, int own[2]);
    void setOwnMeasure(OwnMeasure measure);
    void updateLegend();
    void rescale();
    std::vector<QCPGraph*> graphs() const;

    CoalescedReplot* replots_;
    QCPAxisRect* boundsRect_ = nullptr;
    QCPAxisRect* gapRect_ = nullptr;
    QCPAxisRect* errorRect_ = nullptr;
    QCPAxisRect* ownRect_ = nullptr;
    QCPGraph* primal_ = nullptr;
    QCPGraph* dual_ = nullptr;
    QCPGraph* gap_ = nullptr;
    QCPGraph* trainError_ = nullptr;
    QCPGraph* testError_ = nullptr;
    QCPGraph* testWordError_ = nullptr;
    QCPGraph* own_[2] = {nullptr, nullptr};
    QCPItemText* ownNote_ = nullptr;
    OwnMeasure ownMeasure_ = OwnMeasure::MeanStep;  // differs from the first one set
    QCPLegend* errorLegend_ = nullptr;
    int run_ = -1;
    std::size_t shown_ = 0;
};

}  // namespace cplab::widgets
