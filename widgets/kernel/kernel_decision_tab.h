// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel view's "Decision function" tab (kernel_view.h): for 2-D data the decision
// function f as a colour map (the snapshot's DecisionGrid) with f = 0 and the margins f = ±1,
// the training points by class and the support vectors, free (0 < α < C) and bound (α = C)
// marked differently; for other data αᵢ per example.
#pragma once

#include <memory>

#include "kernel/kernel_snapshot.h"
#include "qcustomplot.h"

namespace cplab::widgets {

class CoalescedReplot;
class LegendPlacement;

class KernelDecisionTab final : public QCustomPlot {
    Q_OBJECT
  public:
    explicit KernelDecisionTab(QWidget* parent = nullptr);

    void clear();
    // Draws `s`; false (and its status message as a note) when it has no data to draw.
    bool draw(const KernelSnapshot& s);
    CoalescedReplot* replots() const { return replots_; }

    // Drawn items, for tests: support vectors marked free / bound (of `s` when the data are
    // not 2-D), contour segments of f = 0.
    int freeSupportVectorCount(const KernelSnapshot* s) const;
    int boundSupportVectorCount(const KernelSnapshot* s) const;
    int zeroContourSegments() const { return zeroSegments_; }

  private:
    void setupTrainingData(const KernelSnapshot& s);
    void setupTwoD(const Dataset& data);
    void clearData();
    void drawDecision(const KernelSnapshot& s);
    void drawAlphas(const KernelSnapshot& s);
    int countSupportVectors(const KernelSnapshot* s, bool bound) const;

    CoalescedReplot* replots_;
    QCPAxisRect* mapRect_ = nullptr;
    QCPLegend* mapLegend_ = nullptr;
    LegendPlacement* mapLegendPlacement_ = nullptr;  // below the map, or beside it when short
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

    std::shared_ptr<const Dataset> train_;  // the training set drawn (the setup's)
    bool twoD_ = false;
    int zeroSegments_ = 0;
};

}  // namespace cplab::widgets
