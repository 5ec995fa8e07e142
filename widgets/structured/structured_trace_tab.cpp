// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured_trace_tab.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "coalesced_replot.h"
#include "legend_placement.h"
#include "plot_style.h"
#include "race_legend.h"

namespace cplab::widgets {

namespace {

// The grey of the legend's line-style keys (no run's colour).
const QColor kKey{90, 90, 90};
constexpr double kTraceMarkerSize = 5.0;

void fitValues(QCPAxis* axis, const std::vector<QCPGraph*>& graphs, bool includeZero) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (QCPGraph* g : graphs) {
        bool found = false;
        const QCPRange r = g->getValueRange(found);
        if (!found) continue;
        lo = std::min(lo, r.lower);
        hi = std::max(hi, r.upper);
    }
    if (!(lo <= hi)) {
        axis->setRange(0, 1);  // no data: nothing of a previous problem
        return;
    }
    if (includeZero) lo = std::min(lo, 0.0);
    const double span = std::max(hi - lo, 1e-12);
    axis->setRange(lo - 0.06 * span, hi + 0.06 * span);
}

// Whole decades of `axis` around the positive values of `graphs`, at least two, so that the
// log axis labels powers of ten only.
void fitDecades(QCPAxis* axis, const std::vector<QCPGraph*>& graphs) {
    double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
    for (QCPGraph* g : graphs) {
        bool found = false;
        const QCPRange r = g->getValueRange(found, QCP::sdBoth, QCPRange());
        if (!found || r.lower <= 0) continue;
        lo = std::min(lo, r.lower);
        hi = std::max(hi, r.upper);
    }
    if (!(hi > 0)) {
        axis->setRange(0.01, 1);  // no data: nothing of a previous problem
        return;
    }
    double from = std::pow(10.0, std::floor(std::log10(lo)));
    const double to = std::pow(10.0, std::ceil(std::log10(hi)));
    if (to < 100 * from) from = to / 100;
    axis->setRange(from, to);
}

bool anyData(const std::vector<QCPGraph*>& graphs) {
    return std::any_of(graphs.begin(), graphs.end(),
                       [](const QCPGraph* g) { return !g->data()->isEmpty(); });
}

}  // namespace

std::vector<QCPGraph*> StructuredTraceTab::RunCurves::all() const {
    return {primal, dual, gap, train, test, testWord, own[0], own[1]};
}

StructuredTraceTab::StructuredTraceTab(QWidget* parent) : QCustomPlot(parent) {
    setObjectName("structuredTracePlot");
    applyPlotStyle(this);
    replots_ = new CoalescedReplot(this, [this] { rescale(); });
    createPanels();
    createStyleKeys();
}

void StructuredTraceTab::createPanels() {
    // Bounds and gap above, errors and the solver's own measure below, against passes: two
    // by two, a panel keeps a readable height in a short view.
    boundsRect_ = axisRect();
    plotLayout()->take(boundsRect_);
    plotLayout()->simplify();
    gapRect_ = new QCPAxisRect(this);
    errorRect_ = new QCPAxisRect(this);
    ownRect_ = new QCPAxisRect(this);
    auto* panels = new QCPLayoutGrid;
    plotLayout()->addElement(0, 0, panels);
    panels->addElement(0, 0, boundsRect_);
    panels->addElement(0, 1, gapRect_);
    panels->addElement(1, 0, errorRect_);
    panels->addElement(1, 1, ownRect_);
    panels->setColumnSpacing(8);
    QCPMarginGroup* columns[2] = {new QCPMarginGroup(this), new QCPMarginGroup(this)};
    QCPMarginGroup* rows[2] = {new QCPMarginGroup(this), new QCPMarginGroup(this)};
    QCPAxisRect* rects[4] = {boundsRect_, gapRect_, errorRect_, ownRect_};
    for (int k = 0; k < 4; ++k) {
        QCPAxisRect* rect = rects[k];
        styleAxisRect(rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, columns[k % 2]);
        rect->setMarginGroup(QCP::msTop | QCP::msBottom, rows[k / 2]);
        // Room for the last tick label of the x axis at the right edge.
        rect->setMinimumMargins(QMargins(0, 0, 10, 0));
    }
    // Short titles: a panel is a quarter of the view.
    for (QCPAxisRect* rect : {errorRect_, ownRect_})
        rect->axis(QCPAxis::atBottom)->setLabel(tr("passes over the words"));
    boundsRect_->axis(QCPAxis::atLeft)->setLabel(tr("P, D"));
    gapRect_->axis(QCPAxis::atLeft)->setLabel(tr("gap"));
    for (QCPAxisRect* rect : {boundsRect_, gapRect_})
        useLogScale(rect->axis(QCPAxis::atLeft));
    errorRect_->axis(QCPAxis::atLeft)->setLabel(tr("error"));
    for (QCPAxisRect* rect : rects)
        rect->axis(QCPAxis::atLeft)->ticker()->setTickCount(3);
    ownNote_ = addNote(this, ownRect_);
    legend_ = addLegendRow(this, 1, 4);
    keepLegendsWrapped(this, {legend_});
    plotLayout()->setRowStretchFactors({1.0, 0.001});
}

