// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernel_progress_tab.h"

#include <cmath>
#include <limits>

#include "coalesced_replot.h"
#include "family_view.h"
#include "kernel_tabs_common.h"
#include "plot_reset.h"
#include "plot_style.h"
#include "race_graphs.h"

namespace cplab::widgets {

namespace {

// A log axis over [lo, hi] widened to at least two decades, so that its ticks are powers of
// ten rather than crowded multiples.
void setLogRange(QCPAxis* axis, double lo, double hi) {
    lo /= 2;
    hi *= 2;
    if (hi / lo < 100) {
        const double mid = std::sqrt(lo * hi);
        lo = mid / 10;
        hi = mid * 10;
    }
    axis->setRange(lo, hi);
}

}  // namespace

KernelProgressTab::KernelProgressTab(QWidget* parent)
    : QCustomPlot(parent), replots_(new CoalescedReplot(this)) {
    setObjectName("kernelProgressPlot");
    applyPlotStyle(this);
    setAutoAddPlottableToLegend(false);
    legend->setVisible(false);
    // Dual objective and KKT violation over SVM calls and SMO iterations.
    dualRect_ = axisRect();
    callsRect_ = new QCPAxisRect(this);
    plotLayout()->addElement(1, 0, callsRect_);
    auto* margins = new QCPMarginGroup(this);
    for (QCPAxisRect* rect : {dualRect_, callsRect_}) {
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        styleAxisRect(rect);
        rect->axis(QCPAxis::atBottom)->setTicker(integerTicker());
    }

    dualRect_->axis(QCPAxis::atBottom)->setLabel("iteration");
    dualRect_->axis(QCPAxis::atLeft)->setLabel("dual objective");
    QCPAxis* kktAxis = dualRect_->axis(QCPAxis::atRight);
    kktAxis->setVisible(true);
    kktAxis->setTickLabels(true);
    kktAxis->setLabel("max KKT violation");
    useLogScale(kktAxis);
    QCPLegend* dualLegend = insetLegend(dualRect_, Qt::AlignTop | Qt::AlignRight);
    dualLegend_ = dualLegend;
    dualObjective_ = addLineGraph(this, dualRect_, "dual objective", pen(colors::kModel, 1.8));
    kktViolation_ =
        addLineGraph(this, dualRect_, "KKT violation (right)",
                     pen(colors::kFunction, 1.2, Qt::DashDotLine), true);  // not a run's colour
    dualObjective_->addToLegend(dualLegend);
    kktViolation_->addToLegend(dualLegend);

    // SVM calls and SMO iterations per step.
    callsRect_->axis(QCPAxis::atBottom)->setLabel("iteration");
    QCPAxis* smoAxis = callsRect_->axis(QCPAxis::atLeft);
    smoAxis->setLabel("SMO iterations per step");
    smoAxis->setScaleType(QCPAxis::stLogarithmic);
    smoAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    QCPAxis* callsAxis = callsRect_->axis(QCPAxis::atRight);
    callsAxis->setVisible(true);
    callsAxis->setTickLabels(true);
    callsAxis->setLabel("SVM calls per step");
    callsAxis->setTicker(integerTicker());
    QCPLegend* callsLegend = insetLegend(callsRect_, Qt::AlignTop | Qt::AlignRight);
    smoPerStep_ = addLineGraph(this, callsRect_, "SMO iterations", pen(colors::kModel, 1.4));
    smoPerStep_->setLineStyle(QCPGraph::lsStepCenter);
    callsPerStep_ =
        addLineGraph(this, callsRect_, "SVM calls (right)", pen(colors::kBest, 1.4), true);
    callsPerStep_->setLineStyle(QCPGraph::lsNone);
    callsPerStep_->setScatterStyle(
        markerStyle(QCPScatterStyle::ssDisc, colors::kBest, colors::kBest, 5, 1.0));
    smoPerStep_->addToLegend(callsLegend);
    callsPerStep_->addToLegend(callsLegend);
    raceDual_ = std::make_unique<RaceGraphs>(this, dualRect_, dualLegend, 1.4);
    createErrorPanel(margins);
}

KernelProgressTab::~KernelProgressTab() = default;

void KernelProgressTab::createErrorPanel(QCPMarginGroup* margins) {
    // Training (solid) and test (dashed) error of every run.
    // Beside the dual objective: the tab's height is too small for a third row.
    errorRect_ = new QCPAxisRect(this);
    auto* top = new QCPLayoutGrid;
    plotLayout()->take(dualRect_);
    plotLayout()->simplify();
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, top);
    top->addElement(0, 0, dualRect_);
    top->addElement(0, 1, errorRect_);
    top->setColumnSpacing(4);
    for (QCPAxisRect* rect : {dualRect_, callsRect_}) {
        rect->setMarginGroup(QCP::msRight, nullptr);
        rect->setMarginGroup(QCP::msLeft, margins);
    }
    styleAxisRect(errorRect_);
    errorRect_->axis(QCPAxis::atBottom)->setTicker(integerTicker());
    errorRect_->axis(QCPAxis::atBottom)->setLabel("iteration");
    errorRect_->axis(QCPAxis::atLeft)->setLabel("error (dashed: test)");
    QCPLegend* legend = insetLegend(errorRect_, Qt::AlignTop | Qt::AlignRight);
    raceTrain_ = std::make_unique<RaceGraphs>(this, errorRect_, legend, 1.4);
    raceTest_ = std::make_unique<RaceGraphs>(this, errorRect_, nullptr, 1.2, Qt::DashLine);
    top->setColumnStretchFactors({1.4, 1.0});
}

