// SPDX-License-Identifier: GPL-3.0-or-later
#include "mkl_path_view.h"

#include <qcustomplot.h>

#include <QMouseEvent>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "coalesced_replot.h"
#include "kernel_tabs_common.h"
#include "mkl_predictor_tab.h"
#include "plot_reset.h"
#include "plot_style.h"

namespace cplab::widgets {

namespace {

// A press and release within this many pixels is a click (else a drag of the axes).
constexpr int kClickSlop = 4;

QCPItemStraightLine* verticalMarker(QCustomPlot* plot, QCPAxisRect* rect) {
    auto* line = new QCPItemStraightLine(plot);
    line->setClipAxisRect(rect);
    for (QCPItemPosition* p : {line->point1, line->point2}) {
        p->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        p->setAxisRect(rect);
    }
    line->setPen(pen(colors::kOutline, 1.2, Qt::DashLine));
    line->setVisible(false);
    return line;
}

// A log axis over the positive values of `graphs`, padded by a factor 2 and at least a decade.
void fitLog(QCPAxis* axis, const std::vector<QCPGraph*>& graphs) {
    double lo = std::numeric_limits<double>::infinity(), hi = 0;
    for (QCPGraph* g : graphs) {
        bool found = false;
        const QCPRange range = g->getValueRange(found, QCP::sdPositive);
        if (!found) continue;
        lo = std::min(lo, range.lower);
        hi = std::max(hi, range.upper);
    }
    if (!(hi > 0)) return;
    lo /= 2;
    hi *= 2;
    // At least two decades, so that the log axis labels powers of ten only (over less, its
    // ticker falls back to crowded in-between labels).
    if (hi / lo < 100) {
        const double mid = std::sqrt(lo * hi);
        lo = mid / 10;
        hi = mid * 10;
    }
    axis->setRange(lo, hi);
}

void fitLinear(QCPAxis* axis, const std::vector<QCPGraph*>& graphs, double floor) {
    double lo = floor, hi = floor;
    bool any = false;
    for (QCPGraph* g : graphs) {
        bool found = false;
        const QCPRange range = g->getValueRange(found);
        if (!found) continue;
        hi = any ? std::max(hi, range.upper) : std::max(floor, range.upper);
        lo = std::min(lo, range.lower);
        any = true;
    }
    if (!any) return;
    const double pad = std::max(0.08 * (hi - lo), 1e-12);
    axis->setRange(lo - 0.02 * (hi - lo), hi + pad);
}

}  // namespace

MklPathView::MklPathView(QWidget* parent)
    : FamilyView(parent),
      tabs_(new QTabWidget(this)),
      weightsPlot_(new QCustomPlot),
      errorsPlot_(new QCustomPlot),
      predictorTab_(new MklPredictorTab) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tabs_);
    tabs_->setObjectName("mklPathTabs");
    tabs_->setDocumentMode(true);
    tabs_->addTab(weightsPlot_, tr("Kernel weights \u03b7(\u03bb)"));
    tabs_->addTab(errorsPlot_, tr("Errors and steps"));
    tabs_->addTab(predictorTab_, tr("Predictor at \u03bb"));
    weightsPlot_->setObjectName("mklPathWeightsPlot");
    errorsPlot_->setObjectName("mklPathErrorsPlot");
    for (QCustomPlot* p : {weightsPlot_, errorsPlot_}) {
        applyPlotStyle(p);
        p->setAutoAddPlottableToLegend(false);
        p->legend->setVisible(false);
    }
    weightsReplot_ = new CoalescedReplot(weightsPlot_);
    errorsReplot_ = new CoalescedReplot(errorsPlot_);
    connect(tabs_, &QTabWidget::currentChanged, this, [this](int index) {
        (index == 0   ? weightsReplot_
         : index == 1 ? errorsReplot_
                      : predictorTab_->replots())
            ->now();
    });
    // A click (not a drag) on the path's plots selects the nearest point.
    for (QCustomPlot* p : {weightsPlot_, errorsPlot_}) {
        connect(p, &QCustomPlot::mousePress, this,
                [this](QMouseEvent* event) { pressed_ = event->position().toPoint(); });
        connect(p, &QCustomPlot::mouseRelease, this,
                [this, p](QMouseEvent* event) { onRelease(p, event); });
    }

    // The weights, their legend in a row below (the curves fill the panel), active kernels.
    etaRect_ = weightsPlot_->axisRect();
    etaLegend_ = addLegendRow(weightsPlot_, 1, 5);
    activeRect_ = new QCPAxisRect(weightsPlot_);
    weightsPlot_->plotLayout()->addElement(2, 0, activeRect_);
    weightsPlot_->plotLayout()->setRowStretchFactors({2.4, 0.001, 1.0});
    // Errors and, below, the steps, each with its legend in a row of its own (the curves fill
    // the panels; inset legends covered them).
    errorRect_ = errorsPlot_->axisRect();
    QCPLegend* errorLegend = addLegendRow(errorsPlot_, 1, 5);
    stepRect_ = new QCPAxisRect(errorsPlot_);
    errorsPlot_->plotLayout()->addElement(2, 0, stepRect_);
    QCPLegend* stepLegend = addLegendRow(errorsPlot_, 3, 5);
    errorsPlot_->plotLayout()->setRowStretchFactors({1.0, 0.001, 1.0, 0.001});
    auto* weightMargins = new QCPMarginGroup(weightsPlot_);
    auto* errorMargins = new QCPMarginGroup(errorsPlot_);
    for (QCPAxisRect* rect : {etaRect_, activeRect_})
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, weightMargins);
    for (QCPAxisRect* rect : {errorRect_, stepRect_})
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, errorMargins);
    for (QCPAxisRect* rect : {etaRect_, activeRect_, errorRect_, stepRect_}) {
        styleAxisRect(rect);
        rect->axis(QCPAxis::atBottom)->setLabel("log\u2081\u2080 \u03bb");
        rect->axis(QCPAxis::atBottom)->setRangeReversed(true);
    }

    etaRect_->axis(QCPAxis::atLeft)->setLabel("kernel weight \u03b7\u2c7c");
    useLogScale(etaRect_->axis(QCPAxis::atLeft));

    activeRect_->axis(QCPAxis::atLeft)->setLabel("active kernels");
    active_ = addLineGraph(weightsPlot_, activeRect_, "active kernels", pen(colors::kModel, 1.6));
    active_->setLineStyle(QCPGraph::lsStepLeft);

    createErrorCurves(errorLegend, stepLegend);
    etaMarker_ = verticalMarker(weightsPlot_, etaRect_);
    errorMarker_ = verticalMarker(errorsPlot_, errorRect_);

    clearPredictor(tr("click a point of the path (kernel weights or errors) to see its predictor"));
    setMinimumSize(300, 200);
}

