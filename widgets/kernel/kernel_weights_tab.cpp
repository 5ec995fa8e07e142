// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernel_weights_tab.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>
#include <numeric>

#include "coalesced_replot.h"
#include "elided_label.h"
#include "family_view.h"
#include "kernel_model_panel.h"
#include "kernel_tabs_common.h"
#include "plot_reset.h"
#include "plot_style.h"

namespace cplab::widgets {

namespace {

// Points of the grid evaluation of D: β₁ = i/20 (K = 2); the triangle's lattice of step 1/12
// (K = 3, 91 points).
constexpr int kLineDivisions = 20;
constexpr int kTriangleDivisions = 12;

// The columns beta:<label> of the records, and their labels.
std::vector<int> betaColumns(const std::vector<std::string>& columns,
                             std::vector<std::string>* labels) {
    std::vector<int> found;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        if (columns[c].rfind("beta:", 0) == 0) {
            labels->push_back(columns[c].substr(5));
            found.push_back(static_cast<int>(c));
        }
    }
    return found;
}

// The grid for `kernels` weights: the line β = (b, 1 − b), or the triangle's lattice in the
// order objective_grid.h gives.
ObjectiveGridValues gridPoints(std::size_t kernels) {
    ObjectiveGridValues grid;
    if (kernels == 2) {
        for (int i = 0; i <= kLineDivisions; ++i) {
            const double b = static_cast<double>(i) / kLineDivisions;
            grid.points.push_back(Eigen::Vector2d(b, 1.0 - b));
        }
        return grid;
    }
    const int n = kTriangleDivisions;
    grid.divisions = n;
    for (int i = 0; i <= n; ++i) {
        for (int j = 0; i + j <= n; ++j) {
            grid.points.push_back(Eigen::Vector3d(static_cast<double>(i) / n,
                                                  static_cast<double>(j) / n,
                                                  static_cast<double>(n - i - j) / n));
        }
    }
    return grid;
}

}  // namespace

KernelWeightsTab::KernelWeightsTab(QWidget* parent)
    : QWidget(parent),
      plot_(new QCustomPlot),
      replots_(new CoalescedReplot(plot_, [this] { model_->fixAspect(); })),
      evaluateButton_(new QPushButton(tr("Evaluate D(\u03b2) on a grid"))),
      cancelButton_(new QPushButton(tr("Cancel"))),
      progress_(new QProgressBar),
      evaluateNote_(new ElidedLabel) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    createEvaluateBar(layout);
    layout->addWidget(plot_, 1);
    plot_->setObjectName("kernelWeightsPlot");
    applyPlotStyle(plot_);
    plot_->setAutoAddPlottableToLegend(false);
    plot_->legend->setVisible(false);
    // The model of D(β) and the weights per iteration side by side.
    QCPAxisRect* modelRect = plot_->axisRect();
    betaRect_ = new QCPAxisRect(plot_);
    plot_->plotLayout()->addElement(0, 1, betaRect_);
    styleAxisRect(modelRect);
    styleAxisRect(betaRect_);
    model_ = std::make_unique<KernelModelPanel>(plot_, modelRect);
    createWeightsPanel();
}

KernelWeightsTab::~KernelWeightsTab() = default;

void KernelWeightsTab::createEvaluateBar(QVBoxLayout* layout) {
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 0);
    bar->addWidget(evaluateButton_);
    bar->addWidget(progress_);
    bar->addWidget(cancelButton_);
    bar->addWidget(evaluateNote_, 1);
    layout->addLayout(bar);
    evaluateButton_->setObjectName("evaluateObjectiveGrid");
    evaluateButton_->setToolTip(
        tr("Solve the SVM afresh at a grid of kernel weights (21 points for two kernels, 91 "
           "for three) on a worker thread and draw the true D(\u03b2) over its cutting-plane "
           "model"));
    cancelButton_->setObjectName("cancelObjectiveGrid");
    progress_->setObjectName("objectiveGridProgress");
    progress_->setMaximumWidth(200);
    progress_->setTextVisible(true);
    progress_->setVisible(false);
    cancelButton_->setVisible(false);
    evaluateNote_->setObjectName("objectiveGridNote");
    // The button keeps its whole text at any width (at 1024 x 768 it was cut); the progress bar
    // and the note give way.
    evaluateButton_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    cancelButton_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    progress_->setMinimumWidth(60);
    connect(evaluateButton_, &QPushButton::clicked, this, &KernelWeightsTab::evaluateObjectiveGrid);
    connect(cancelButton_, &QPushButton::clicked, this, &KernelWeightsTab::cancelEvaluation);
}

