// SPDX-License-Identifier: GPL-3.0-or-later
// The map view's "Bounds" tab (map_view.h): the dual bound U (best so far) and E of the best
// labeling per iteration, with a mark where clusters were added; below, the number of
// disagreeing nodes (and of clusters) per iteration; one legend row under both.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/iteration_record.h"
#include "qcustomplot.h"

namespace cplab::widgets {

class CoalescedReplot;

class MapBoundsTab final : public QCustomPlot {
    Q_OBJECT
  public:
    explicit MapBoundsTab(QWidget* parent = nullptr);

    void clear();
    // Draws the records of run `runId` (another run, or fewer records, starts over).
    void setTrace(std::span<const IterationRecord> records, const std::vector<std::string>& columns,
                  int runId);
    CoalescedReplot* replots() const { return replots_; }

    // Points of the bound traces (U and E), of the disagreement trace, of the cluster marks.
    int upperPointCount() const { return upper_->dataCount(); }
    int lowerPointCount() const { return lower_->dataCount(); }
    int disagreementPointCount() const { return disagreement_->dataCount(); }
    int clusterMarkCount() const { return clusterMarks_->dataCount(); }

  private:
    void showTightening(bool tightening);
    void rescale();

    CoalescedReplot* replots_;
    QCPAxisRect* boundRect_ = nullptr;
    QCPAxisRect* disagreementRect_ = nullptr;
    QCPGraph* upper_ = nullptr;
    QCPGraph* lower_ = nullptr;
    QCPGraph* clusterMarks_ = nullptr;
    QCPGraph* disagreement_ = nullptr;
    QCPGraph* clusterCount_ = nullptr;
    QCPLegend* traceLegend_ = nullptr;
    int run_ = -1;
    std::size_t shown_ = 0;
};

}  // namespace cplab::widgets