void StructuredTraceTab::createStyleKeys() {
    const Qt::PenStyle styles[3] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine};
    for (int k = 0; k < 3; ++k)
        styleKeys_[k] = addLineGraph(this, errorRect_, {}, pen(kKey, 1.6, styles[k]));
}

void StructuredTraceTab::clear() {
    legend_->clearItems();  // before the graphs its items name go
    for (const RunCurves& run : runs_)
        for (QCPGraph* g : run.all())
            removeGraph(g);
    runs_.clear();
    raceIds_.clear();
    selected_ = -1;
    setOwnMeasure(OwnMeasure::None);
    updateLegend();
}

StructuredTraceTab::RunCurves StructuredTraceTab::addRun(const RaceEntry& entry,
                                                         const QString& name) {
    RunCurves run;
    run.runId = entry.runId;
    const QColor c = entry.colour;
    run.primal = addLineGraph(this, boundsRect_, name, pen(c, 2.0));
    run.dual = addLineGraph(this, boundsRect_, name, pen(c, 1.6, Qt::DashLine));
    run.gap = addLineGraph(this, gapRect_, name, pen(c, 1.8));
    run.test = addLineGraph(this, errorRect_, name, pen(c, 1.8));
    run.train = addLineGraph(this, errorRect_, name, pen(c, 1.4, Qt::DashLine));
    run.testWord = addLineGraph(this, errorRect_, name, pen(c, 1.4, Qt::DotLine));
    run.own[0] = addLineGraph(this, ownRect_, name, pen(c, 1.8));
    run.own[1] = addLineGraph(this, ownRect_, name, pen(c, 1.4, Qt::DashLine));
    for (QCPGraph* g : run.all()) {
        g->setScatterStyle(runMarkerStyle(entry.marker, c, kTraceMarkerSize));
        g->removeFromLegend();
    }
    return run;
}

void StructuredTraceTab::restart(const std::vector<RaceEntry>& race) {
    clear();
    const std::vector<QString> names = raceNames(race);
    for (std::size_t k = 0; k < race.size(); ++k)
        runs_.push_back(addRun(race[k], names[k]));
    for (const RaceEntry& entry : race)
        raceIds_.push_back(entry.runId);
}

void StructuredTraceTab::setFrame(const ViewFrame& frame) {
    const std::vector<RaceEntry> race = raceOf(frame);
    std::vector<int> ids;
    for (const RaceEntry& entry : race)
        ids.push_back(entry.runId);
    if (ids != raceIds_) restart(race);
    selected_ = -1;
    for (std::size_t k = 0; k < race.size(); ++k)
        if (race[k].runId == frame.runId) selected_ = static_cast<int>(k);
    int own[2] = {-1, -1};
    setOwnMeasure(selected_ >= 0
                      ? ownMeasureOf(race[static_cast<std::size_t>(selected_)].columns, own)
                      : OwnMeasure::None);
    for (std::size_t k = 0; k < race.size(); ++k)
        append(runs_[k], race[k]);
    updateLegend();
    bool ownShown = false;
    for (const RunCurves& run : runs_) {
        const bool shown = run.measure == ownMeasure_;
        for (QCPGraph* g : run.own)
            g->setVisible(shown);
        ownShown = ownShown || (shown && !run.own[0]->data()->isEmpty());
    }
    ownNote_->setVisible(!ownShown);
}