void MklPathView::createErrorCurves(QCPLegend* errorLegend, QCPLegend* stepLegend) {
    errorRect_->axis(QCPAxis::atLeft)->setLabel("error");
    trainError_ = addLineGraph(errorsPlot_, errorRect_, "training", pen(colors::kModel, 2.0));
    testError_ = addLineGraph(errorsPlot_, errorRect_, "held-out",
                              pen(colors::kCandidate, 1.6, Qt::DashLine));
    // The number of active kernels again, on the right: the slides' figure shows it beside the
    // errors, and the tab can then be exported alone.
    QCPAxis* activeAxis = errorRect_->axis(QCPAxis::atRight);
    activeAxis->setVisible(true);
    activeAxis->setTickLabels(true);
    activeAxis->setLabel("active kernels");
    activeOnErrors_ = addLineGraph(errorsPlot_, errorRect_, "active kernels (right)",
                                   pen(colors::kOutline, 1.4, Qt::DotLine), true);
    activeOnErrors_->setLineStyle(QCPGraph::lsStepLeft);
    trainError_->addToLegend(errorLegend);
    testError_->addToLegend(errorLegend);
    activeOnErrors_->addToLegend(errorLegend);

    QCPAxis* stepAxis = stepRect_->axis(QCPAxis::atLeft);
    stepAxis->setLabel("step in log \u03bb");
    useLogScale(stepAxis);
    QCPAxis* newtonAxis = stepRect_->axis(QCPAxis::atRight);
    newtonAxis->setVisible(true);
    newtonAxis->setTickLabels(true);
    newtonAxis->setLabel("Newton steps");
    sigmaStep_ = addLineGraph(errorsPlot_, stepRect_, "predictor step", pen(colors::kBest, 1.6));
    newtonSteps_ =
        addLineGraph(errorsPlot_, stepRect_, "Newton steps (right)", pen(colors::kProx, 1.2), true);
    newtonSteps_->setLineStyle(QCPGraph::lsNone);
    newtonSteps_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssDisc, colors::kProx, colors::kProx, 4.5));
    sigmaStep_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
    sigmaStep_->addToLegend(stepLegend);
    newtonSteps_->addToLegend(stepLegend);
}