void KernelWeightsTab::createWeightsPanel() {
    betaRect_->axis(QCPAxis::atBottom)->setLabel("iteration");
    betaRect_->axis(QCPAxis::atLeft)->setLabel("kernel weight \u03b2\u2096");
    betaRect_->axis(QCPAxis::atLeft)->setRange(-0.02, 1.05);
    betaLegend_ = insetLegend(betaRect_, Qt::AlignTop | Qt::AlignRight);
    betaLegend_->setBrush(colors::kLegendFillLight);
    betaRect_->axis(QCPAxis::atBottom)->setTicker(integerTicker());
}

void KernelWeightsTab::clear() {
    cancelEvaluation();
    snapshot_.reset();
    race_.clear();
    runId_ = -1;
    evaluated_ = {};
    evaluateNote_->setFullText({});
    notePossible_ = true;
    rebuildWeightGraphs({});
    resetPlot(plot_);
    betaRect_->axis(QCPAxis::atLeft)->setRange(-0.02, 1.05);
    model_->hide(tr("no kernel weights yet"));
    updateEvaluateControls();
}

void KernelWeightsTab::draw(std::shared_ptr<const KernelSnapshot> s, int runId, bool hasData,
                            std::span<const RaceEntry> race) {
    snapshot_ = std::move(s);
    runId_ = runId;
    race_.assign(race.begin(), race.end());
    for (RaceEntry& entry : race_) {
        entry.records = {};
        entry.columns.clear();
    }
    if (hasData) {
        model_->draw(*snapshot_, &evaluated_, race_, runId_);
    } else {
        model_->hide({});
    }
    updateEvaluateControls();
}

int KernelWeightsTab::modelPlaneCount() const {
    return model_->planeCount();
}

// ---- weights per iteration ----------------------------------------------------------------

bool KernelWeightsTab::drawsKernels(const std::vector<std::string>& columns) const {
    std::vector<std::string> labels;
    betaColumns(columns, &labels);
    return labels == weightLabels_;
}

void KernelWeightsTab::appendRecords(std::span<const IterationRecord> trace,
                                     const std::vector<std::string>& columns, std::size_t from) {
    std::vector<std::string> labels;
    const std::vector<int> beta = betaColumns(columns, &labels);
    if (from == 0) rebuildWeightGraphs(labels);
    for (std::size_t i = from; i < trace.size(); ++i) {
        for (std::size_t k = 0; k < weightGraphs_.size(); ++k)
            weightGraphs_[k]->addData(trace[i].iteration, extraAt(trace[i], beta[k]));
    }
    styleWeightGraphs();
    const double last = trace.empty() ? 1.0 : std::max(1, trace.back().iteration);
    betaRect_->axis(QCPAxis::atBottom)->setRange(0, last + 0.5);
}

void KernelWeightsTab::rebuildWeightGraphs(const std::vector<std::string>& labels) {
    if (labels == weightLabels_ && !weightGraphs_.empty()) {
        for (QCPGraph* g : weightGraphs_)
            g->data()->clear();
        return;
    }
    for (QCPGraph* g : weightGraphs_)
        plot_->removeGraph(g);
    weightGraphs_.clear();
    weightLabels_ = labels;
    betaLegend_->clearItems();
    for (std::size_t k = 0; k < labels.size(); ++k) {
        weightGraphs_.push_back(addLineGraph(plot_, betaRect_, QString::fromStdString(labels[k]),
                                             pen(kernelColour(static_cast<int>(k)), 1.6)));
    }
}