StructuredTraceTab::OwnMeasure StructuredTraceTab::ownMeasureOf(
    const std::vector<std::string>& columns, int own[2]) {
    // n-slack's working sets, 1-slack's planes, else the mean step.
    if (const int c = columnOf(columns, "constraints"); c >= 0) {
        own[0] = c;
        return OwnMeasure::WorkingSets;
    }
    if (const int p = columnOf(columns, "planes"); p >= 0) {
        own[0] = p;
        own[1] = columnOf(columns, "active_planes");
        return OwnMeasure::Planes;
    }
    own[0] = columnOf(columns, "mean_step");
    return own[0] >= 0 ? OwnMeasure::MeanStep : OwnMeasure::None;
}

void StructuredTraceTab::append(RunCurves& run, const RaceEntry& entry) {
    const std::span<const IterationRecord> records = entry.records;
    if (records.size() < run.shown) {
        for (QCPGraph* g : run.all())
            g->data()->clear();
        run.shown = 0;
    }
    const std::vector<std::string>& columns = entry.columns;
    const int primal = columnOf(columns, "primal");
    const int dual = columnOf(columns, "dual");
    const int gap = columnOf(columns, "duality_gap");
    const int train = columnOf(columns, "train_error");
    const int test = columnOf(columns, "test_error");
    const int testWord = columnOf(columns, "test_word_error");
    int own[2] = {-1, -1};
    run.measure = ownMeasureOf(columns, own);
    // Only the finite values: a solver evaluates P(w) and the errors every few passes; a
    // negative error means none was measured (no test words).
    auto add = [](QCPGraph* g, double key, double value, double above) {
        if (std::isfinite(key) && std::isfinite(value) && value > above) g->addData(key, value);
    };
    constexpr double kAny = -std::numeric_limits<double>::infinity();
    for (std::size_t i = run.shown; i < records.size(); ++i) {
        const IterationRecord& r = records[i];
        const double k = r.passes;
        // P and D on a log scale (the races span decades), like the gap.
        add(run.primal, k, extraAt(r, primal), 0.0);
        add(run.dual, k, extraAt(r, dual), 0.0);
        add(run.gap, k, extraAt(r, gap), 0.0);
        add(run.train, k, extraAt(r, train), kAny);
        add(run.test, k, extraAt(r, test), -0.5);
        add(run.testWord, k, extraAt(r, testWord), -0.5);
        for (int c = 0; c < 2; ++c)
            add(run.own[c], k, extraAt(r, own[c]), kAny);
    }
    run.shown = records.size();
}

void StructuredTraceTab::setOwnMeasure(OwnMeasure measure) {
    if (measure == ownMeasure_) return;
    ownMeasure_ = measure;
    QCPAxis* left = ownRect_->axis(QCPAxis::atLeft);
    switch (measure) {
        case OwnMeasure::WorkingSets:
            left->setLabel(tr("\u03a3|W_i|"));
            ownNote_->setText(tr("no pass yet"));
            break;
        case OwnMeasure::Planes:
            left->setLabel(tr("planes"));
            ownNote_->setText(tr("no pass yet"));
            break;
        case OwnMeasure::MeanStep:
            left->setLabel(tr("step \u03b3"));
            ownNote_->setText(tr("no pass yet"));
            break;
        case OwnMeasure::None:
            left->setLabel({});
            ownNote_->setText(tr("no working set or step size to show"));
            break;
    }
}

