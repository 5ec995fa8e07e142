// SPDX-License-Identifier: GPL-3.0-or-later
// The race view: upper and lower bounds (top, linear) and the gap (bottom, log scale) of
// every run of one problem against iteration, solver seconds, oracle calls, passes over the
// data, or the path parameter (and its logarithm) of path-following runs. The bounds carry
// the names the problem's family gives them. Each run has its colour and marker shape
// (runColor, runMarker of id - 1); a legend column right of the panels names the line styles
// and the runs. Records are appended as they arrive; the widget replots from one coalescing
// timer. A marker shows the timeline's position. Wheel and drag zoom and pan; a double click
// returns to the data's range and to following it.
#pragma once

#include <QColor>
#include <QFontMetrics>
#include <QString>
#include <QWidget>
#include <limits>
#include <map>
#include <vector>

#include "core/iteration_record.h"

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;
class QCPLayoutGrid;
class QCPRange;
class QCPItemStraightLine;
class QTimer;

namespace cplab::widgets {

enum class XAxisKind { Iteration, Seconds, OracleCalls, Passes, PathParameter, LogPathParameter };
// "iteration", "solver seconds", "oracle calls", "passes over the data", "path parameter",
// "log10 path parameter".
QString axisLabel(XAxisKind kind);
// The record's position on that axis (NaN when it has none, e.g. no path parameter).
double axisKey(XAxisKind kind, const IterationRecord& record);

// The head of a bound's name, the text before " (": "upper bound U (slmc: …)" → "upper bound U".
QString boundNameHead(const QString& name);
// A run label fitted to `width` px: the options in parentheses are dropped from the end, never
// the run's number and solver: "#3 oneslack (lambda=0.01, max_iterations=20)" →
// "#3 oneslack (lambda=0.01, …)" → "#3 oneslack (…)".
QString elideRunLabel(const QString& label, const QFontMetrics& metrics, int width);

class BoundsPlot : public QWidget {
    Q_OBJECT
  public:
    explicit BoundsPlot(QWidget* parent = nullptr);

    // Adds (or resets) run `id` with its legend label and colour; its marker shape is
    // runMarker(id - 1).
    void addRun(int id, const QString& label, const QColor& color);
    void removeRun(int id);
    // A new legend label for run `id` (a followed trace that ended).
    void setRunLabel(int id, const QString& label);
    // Run `id`'s label in full (the legend may show it elided); empty when there is none.
    QString runLabel(int id) const;
    void clear();
    // The axes as before any run (x and bounds 0 to 1, gap 1e-3 to 1), following the data
    // again after a zoom: a new problem's plot keeps nothing of the previous one's ranges.
    void resetAxes();
    void appendRecords(int id, const std::vector<IterationRecord>& records);
    // A horizontal reference line in the bounds panel (the known optimum), or none.
    void setReference(double value, const QString& label);
    void clearReference();
    void setXAxis(XAxisKind kind);
    XAxisKind xAxis() const { return xAxis_; }
    // The family's names of the bounds ("dual bound U", "E(best labeling)"). A name too long
    // for a legend column is shown there by its head (the text before " ("), in full in the
    // plot's tooltip; run labels too long for a column are elided.
    void setBoundLabels(const QString& upper, const QString& lower);
    // The full names of the line styles ("upper bound U (solid); lower bound L (dashed)").
    QString boundLabels() const;
    // The family's names in full.
    const QString& upperLabel() const { return upperLabel_; }
    const QString& lowerLabel() const { return lowerLabel_; }
    // A vertical marker at `key` on the x axis (the timeline's position), or none (NaN).
    void setMarker(double key);
    double marker() const { return marker_; }
    // Draws the runs only up to the marker (an animation's frames tell the race as it went;
    // the axes keep the whole race's range, so frames do not jump). Off: the whole race.
    void setCutAtMarker(bool on);

    QCustomPlot* plot() const { return plot_; }
    int pointCount(int id) const;
    // The points of run `id` that carry its marker (at most ~12 per curve, spread evenly over
    // the x axis's range).
    int markerCount(int id) const;
    // Whether the axes follow the data (false after a zoom or pan, until a double click).
    bool autoScaling() const { return autoScale_; }
    // Room for the two panels and the legend column: the main window gives the plot at
    // least a third of the centre column.
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    // Replots now instead of on the timer (step mode, tests).
    void replotNow();

  protected:
    void resizeEvent(QResizeEvent* event) override;
    // The full label of the legend entry under the mouse as its tooltip.
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    struct RunGraphs {
        QString label;  // in full; the legend may show it elided
        QCPGraph* upper = nullptr;
        QCPGraph* lower = nullptr;
        QCPGraph* gap = nullptr;
        QCPGraph* marks[3] = {nullptr, nullptr, nullptr};  // markers on upper, lower, gap
        QCPGraph* key = nullptr;  // the legend entry: line and marker, no data
        int slot = 0;             // 0, 1, 2 … in order of adding: spreads the markers' phases
        std::vector<IterationRecord> records;  // kept to re-key when the x axis changes
    };
    // Constructor steps: the panels and the legend column; the legend's look; zoom, pan,
    // double click and tooltips.
    void buildLayout();
    void styleLegend();
    void connectInteractions();
    double key(const IterationRecord& r) const;
    void rebuild(RunGraphs& run);
    void addToGraphs(RunGraphs& run, const std::vector<IterationRecord>& records);
    void scheduleReplot();
    void beforeReplot();
    void rescale();
    // Puts each run's markers at records nearest to evenly spaced positions on the x axis.
    void placeRunMarkers();
    void placeRunMarkers(RunGraphs& run, const QCPRange& range);
    // The legend's entries in order: line-style keys, the known optimum, the runs.
    void orderLegend();
    // The full text behind the legend entry at `pos` (empty if none).
    QString legendTextAt(const QPoint& pos) const;
    void placeMarker();
    // Sets the legend's texts to fit a column of the legend at the current width (no replot).
    void fitLegend();

    QCustomPlot* plot_;
    QCPAxisRect* boundsRect_;
    QCPAxisRect* gapRect_;
    QCPLayoutGrid* side_;  // the legend column right of the panels
    QCPGraph* reference_ = nullptr;
    QCPGraph* upperKey_ = nullptr;  // legend keys of the line styles (no data)
    QCPGraph* lowerKey_ = nullptr;
    QString upperLabel_, lowerLabel_;  // the family's names in full
    double referenceValue_ = 0.0;
    QString referenceLabel_;
    std::map<int, RunGraphs> runs_;
    QCPItemStraightLine* markerLines_[2] = {nullptr, nullptr};
    double marker_ = std::numeric_limits<double>::quiet_NaN();
    bool cutAtMarker_ = false;
    XAxisKind xAxis_ = XAxisKind::Iteration;
    bool autoScale_ = true;
    class CoalescedReplot* replot_ = nullptr;
};

}  // namespace cplab::widgets
