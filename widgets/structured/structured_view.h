// SPDX-License-Identifier: GPL-3.0-or-later
// The structured family's view (structural SVMs on a chain model; ALGORITHMS.md §6): five tabs,
// each one QCustomPlot, one class each:
//   * "Model" (structured_model_tab.h): the weights w, emission templates and transitions;
//   * "Gap and errors" (structured_trace_tab.h): bounds, duality gap, errors and the solver's
//     own measure against passes, for every run of the race;
//   * "Viterbi lattice" (structured_lattice_tab.h): one word's lattice with the true, decoded
//     and loss-augmented labellings;
//   * "Word gaps" (structured_gaps_tab.h, BCFW): gapᵢ of every training word;
//   * "Kernel groups" (structured_groups_tab.h, online MKL): the group weights and the last
//     proximal step; hidden while the selected run has no kernel groups.
// The status line reads P, D, the gap and the errors.
#pragma once

#include "family_view.h"
#include "structured/structured_snapshot.h"
#include "structured_model_tab.h"

class QTabWidget;

namespace cplab::widgets {

class StructuredGapsTab;
class StructuredGroupsTab;
class StructuredLatticeTab;
class StructuredTraceTab;

class StructuredView final : public FamilyView {
    Q_OBJECT
  public:
    explicit StructuredView(QWidget* parent = nullptr);

    bool showFrame(const ViewFrame& frame) override;
    void clear() override;
    QCustomPlot* plot() const override;
    QString statusText(const ViewFrame& frame) const override;
    bool showPage(int index) override;

    // For tests: how the emission weights are drawn, the drawn value of one emission weight
    // (label y, feature j) and of one transition (a → b), NaN where nothing is drawn, and the
    // points of the trace's curves.
    using Layout = StructuredModelTab::Layout;
    Layout layout() const;
    double emissionCell(int label, int feature) const;
    double transitionCell(int from, int to) const;
    int tileTitleCount() const;
    int primalPointCount() const;
    int gapPointCount() const;
    int testErrorPointCount() const;
    int testWordErrorPointCount() const;
    // The trace tab's runs (the race's, in its order): their number, colour, and the points of
    // their gap and test-error curves; the number of graphs it holds.
    int traceRunCount() const;
    QColor traceRunColour(int k) const;
    int traceRunGapPoints(int k) const;
    int traceRunTestErrorPoints(int k) const;
    int traceGraphCount() const;
    // Whether the "Kernel groups" tab is shown (only for a run with kernel groups).
    bool groupsTabShown() const;
    // The bottom panel's curve `curve` (0: constraints, planes or mean step; 1: active planes),
    // its value at point `index` (NaN where there is none).
    double ownValue(int curve, int index) const;
    // The lattice tab: the word shown (0-based among the snapshot's lattices), the drawn score
    // of cell (position t, label y), and the label the curve `path` (0 truth, 1 decoded, 2
    // loss-augmented) passes at position t (−1 where there is none).
    void setLatticeWord(int index);
    double latticeCell(int t, int label) const;
    int latticePathLabel(int path, int t) const;
    // The word-gap tab: the drawn gapᵢ of training word i (NaN where none is drawn).
    double wordGapCell(int i) const;
    // The kernel-group tab: the β curves, the drawn β of group g at point `index`, the drawn
    // bar of group g before (after = false) or after the proximal step, and the threshold line
    // (NaN where nothing is drawn).
    int groupCurveCount() const;
    double groupWeight(int group, int index) const;
    double proxBar(bool after, int group) const;
    double drawnThreshold() const;

  private:
    void scheduleReplots();
    void showGroupsTab(bool shown);

    QTabWidget* tabs_;
    StructuredModelTab* modelTab_;
    StructuredTraceTab* traceTab_;
    StructuredLatticeTab* latticeTab_;
    StructuredGapsTab* gapsTab_;
    StructuredGroupsTab* groupsTab_;
};

FamilyView* structuredView(QWidget* parent);

}  // namespace cplab::widgets