std::vector<QCPGraph*> StructuredTraceTab::panelGraphs(QCPGraph* RunCurves::*curve) const {
    std::vector<QCPGraph*> graphs;
    for (const RunCurves& run : runs_)
        graphs.push_back(run.*curve);
    return graphs;
}

void StructuredTraceTab::updateLegend() {
    // The runs of a race by name, then what each line style means in the panels that have it.
    legend_->clearItems();
    if (runs_.size() > 1)
        for (const RunCurves& run : runs_)
            run.primal->addToLegend(legend_);
    QStringList solid{tr("P(w)")}, dashed, dotted;
    if (anyData(panelGraphs(&RunCurves::test))) solid << tr("test error");
    if (anyData(panelGraphs(&RunCurves::dual))) dashed << tr("D(\u03b1)");
    dashed << tr("training error");
    if (ownMeasure_ == OwnMeasure::Planes) {
        solid << tr("planes");
        dashed << tr("active planes");
    }
    if (anyData(panelGraphs(&RunCurves::testWord))) dotted << tr("test word error");
    const QStringList* names[3] = {&solid, &dashed, &dotted};
    for (int k = 0; k < 3; ++k) {
        styleKeys_[k]->setName(names[k]->join(", "));
        if (!names[k]->isEmpty()) styleKeys_[k]->addToLegend(legend_);
    }
    fitLegendWrap(legend_, width());
}

void StructuredTraceTab::rescale() {
    double last = 1.0;
    for (const RunCurves& run : runs_) {
        for (QCPGraph* g : {run.primal, run.dual, run.train}) {
            bool found = false;
            const QCPRange k = g->getKeyRange(found);
            if (found) last = std::max(last, k.upper);
        }
    }
    for (QCPAxisRect* rect : {boundsRect_, gapRect_, errorRect_, ownRect_})
        rect->axis(QCPAxis::atBottom)->setRange(0, last * 1.02);
    std::vector<QCPGraph*> bounds = panelGraphs(&RunCurves::primal), errors;
    for (QCPGraph* g : panelGraphs(&RunCurves::dual))
        bounds.push_back(g);
    for (auto curve : {&RunCurves::train, &RunCurves::test, &RunCurves::testWord})
        for (QCPGraph* g : panelGraphs(curve))
            errors.push_back(g);
    fitDecades(boundsRect_->axis(QCPAxis::atLeft), bounds);
    fitValues(errorRect_->axis(QCPAxis::atLeft), errors, true);
    std::vector<QCPGraph*> own;
    for (const RunCurves& run : runs_)
        if (run.measure == ownMeasure_) own.insert(own.end(), {run.own[0], run.own[1]});
    fitValues(ownRect_->axis(QCPAxis::atLeft), own, true);
    fitDecades(gapRect_->axis(QCPAxis::atLeft), panelGraphs(&RunCurves::gap));
    fitLegendWrap(legend_, width());
}

int StructuredTraceTab::count(QCPGraph* RunCurves::*curve) const {
    if (selected_ < 0) return 0;
    return (runs_[static_cast<std::size_t>(selected_)].*curve)->dataCount();
}

double StructuredTraceTab::ownValue(int curve, int index) const {
    if (selected_ < 0 || curve < 0 || curve > 1) return std::numeric_limits<double>::quiet_NaN();
    const QCPGraph* g = runs_[static_cast<std::size_t>(selected_)].own[curve];
    if (index < 0 || index >= g->dataCount()) return std::numeric_limits<double>::quiet_NaN();
    return (g->data()->constBegin() + index)->value;
}

QColor StructuredTraceTab::runColour(int k) const {
    if (k < 0 || k >= runCount()) return {};
    return runs_[static_cast<std::size_t>(k)].gap->pen().color();
}

int StructuredTraceTab::runGapPoints(int k) const {
    return k < 0 || k >= runCount() ? 0 : runs_[static_cast<std::size_t>(k)].gap->dataCount();
}

int StructuredTraceTab::runTestErrorPoints(int k) const {
    return k < 0 || k >= runCount() ? 0 : runs_[static_cast<std::size_t>(k)].test->dataCount();
}

}  // namespace cplab::widgets
