// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured_trace_tab.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "coalesced_replot.h"
#include "family_view.h"
#include "plot_style.h"

namespace cplab::widgets {

namespace {

void fitValues(QCPAxis* axis, const std::vector<QCPGraph*>& graphs, bool includeZero) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (QCPGraph* g : graphs) {
        bool found = false;
        const QCPRange r = g->getValueRange(found);
        if (!found) continue;
        lo = std::min(lo, r.lower);
        hi = std::max(hi, r.upper);
    }
    if (!(lo <= hi)) return;
    if (includeZero) lo = std::min(lo, 0.0);
    const double span = std::max(hi - lo, 1e-12);
    axis->setRange(lo - 0.06 * span, hi + 0.06 * span);
}

}  // namespace

StructuredTraceTab::StructuredTraceTab(QWidget* parent) : QCustomPlot(parent) {
    setObjectName("structuredTracePlot");
    applyPlotStyle(this);
    replots_ = new CoalescedReplot(this, [this] { rescale(); });
    createPanels();
    createGraphs();
}

void StructuredTraceTab::createPanels() {
    // Bounds, gap, errors and the solver's own measure, one above the other, against passes.
    boundsRect_ = axisRect();
    gapRect_ = new QCPAxisRect(this);
    errorRect_ = new QCPAxisRect(this);
    ownRect_ = new QCPAxisRect(this);
    plotLayout()->addElement(1, 0, gapRect_);
    plotLayout()->addElement(2, 0, errorRect_);
    plotLayout()->addElement(3, 0, ownRect_);
    auto* margins = new QCPMarginGroup(this);
    for (QCPAxisRect* rect : {boundsRect_, gapRect_, errorRect_, ownRect_}) {
        styleAxisRect(rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        rect->axis(QCPAxis::atLeft)->ticker()->setTickCount(4);
    }
    ownRect_->axis(QCPAxis::atLeft)->ticker()->setTickCount(3);  // the shortest panel
    // One x label, under the last panel: the four share their x range.
    ownRect_->axis(QCPAxis::atBottom)->setLabel(tr("passes over the training words"));
    boundsRect_->axis(QCPAxis::atLeft)->setLabel(tr("objective"));
    gapRect_->axis(QCPAxis::atLeft)->setLabel(tr("duality gap P \u2212 D"));
    useLogScale(gapRect_->axis(QCPAxis::atLeft));
    errorRect_->axis(QCPAxis::atLeft)->setLabel(tr("error"));
}

void StructuredTraceTab::createGraphs() {
    primal_ = addLineGraph(this, boundsRect_, tr("primal P(w)"), pen(colors::kModel, 2.0));
    dual_ = addLineGraph(this, boundsRect_, tr("dual D(\u03b1)"),
                         pen(colors::kCandidate, 1.6, Qt::DashLine));
    gap_ = addLineGraph(this, gapRect_, tr("duality gap"), pen(colors::kFunction, 1.6));
    trainError_ = addLineGraph(this, errorRect_, tr("letter error, training words"),
                               pen(colors::kModel, 1.8));
    testError_ = addLineGraph(this, errorRect_, tr("letter error, test words"),
                              pen(colors::kCandidate, 1.6, Qt::DashLine));
    testWordError_ = addLineGraph(this, errorRect_, tr("word error, test words"),
                                  pen(colors::kFunction, 1.6, Qt::DotLine));
    own_[0] = addLineGraph(this, ownRect_, {}, pen(colors::kModel, 1.8));
    own_[1] = addLineGraph(this, ownRect_, {}, pen(colors::kCandidate, 1.6, Qt::DashLine));
    for (QCPGraph* g : graphs())
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 3.0));
    ownNote_ = addNote(this, ownRect_);
    // One legend in a row below the panels (inside, it covered the curves); the last panel
    // names its curves in its own axis label.
    errorLegend_ = addLegendRow(this, 4, 6);
    plotLayout()->setRowStretchFactors({1.0, 1.0, 1.0, 0.8, 0.001});
    for (QCPGraph* g : {primal_, dual_, gap_, trainError_, testError_, testWordError_})
        g->addToLegend(errorLegend_);
}

void StructuredTraceTab::clear() {
    for (QCPGraph* g : graphs())
        g->data()->clear();
    setOwnMeasure(OwnMeasure::None);
    updateLegend();
    run_ = -1;
    shown_ = 0;
}

void StructuredTraceTab::chooseOwnMeasure(const std::vector<std::string>& columns, int own[2]) {
    // The last panel: n-slack's working sets, 1-slack's planes, else the mean step.
    if (const int c = columnOf(columns, "constraints"); c >= 0) {
        setOwnMeasure(OwnMeasure::WorkingSets);
        own[0] = c;
    } else if (const int p = columnOf(columns, "planes"); p >= 0) {
        setOwnMeasure(OwnMeasure::Planes);
        own[0] = p;
        own[1] = columnOf(columns, "active_planes");
    } else {
        own[0] = columnOf(columns, "mean_step");
        setOwnMeasure(own[0] >= 0 ? OwnMeasure::MeanStep : OwnMeasure::None);
    }
}