void KernelWeightsTab::styleWeightGraphs() {
    // Few kernels: every line coloured and named. Many (ionosphere's 34): the largest few by
    // their newest weight coloured and named, the others thin and grey.
    betaLegend_->clearItems();
    const std::size_t k = weightGraphs_.size();
    std::vector<std::size_t> order(k);
    std::iota(order.begin(), order.end(), std::size_t{0});
    auto newest = [this](std::size_t i) {
        const auto& data = weightGraphs_[i]->data();
        return data->isEmpty() ? 0.0 : (data->constEnd() - 1)->value;
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return newest(a) > newest(b); });
    const bool many = k > 8;
    for (std::size_t rank = 0; rank < k; ++rank) {
        QCPGraph* g = weightGraphs_[order[rank]];
        const bool named = !many || rank < static_cast<std::size_t>(kNamedKernels);
        if (many) {
            g->setPen(named ? pen(kernelColour(static_cast<int>(rank)), 1.8)
                            : pen(kOtherKernel, 0.8));
            g->setLayer(named ? "main" : "grid");
        }
        if (named && (!many || newest(order[rank]) > 0)) g->addToLegend(betaLegend_);
    }
    betaLegend_->setVisible(betaLegend_->itemCount() > 0);
}

int KernelWeightsTab::namedKernelCount() const {
    return betaLegend_->itemCount();
}

// ---- D(β) on a grid -----------------------------------------------------------------------

void KernelWeightsTab::updateEvaluateControls() {
    const std::size_t k = snapshot_ && snapshot_->setup ? snapshot_->setup->specs.size() : 0;
    const bool possible = k == 2 || k == 3;
    evaluateButton_->setEnabled(possible && !evaluating());
    // Without a grid to evaluate, the note says why (and replaces an older run's message).
    if (!evaluating() && snapshot_ && !possible) {
        evaluateNote_->setFullText(
            k < 2 ? tr("one kernel: no weights, no D(\u03b2) over them")
                  : tr("D(\u03b2) on a grid: for 2 or 3 kernels (here %1)").arg(k));
        notePossible_ = false;
    } else if (!evaluating() && possible && !notePossible_) {
        evaluateNote_->setFullText({});
        notePossible_ = true;
    }
    cancelButton_->setVisible(evaluating());
    progress_->setVisible(evaluating());
}

void KernelWeightsTab::evaluateObjectiveGrid() {
    if (evaluating() || !snapshot_ || !snapshot_->setup) return;
    const std::size_t k = snapshot_->setup->specs.size();
    if (k != 2 && k != 3) return;
    pending_ = std::make_unique<ObjectiveGridValues>(gridPoints(k));
    pending_->setup = snapshot_->setup;
    pendingRun_ = runId_;
    const int count = static_cast<int>(pending_->points.size());
    progress_->setRange(0, count);
    progress_->setValue(0);
    evaluateNote_->setFullText(tr("solving %1 SVMs on a worker thread ...").arg(count));
    updateEvaluateControls();
    emit objectiveGridRequested({pendingRun_, pending_->setup, pending_->points});
}

void KernelWeightsTab::cancelEvaluation() {
    if (pending_) emit objectiveGridCancelRequested(pendingRun_);
}

void KernelWeightsTab::setObjectiveGridProgress(int runId, int done) {
    if (pending_ && runId == pendingRun_) progress_->setValue(done);
}

void KernelWeightsTab::finishObjectiveGrid(const ObjectiveGridResult& result) {
    if (!pending_ || result.runId != pendingRun_) return;
    const std::unique_ptr<ObjectiveGridValues> grid = std::move(pending_);
    QString message;
    bool ok = false;
    if (!result.error.empty()) {
        message = tr("D(\u03b2) on a grid failed: %1").arg(QString::fromStdString(result.error));
    } else if (result.cancelled) {
        message = tr("D(\u03b2) on a grid cancelled");
    } else {
        ok = true;
        grid->values = result.values;
        evaluated_ = std::move(*grid);
        const qint64 ms = result.milliseconds;
        message =
            tr("D(\u03b2) at %1 points in %2")
                .arg(evaluated_.points.size())
                .arg(ms < 1000 ? tr("%1 ms").arg(ms) : tr("%1 s").arg(ms / 1000.0, 0, 'f', 1));
    }
    evaluateNote_->setFullText(message);
    updateEvaluateControls();
    if (ok && snapshot_) {
        model_->draw(*snapshot_, &evaluated_, race_, runId_);
        replots_->schedule();
    }
    emit objectiveGridEvaluated(ok, message);
}

}  // namespace cplab::widgets
