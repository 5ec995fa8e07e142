// SPDX-License-Identifier: GPL-3.0-or-later
#include "bounds_plot.h"

#include <qcustomplot.h>

#include <QFontMetrics>
#include <QHelpEvent>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "coalesced_replot.h"
#include "plot_style.h"

namespace cplab::widgets {

namespace {

// Gaps are drawn on a log axis; an exact zero (finite termination) sits on the floor.
constexpr double kGapFloor = 1e-16;
// The legend column's share of the widget's width (its text is fitted to it).
constexpr double kLegendShare = 0.3;
// Markers per curve at most (and every point of a run with no more than this).
constexpr int kMarkersPerCurve = 10;
constexpr double kMarkerSize = 7.0;
constexpr const char* kZoomHint = "Drag or wheel to zoom; double-click to rescale automatically";

// The first of `labels` (longest first) whose text fits along `rect`'s height, or none: in
// short panels (150 % fonts on a 720p screen) "gap (log)" ran over the "bounds" above it.
void fitAxisLabel(QCPAxisRect* rect, std::initializer_list<const char*> labels) {
    QCPAxis* axis = rect->axis(QCPAxis::atLeft);
    const QFontMetrics metrics(axis->labelFont());
    QString shown;
    for (const char* label : labels)
        if (metrics.horizontalAdvance(QString::fromUtf8(label)) <= rect->height()) {
            shown = QString::fromUtf8(label);
            break;
        }
    if (axis->label() != shown) axis->setLabel(shown);
}

}  // namespace

QString boundNameHead(const QString& name) {
    const auto cut = name.indexOf(" (");
    return cut > 0 ? name.left(cut) : name;
}

QString elideRunLabel(const QString& label, const QFontMetrics& metrics, int width) {
    if (metrics.horizontalAdvance(label) <= width) return label;
    const auto open = label.indexOf(" (");
    if (open < 0 || !label.endsWith(')')) return label;  // nothing but the run's name
    const QString head = label.left(open);
    const QStringList options = label.mid(open + 2, label.size() - open - 3).split(", ");
    const QString ellipsis(QChar(0x2026));
    // As many options as fit, then "…".
    for (auto kept = options.size() - 1; kept > 0; --kept) {
        const QString text =
            head + " (" + QStringList(options.mid(0, kept)).join(", ") + ", " + ellipsis + ")";
        if (metrics.horizontalAdvance(text) <= width) return text;
    }
    const QString bare = head + " (" + ellipsis + ")";
    return metrics.horizontalAdvance(bare) <= width ? bare : head;
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
    replot_ = new CoalescedReplot(plot_, [this] { beforeReplot(); });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    plot_->setObjectName("boundsPlot");
    plot_->setAutoAddPlottableToLegend(false);
    buildLayout();
    QCPAxis* gapAxis = gapRect_->axis(QCPAxis::atLeft);
    useLogScale(gapAxis);
    gapAxis->setLabel("gap (log)");
    // One x axis with labels, under the gap panel; the bounds panel keeps its ticks and grid.
    boundsRect_->axis(QCPAxis::atBottom)->setTickLabels(false);
    boundsRect_->axis(QCPAxis::atLeft)->setLabel("bounds");
    useFittedTicks(boundsRect_->axis(QCPAxis::atLeft));
    for (QCPAxisRect* rect : {boundsRect_, gapRect_})
        useFittedTicks(rect->axis(QCPAxis::atBottom));
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
    styleLegend();
    connectInteractions();
    setMinimumSize(280, 180);
}

void BoundsPlot::buildLayout() {
    // The panels one above the other in column 0, the legend in column 1 at the top: beside
    // the curves, never over them (U and L meet at f*, at any height; a race's gaps fan out),
    // and without a row of its own taking height from the short panels.
    boundsRect_ = plot_->axisRect();
    gapRect_ = new QCPAxisRect(plot_);
    QCPLayoutGrid* top = plot_->plotLayout();
    auto* panels = new QCPLayoutGrid;
    top->take(boundsRect_);
    top->addElement(0, 0, panels);
    panels->addElement(0, 0, boundsRect_);
    panels->addElement(1, 0, gapRect_);
    panels->setRowSpacing(0);
    side_ = new QCPLayoutGrid;
    top->addElement(0, 1, side_);
    top->setColumnStretchFactor(0, 1.0);
    top->setColumnStretchFactor(1, 0.001);
    top->setColumnSpacing(0);
    side_->addElement(0, 0, plot_->legend);
    side_->addElement(1, 0, new QCPLayoutElement(plot_));  // the room below the legend
    side_->setRowStretchFactor(0, 0.001);
    side_->setRowStretchFactor(1, 1.0);
    // Left margins aligned so both panels share the x positions.
    auto* group = new QCPMarginGroup(plot_);
    boundsRect_->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    gapRect_->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    connect(boundsRect_->axis(QCPAxis::atBottom),
            qOverload<const QCPRange&>(&QCPAxis::rangeChanged), gapRect_->axis(QCPAxis::atBottom),
            qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(gapRect_->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
            boundsRect_->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::setRange));
}

void BoundsPlot::styleLegend() {
    QCPLegend* legend = plot_->legend;
    legend->setVisible(true);
    QFont legendFont = legend->font();
    legendFont.setPointSize(8);
    legend->setFont(legendFont);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setMargins(QMargins(6, 6, 4, 2));
    legend->setRowSpacing(1);
    legend->setIconSize(26, 12);
    orderLegend();
}

void BoundsPlot::connectInteractions() {
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    for (QCPAxisRect* rect : {boundsRect_, gapRect_}) {
        rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
        rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    }
    plot_->installEventFilter(this);

    // Zooming or dragging freezes the view; a double click returns to automatic scaling.
    connect(plot_, &QCustomPlot::mouseWheel, this, [this] { autoScale_ = false; });
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        if (event->buttons() != Qt::NoButton) autoScale_ = false;
    });
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] {
        autoScale_ = true;
        replotNow();
    });
}

