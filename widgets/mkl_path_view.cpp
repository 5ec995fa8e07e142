#include "mkl_path_view.h"

#include <qcustomplot.h>

#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "coalesced_replot.h"
#include "plot_style.h"

namespace cplab::widgets {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

int columnOf(const std::vector<std::string>& columns, const std::string& name) {
    const auto it = std::find(columns.begin(), columns.end(), name);
    return it == columns.end() ? -1 : static_cast<int>(it - columns.begin());
}

double extraAt(const IterationRecord& r, int column) {
    return column >= 0 && column < static_cast<int>(r.extra.size())
               ? r.extra[static_cast<std::size_t>(column)]
               : kNaN;
}

QSharedPointer<QCPAxisTickerLog> logTicker() {
    return QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog);
}

void useLogScale(QCPAxis* axis) {
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(logTicker());
    axis->setNumberFormat("eb");
    axis->setNumberPrecision(0);
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
    if (hi / lo < 10) {
        const double mid = std::sqrt(lo * hi);
        lo = mid / std::sqrt(10.0);
        hi = mid * std::sqrt(10.0);
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
      errorsPlot_(new QCustomPlot) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tabs_);
    tabs_->setObjectName("mklPathTabs");
    tabs_->setDocumentMode(true);
    tabs_->addTab(weightsPlot_, tr("Kernel weights \u03b7(\u03bb)"));
    tabs_->addTab(errorsPlot_, tr("Errors and steps"));
    weightsPlot_->setObjectName("mklPathWeightsPlot");
    errorsPlot_->setObjectName("mklPathErrorsPlot");
    for (QCustomPlot* p : {weightsPlot_, errorsPlot_}) {
        applyPlotStyle(p);
        p->setAutoAddPlottableToLegend(false);
        p->legend->setVisible(false);
    }
    weightsReplot_ = new CoalescedReplot(weightsPlot_);
    errorsReplot_ = new CoalescedReplot(errorsPlot_);
    connect(tabs_, &QTabWidget::currentChanged, this,
            [this](int index) { (index == 0 ? weightsReplot_ : errorsReplot_)->now(); });

    // The weights, their legend in a row below (the curves fill the panel), active kernels.
    etaRect_ = weightsPlot_->axisRect();
    etaLegend_ = new QCPLegend;
    weightsPlot_->plotLayout()->addElement(1, 0, etaLegend_);
    activeRect_ = new QCPAxisRect(weightsPlot_);
    weightsPlot_->plotLayout()->addElement(2, 0, activeRect_);
    weightsPlot_->plotLayout()->setRowStretchFactors({2.4, 0.001, 1.0});
    etaLegend_->setLayer("legend");
    etaLegend_->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    etaLegend_->setWrap(5);
    {
        QFont font;
        font.setPointSize(8);
        etaLegend_->setFont(font);
        etaLegend_->setBorderPen(Qt::NoPen);
        etaLegend_->setBrush(Qt::NoBrush);
        etaLegend_->setMargins(QMargins(4, 0, 4, 2));
    }
    errorRect_ = errorsPlot_->axisRect();
    stepRect_ = new QCPAxisRect(errorsPlot_);
    errorsPlot_->plotLayout()->addElement(1, 0, stepRect_);
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

    errorRect_->axis(QCPAxis::atLeft)->setLabel("error");
    QCPLegend* errorLegend = addInsetLegend(errorRect_, Qt::AlignTop | Qt::AlignRight);
    trainError_ = addLineGraph(errorsPlot_, errorRect_, "training", pen(colors::kModel, 2.0));
    testError_ = addLineGraph(errorsPlot_, errorRect_, "held-out",
                              pen(colors::kCandidate, 1.6, Qt::DashLine));
    trainError_->addToLegend(errorLegend);
    testError_->addToLegend(errorLegend);

    QCPAxis* stepAxis = stepRect_->axis(QCPAxis::atLeft);
    stepAxis->setLabel("step in log \u03bb");
    useLogScale(stepAxis);
    QCPAxis* newtonAxis = stepRect_->axis(QCPAxis::atRight);
    newtonAxis->setVisible(true);
    newtonAxis->setTickLabels(true);
    newtonAxis->setLabel("Newton steps");
    QCPLegend* stepLegend = addInsetLegend(stepRect_, Qt::AlignTop | Qt::AlignRight);
    sigmaStep_ = addLineGraph(errorsPlot_, stepRect_, "predictor step", pen(colors::kBest, 1.6));
    newtonSteps_ =
        addLineGraph(errorsPlot_, stepRect_, "Newton steps (right)", pen(colors::kProx, 1.2), true);
    newtonSteps_->setLineStyle(QCPGraph::lsNone);
    newtonSteps_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssDisc, colors::kProx, colors::kProx, 4.5));
    sigmaStep_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
    sigmaStep_->addToLegend(stepLegend);
    newtonSteps_->addToLegend(stepLegend);
    setMinimumSize(420, 320);
}

MklPathView::~MklPathView() = default;

bool MklPathView::showFrame(const ViewFrame& frame) {
    auto snapshot = std::dynamic_pointer_cast<const MklPathSnapshot>(frame.snapshot);
    if (!snapshot) return false;
    snapshot_ = std::move(snapshot);
    errorRect_->axis(QCPAxis::atLeft)
        ->setLabel(snapshot_->classification ? tr("misclassification rate")
                                             : tr("mean squared error"));
    setTrace(frame.records, frame.columns, frame.runId);
    weightsReplot_->schedule();
    errorsReplot_->schedule();
    return true;
}

void MklPathView::clear() {
    snapshot_.reset();
    for (QCPGraph* g : etaGraphs_)
        g->data()->clear();
    for (QCPGraph* g : {active_, trainError_, testError_, sigmaStep_, newtonSteps_})
        g->data()->clear();
    shown_ = 0;
    run_ = -1;
    weightsReplot_->now();
    errorsReplot_->now();
}

QCustomPlot* MklPathView::plot() const {
    return tabs_->currentIndex() == 1 ? errorsPlot_ : weightsPlot_;
}

void MklPathView::showTab(int index) {
    tabs_->setCurrentIndex(index);
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
                                   pen(runColor(index), 1.8, style));
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
        for (QCPGraph* g : {active_, trainError_, testError_, sigmaStep_, newtonSteps_})
            g->data()->clear();
        shown_ = 0;
        run_ = runId;
    }
    const int logLambda = columnOf(columns, "log10_lambda");
    const int activeColumn = columnOf(columns, "active_kernels");
    const int train = columnOf(columns, "train_error");
    const int test = columnOf(columns, "test_error");
    const int step = columnOf(columns, "sigma_step");
    const int newton = columnOf(columns, "newton_steps");
    for (std::size_t i = shown_; i < records.size(); ++i) {
        const IterationRecord& r = records[i];
        const double x = extraAt(r, logLambda);
        if (!std::isfinite(x)) continue;
        for (std::size_t k = 0; k < etaGraphs_.size(); ++k) {
            const double eta = extraAt(r, etaColumns[k]);
            etaGraphs_[k]->addData(x, eta > 0 ? eta : kNaN);
        }
        active_->addData(x, extraAt(r, activeColumn));
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
    fitLinear(errorRect_->axis(QCPAxis::atLeft), {trainError_, testError_}, 0.0);
    fitLinear(stepRect_->axis(QCPAxis::atRight), {newtonSteps_}, 0.0);
}

}  // namespace cplab::widgets
