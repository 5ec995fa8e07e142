// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernel_view.h"

#include <qcustomplot.h>

#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>

#include "coalesced_replot.h"
#include "kernel_decision_tab.h"
#include "kernel_progress_tab.h"
#include "kernel_tabs_common.h"
#include "kernel_weights_tab.h"
#include "mkl_path_view.h"

namespace cplab::widgets {

namespace {
constexpr int kWeightsTab = 1;
}  // namespace

KernelView::KernelView(QWidget* parent)
    : FamilyView(parent),
      stack_(new QStackedWidget(this)),
      pathView_(new MklPathView),
      tabs_(new QTabWidget),
      decisionTab_(new KernelDecisionTab),
      weightsTab_(new KernelWeightsTab),
      progressTab_(new KernelProgressTab),
      splitControls_(new HoldoutControls) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(stack_);
    stack_->addWidget(tabs_);
    stack_->addWidget(pathView_);
    tabs_->setObjectName("kernelTabs");
    tabs_->setDocumentMode(true);
    tabs_->addTab(decisionTab_, tr("Decision function"));
    tabs_->addTab(weightsTab_, tr("Kernel weights"));
    tabs_->addTab(progressTab_, tr("Convergence"));
    connect(tabs_, &QTabWidget::currentChanged, this, [this](int index) {
        CoalescedReplot* replots[3] = {decisionTab_->replots(), weightsTab_->replots(),
                                       progressTab_->replots()};
        if (index >= 0 && index < 3) replots[index]->now();
    });
    connect(weightsTab_, &KernelWeightsTab::objectiveGridRequested, this,
            &KernelView::objectiveGridRequested);
    connect(weightsTab_, &KernelWeightsTab::objectiveGridCancelRequested, this,
            &KernelView::objectiveGridCancelRequested);
    connect(weightsTab_, &KernelWeightsTab::objectiveGridEvaluated, this,
            &KernelView::objectiveGridEvaluated);
    setMinimumSize(300, 200);
    clear();
}

KernelView::~KernelView() {
    if (splitControls_ && !splitControls_->parent()) delete splitControls_;
}

OptionValues KernelView::problemOptions() const {
    return splitControls_->problemOptions();
}

bool KernelView::setTestSplit(double testFraction, int seed) {
    splitControls_->setSplit(testFraction, seed);
    return true;
}

bool KernelView::showPage(int index) {
    if (stack_->currentWidget() == pathView_) {
        if (index < 0 || index >= pathView_->tabCount()) return false;
        pathView_->showTab(index);
        return true;
    }
    if (index < 0 || index >= tabs_->count() || !tabs_->isTabVisible(index)) return false;
    tabs_->setCurrentIndex(index);
    return true;
}

bool KernelView::weightsTabShown() const {
    return tabs_->isTabVisible(kWeightsTab);
}

void KernelView::clear() {
    pathView_->clear();
    stack_->setCurrentWidget(tabs_);
    snapshot_.reset();
    decisionTab_->clear();
    weightsTab_->clear();
    progressTab_->clear();
    tabs_->setTabVisible(kWeightsTab, true);
    traceShown_ = 0;
    traceRun_ = -1;
    decisionTab_->replots()->now();
    weightsTab_->replots()->now();
    progressTab_->replots()->now();
}

bool KernelView::showFrame(const ViewFrame& frame) {
    if (pathView_->showFrame(frame)) {
        stack_->setCurrentWidget(pathView_);
        return true;
    }
    auto snapshot = std::dynamic_pointer_cast<const KernelSnapshot>(frame.snapshot);
    if (!snapshot) return false;
    stack_->setCurrentWidget(tabs_);
    snapshot_ = std::move(snapshot);
    const bool hasData = decisionTab_->draw(*snapshot_);
    // One kernel has no weights to learn: its tab would stay empty.
    tabs_->setTabVisible(kWeightsTab, snapshot_->kernelLabels.size() > 1);
    weightsTab_->draw(snapshot_, frame.runId, hasData, frame.race);
    setTrace(frame.records, frame.columns, frame.runId);
    progressTab_->drawRace(frame.race, frame.runId);
    scheduleReplots();
    return true;
}

