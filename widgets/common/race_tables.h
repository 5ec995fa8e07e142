// SPDX-License-Identifier: GPL-3.0-or-later
// The race as data for papers: every run's records on the bounds plot's x axis as one CSV
// table (one row per x value, per run an upper, lower and gap column, empty where a run has
// no value there), and as a standalone pgfplots document that draws the bounds plot (bounds
// on a linear axis above, the gap on a log axis below, a legend of the run labels). Also any
// table of the window (the runs table) as CSV.
#pragma once

#include <QColor>
#include <QString>
#include <functional>
#include <string>
#include <vector>

#include "bounds_plot.h"
#include "core/iteration_record.h"

class QTableWidget;

namespace cplab::widgets {

// One run of the race as the bounds plot holds it.
struct RaceSeries {
    QString label;  // "#1 kelley"
    QColor colour;
    std::vector<IterationRecord> records;
};

// The names of the bounds plot's axes and bounds, as BoundsPlot shows them.
struct RaceAxes {
    XAxisKind x = XAxisKind::Iteration;
    QString upper = "upper bound U";
    QString lower = "lower bound L";
};

// A field of a CSV line, quoted as RFC 4180 says when it holds a comma, quote or line break.
std::string csvField(const std::string& text);

// The CSV table: a header "<x axis>,<label> upper,<label> lower,<label> gap,…", then one row
// per distinct x value of any run (ascending); a run's cell holds its last record at that x
// (round-trip precision), empty where the run has none or the value is not finite.
std::string raceCsv(const std::vector<RaceSeries>& runs, const RaceAxes& axes);

// The points of run `run`'s `bound` (0 upper, 1 lower, 2 gap) that the pgfplots document
// draws: finite values in record order, a zero gap on the plot's floor 1e-16.
std::vector<std::pair<double, double>> racePoints(const RaceSeries& run, XAxisKind x, int bound);

// The pgfplots document (\documentclass{standalone}): two axes, one \addplot table per run and
// bound (upper solid, lower dashed above; the gap below, ymode=log), in the runs' colours,
// the legend naming the runs (TeX special characters escaped, Greek letters as math).
std::string racePgfplots(const std::vector<RaceSeries>& runs, const RaceAxes& axes);

// `text` with TeX's special characters escaped and common non-ASCII symbols (Greek letters,
// ≤ ≥ − · …) written as TeX, others replaced by '?': safe in pdflatex's default encoding.
std::string texEscape(const QString& text);

// A table widget's header and cells as CSV; hidden columns are left out. A cell's text is
// `fullText(row, column)` where that is not null (a label the table shows elided), else the
// text shown.
std::string tableCsv(const QTableWidget& table,
                     const std::function<QString(int row, int column)>& fullText = {});

}  // namespace cplab::widgets