MklPathView::~MklPathView() = default;

bool MklPathView::showFrame(const ViewFrame& frame) {
    auto snapshot = std::dynamic_pointer_cast<const MklPathSnapshot>(frame.snapshot);
    if (!snapshot) return false;
    snapshot_ = std::move(snapshot);
    // Short: the panel is about 150 px high at 1024 x 768 and a longer label was cut off.
    errorRect_->axis(QCPAxis::atLeft)
        ->setLabel(snapshot_->classification ? tr("error rate") : tr("mean sq. error"));
    setTrace(frame.records, frame.columns, frame.runId);
    weightsReplot_->schedule();
    errorsReplot_->schedule();
    return true;
}

void MklPathView::clear() {
    snapshot_.reset();
    for (QCPGraph* g : etaGraphs_)
        g->data()->clear();
    for (QCPGraph* g :
         {active_, activeOnErrors_, trainError_, testError_, sigmaStep_, newtonSteps_})
        g->data()->clear();
    for (QCustomPlot* p : {weightsPlot_, errorsPlot_})
        resetPlot(p);
    shown_ = 0;
    run_ = -1;
    pointLambdas_.clear();
    pointEtas_.clear();
    clearPredictor(tr("click a point of the path (kernel weights or errors) to see its predictor"));
    weightsReplot_->now();
    errorsReplot_->now();
}

QCustomPlot* MklPathView::plot() const {
    const int index = tabs_->currentIndex();
    return index == 1 ? errorsPlot_ : index == 2 ? predictorTab_ : weightsPlot_;
}

int MklPathView::currentTab() const {
    return tabs_->currentIndex();
}

void MklPathView::showTab(int index) {
    tabs_->setCurrentIndex(index);
}

int MklPathView::tabCount() const {
    return tabs_->count();
}

int MklPathView::pointCount() const {
    return trainError_->data()->size();
}

QString MklPathView::statusText(const ViewFrame& frame) const {
    const auto* s = dynamic_cast<const MklPathSnapshot*>(frame.snapshot.get());
    if (!s || s->kernelLabels.empty()) return {};
    int active = 0;
    const int column = columnOf(frame.columns, "active_kernels");
    if (!frame.records.empty()) active = static_cast<int>(extraAt(frame.records.back(), column));
    return tr("\u03bb %1 (\u03bb\u2080 %2, lambda_min %3); %4 of %5 kernels active")
        .arg(s->lambda, 0, 'g', 4)
        .arg(s->lambda0, 0, 'g', 4)
        .arg(s->lambdaMin, 0, 'g', 4)
        .arg(active)
        .arg(s->kernelLabels.size());
}