void KernelProgressTab::drawRace(std::span<const RaceEntry> race, int selectedRunId) {
    const bool racing = raceDual_->draw(race, selectedRunId, columnValue("dual_objective")) > 0;
    // Racing, the selected run's objective is its race curve; alone, the blue one.
    dualObjective_->setVisible(!racing);
    if (racing) {
        dualObjective_->removeFromLegend(dualLegend_);
    } else if (!dualLegend_->hasItemWithPlottable(dualObjective_)) {
        dualObjective_->addToLegend(dualLegend_);
    }
    raceTrain_->draw(race, selectedRunId, columnValue("train_error"), "training", 1);
    raceTest_->draw(race, selectedRunId, columnValue("test_error"), {}, 1);
    double last = 1.0;
    for (const RaceEntry& entry : race) {
        if (!entry.records.empty()) last = std::max(last, double(entry.records.back().iteration));
    }
    lastIteration_ = std::max(lastIteration_, last);
    rescale(lastIteration_);
}

void KernelProgressTab::clear() {
    for (QCPGraph* g : {dualObjective_, kktViolation_, smoPerStep_, callsPerStep_})
        g->data()->clear();
    raceDual_->clear();
    raceTrain_->clear();
    raceTest_->clear();
    resetPlot(this);
    dualObjective_->setVisible(true);
    lastIteration_ = 1.0;
    lastSvmCalls_ = 0.0;
    lastSmoIterations_ = 0.0;
}

void KernelProgressTab::appendRecords(std::span<const IterationRecord> trace,
                                      const std::vector<std::string>& columns, std::size_t from) {
    if (from == 0) clear();
    const int dual = columnOf(columns, "dual_objective");
    const int kkt = columnOf(columns, "kkt_violation");
    const int calls = columnOf(columns, "svm_calls");
    const int smo = columnOf(columns, "smo_iterations");
    for (std::size_t i = from; i < trace.size(); ++i) {
        const IterationRecord& r = trace[i];
        const double it = r.iteration;
        dualObjective_->addData(it, extraAt(r, dual));
        const double violation = extraAt(r, kkt);
        kktViolation_->addData(it, violation > 0 ? violation : kNaN);
        const double c = extraAt(r, calls), n = extraAt(r, smo);
        const double callsStep = c - lastSvmCalls_, smoStep = n - lastSmoIterations_;
        // Steps inside one SVM solve (svm: every step after the first) have no call of their own.
        callsPerStep_->addData(it, callsStep > 0 ? callsStep : kNaN);
        smoPerStep_->addData(it, smoStep > 0 ? smoStep : kNaN);
        if (std::isfinite(c)) lastSvmCalls_ = c;
        if (std::isfinite(n)) lastSmoIterations_ = n;
    }
    lastIteration_ = trace.empty() ? 1.0 : std::max(1, trace.back().iteration);
    rescale(lastIteration_);
}

void KernelProgressTab::rescale(double lastIteration) {
    for (QCPAxisRect* rect : {dualRect_, callsRect_, errorRect_})
        rect->axis(QCPAxis::atBottom)->setRange(0, lastIteration + 0.5);
    bool found = false;
    QCPRange range = dualObjective_->getValueRange(found);
    if (!raceDual_->graphs().empty()) found = raceDual_->valueRange(&range);
    if (found) {
        const double pad =
            std::max(0.05 * range.size(), 1e-9 * std::max(1.0, std::abs(range.upper)));
        dualRect_->axis(QCPAxis::atLeft)
            ->setRange(range.lower - pad, range.upper + 0.8 * range.size() + pad);  // legend
    }
    range = kktViolation_->getValueRange(found, QCP::sdPositive);
    if (found) setLogRange(dualRect_->axis(QCPAxis::atRight), range.lower, range.upper);
    range = smoPerStep_->getValueRange(found, QCP::sdPositive);
    if (found) setLogRange(callsRect_->axis(QCPAxis::atLeft), range.lower, range.upper * 3);
    range = callsPerStep_->getValueRange(found);
    if (found) callsRect_->axis(QCPAxis::atRight)->setRange(0, std::max(2.0, range.upper * 1.3));
    QCPRange errors(0, 0.1);
    QCPRange test;
    if (raceTest_->valueRange(&test)) errors.upper = std::max(errors.upper, test.upper);
    if (raceTrain_->valueRange(&range)) errors.upper = std::max(errors.upper, range.upper);
    // Headroom for the legend above the curves.
    errorRect_->axis(QCPAxis::atLeft)->setRange(0, std::min(1.0, errors.upper * 1.6));
}

}  // namespace cplab::widgets
