// SPDX-License-Identifier: GPL-3.0-or-later
// A race (ViewFrame::race) drawn into a panel of a plot: one curve per run, in the run's colour
// and marker shape and named by its label, so that the views whose story is a comparison (the
// errors of two SVM solvers, the planes of OCAS and BMRM) show every run beside the selected
// one. The selected run's curve is the thicker one, drawn on top.
#pragma once

#include <QString>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "family_view.h"
#include "qcustomplot.h"

namespace cplab::widgets {

// A run's label as a legend names it: "#2 bundle" of "#2 bundle (nu_rule=adaptive)" (the
// options are the runs table's; a plot's legend has no room for them).
QString legendLabel(const QString& label);

// A run's value at a record (NaN: no point there).
using RecordValue =
    std::function<double(const IterationRecord& record, const std::vector<std::string>& columns)>;

// The value of extra column `name` (NaN where a record has none, or a negative value: the
// solvers write −1 for "not measured", as test_error without a test set).
RecordValue columnValue(const std::string& name);

class RaceGraphs {
  public:
    // Curves on `rect` of `plot` (its left axis, or its right one), named in `legend` (may be
    // null), pens of `width` (the selected run's 1.5 times as wide) and `style`.
    RaceGraphs(QCustomPlot* plot, QCPAxisRect* rect, QCPLegend* legend, double width = 1.6,
               Qt::PenStyle style = Qt::SolidLine, bool rightAxis = false);

    // One curve per run of `race` that has a value somewhere, of `value` over the iteration;
    // `suffix` follows the run's label in the legend. A race of fewer than `minimum` runs draws
    // nothing. Returns the number of curves drawn.
    int draw(std::span<const RaceEntry> race, int selectedRunId, const RecordValue& value,
             const QString& suffix = {}, std::size_t minimum = 2);
    void clear();
    // The curves drawn (in the race's order) and their value range (false when none).
    const std::vector<QCPGraph*>& graphs() const { return shown_; }
    bool valueRange(QCPRange* range, bool positiveOnly = false) const;

  private:
    QCPGraph* graphAt(std::size_t index);

    QCustomPlot* plot_;
    QCPAxisRect* rect_;
    QCPLegend* legend_;
    double width_;
    Qt::PenStyle style_;
    bool rightAxis_;
    std::vector<QCPGraph*> pool_;   // created once, reused; hidden when not drawn
    std::vector<QCPGraph*> shown_;  // the ones drawn now
};

}  // namespace cplab::widgets
