// SPDX-License-Identifier: GPL-3.0-or-later
// The linear-model view (BMRM, OCAS, DCD, SGD, libocas; ALGORITHMS.md §3), one QCustomPlot
// with three panels:
//   * data (2-D binary sets only): the training points by class and the separating lines
//     ⟨w, x⟩ + b = 0 of w^b (best), w_t (reduced problem) and w^c (cutting point);
//   * the line-search slice f(k) = F(w^b + k(w_t − w^b)) of the last OCAS step, with its
//     breakpoints and the chosen k_t (other solvers: a note that they have none);
//   * training and test error of w^b and the stored / active planes per iteration; in a race
//     (OCAS against BMRM) the errors and the stored planes of every run in its colour.
#pragma once

#include <QStringList>
#include <QWidget>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/iteration_record.h"
#include "family_view.h"
#include "linear/linear_svm_snapshot.h"

class QCustomPlot;
class QCPAxisRect;
class QCPCurve;
class QCPGraph;
class QCPItemText;
class QCPLayoutGrid;
class QCPLegend;

namespace cplab::widgets {

class RaceGraphs;

class LinearModelPlot : public QWidget {
    Q_OBJECT
  public:
    explicit LinearModelPlot(QWidget* parent = nullptr);
    ~LinearModelPlot() override;

    void setSnapshot(std::shared_ptr<const LinearSvmSnapshot> snapshot);
    // The shown run's records and their extra column names (errors and planes are read from
    // the columns train_error, test_error, planes, active_planes when present). Records are
    // appended while they extend what is shown; another `runKey`, or fewer records (the
    // timeline moved back), start over.
    void setTrace(std::span<const IterationRecord> trace, const std::vector<std::string>& columns,
                  int runKey);
    // The other runs of a race beside the selected one `selectedRunId` (their records).
    void setRace(std::span<const RaceEntry> race, int selectedRunId);
    void clear();
    QCustomPlot* plot() const { return plot_; }
    // For tests: the stored planes' curves of the race (one per run; none alone).
    const RaceGraphs& racePlanes() const { return *racePlanes_; }
    // Number of separating lines drawn (0 when the data are not 2-D).
    int separatingLineCount() const;
    // The four panels side by side (a short, wide view: presenting on a 720p screen with large
    // fonts) instead of two rows of two.
    bool panelsInOneRow() const { return oneRow_; }

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    void arrangePanels(bool oneRow, bool legends);
    void createSlicePanel();
    void createTracePanels();
    void rescaleTrace();
    void fitLegendRows();
    void setupData(const Dataset& data);
    // Replots at most every 40 ms: snapshots and trace updates only mark the plot dirty.
    void scheduleReplot();
    void drawSeparator(QCPCurve* curve, const Eigen::VectorXd& w, bool bias);

    QCustomPlot* plot_;
    QCPLayoutGrid* topRow_ = nullptr;
    QCPAxisRect* dataRect_ = nullptr;
    QCPAxisRect* sliceRect_ = nullptr;
    QCPAxisRect* progressRect_ = nullptr;
    QCPAxisRect* planesRect_ = nullptr;
    bool oneRow_ = false;
    bool legendsShown_ = true;
    QCPLegend* errorLegend_ = nullptr;
    QCPLegend* sliceLegend_ = nullptr;
    QCPLegend* planesLegend_ = nullptr;
    std::unique_ptr<RaceGraphs> raceTrain_;
    std::unique_ptr<RaceGraphs> raceTest_;
    std::unique_ptr<RaceGraphs> racePlanes_;
    QCPGraph* positives_ = nullptr;
    QCPGraph* negatives_ = nullptr;
    QCPGraph* weightBars_ = nullptr;  // d ≠ 2: the components of w_b
    QCPCurve* lineBest_ = nullptr;
    QCPCurve* lineModel_ = nullptr;
    QCPCurve* lineCut_ = nullptr;
    QCPGraph* slice_ = nullptr;
    QCPGraph* breakpoints_ = nullptr;
    QCPGraph* chosen_ = nullptr;
    QCPCurve* chosenLine_ = nullptr;
    QCPItemText* sliceNote_ = nullptr;
    QCPGraph* trainError_ = nullptr;
    QCPGraph* testError_ = nullptr;
    QCPGraph* planes_ = nullptr;
    QCPGraph* activePlanes_ = nullptr;
    std::shared_ptr<const Dataset> data_;
    double box_[4] = {0, 1, 0, 1};  // x min, x max, y min, y max of the data view
    bool twoD_ = false;
    class CoalescedReplot* replot_ = nullptr;
    std::size_t traceShown_ = 0;  // records of the trace already in the graphs
    int traceRun_ = -1;
};

}  // namespace cplab::widgets
