// SPDX-License-Identifier: GPL-3.0-or-later
// The structured view's "Kernel groups" tab (structured_view.h), for online MKL: the group
// weights β_g = ‖w_g‖/Σ‖w_h‖ along the epochs, one named line per group (the paper's Figure 1,
// bottom left), and the last round's proximal step: the group norms before (b) and after (b̃)
// it as paired bars, with the threshold s of the squared-l1 or group-lasso shrinkage as a
// dashed line (its value in the axis label). Groups are drawn in dark tones, not run colours.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/iteration_record.h"
#include "qcustomplot.h"
#include "structured/structured_snapshot.h"

namespace cplab::widgets {

class CoalescedReplot;

class StructuredGroupsTab final : public QCustomPlot {
    Q_OBJECT
  public:
    explicit StructuredGroupsTab(QWidget* parent = nullptr);

    void clear();
    // Draws the β curves of run `runId`'s records and the last proximal step of `s` (or none).
    void draw(std::span<const IterationRecord> records, const std::vector<std::string>& columns,
              int runId, const StructuredSnapshot* s);
    CoalescedReplot* replots() const { return replots_; }

    // For tests: see StructuredView.
    int curveCount() const { return static_cast<int>(betaGraphs_.size()); }
    double weight(int group, int index) const;
    double proxBar(bool after, int group) const;
    double threshold() const;

  private:
    void createBetaPanel();
    void createProxPanel();
    void appendRecords(std::span<const IterationRecord> records,
                       const std::vector<std::string>& columns, int runId);
    void restart(const std::vector<std::string>& names, int runId);
    void drawProx(const StructuredSnapshot* s);
    void labelShrinkage(const QVector<double>& keys, const QVector<double>& before,
                        const QVector<double>& after);
    void removeShrinkLabels();
    void rescale();

    CoalescedReplot* replots_;
    QCPAxisRect* betaRect_ = nullptr;
    QCPAxisRect* proxRect_ = nullptr;
    QCPLegend* betaLegend_ = nullptr;
    std::vector<QCPGraph*> betaGraphs_;
    QCPGraph* activeGroups_ = nullptr;
    std::vector<std::string> groupNames_;
    int run_ = -1;
    std::size_t shown_ = 0;
    QCPBars* proxBefore_ = nullptr;
    QCPBars* proxAfter_ = nullptr;
    QCPItemStraightLine* threshold_ = nullptr;
    std::vector<QCPItemText*> shrinkLabels_;  // the shrinkage of each group, in per cent
    QCPItemText* note_ = nullptr;
};

}  // namespace cplab::widgets