QSize BoundsPlot::sizeHint() const {
    return {640, 330};
}

QSize BoundsPlot::minimumSizeHint() const {
    return {280, 180};
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
    fitLegend();       // before the plot's own replot at its new size
    scheduleReplot();  // ticks fitted to the panels' new heights
}

void BoundsPlot::fitLegend() {
    QCPLegend* legend = plot_->legend;
    const QFontMetrics metrics(legend->font());
    // The column's room for text: its share of the width less the item's icon and padding.
    const int item = legend->iconSize().width() + legend->iconTextPadding() + 2 * 8;
    const int room = std::max(90, static_cast<int>(kLegendShare * width()) - item);
    // The name and its line style, else the name's head and style, else the head alone (the
    // icon shows the style), elided only if even that is too wide.
    const auto boundKey = [&](const QString& name, const char* style) {
        const QString head = boundNameHead(name);
        for (const QString& text : {name + style, head + style})
            if (metrics.horizontalAdvance(text) <= room) return text;
        return metrics.elidedText(head, Qt::ElideRight, room);
    };
    upperKey_->setName(boundKey(upperLabel_, " (solid)"));
    lowerKey_->setName(boundKey(lowerLabel_, " (dashed)"));
    if (reference_) reference_->setName(boundKey(referenceLabel_, " (dotted)"));
    for (auto& [id, run] : runs_)
        run.key->setName(elideRunLabel(run.label, metrics, room));
}

void BoundsPlot::orderLegend() {
    QCPLegend* legend = plot_->legend;
    legend->clearItems();
    upperKey_->addToLegend(legend);
    lowerKey_->addToLegend(legend);
    if (reference_) reference_->addToLegend(legend);
    for (auto& [id, run] : runs_)
        run.key->addToLegend(legend);
}

QString BoundsPlot::legendTextAt(const QPoint& pos) const {
    QCPLegend* legend = plot_->legend;
    for (int k = 0; k < legend->itemCount(); ++k) {
        auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(k));
        if (!item || !item->outerRect().contains(pos)) continue;
        if (item->plottable() == upperKey_) return upperLabel_ + " (solid)";
        if (item->plottable() == lowerKey_) return lowerLabel_ + " (dashed)";
        if (item->plottable() == reference_) return referenceLabel_ + " (dotted)";
        for (const auto& [id, run] : runs_)
            if (item->plottable() == run.key) return run.label;
        return item->plottable()->name();
    }
    return {};
}

