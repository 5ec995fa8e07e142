// SPDX-License-Identifier: GPL-3.0-or-later
#include "race_graphs.h"

#include <cmath>
#include <limits>

#include "bounds_plot.h"
#include "plot_style.h"

namespace cplab::widgets {

namespace {

// Markers along a curve: about this many, so that many iterations do not bury the line.
constexpr int kRaceMarkersPerCurve = 12;

}  // namespace

QString legendLabel(const QString& label) {
    return boundNameHead(label);  // the text before " (": the run's number and solver
}

RecordValue columnValue(const std::string& name) {
    return [name](const IterationRecord& record, const std::vector<std::string>& columns) {
        const double v = extraAt(record, columnOf(columns, name));
        return v >= 0 ? v : kNaN;
    };
}

RaceGraphs::RaceGraphs(QCustomPlot* plot, QCPAxisRect* rect, QCPLegend* legend, double width,
                       Qt::PenStyle style, bool rightAxis)
    : plot_(plot),
      rect_(rect),
      legend_(legend),
      width_(width),
      style_(style),
      rightAxis_(rightAxis) {}

QCPGraph* RaceGraphs::graphAt(std::size_t index) {
    while (pool_.size() <= index) {
        QCPGraph* g = addLineGraph(plot_, rect_, {}, pen(Qt::black), rightAxis_);
        g->removeFromLegend();
        pool_.push_back(g);
    }
    return pool_[index];
}

int RaceGraphs::draw(std::span<const RaceEntry> race, int selectedRunId, const RecordValue& value,
                     const QString& suffix, std::size_t minimum) {
    clear();
    if (race.size() < minimum) return 0;
    QCPGraph* selected = nullptr;
    for (const RaceEntry& entry : race) {
        QVector<double> keys, values;
        bool any = false;
        for (const IterationRecord& r : entry.records) {
            const double v = value(r, entry.columns);
            keys.append(r.iteration);
            values.append(v);
            any = any || std::isfinite(v);
        }
        if (!any) continue;
        QCPGraph* g = graphAt(shown_.size());
        const bool isSelected = entry.runId == selectedRunId;
        g->setData(keys, values, true);
        g->setPen(pen(entry.colour, isSelected ? 1.5 * width_ : width_, style_));
        g->setScatterStyle(
            markerStyle(runMarker(entry.marker), entry.colour, Qt::white, isSelected ? 6 : 5, 1.2));
        g->setScatterSkip(std::max(0, static_cast<int>(keys.size()) / kRaceMarkersPerCurve - 1));
        const QString name = legendLabel(entry.label);
        g->setName(suffix.isEmpty() ? name : name + " " + suffix);
        g->setVisible(true);
        if (legend_) g->addToLegend(legend_);
        if (isSelected) selected = g;
        shown_.push_back(g);
    }
    if (selected) selected->setLayer(selected->layer());  // last on its layer: drawn on top
    return static_cast<int>(shown_.size());
}

void RaceGraphs::clear() {
    for (QCPGraph* g : pool_) {
        g->data()->clear();
        g->setVisible(false);
        if (legend_) g->removeFromLegend(legend_);
    }
    shown_.clear();
}

bool RaceGraphs::valueRange(QCPRange* range, bool positiveOnly) const {
    bool any = false;
    for (QCPGraph* g : shown_) {
        bool found = false;
        const QCPRange r = g->getValueRange(found, positiveOnly ? QCP::sdPositive : QCP::sdBoth);
        if (!found) continue;
        *range =
            any ? QCPRange(std::min(range->lower, r.lower), std::max(range->upper, r.upper)) : r;
        any = true;
    }
    return any;
}

}  // namespace cplab::widgets