void MklPathView::rebuildKernelGraphs(const std::vector<std::string>& labels) {
    for (QCPGraph* g : etaGraphs_)
        weightsPlot_->removeGraph(g);
    etaGraphs_.clear();
    etaLegend_->clearItems();
    kernelLabels_ = labels;
    for (std::size_t k = 0; k < labels.size(); ++k) {
        // The palette's second round dashed, its third dotted.
        const int index = static_cast<int>(k);
        const Qt::PenStyle style = index < 8    ? Qt::SolidLine
                                   : index < 16 ? Qt::DashLine
                                                : Qt::DotLine;
        QCPGraph* g = addLineGraph(weightsPlot_, etaRect_, QString::fromStdString(labels[k]),
                                   pen(kernelColour(index), 1.8, style));
        // With many kernels the legend names the first twenty; every curve is drawn.
        if (k < 20) g->addToLegend(etaLegend_);
        etaGraphs_.push_back(g);
    }
    etaLegend_->setVisible(!etaGraphs_.empty());
}

void MklPathView::setTrace(std::span<const IterationRecord> records,
                           const std::vector<std::string>& columns, int runId) {
    std::vector<std::string> labels;
    std::vector<int> etaColumns;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        if (columns[c].rfind("eta:", 0) == 0) {
            labels.push_back(columns[c].substr(4));
            etaColumns.push_back(static_cast<int>(c));
        }
    }
    // Another run, a reset or a step back on the timeline starts over; else append.
    if (records.size() < shown_ || runId != run_ || labels != kernelLabels_) {
        if (labels != kernelLabels_ || etaGraphs_.empty()) {
            rebuildKernelGraphs(labels);
        } else {
            for (QCPGraph* g : etaGraphs_)
                g->data()->clear();
        }
        for (QCPGraph* g :
             {active_, activeOnErrors_, trainError_, testError_, sigmaStep_, newtonSteps_})
            g->data()->clear();
        shown_ = 0;
        pointLambdas_.clear();
        pointEtas_.clear();
        if (run_ != runId || records.size() < static_cast<std::size_t>(selected_ + 1))
            clearPredictor(
                tr("click a point of the path (kernel weights or errors) to see its predictor"));
        run_ = runId;
    }
    const int logLambda = columnOf(columns, "log10_lambda");
    const int activeColumn = columnOf(columns, "active_kernels");
    const int train = columnOf(columns, "train_error");
    const int test = columnOf(columns, "test_error");
    const int step = columnOf(columns, "sigma_step");
    const int newton = columnOf(columns, "newton_steps");
    // Point 0 (λ₀) has no record: the snapshot carries it.
    if (pointLambdas_.empty() && snapshot_) {
        pointLambdas_.push_back(snapshot_->lambda0);
        pointEtas_.push_back(snapshot_->eta0);
    }
    for (std::size_t i = shown_; i < records.size(); ++i) {
        const IterationRecord& r = records[i];
        // Records are iterations 1, 2, …: record i is point i + 1 of the path.
        Eigen::VectorXd eta(static_cast<Eigen::Index>(etaColumns.size()));
        for (std::size_t k = 0; k < etaColumns.size(); ++k)
            eta(static_cast<Eigen::Index>(k)) = extraAt(r, etaColumns[k]);
        pointLambdas_.push_back(r.pathParameter);
        pointEtas_.push_back(eta);
        const double x = extraAt(r, logLambda);
        if (!std::isfinite(x)) continue;
        for (std::size_t k = 0; k < etaGraphs_.size(); ++k) {
            const double e = eta(static_cast<Eigen::Index>(k));
            etaGraphs_[k]->addData(x, e > 0 ? e : kNaN);
        }
        active_->addData(x, extraAt(r, activeColumn));
        activeOnErrors_->addData(x, extraAt(r, activeColumn));
        trainError_->addData(x, extraAt(r, train));
        testError_->addData(x, extraAt(r, test));
        const double h = extraAt(r, step);
        sigmaStep_->addData(x, h > 0 ? h : kNaN);
        newtonSteps_->addData(x, extraAt(r, newton));
    }
    shown_ = records.size();
    rescale();
}

