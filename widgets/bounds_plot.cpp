// SPDX-License-Identifier: GPL-3.0-or-later
#include "bounds_plot.h"

#include <qcustomplot.h>

#include <QFontMetrics>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "coalesced_replot.h"
#include "plot_style.h"

namespace cplab::widgets {

namespace {

// Gaps are drawn on a log axis; an exact zero (finite termination) sits on the floor.
constexpr double kGapFloor = 1e-16;
// Columns of the legend row.
constexpr int kLegendColumns = 2;
constexpr const char* kZoomHint = "Drag or wheel to zoom; double-click to rescale automatically";

}  // namespace

QString boundNameHead(const QString& name) {
    const auto cut = name.indexOf(" (");
    return cut > 0 ? name.left(cut) : name;
}

QString axisLabel(XAxisKind kind) {
    switch (kind) {
        case XAxisKind::Iteration:
            return "iteration";
        case XAxisKind::Seconds:
            return "solver seconds";
        case XAxisKind::OracleCalls:
            return "oracle calls";
        case XAxisKind::Passes:
            return "passes over the data";
        case XAxisKind::PathParameter:
            return "path parameter";
        case XAxisKind::LogPathParameter:
            return "log10 path parameter";
    }
    return "iteration";
}

double axisKey(XAxisKind kind, const IterationRecord& r) {
    switch (kind) {
        case XAxisKind::Iteration:
            return r.iteration;
        case XAxisKind::Seconds:
            return r.seconds;
        case XAxisKind::OracleCalls:
            return static_cast<double>(r.oracleCalls);
        case XAxisKind::Passes:
            return r.passes;
        case XAxisKind::PathParameter:
            return r.pathParameter;
        case XAxisKind::LogPathParameter:
            return r.pathParameter > 0 ? std::log10(r.pathParameter) : qQNaN();
    }
    return r.iteration;
}

BoundsPlot::BoundsPlot(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
    replot_ = new CoalescedReplot(plot_, [this] {
        fitLegend();
        if (autoScale_) rescale();
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    plot_->setObjectName("boundsPlot");

    boundsRect_ = plot_->axisRect();
    gapRect_ = new QCPAxisRect(plot_);
    plot_->plotLayout()->addElement(1, 0, gapRect_);
    plot_->plotLayout()->setRowStretchFactor(0, 1.0);
    plot_->plotLayout()->setRowStretchFactor(1, 1.0);
    // Left margins aligned so both panels share the x positions.
    auto* group = new QCPMarginGroup(plot_);
    boundsRect_->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    gapRect_->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    connect(boundsRect_->axis(QCPAxis::atBottom),
            qOverload<const QCPRange&>(&QCPAxis::rangeChanged), gapRect_->axis(QCPAxis::atBottom),
            qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(gapRect_->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
            boundsRect_->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::setRange));

    QCPAxis* gapAxis = gapRect_->axis(QCPAxis::atLeft);
    useLogScale(gapAxis);
    gapAxis->setLabel("gap  U - L  (log)");
    boundsRect_->axis(QCPAxis::atLeft)->setLabel("bounds");
    upperKey_ =
        plot_->addGraph(boundsRect_->axis(QCPAxis::atBottom), boundsRect_->axis(QCPAxis::atLeft));
    upperKey_->setPen(pen(colors::kFunction, 1.8));
    lowerKey_ =
        plot_->addGraph(boundsRect_->axis(QCPAxis::atBottom), boundsRect_->axis(QCPAxis::atLeft));
    lowerKey_->setPen(pen(colors::kFunction, 1.6, Qt::DashLine));
    setBoundLabels("upper bound U", "lower bound L");
    for (int k = 0; k < 2; ++k) {
        QCPAxisRect* rect = k == 0 ? boundsRect_ : gapRect_;
        auto* line = new QCPItemStraightLine(plot_);
        line->setClipAxisRect(rect);
        line->point1->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        line->point2->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        line->setPen(pen(colors::kMarker, 1.2, Qt::DashDotLine));
        line->setVisible(false);
        markerLines_[k] = line;
    }
    setXAxis(XAxisKind::Iteration);

    applyPlotStyle(plot_);
    plot_->legend->setVisible(true);
    // The legend in a row of its own above the panels: inside either one it would cover
    // curves (U and L meet at f*, which may lie at any height; a race's gaps fan out), and a
    // race of several runs needs more than one line of entries.
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, plot_->legend);
    plot_->plotLayout()->setRowStretchFactor(0, 0.001);
    plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot_->legend->setWrap(2);
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->legend->setMargins(QMargins(4, 2, 4, 0));
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    for (QCPAxisRect* rect : {boundsRect_, gapRect_}) {
        rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
        rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    }

    // Zooming or dragging freezes the view; a double click returns to automatic scaling.
    connect(plot_, &QCustomPlot::mouseWheel, this, [this] { autoScale_ = false; });
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        if (event->buttons() != Qt::NoButton) autoScale_ = false;
    });
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] {
        autoScale_ = true;
        replotNow();
    });

    setMinimumSize(280, 180);
}

