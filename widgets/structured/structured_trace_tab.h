// SPDX-License-Identifier: GPL-3.0-or-later
// The structured view's "Gap and errors" tab (structured_view.h): against passes over the
// training words, the primal P(w) and the dual D(α) (top), the duality gap P − D on a log scale
// (methods without a dual have none), the letter error on the test and training words and the
// test word error, and the solver's own measure (bottom): n-slack's working-set size Σᵢ|Wᵢ|,
// 1-slack's planes and active planes, else the mean step γ of the pass (BCFW, FW, SSG).
// Every run of the race is drawn in its run colour and marker (the line style tells the curves
// of one run apart); the own-measure panel shows the runs that share the selected run's
// measure. One legend row below names the runs and the line styles.
#pragma once

#include <QColor>
#include <span>
#include <string>
#include <vector>

#include "core/iteration_record.h"
#include "family_view.h"
#include "qcustomplot.h"

namespace cplab::widgets {

class CoalescedReplot;

class StructuredTraceTab final : public QCustomPlot {
    Q_OBJECT
  public:
    explicit StructuredTraceTab(QWidget* parent = nullptr);

    void clear();
    // Draws the records of every run of `frame`'s race (of the frame's run when the race is
    // empty). Another set of runs starts over; a run with fewer records than drawn restarts.
    void setFrame(const ViewFrame& frame);
    CoalescedReplot* replots() const { return replots_; }

    // For tests: see StructuredView; the point counts are the selected run's.
    int primalPointCount() const { return count(&RunCurves::primal); }
    int gapPointCount() const { return count(&RunCurves::gap); }
    int testErrorPointCount() const { return count(&RunCurves::test); }
    int testWordErrorPointCount() const { return count(&RunCurves::testWord); }
    double ownValue(int curve, int index) const;
    // The runs drawn, in the race's order: their number, colour, and gap and test-error points.
    int runCount() const { return static_cast<int>(runs_.size()); }
    QColor runColour(int k) const;
    int runGapPoints(int k) const;
    int runTestErrorPoints(int k) const;
    // The number of graphs of the plot (the runs' curves and the legend's line styles).
    int graphTotal() const { return graphCount(); }

  private:
    enum class OwnMeasure { None, WorkingSets, Planes, MeanStep };
    // The curves of one run, all in its colour.
    struct RunCurves {
        int runId = -1;
        std::size_t shown = 0;
        OwnMeasure measure = OwnMeasure::None;
        QCPGraph* primal = nullptr;
        QCPGraph* dual = nullptr;
        QCPGraph* gap = nullptr;
        QCPGraph* train = nullptr;
        QCPGraph* test = nullptr;
        QCPGraph* testWord = nullptr;
        QCPGraph* own[2] = {nullptr, nullptr};
        std::vector<QCPGraph*> all() const;
    };
    void createPanels();
    void createStyleKeys();
    void restart(const std::vector<RaceEntry>& race);
    RunCurves addRun(const RaceEntry& entry, const QString& name);
    void append(RunCurves& run, const RaceEntry& entry);
    // The own measure of a run with `columns` and its columns (−1 where there is none).
    static OwnMeasure ownMeasureOf(const std::vector<std::string>& columns, int own[2]);
    void setOwnMeasure(OwnMeasure measure);
    void updateLegend();
    void rescale();
    std::vector<QCPGraph*> panelGraphs(QCPGraph* RunCurves::*curve) const;
    int count(QCPGraph* RunCurves::*curve) const;

    CoalescedReplot* replots_;
    QCPAxisRect* boundsRect_ = nullptr;
    QCPAxisRect* gapRect_ = nullptr;
    QCPAxisRect* errorRect_ = nullptr;
    QCPAxisRect* ownRect_ = nullptr;
    std::vector<RunCurves> runs_;
    std::vector<int> raceIds_;
    int selected_ = -1;  // index in runs_ of the frame's run
    // Legend keys of the line styles (no data): solid, dashed, dotted.
    QCPGraph* styleKeys_[3] = {nullptr, nullptr, nullptr};
    QCPItemText* ownNote_ = nullptr;
    OwnMeasure ownMeasure_ = OwnMeasure::MeanStep;  // differs from the first one set
    QCPLegend* legend_ = nullptr;
};

}  // namespace cplab::widgets