void MklPathView::rescale() {
    bool found = false;
    QCPRange x = trainError_->getKeyRange(found);
    if (found) {
        const double pad = std::max(0.02 * x.size(), 0.05);
        for (QCPAxisRect* rect : {etaRect_, activeRect_, errorRect_, stepRect_})
            rect->axis(QCPAxis::atBottom)->setRange(x.lower - pad, x.upper + pad);
    }
    fitLog(etaRect_->axis(QCPAxis::atLeft), etaGraphs_);
    fitLog(stepRect_->axis(QCPAxis::atLeft), {sigmaStep_});
    const double kernels = static_cast<double>(std::max<std::size_t>(1, etaGraphs_.size()));
    activeRect_->axis(QCPAxis::atLeft)->setRange(-0.3, kernels + 0.5);
    errorRect_->axis(QCPAxis::atRight)->setRange(-0.3, kernels + 0.5);
    fitLinear(errorRect_->axis(QCPAxis::atLeft), {trainError_, testError_}, 0.0);
    fitLinear(stepRect_->axis(QCPAxis::atRight), {newtonSteps_}, 0.0);
}

}  // namespace cplab::widgets

namespace cplab::widgets {

void MklPathView::onRelease(QCustomPlot* plot, QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    if ((event->position().toPoint() - pressed_).manhattanLength() > kClickSlop) return;
    QCPAxisRect* rect = plot->axisRectAt(event->position().toPoint());
    if (!rect) return;
    if (selectNearest(rect->axis(QCPAxis::atBottom)->pixelToCoord(event->position().toPoint().x())))
        showTab(2);
}

int MklPathView::selectablePoints() const {
    if (!snapshot_) return 0;
    return static_cast<int>(std::min(pointLambdas_.size(), snapshot_->alphas.size()));
}

bool MklPathView::selectNearest(double log10Lambda) {
    if (selectablePoints() == 0 || !std::isfinite(log10Lambda)) return false;
    int best = 0;
    double distance = std::numeric_limits<double>::infinity();
    for (int k = 0; k < selectablePoints(); ++k) {
        const double d =
            std::abs(std::log10(pointLambdas_[static_cast<std::size_t>(k)]) - log10Lambda);
        if (d < distance) {
            distance = d;
            best = k;
        }
    }
    return selectPoint(best);
}

bool MklPathView::selectPoint(int index) {
    if (index < 0 || index >= selectablePoints()) return false;
    selected_ = index;
    selectedLambda_ = pointLambdas_[static_cast<std::size_t>(index)];
    selectedEta_ = pointEtas_[static_cast<std::size_t>(index)];
    const double x = std::log10(selectedLambda_);
    for (QCPItemStraightLine* line : {etaMarker_, errorMarker_}) {
        line->point1->setCoords(x, 0.0);
        line->point2->setCoords(x, 1.0);
        line->setVisible(true);
    }
    predictorTab_->draw(*snapshot_, selected_, selectedLambda_, selectedEta_);
    weightsReplot_->schedule();
    errorsReplot_->schedule();
    return true;
}

void MklPathView::clearPredictor(const QString& note) {
    selected_ = -1;
    selectedLambda_ = 0.0;
    selectedEta_.resize(0);
    predictorTab_->clear(note);
    for (QCPItemStraightLine* line : {etaMarker_, errorMarker_})
        line->setVisible(false);
    predictorTab_->replots()->now();
}

int MklPathView::predictorGridSize() const {
    return predictorTab_->gridSize();
}

QPointF MklPathView::predictorGridPoint(int ix, int iy) const {
    return predictorTab_->gridPoint(ix, iy);
}

double MklPathView::predictorValue(int ix, int iy) const {
    return predictorTab_->value(ix, iy);
}

std::vector<double> MklPathView::barValues() const {
    return predictorTab_->barValues();
}

QPoint MklPathView::pointPixel(int index) const {
    if (index < 0 || index >= selectablePoints()) return {};
    const double x = std::log10(pointLambdas_[static_cast<std::size_t>(index)]);
    return QPoint(static_cast<int>(std::lround(etaRect_->axis(QCPAxis::atBottom)->coordToPixel(x))),
                  etaRect_->center().y());
}

}  // namespace cplab::widgets