bool BoundsPlot::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const QString text = legendTextAt(help->pos());
        if (!text.isEmpty()) {
            QToolTip::showText(help->globalPos(), text, plot_);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void BoundsPlot::setMarker(double key) {
    const bool moved = key != marker_;
    marker_ = key;
    placeMarker();
    if (cutAtMarker_ && moved) {
        for (auto& [id, run] : runs_)
            rebuild(run);
    }
    scheduleReplot();
}

void BoundsPlot::setCutAtMarker(bool on) {
    if (on == cutAtMarker_) return;
    cutAtMarker_ = on;
    for (auto& [id, run] : runs_)
        rebuild(run);
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
    int slot = 0;
    while (std::any_of(runs_.begin(), runs_.end(),
                       [&](const auto& r) { return r.second.slot == slot; }))
        ++slot;
    run.slot = slot;
    QCPAxis* x = boundsRect_->axis(QCPAxis::atBottom);
    QCPAxis* bounds = boundsRect_->axis(QCPAxis::atLeft);
    QCPAxis* gap = gapRect_->axis(QCPAxis::atLeft);
    run.upper = plot_->addGraph(x, bounds);
    run.upper->setPen(pen(color, 1.8));
    run.lower = plot_->addGraph(x, bounds);
    run.lower->setPen(pen(color, 1.6, Qt::DashLine));
    run.gap = plot_->addGraph(gapRect_->axis(QCPAxis::atBottom), gap);
    run.gap->setPen(pen(color, 1.8));
    const QCPScatterStyle marker = runMarkerStyle(id - 1, color, kMarkerSize);
    for (int k = 0; k < 3; ++k) {
        run.marks[k] =
            plot_->addGraph(k < 2 ? x : gapRect_->axis(QCPAxis::atBottom), k < 2 ? bounds : gap);
        run.marks[k]->setLineStyle(QCPGraph::lsNone);
        run.marks[k]->setScatterStyle(marker);
    }
    run.key = plot_->addGraph(x, bounds);
    run.key->setPen(pen(color, 1.8));
    run.key->setScatterStyle(marker);
    runs_[id] = run;
    orderLegend();
    fitLegend();
    scheduleReplot();
}

void BoundsPlot::removeRun(int id) {
    const auto it = runs_.find(id);
    if (it == runs_.end()) return;
    RunGraphs& run = it->second;
    for (QCPGraph* graph :
         {run.upper, run.lower, run.gap, run.marks[0], run.marks[1], run.marks[2], run.key})
        plot_->removeGraph(graph);
    runs_.erase(it);
    scheduleReplot();
}

void BoundsPlot::setRunLabel(int id, const QString& label) {
    const auto it = runs_.find(id);
    if (it == runs_.end() || it->second.label == label) return;
    it->second.label = label;
    fitLegend();
    scheduleReplot();
}

QString BoundsPlot::runLabel(int id) const {
    const auto it = runs_.find(id);
    return it == runs_.end() ? QString() : it->second.label;
}

void BoundsPlot::clear() {
    while (!runs_.empty())
        removeRun(runs_.begin()->first);
    clearReference();
    replotNow();
}

void BoundsPlot::resetAxes() {
    autoScale_ = true;
    boundsRect_->axis(QCPAxis::atBottom)->setRange(0.0, 1.0);
    boundsRect_->axis(QCPAxis::atLeft)->setRange(0.0, 1.0);
    gapRect_->axis(QCPAxis::atLeft)->setRange(1e-3, 1.0);
    replotNow();
}

void BoundsPlot::setReference(double value, const QString& label) {
    if (!reference_) {
        reference_ = plot_->addGraph(boundsRect_->axis(QCPAxis::atBottom),
                                     boundsRect_->axis(QCPAxis::atLeft));
        reference_->setPen(pen(colors::kOptimum, 1.2, Qt::DotLine));
        orderLegend();
    }
    referenceValue_ = value;
    referenceLabel_ = label;
    fitLegend();
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
        if (!std::isfinite(k) || (cutAtMarker_ && std::isfinite(marker_) && k > marker_)) continue;
        keys.append(k);
        upper.append(std::isfinite(r.upper) ? r.upper : qQNaN());
        lower.append(std::isfinite(r.lower) ? r.lower : qQNaN());
        gap.append(std::isfinite(r.gap) ? std::max(r.gap, kGapFloor) : qQNaN());
    }
    run.upper->addData(keys, upper, true);
    run.lower->addData(keys, lower, true);
    run.gap->addData(keys, gap, true);
    // The markers follow on the next replot (a run of one iteration is its marker alone).
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

void BoundsPlot::beforeReplot() {
    fitLegend();
    fitAxisLabel(boundsRect_, {"bounds"});
    fitAxisLabel(gapRect_, {"gap (log)", "gap"});
    if (autoScale_) rescale();
    placeRunMarkers();
}

void BoundsPlot::placeRunMarkers() {
    const QCPRange range = boundsRect_->axis(QCPAxis::atBottom)->range();
    for (auto& [id, run] : runs_)
        placeRunMarkers(run, range);
}

void BoundsPlot::placeRunMarkers(RunGraphs& run, const QCPRange& range) {
    // The records on this axis inside the range, by key.
    std::vector<std::pair<double, const IterationRecord*>> shown;
    const bool cut = cutAtMarker_ && std::isfinite(marker_);
    for (const auto& r : run.records) {
        const double k = key(r);
        if (std::isfinite(k) && range.contains(k) && !(cut && k > marker_))
            shown.emplace_back(k, &r);
    }
    std::sort(shown.begin(), shown.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<const IterationRecord*> marked;
    if (static_cast<int>(shown.size()) <= kMarkersPerCurve) {
        for (const auto& [k, r] : shown)
            marked.push_back(r);
    } else {
        // Evenly spaced positions, shifted by a fifth of a step per run so that the markers of
        // runs that share keys (iterations) do not sit on top of each other; each takes the
        // record nearest to it, within the run's own keys.
        const double step = range.size() / kMarkersPerCurve;
        const double phase = (0.1 + 0.2 * (run.slot % 5)) * step;
        for (int j = 0; j < kMarkersPerCurve; ++j) {
            const double target = range.lower + phase + j * step;
            if (target < shown.front().first - 0.5 * step ||
                target > shown.back().first + 0.5 * step)
                continue;
            auto it = std::lower_bound(shown.begin(), shown.end(), target,
                                       [](const auto& a, double t) { return a.first < t; });
            if (it == shown.end() ||
                (it != shown.begin() && target - (it - 1)->first < it->first - target))
                --it;
            if (marked.empty() || marked.back() != it->second) marked.push_back(it->second);
        }
    }
    QVector<double> keys, upper, lower, gap;
    for (const IterationRecord* r : marked) {
        keys.append(key(*r));
        upper.append(std::isfinite(r->upper) ? r->upper : qQNaN());
        lower.append(std::isfinite(r->lower) ? r->lower : qQNaN());
        gap.append(std::isfinite(r->gap) ? std::max(r->gap, kGapFloor) : qQNaN());
    }
    run.marks[0]->setData(keys, upper, true);
    run.marks[1]->setData(keys, lower, true);
    run.marks[2]->setData(keys, gap, true);
}

int BoundsPlot::markerCount(int id) const {
    const auto it = runs_.find(id);
    return it == runs_.end() ? 0 : it->second.marks[0]->dataCount();
}

void BoundsPlot::rescale() {
    // x: everything; bounds: from the point where every run has a finite lower bound, so that
    // one early, very loose bound does not flatten the picture; gap: all finite values.
    // Counting axes start at 0; the path parameter's axis spans the keys present.
    const bool counting =
        xAxis_ != XAxisKind::PathParameter && xAxis_ != XAxisKind::LogPathParameter;
    // The x axis spans the data (a run of milliseconds gets a milliseconds axis).
    double xMin = counting ? 0.0 : std::numeric_limits<double>::infinity();
    double xMax = -std::numeric_limits<double>::infinity();
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
    if (!std::isfinite(xMax)) {  // no data yet
        xMin = 0.0;
        xMax = 1.0;
    } else if (!(xMin < xMax)) {  // one position (a count of 0, one path parameter)
        const double half = xMax != 0 ? 0.5 * std::abs(xMax) : 0.5;
        xMin = counting ? 0.0 : xMax - half;
        xMax += half;
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