void KernelView::setTrace(std::span<const IterationRecord> trace,
                          const std::vector<std::string>& columns, int runId) {
    // Another run, a reset or a step back starts over; else the new records are appended.
    if (trace.size() < traceShown_ || runId != traceRun_ || !weightsTab_->drawsKernels(columns)) {
        traceShown_ = 0;
        traceRun_ = runId;
    }
    weightsTab_->appendRecords(trace, columns, traceShown_);
    progressTab_->appendRecords(trace, columns, traceShown_);
    traceShown_ = trace.size();
}

QCustomPlot* KernelView::plot() const {
    if (stack_->currentWidget() == pathView_) return pathView_->plot();
    switch (tabs_->currentIndex()) {
        case 1:
            return weightsTab_->plot();
        case 2:
            return progressTab_;
        default:
            return decisionTab_;
    }
}

void KernelView::showTab(int index) {
    tabs_->setCurrentIndex(index);
}

void KernelView::scheduleReplots() {
    // Only the plot on view; another tab is replotted when it is shown.
    QCustomPlot* shown = plot();
    if (shown == decisionTab_) decisionTab_->replots()->schedule();
    if (shown == weightsTab_->plot()) weightsTab_->replots()->schedule();
    if (shown == progressTab_) progressTab_->replots()->schedule();
}

int KernelView::freeSupportVectorCount() const {
    return decisionTab_->freeSupportVectorCount(snapshot_.get());
}

int KernelView::boundSupportVectorCount() const {
    return decisionTab_->boundSupportVectorCount(snapshot_.get());
}

int KernelView::zeroContourSegments() const {
    return decisionTab_->zeroContourSegments();
}

int KernelView::modelPlaneCount() const {
    return weightsTab_->modelPlaneCount();
}

int KernelView::namedKernelCount() const {
    return weightsTab_->namedKernelCount();
}

QString KernelView::statusText(const ViewFrame& frame) const {
    if (dynamic_cast<const MklPathSnapshot*>(frame.snapshot.get()))
        return pathView_->statusText(frame);
    const auto* s = dynamic_cast<const KernelSnapshot*>(frame.snapshot.get());
    if (!s || !s->setup) return {};
    int free = 0, bound = 0;
    for (Eigen::Index i = 0; i < s->alpha.size(); ++i) {
        if (!(s->alpha(i) > 0)) continue;
        (isBound(s->alpha(i), s->setup->C) ? bound : free) += 1;
    }
    QString text = tr("training error %1").arg(s->trainError, 0, 'g', 4);
    if (s->testError >= 0) text += tr(", test error %1").arg(s->testError, 0, 'g', 4);
    text += tr("; %1 support vectors (%2 free, %3 at C = %4)")
                .arg(free + bound)
                .arg(free)
                .arg(bound)
                .arg(s->setup->C, 0, 'g', 6);
    if (s->beta.size() > 1 && s->kernelLabels.size() == static_cast<std::size_t>(s->beta.size())) {
        Eigen::Index best = 0;
        s->beta.maxCoeff(&best);
        text += tr("; largest weight %1 = %2")
                    .arg(QString::fromStdString(s->kernelLabels[static_cast<std::size_t>(best)]))
                    .arg(s->beta(best), 0, 'g', 4);
    }
    return text;
}

// ---- D(β) on a grid -----------------------------------------------------------------------

void KernelView::evaluateObjectiveGrid() {
    weightsTab_->evaluateObjectiveGrid();
}

bool KernelView::evaluating() const {
    return weightsTab_->evaluating();
}

const std::vector<Eigen::VectorXd>& KernelView::evaluatedPoints() const {
    return weightsTab_->evaluated().points;
}

const std::vector<double>& KernelView::evaluatedValues() const {
    return weightsTab_->evaluated().values;
}

void KernelView::setObjectiveGridProgress(int runId, int done) {
    weightsTab_->setObjectiveGridProgress(runId, done);
}

void KernelView::finishObjectiveGrid(const ObjectiveGridResult& result) {
    weightsTab_->finishObjectiveGrid(result);
}

FamilyView* kernelView(QWidget* parent) {
    return new KernelView(parent);
}

}  // namespace cplab::widgets