double BoundsPlot::key(const IterationRecord& r) const {
    return axisKey(xAxis_, r);
}

void BoundsPlot::setBoundLabels(const QString& upper, const QString& lower) {
    // Two legend keys name the line styles; every run's colour is a legend entry of its own.
    upperLabel_ = upper;
    lowerLabel_ = lower;
    plot_->setToolTip(tr("U: %1\nL: %2\n%3").arg(upper, lower, tr(kZoomHint)));
    fitLegend();
    scheduleReplot();
}

QString BoundsPlot::boundLabels() const {
    return upperLabel_ + " (solid); " + lowerLabel_ + " (dashed)";
}

void BoundsPlot::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitLegend();  // before the plot's own replot at its new size
}

void BoundsPlot::fitLegend() {
    QCPLegend* legend = plot_->legend;
    const QFontMetrics metrics(legend->font());
    // A column's room for text: its share of the width less the item's icon, padding and
    // margins.
    const int item = legend->iconSize().width() + legend->iconTextPadding() + 2 * 8;
    const int room = std::max(
        80,
        (width() - legend->margins().left() - legend->margins().right()) / kLegendColumns - item);
    const auto fit = [&](const QString& text) {
        return metrics.elidedText(text, Qt::ElideRight, room);
    };
    const auto boundKey = [&](const QString& name, const char* style) {
        const QString full = name + style;
        return fit(metrics.horizontalAdvance(full) <= room ? full : boundNameHead(name) + style);
    };
    upperKey_->setName(boundKey(upperLabel_, " (solid)"));
    lowerKey_->setName(boundKey(lowerLabel_, " (dashed)"));
    for (auto& [id, run] : runs_)
        run.upper->setName(fit(run.label));
}

void BoundsPlot::setMarker(double key) {
    marker_ = key;
    placeMarker();
    scheduleReplot();
}

void BoundsPlot::placeMarker() {
    for (auto* line : markerLines_) {
        line->setVisible(std::isfinite(marker_));
        if (!std::isfinite(marker_)) continue;
        line->point1->setCoords(marker_, 0.0);
        line->point2->setCoords(marker_, 1.0);
    }
}

void BoundsPlot::setXAxis(XAxisKind kind) {
    xAxis_ = kind;
    gapRect_->axis(QCPAxis::atBottom)->setLabel(axisLabel(kind));
    for (auto& [id, run] : runs_)
        rebuild(run);
    autoScale_ = true;
    scheduleReplot();
}

void BoundsPlot::addRun(int id, const QString& label, const QColor& color) {
    removeRun(id);
    RunGraphs run;
    run.label = label;
    run.upper =
        plot_->addGraph(boundsRect_->axis(QCPAxis::atBottom), boundsRect_->axis(QCPAxis::atLeft));
    run.upper->setName(label);
    run.upper->setPen(pen(color, 1.8));
    run.lower =
        plot_->addGraph(boundsRect_->axis(QCPAxis::atBottom), boundsRect_->axis(QCPAxis::atLeft));
    run.lower->setPen(pen(color, 1.6, Qt::DashLine));
    run.lower->removeFromLegend();
    run.gap = plot_->addGraph(gapRect_->axis(QCPAxis::atBottom), gapRect_->axis(QCPAxis::atLeft));
    run.gap->setPen(pen(color, 1.8));
    run.gap->removeFromLegend();
    runs_[id] = run;
    scheduleReplot();
}

void BoundsPlot::removeRun(int id) {
    const auto it = runs_.find(id);
    if (it == runs_.end()) return;
    plot_->removeGraph(it->second.upper);
    plot_->removeGraph(it->second.lower);
    plot_->removeGraph(it->second.gap);
    runs_.erase(it);
    scheduleReplot();
}

void BoundsPlot::clear() {
    while (!runs_.empty())
        removeRun(runs_.begin()->first);
    clearReference();
    replotNow();
}

void BoundsPlot::setReference(double value, const QString& label) {
    if (!reference_) {
        reference_ = plot_->addGraph(boundsRect_->axis(QCPAxis::atBottom),
                                     boundsRect_->axis(QCPAxis::atLeft));
        reference_->setPen(pen(colors::kOptimum, 1.0, Qt::DotLine));
    }
    referenceValue_ = value;
    reference_->setName(label);
    scheduleReplot();
}

void BoundsPlot::clearReference() {
    if (reference_) plot_->removeGraph(reference_);
    reference_ = nullptr;
}

void BoundsPlot::rebuild(RunGraphs& run) {
    run.upper->data()->clear();
    run.lower->data()->clear();
    run.gap->data()->clear();
    addToGraphs(run, run.records);
}