void StructuredTraceTab::setTrace(std::span<const IterationRecord> records,
                                  const std::vector<std::string>& columns, int runId) {
    if (runId != run_ || records.size() < shown_) {
        for (QCPGraph* g : graphs())
            g->data()->clear();
        shown_ = 0;
        run_ = runId;
    }
    const int primal = columnOf(columns, "primal");
    const int dual = columnOf(columns, "dual");
    const int gap = columnOf(columns, "duality_gap");
    const int train = columnOf(columns, "train_error");
    const int test = columnOf(columns, "test_error");
    const int testWord = columnOf(columns, "test_word_error");
    int own[2] = {-1, -1};
    chooseOwnMeasure(columns, own);
    // Only the finite values: a solver evaluates P(w) and the errors every few passes.
    auto add = [](QCPGraph* g, double key, double value, bool positive = false) {
        if (std::isfinite(key) && std::isfinite(value) && (!positive || value > 0))
            g->addData(key, value);
    };
    for (std::size_t i = shown_; i < records.size(); ++i) {
        const IterationRecord& r = records[i];
        const double k = r.passes;
        add(primal_, k, extraAt(r, primal));
        add(dual_, k, extraAt(r, dual));
        add(gap_, k, extraAt(r, gap), true);
        add(trainError_, k, extraAt(r, train));
        const double t = extraAt(r, test);
        if (t >= 0) add(testError_, k, t);
        const double tw = extraAt(r, testWord);
        if (tw >= 0) add(testWordError_, k, tw);
        for (int c = 0; c < 2; ++c)
            add(own_[c], k, extraAt(r, own[c]));
    }
    shown_ = records.size();
    updateLegend();
    ownNote_->setVisible(own_[0]->data()->isEmpty());
}

std::vector<QCPGraph*> StructuredTraceTab::graphs() const {
    return {primal_, dual_, gap_, trainError_, testError_, testWordError_, own_[0], own_[1]};
}

void StructuredTraceTab::setOwnMeasure(OwnMeasure measure) {
    if (measure == ownMeasure_) return;
    ownMeasure_ = measure;
    QCPAxis* left = ownRect_->axis(QCPAxis::atLeft);
    switch (measure) {
        case OwnMeasure::WorkingSets:
            left->setLabel(tr("constraints Σ|W_i|"));
            ownNote_->setText(tr("no pass yet"));
            break;
        case OwnMeasure::Planes:
            left->setLabel(tr("planes"));
            ownNote_->setText(tr("no pass yet"));
            break;
        case OwnMeasure::MeanStep:
            left->setLabel(tr("mean step γ"));
            ownNote_->setText(tr("no pass yet"));
            break;
        case OwnMeasure::None:
            left->setLabel({});
            ownNote_->setText(tr("no working set or step size to show"));
            break;
    }
    own_[0]->setName(measure == OwnMeasure::Planes ? tr("1-slack planes") : left->label());
    own_[1]->setName(tr("active planes"));
}

void StructuredTraceTab::updateLegend() {
    // In a fixed order, with the curves that have something to show.
    std::vector<QCPGraph*> listed = {primal_, dual_, gap_, trainError_};
    for (QCPGraph* g : {testError_, testWordError_})
        if (!g->data()->isEmpty()) listed.push_back(g);
    if (ownMeasure_ == OwnMeasure::Planes) listed.insert(listed.end(), {own_[0], own_[1]});
    bool same = errorLegend_->itemCount() == static_cast<int>(listed.size());
    for (std::size_t k = 0; same && k < listed.size(); ++k) {
        auto* item = qobject_cast<QCPPlottableLegendItem*>(errorLegend_->item(static_cast<int>(k)));
        same = item && item->plottable() == listed[k];
    }
    if (same) return;
    errorLegend_->clearItems();
    for (QCPGraph* g : listed)
        g->addToLegend(errorLegend_);
}

void StructuredTraceTab::rescale() {
    double last = 1.0;
    for (QCPGraph* g : {primal_, dual_, trainError_}) {
        bool found = false;
        const QCPRange k = g->getKeyRange(found);
        if (found) last = std::max(last, k.upper);
    }
    for (QCPAxisRect* rect : {boundsRect_, gapRect_, errorRect_, ownRect_})
        rect->axis(QCPAxis::atBottom)->setRange(0, last * 1.02);
    fitValues(boundsRect_->axis(QCPAxis::atLeft), {primal_, dual_}, true);
    fitValues(errorRect_->axis(QCPAxis::atLeft), {trainError_, testError_, testWordError_}, true);
    fitValues(ownRect_->axis(QCPAxis::atLeft), {own_[0], own_[1]}, true);
    bool found = false;
    const QCPRange g = gap_->getValueRange(found, QCP::sdBoth, QCPRange());
    if (found && g.lower > 0) {
        // Whole decades, at least two, so that the axis labels powers of ten only.
        double lo = std::pow(10.0, std::floor(std::log10(g.lower)));
        const double hi = std::pow(10.0, std::ceil(std::log10(g.upper)));
        if (hi < 100 * lo) lo = hi / 100;
        gapRect_->axis(QCPAxis::atLeft)->setRange(lo, hi);
    }
}

double StructuredTraceTab::ownValue(int curve, int index) const {
    if (curve < 0 || curve > 1 || index < 0 || index >= own_[curve]->dataCount())
        return std::numeric_limits<double>::quiet_NaN();
    return (own_[curve]->data()->constBegin() + index)->value;
}

}  // namespace cplab::widgets