void BoundsPlot::addToGraphs(RunGraphs& run, const std::vector<IterationRecord>& records) {
    QVector<double> keys, upper, lower, gap;
    keys.reserve(static_cast<int>(records.size()));
    for (const auto& r : records) {
        // Records without a position on this axis (no path parameter) are not drawn;
        // non-finite bounds (no lower bound yet) leave a gap in the line.
        const double k = key(r);
        if (!std::isfinite(k)) continue;
        keys.append(k);
        upper.append(std::isfinite(r.upper) ? r.upper : qQNaN());
        lower.append(std::isfinite(r.lower) ? r.lower : qQNaN());
        gap.append(std::isfinite(r.gap) ? std::max(r.gap, kGapFloor) : qQNaN());
    }
    run.upper->addData(keys, upper, true);
    run.lower->addData(keys, lower, true);
    run.gap->addData(keys, gap, true);
    // A run of one iteration (LIBSVM, a converged first step) is a point, not a line.
    const bool single = run.upper->dataCount() == 1;
    for (QCPGraph* graph : {run.upper, run.lower, run.gap}) {
        graph->setScatterStyle(single ? QCPScatterStyle(QCPScatterStyle::ssDisc, 7)
                                      : QCPScatterStyle(QCPScatterStyle::ssNone));
    }
}

void BoundsPlot::appendRecords(int id, const std::vector<IterationRecord>& records) {
    const auto it = runs_.find(id);
    if (it == runs_.end() || records.empty()) return;
    addToGraphs(it->second, records);
    it->second.records.insert(it->second.records.end(), records.begin(), records.end());
    scheduleReplot();
}

int BoundsPlot::pointCount(int id) const {
    const auto it = runs_.find(id);
    return it == runs_.end() ? 0 : it->second.upper->dataCount();
}

void BoundsPlot::scheduleReplot() {
    replot_->schedule();
}

void BoundsPlot::rescale() {
    // x: everything; bounds: from the point where every run has a finite lower bound, so that
    // one early, very loose bound does not flatten the picture; gap: all finite values.
    // Counting axes start at 0; the path parameter's axis spans the keys present.
    const bool counting =
        xAxis_ != XAxisKind::PathParameter && xAxis_ != XAxisKind::LogPathParameter;
    double xMin = counting ? 0.0 : std::numeric_limits<double>::infinity();
    double xMax = counting ? 1.0 : -std::numeric_limits<double>::infinity();
    double yLow = std::numeric_limits<double>::infinity(), yHigh = -yLow;
    double gLow = std::numeric_limits<double>::infinity(), gHigh = 0.0;
    for (const auto& [id, run] : runs_) {
        const auto& rs = run.records;
        if (rs.empty()) continue;
        for (const auto& r : rs) {
            const double k = key(r);
            if (!std::isfinite(k)) continue;
            xMin = std::min(xMin, k);
            xMax = std::max(xMax, k);
        }
        // Skip the first 5 % of the records when scaling the bounds panel.
        const std::size_t skip = rs.size() / 20;
        for (std::size_t k = skip; k < rs.size(); ++k) {
            if (std::isfinite(rs[k].upper)) {
                yHigh = std::max(yHigh, rs[k].upper);
                yLow = std::min(yLow, rs[k].upper);
            }
            if (std::isfinite(rs[k].lower)) {
                yLow = std::min(yLow, rs[k].lower);
                yHigh = std::max(yHigh, rs[k].lower);
            }
        }
        for (const auto& r : rs) {
            if (std::isfinite(r.gap)) {
                gLow = std::min(gLow, std::max(r.gap, kGapFloor));
                gHigh = std::max(gHigh, std::max(r.gap, kGapFloor));
            }
        }
    }
    if (reference_ && std::isfinite(referenceValue_)) {
        yLow = std::min(yLow, referenceValue_);
        yHigh = std::max(yHigh, referenceValue_);
    }
    if (!(xMin < xMax)) {
        xMin = std::isfinite(xMin) ? xMin - 1.0 : 0.0;
        xMax = xMin + 2.0;
    }
    const double xHigh = counting ? xMax * 1.02 : xMax + 0.02 * (xMax - xMin);
    boundsRect_->axis(QCPAxis::atBottom)->setRange(xMin, xHigh);
    if (reference_) reference_->setData({xMin, xHigh}, {referenceValue_, referenceValue_});
    if (std::isfinite(yLow) && std::isfinite(yHigh)) {
        // A single value (e.g. only the known optimum before the first step) gets a range of
        // its own size, not one of 1e-12 whose ticks would all read the same number.
        const double scale = std::max({std::abs(yLow), std::abs(yHigh), 1e-3});
        const double span = yHigh - yLow;
        const double margin = span > 1e-9 * scale ? 0.08 * span : 0.5 * scale;
        boundsRect_->axis(QCPAxis::atLeft)->setRange(yLow - margin, yHigh + margin);
    }
    if (std::isfinite(gLow) && gHigh > 0) {
        // At least two decades, so that the log ticker labels powers of ten only: over less
        // than one it labels 3·10⁻³, 5·10⁻³, 7·10⁻³ … one above the other in the short panel.
        const double high = gHigh * 3.0;
        gapRect_->axis(QCPAxis::atLeft)->setRange(std::min(gLow / 3.0, high / 100.0), high);
    }
}

void BoundsPlot::replotNow() {
    replot_->now();
}

}  // namespace cplab::widgets
