// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernel_view.h"

#include <qcustomplot.h>

#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPromise>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTabWidget>
#include <QThreadPool>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "coalesced_replot.h"
#include "decision_map.h"
#include "mkl_path_view.h"
#include "plot_style.h"
#include "test_split_controls.h"

namespace cplab::widgets {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kTriangleHeight = std::sqrt(3.0) / 2.0;
// Points of the grid evaluation of D: β₁ = i/20 (K = 2); the triangle's lattice of step 1/12
// (K = 3, 91 points).
constexpr int kLineDivisions = 20;
constexpr int kTriangleDivisions = 12;
// Kernels named (and coloured) in the weights' legend when there are many.
constexpr int kNamedKernels = 6;

const QColor kPositive = colors::kModel;      // class +1
const QColor kNegative = colors::kCandidate;  // class −1
const QColor kFreeSv{20, 20, 20};
const QColor kBoundSv = colors::kNewestPlane;
const QColor kOtherKernel{200, 200, 200};

// The model's (or D's) values over the triangle, low light to high dark; outside transparent.
QCPColorGradient heatGradient() {
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, colors::kHeatLow);
    g.setColorStopAt(0.35, colors::kHeatMidLow);
    g.setColorStopAt(0.7, colors::kHeatMidHigh);
    g.setColorStopAt(1.0, colors::kHeatHigh);
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}

QCPLegend* insetLegend(QCPAxisRect* rect, Qt::Alignment alignment) {
    QCPLegend* legend = addInsetLegend(rect, alignment);
    legend->setRowSpacing(0);
    return legend;
}

void alignInset(QCPAxisRect* rect, QCPLayoutElement* element, Qt::Alignment alignment) {
    QCPLayoutInset* inset = rect->insetLayout();
    for (int i = 0; i < inset->elementCount(); ++i) {
        if (inset->elementAt(i) == element) inset->setInsetAlignment(i, alignment);
    }
}

void showIn(QCPAbstractPlottable* p, QCPLegend* legend, bool shown) {
    if (shown) {
        if (!legend->hasItemWithPlottable(p)) p->addToLegend(legend);
    } else {
        p->removeFromLegend(legend);
    }
}

// Where β on the simplex of three kernels lies in the plane: e₁ → (0, 0), e₂ → (1, 0),
// e₃ → (½, √3/2).
QPointF trianglePoint(const Eigen::VectorXd& beta) {
    return {beta(1) + 0.5 * beta(2), kTriangleHeight * beta(2)};
}

// Integer ticks (iterations, counts) that thin out as the range grows.
QSharedPointer<QCPAxisTickerFixed> integerTicker() {
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    return ticker;
}

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

bool isBound(double alpha, double C) {
    return alpha >= C * (1.0 - 1e-9);
}

}  // namespace

// One evaluation of D on a grid of weights: inputs copied in, values written by the worker,
// read by the GUI thread once the future has finished.
struct KernelView::Job {
    std::shared_ptr<const KernelSetup> setup;
    std::vector<Eigen::VectorXd> points;
    std::vector<double> values;
    int divisions = 0;
    CancelToken cancel;
    std::string error;
    QElapsedTimer clock;
};

KernelView::KernelView(QWidget* parent)
    : FamilyView(parent),
      stack_(new QStackedWidget(this)),
      pathView_(new MklPathView),
      tabs_(new QTabWidget),
      decisionPlot_(new QCustomPlot),
      weightsPlot_(new QCustomPlot),
      progressPlot_(new QCustomPlot),
      evaluateButton_(new QPushButton(tr("Evaluate D(\u03b2) on a grid"))),
      cancelButton_(new QPushButton(tr("Cancel"))),
      progress_(new QProgressBar),
      evaluateNote_(new QLabel),
      watcher_(new QFutureWatcher<void>(this)),
      splitControls_(new TestSplitControls) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(stack_);
    stack_->addWidget(tabs_);
    stack_->addWidget(pathView_);
    tabs_->setObjectName("kernelTabs");
    tabs_->setDocumentMode(true);
    tabs_->addTab(decisionPlot_, tr("Decision function"));
    auto* weightsPage = new QWidget;
    auto* weightsLayout = new QVBoxLayout(weightsPage);
    weightsLayout->setContentsMargins(0, 0, 0, 0);
    weightsLayout->setSpacing(2);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 0);
    bar->addWidget(evaluateButton_);
    bar->addWidget(progress_);
    bar->addWidget(cancelButton_);
    bar->addWidget(evaluateNote_, 1);
    weightsLayout->addLayout(bar);
    weightsLayout->addWidget(weightsPlot_, 1);
    tabs_->addTab(weightsPage, tr("Kernel weights"));
    tabs_->addTab(progressPlot_, tr("Convergence"));
    connect(tabs_, &QTabWidget::currentChanged, this, [this](int index) {
        CoalescedReplot* replots[3] = {decisionReplot_, weightsReplot_, progressReplot_};
        if (index >= 0 && index < 3) replots[index]->now();
    });

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
    connect(evaluateButton_, &QPushButton::clicked, this, &KernelView::evaluateObjectiveGrid);
    connect(cancelButton_, &QPushButton::clicked, this, [this] {
        if (!job_) return;
        job_->cancel.cancel();
        watcher_->cancel();
    });
    connect(watcher_, &QFutureWatcher<void>::progressValueChanged, progress_,
            &QProgressBar::setValue);
    connect(watcher_, &QFutureWatcher<void>::finished, this, &KernelView::onEvaluationFinished);

    decisionPlot_->setObjectName("kernelDecisionPlot");
    weightsPlot_->setObjectName("kernelWeightsPlot");
    progressPlot_->setObjectName("kernelProgressPlot");
    for (QCustomPlot* p : {decisionPlot_, weightsPlot_, progressPlot_}) {
        applyPlotStyle(p);
        p->setAutoAddPlottableToLegend(false);
        p->legend->setVisible(false);
    }
    setMinimumSize(300, 200);
    decisionReplot_ = new CoalescedReplot(decisionPlot_);
    weightsReplot_ = new CoalescedReplot(weightsPlot_, [this] { fixAspect(); });
    progressReplot_ = new CoalescedReplot(progressPlot_);

    // Decision function: the map, its legend in a row below.
    mapRect_ = decisionPlot_->axisRect();
    mapLegend_ = addLegendRow(decisionPlot_, 1, 3);
    decisionPlot_->plotLayout()->setRowStretchFactors({1.0, 0.001});
    // Kernel weights: the model of D(β) and the weights per iteration side by side.
    modelRect_ = weightsPlot_->axisRect();
    betaRect_ = new QCPAxisRect(weightsPlot_);
    weightsPlot_->plotLayout()->addElement(0, 1, betaRect_);
    // Convergence: dual objective and KKT violation over SVM calls and SMO iterations.
    dualRect_ = progressPlot_->axisRect();
    callsRect_ = new QCPAxisRect(progressPlot_);
    progressPlot_->plotLayout()->addElement(1, 0, callsRect_);
    auto* margins = new QCPMarginGroup(progressPlot_);
    for (QCPAxisRect* rect : {dualRect_, callsRect_})
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    for (QCPAxisRect* rect : {mapRect_, modelRect_, betaRect_, dualRect_, callsRect_})
        styleAxisRect(rect);

    // Decision function.
    mapRect_->axis(QCPAxis::atBottom)->setLabel("x1");
    mapRect_->axis(QCPAxis::atLeft)->setLabel("x2");
    decisionMap_ =
        new QCPColorMap(mapRect_->axis(QCPAxis::atBottom), mapRect_->axis(QCPAxis::atLeft));
    decisionMap_->setGradient(decisionGradient());
    decisionMap_->setInterpolate(true);
    decisionMap_->setLayer("background");
    marginContours_ =
        addCurve(mapRect_, "f = \u00b11 (margins)", pen(colors::kOutline, 1.1, Qt::DashLine));
    zeroContour_ = addCurve(mapRect_, "f = 0", pen(colors::kFunction, 2.0));
    positives_ =
        addPointsGraph(decisionPlot_, mapRect_, "class +1",
                       markerStyle(QCPScatterStyle::ssDisc, kPositive, kPositive, 4.5, 1.0));
    negatives_ =
        addPointsGraph(decisionPlot_, mapRect_, "class \u22121",
                       markerStyle(QCPScatterStyle::ssDisc, kNegative, kNegative, 4.5, 1.0));
    freeSvs_ =
        addPointsGraph(decisionPlot_, mapRect_, "free SV (0 < \u03b1 < C)",
                       markerStyle(QCPScatterStyle::ssCircle, kFreeSv, Qt::transparent, 10, 1.5));
    boundSvs_ =
        addPointsGraph(decisionPlot_, mapRect_, "bound SV (\u03b1 = C)",
                       markerStyle(QCPScatterStyle::ssSquare, kBoundSv, Qt::transparent, 9, 1.5));
    alphaPositive_ =
        addLineGraph(decisionPlot_, mapRect_, "\u03b1\u1d62, class +1", pen(kPositive, 1.2));
    alphaNegative_ =
        addLineGraph(decisionPlot_, mapRect_, "\u03b1\u1d62, class \u22121", pen(kNegative, 1.2));
    alphaPositive_->setLineStyle(QCPGraph::lsImpulse);
    alphaNegative_->setLineStyle(QCPGraph::lsImpulse);
    alphaBound_ = addLineGraph(decisionPlot_, mapRect_, "C", pen(kBoundSv, 1.2, Qt::DashLine));
    mapNote_ = addNote(decisionPlot_, mapRect_);
    mapNote_->setVisible(false);

    // Model of D(β).
    modelRect_->axis(QCPAxis::atLeft)->setLabel("D(\u03b2)");
    modelMap_ =
        new QCPColorMap(modelRect_->axis(QCPAxis::atBottom), modelRect_->axis(QCPAxis::atLeft));
    modelMap_->setInterpolate(true);
    modelMap_->setLayer("background");
    modelMap_->setVisible(false);
    modelScale_ = new QCPColorScale(weightsPlot_);
    modelRect_->insetLayout()->addElement(modelScale_, QRectF(0.06, 0.80, 0.88, 0.2));
    modelScale_->setType(QCPAxis::atBottom);
    modelScale_->setBarWidth(7);
    modelScale_->setGradient(heatGradient());
    modelScale_->setRangeDrag(false);
    modelScale_->setRangeZoom(false);
    modelScale_->axis()->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    modelScale_->axis()->ticker()->setTickCount(4);
    {
        QFont font;
        font.setPointSize(8);
        modelScale_->axis()->setTickLabelFont(font);
        modelScale_->axis()->setLabelFont(font);
    }
    modelMap_->setColorScale(modelScale_);
    modelScale_->setVisible(false);
    modelLegend_ = insetLegend(modelRect_, Qt::AlignTop | Qt::AlignHCenter);
    // Two columns: the plot keeps its upper half.
    modelLegend_->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    modelLegend_->setWrap(2);
    planesCurve_ = addCurve(modelRect_, "planes", pen(colors::kPlane, 1.0));
    newestPlane_ = addCurve(modelRect_, "newest plane", pen(colors::kNewestPlane, 1.6));
    modelMax_ = addLineGraph(weightsPlot_, modelRect_, "model", pen(colors::kModel, 2.0));
    evaluatedCurve_ =
        addLineGraph(weightsPlot_, modelRect_, "D(\u03b2) solved", pen(colors::kFunction, 1.6));
    evaluatedCurve_->setScatterStyle(
        markerStyle(QCPScatterStyle::ssCircle, colors::kFunction, Qt::white, 4, 1.0));
    triangle_ = addCurve(modelRect_, "", pen(colors::kOutline, 1.2));
    iteratePath_ = addCurve(modelRect_, "iterates \u03b2\u209c", pen(colors::kPath, 1.0));
    iteratePath_->setScatterStyle(
        markerStyle(QCPScatterStyle::ssCircle, colors::kPath, Qt::white, 5));
    iterateValues_ =
        addPointsGraph(weightsPlot_, modelRect_, "D at iterates",
                       markerStyle(QCPScatterStyle::ssCircle, colors::kPath, Qt::white, 6));
    lpMinimiser_ = addPointsGraph(
        weightsPlot_, modelRect_, "LP minimiser",
        markerStyle(QCPScatterStyle::ssDisc, colors::kCandidate, colors::kCandidate, 8));
    for (auto*& label : vertexLabels_) {
        label = new QCPItemText(weightsPlot_);
        label->setClipAxisRect(modelRect_);
        label->setClipToAxisRect(false);
        label->position->setAxes(modelRect_->axis(QCPAxis::atBottom),
                                 modelRect_->axis(QCPAxis::atLeft));
        label->setColor(colors::kOutline);
        QFont font;
        font.setPointSize(8);
        label->setFont(font);
        label->setVisible(false);
    }
    modelNote_ = addNote(weightsPlot_, modelRect_);
    modelNote_->setText("no kernel weights yet");
    for (int i = 0; i < 8; ++i) {
        weightBars_.push_back(addLineGraph(weightsPlot_, modelRect_, {}, pen(runColor(i), 5.0)));
        weightBars_.back()->setLineStyle(QCPGraph::lsImpulse);
    }
    otherBars_ = addLineGraph(weightsPlot_, modelRect_, {}, pen(kOtherKernel, 3.0));
    otherBars_->setLineStyle(QCPGraph::lsImpulse);

    // Weights per iteration.
    betaRect_->axis(QCPAxis::atBottom)->setLabel("iteration");
    betaRect_->axis(QCPAxis::atLeft)->setLabel("kernel weight \u03b2\u2096");
    betaRect_->axis(QCPAxis::atLeft)->setRange(-0.02, 1.05);
    betaLegend_ = insetLegend(betaRect_, Qt::AlignTop | Qt::AlignRight);
    betaLegend_->setBrush(colors::kLegendFillLight);
    for (QCPAxisRect* rect : {betaRect_, dualRect_, callsRect_})
        rect->axis(QCPAxis::atBottom)->setTicker(integerTicker());

    // Dual objective and KKT violation.
    dualRect_->axis(QCPAxis::atBottom)->setLabel("iteration");
    dualRect_->axis(QCPAxis::atLeft)->setLabel("dual objective");
    QCPAxis* kktAxis = dualRect_->axis(QCPAxis::atRight);
    kktAxis->setVisible(true);
    kktAxis->setTickLabels(true);
    kktAxis->setLabel("max KKT violation");
    useLogScale(kktAxis);
    QCPLegend* dualLegend = insetLegend(dualRect_, Qt::AlignTop | Qt::AlignRight);
    dualObjective_ =
        addLineGraph(progressPlot_, dualRect_, "dual objective", pen(colors::kModel, 1.8));
    kktViolation_ = addLineGraph(progressPlot_, dualRect_, "KKT violation (right)",
                                 pen(colors::kCandidate, 1.4), true);
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
    smoPerStep_ =
        addLineGraph(progressPlot_, callsRect_, "SMO iterations", pen(colors::kModel, 1.4));
    smoPerStep_->setLineStyle(QCPGraph::lsStepCenter);
    callsPerStep_ =
        addLineGraph(progressPlot_, callsRect_, "SVM calls (right)", pen(colors::kBest, 1.4), true);
    callsPerStep_->setLineStyle(QCPGraph::lsNone);
    callsPerStep_->setScatterStyle(
        markerStyle(QCPScatterStyle::ssDisc, colors::kBest, colors::kBest, 5, 1.0));
    smoPerStep_->addToLegend(callsLegend);
    callsPerStep_->addToLegend(callsLegend);

    clear();
}

KernelView::~KernelView() {
    if (splitControls_ && !splitControls_->parent()) delete splitControls_;
    // The worker holds only copies and shared data; stop it before the watcher goes.
    if (job_) {
        job_->cancel.cancel();
        watcher_->cancel();
        watcher_->waitForFinished();
    }
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
    if (index < 0 || index >= tabs_->count()) return false;
    tabs_->setCurrentIndex(index);
    return true;
}

void KernelView::clear() {
    pathView_->clear();
    stack_->setCurrentWidget(tabs_);
    if (job_) {
        job_->cancel.cancel();
        watcher_->cancel();
    }
    snapshot_.reset();
    train_.reset();
    twoD_ = false;
    zeroSegments_ = 0;
    planesDrawn_ = 0;
    evaluatedSetup_.reset();
    evaluatedPoints_.clear();
    evaluatedValues_.clear();
    evaluateNote_->clear();
    notePossible_ = true;
    decisionMap_->data()->clear();
    decisionMap_->setVisible(false);
    for (QCPGraph* g :
         {positives_, negatives_, freeSvs_, boundSvs_, alphaPositive_, alphaNegative_, alphaBound_})
        g->data()->clear();
    for (QCPCurve* c : {zeroContour_, marginContours_})
        c->data()->clear();
    mapLegend_->clearItems();
    mapNote_->setVisible(false);
    hideModel(tr("no kernel weights yet"));
    rebuildWeightGraphs({});
    for (QCPGraph* g : {dualObjective_, kktViolation_, smoPerStep_, callsPerStep_})
        g->data()->clear();
    traceShown_ = 0;
    traceRun_ = -1;
    updateEvaluateControls();
    decisionReplot_->now();
    weightsReplot_->now();
    progressReplot_->now();
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
    const KernelSnapshot& s = *snapshot_;
    if (s.setup && s.setup->train != train_) setupTrainingData(s);
    if (!s.setup || !train_) {
        // A solver that rejected its input has no data to draw; its records may still come.
        mapNote_->setText(QString::fromStdString(s.status.message));
        mapNote_->setVisible(true);
        hideModel({});
    } else {
        if (twoD_) {
            drawDecision(s);
        } else {
            drawAlphas(s);
        }
        drawModel(s);
    }
    setTrace(frame.records, frame.columns, frame.runId);
    updateEvaluateControls();
    scheduleReplots();
    return true;
}

// ---- decision function ------------------------------------------------------------------

void KernelView::setupTrainingData(const KernelSnapshot& s) {
    train_ = s.setup->train;
    const Dataset& data = *train_;
    const bool precomputed =
        !s.setup->specs.empty() && s.setup->specs.front().type == KernelType::Precomputed;
    twoD_ = data.dimension() == 2 && !precomputed;
    mapLegend_->clearItems();
    QCPAxis* x = mapRect_->axis(QCPAxis::atBottom);
    QCPAxis* y = mapRect_->axis(QCPAxis::atLeft);
    for (QCPGraph* g :
         {positives_, negatives_, freeSvs_, boundSvs_, alphaPositive_, alphaNegative_, alphaBound_})
        g->data()->clear();
    for (QCPCurve* c : {zeroContour_, marginContours_})
        c->data()->clear();
    decisionMap_->setVisible(twoD_);
    if (!twoD_) {
        x->setLabel(QString("training example i (of %1)").arg(data.size()));
        y->setLabel("\u03b1\u1d62  (support vectors: \u03b1\u1d62 > 0)");
        for (QCPAbstractPlottable* p : std::initializer_list<QCPAbstractPlottable*>{
                 alphaPositive_, alphaNegative_, alphaBound_})
            p->addToLegend(mapLegend_);
        x->setRange(0, data.size() + 1);
        return;
    }
    x->setLabel(data.featureNames.size() == 2 ? QString::fromStdString(data.featureNames[0])
                                              : QString("x1"));
    y->setLabel(data.featureNames.size() == 2 ? QString::fromStdString(data.featureNames[1])
                                              : QString("x2"));
    QVector<double> px, py, nx, ny;
    for (int i = 0; i < data.size(); ++i) {
        const Eigen::VectorXd p = data.row(i);
        (data.labels(i) > 0 ? px : nx).append(p(0));
        (data.labels(i) > 0 ? py : ny).append(p(1));
    }
    positives_->setData(px, py);
    negatives_->setData(nx, ny);
    for (QCPAbstractPlottable* p : std::initializer_list<QCPAbstractPlottable*>{
             positives_, negatives_, zeroContour_, freeSvs_, boundSvs_, marginContours_})
        p->addToLegend(mapLegend_);
}

void KernelView::drawDecision(const KernelSnapshot& s) {
    const DecisionGrid& grid = s.grid;
    mapNote_->setVisible(grid.n < 2);
    mapNote_->setText("no decision function yet");
    const int segments = drawDecisionGrid(grid, decisionMap_, zeroContour_, marginContours_);
    if (segments >= 0) {
        decisionMap_->setVisible(true);
        zeroSegments_ = segments;
    } else {
        decisionMap_->setVisible(false);
        zeroContour_->data()->clear();
        marginContours_->data()->clear();
        zeroSegments_ = 0;
        positives_->rescaleAxes();
        negatives_->rescaleAxes(true);
    }
    QVector<double> fx, fy, bx, by;
    const double C = s.setup ? s.setup->C : 1.0;
    for (Eigen::Index i = 0; i < s.alpha.size() && i < train_->size(); ++i) {
        const double a = s.alpha(i);
        if (!(a > 0)) continue;
        const Eigen::VectorXd p = train_->row(static_cast<int>(i));
        if (isBound(a, C)) {
            bx.append(p(0));
            by.append(p(1));
        } else {
            fx.append(p(0));
            fy.append(p(1));
        }
    }
    freeSvs_->setData(fx, fy);
    boundSvs_->setData(bx, by);
}

void KernelView::drawAlphas(const KernelSnapshot& s) {
    mapNote_->setVisible(false);
    QVector<double> pi, pa, ni, na;
    for (Eigen::Index i = 0; i < s.alpha.size() && i < train_->size(); ++i) {
        const bool positive = train_->labels(i) > 0;
        (positive ? pi : ni).append(static_cast<double>(i + 1));
        (positive ? pa : na).append(s.alpha(i));
    }
    alphaPositive_->setData(pi, pa, true);
    alphaNegative_->setData(ni, na, true);
    const double C = s.setup ? s.setup->C : 1.0;
    alphaBound_->setData({0.0, static_cast<double>(train_->size() + 1)}, {C, C});
    mapRect_->axis(QCPAxis::atLeft)->setRange(0, 1.12 * C);
}

int KernelView::freeSupportVectorCount() const {
    if (twoD_) return freeSvs_->dataCount();
    if (!snapshot_ || !snapshot_->setup) return 0;
    int n = 0;
    for (Eigen::Index i = 0; i < snapshot_->alpha.size(); ++i)
        n += snapshot_->alpha(i) > 0 && !isBound(snapshot_->alpha(i), snapshot_->setup->C);
    return n;
}

int KernelView::boundSupportVectorCount() const {
    if (twoD_) return boundSvs_->dataCount();
    if (!snapshot_ || !snapshot_->setup) return 0;
    int n = 0;
    for (Eigen::Index i = 0; i < snapshot_->alpha.size(); ++i)
        n += snapshot_->alpha(i) > 0 && isBound(snapshot_->alpha(i), snapshot_->setup->C);
    return n;
}

// ---- the model of D(β) --------------------------------------------------------------------

void KernelView::hideModel(const QString& note) {
    modelMap_->setVisible(false);
    modelScale_->setVisible(false);
    for (QCPGraph* g : weightBars_)
        g->data()->clear();
    otherBars_->data()->clear();
    for (QCPCurve* c : {planesCurve_, newestPlane_, triangle_, iteratePath_})
        c->data()->clear();
    for (QCPGraph* g : {modelMax_, evaluatedCurve_, iterateValues_, lpMinimiser_})
        g->data()->clear();
    for (QCPItemText* label : vertexLabels_)
        label->setVisible(false);
    modelLegend_->clearItems();
    modelLegend_->setVisible(false);
    modelNote_->setText(note);
    modelNote_->setVisible(true);
    triangleShown_ = false;
    planesDrawn_ = 0;
    QCPAxis* x = modelRect_->axis(QCPAxis::atBottom);
    QCPAxis* y = modelRect_->axis(QCPAxis::atLeft);
    // Nothing to draw: the note alone, without empty axes.
    x->setLabel({});
    y->setLabel({});
    for (QCPAxis* a : {x, y}) {
        a->setVisible(false);
        a->grid()->setVisible(false);
    }
}

void KernelView::drawWeightBars(const KernelSnapshot& s) {
    // The weights now, by kernel: the ones the weights' legend names in its colours (by rank
    // when there are many kernels, by index otherwise), the rest grey.
    hideModel({});
    modelNote_->setVisible(false);
    const Eigen::Index k = s.beta.size();
    std::vector<Eigen::Index> order(static_cast<std::size_t>(k));
    std::iota(order.begin(), order.end(), Eigen::Index{0});
    std::stable_sort(order.begin(), order.end(),
                     [&s](Eigen::Index a, Eigen::Index b) { return s.beta(a) > s.beta(b); });
    const bool many = k > 8;
    QVector<double> ox, ov;
    for (Eigen::Index rank = 0; rank < k; ++rank) {
        const Eigen::Index index = many ? order[static_cast<std::size_t>(rank)] : rank;
        const double x = static_cast<double>(index + 1), beta = s.beta(index);
        const std::size_t slot = static_cast<std::size_t>(rank);
        if (slot < weightBars_.size() &&
            (!many || slot < static_cast<std::size_t>(kNamedKernels))) {
            weightBars_[slot]->setData({x}, {beta});
            weightBars_[slot]->setPen(pen(runColor(static_cast<int>(rank)), 5.0));
            weightBars_[slot]->setLineStyle(QCPGraph::lsImpulse);
        } else {
            ox.append(x);
            ov.append(beta);
        }
    }
    otherBars_->setData(ox, ov);
    QCPAxis* x = modelRect_->axis(QCPAxis::atBottom);
    QCPAxis* y = modelRect_->axis(QCPAxis::atLeft);
    for (QCPAxis* a : {x, y}) {
        a->setVisible(true);
        a->grid()->setVisible(true);
    }
    x->setLabel(tr("kernel k (of %1)").arg(k));
    y->setLabel(tr("weight \u03b2\u2096 now"));
    x->setRange(0, static_cast<double>(k) + 1);
    const double top = k > 0 ? s.beta.maxCoeff() : 1.0;
    y->setRange(0, std::max(0.05, 1.1 * top));
}

void KernelView::drawModel(const KernelSnapshot& s) {
    const std::size_t k = s.kernelLabels.size();
    if (k < 2) {
        hideModel(
            tr("one kernel: no weights to learn\n(silp and simplemkl\nlearn a "
               "combination)"));
        return;
    }
    if (k > 3) {
        drawWeightBars(s);
        return;
    }
    if (s.planes.empty()) {
        hideModel(tr("no cutting plane yet"));
        return;
    }
    modelNote_->setVisible(false);
    modelLegend_->setVisible(true);
    if (k == 2) {
        drawModelLine(s);
    } else {
        drawModelTriangle(s);
    }
}

void KernelView::drawModelLine(const KernelSnapshot& s) {
    triangleShown_ = false;
    modelMap_->setVisible(false);
    modelScale_->setVisible(false);
    alignInset(modelRect_, modelLegend_, Qt::AlignTop | Qt::AlignHCenter);
    triangle_->data()->clear();
    iteratePath_->data()->clear();
    for (QCPItemText* label : vertexLabels_)
        label->setVisible(false);
    QCPAxis* x = modelRect_->axis(QCPAxis::atBottom);
    QCPAxis* y = modelRect_->axis(QCPAxis::atLeft);
    for (QCPAxis* a : {x, y}) {
        a->setVisible(true);
        a->grid()->setVisible(true);
    }
    x->setLabel(
        QString("\u03b2\u2081 = weight of %1").arg(QString::fromStdString(s.kernelLabels[0])));
    y->setLabel("D(\u03b2)");
    // Plane i over β₁: β₁ S₁(αᵢ) + (1 − β₁) S₂(αᵢ), a segment from (0, S₂) to (1, S₁).
    QVector<QCPCurveData> planes;
    int t = 0;
    for (std::size_t i = 0; i + 1 < s.planes.size(); ++i) {
        const Eigen::VectorXd& p = s.planes[i];
        planes.append(QCPCurveData(t++, 0.0, p(1)));
        planes.append(QCPCurveData(t++, 1.0, p(0)));
        planes.append(QCPCurveData(t++, kNaN, kNaN));
    }
    planesCurve_->data()->set(planes, true);
    const Eigen::VectorXd& newest = s.planes.back();
    newestPlane_->setData({0, 1}, {0.0, 1.0}, {newest(1), newest(0)});
    planesDrawn_ = static_cast<int>(s.planes.size());
    // The model, max of the planes, on a fine grid (its kinks are at most one per plane).
    QVector<double> bx, mv;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (int i = 0; i <= 400; ++i) {
        const double b1 = i / 400.0;
        double m = -std::numeric_limits<double>::infinity();
        for (const auto& p : s.planes)
            m = std::max(m, b1 * p(0) + (1 - b1) * p(1));
        bx.append(b1);
        mv.append(m);
        lo = std::min(lo, m);
    }
    modelMax_->setData(bx, mv, true);
    QVector<double> ix, iv;
    for (std::size_t i = 0; i < s.betaIterates.size() && i < s.dValues.size(); ++i) {
        ix.append(s.betaIterates[i](0));
        iv.append(s.dValues[i]);
        hi = std::max(hi, s.dValues[i]);
        lo = std::min(lo, s.dValues[i]);
    }
    iterateValues_->setData(ix, iv);
    if (s.lpMinimiser.size() == 2) {
        lpMinimiser_->setData({s.lpMinimiser(0)}, {s.theta});
        lo = std::min(lo, s.theta);
    } else {
        lpMinimiser_->data()->clear();
    }
    const bool evaluated = evaluatedSetup_ && evaluatedSetup_ == s.setup &&
                           !evaluatedPoints_.empty() && evaluatedPoints_[0].size() == 2;
    if (evaluated) {
        QVector<double> ex, ev;
        for (std::size_t i = 0; i < evaluatedPoints_.size(); ++i) {
            if (!std::isfinite(evaluatedValues_[i])) continue;
            ex.append(evaluatedPoints_[i](0));
            ev.append(evaluatedValues_[i]);
            hi = std::max(hi, evaluatedValues_[i]);
        }
        evaluatedCurve_->setData(ex, ev, true);
    } else {
        evaluatedCurve_->data()->clear();
    }
    if (!(hi > lo)) hi = lo + std::max(1.0, std::abs(lo)) * 0.1;
    const double span = hi - lo;
    x->setRange(-0.02, 1.02);
    y->setRange(lo - 0.08 * span, hi + 0.35 * span);  // headroom for the legend
    showIn(planesCurve_, modelLegend_, s.planes.size() > 1);
    showIn(newestPlane_, modelLegend_, true);
    showIn(modelMax_, modelLegend_, true);
    showIn(iterateValues_, modelLegend_, !ix.isEmpty());
    showIn(lpMinimiser_, modelLegend_, s.lpMinimiser.size() == 2);
    showIn(evaluatedCurve_, modelLegend_, evaluated);
    showIn(iteratePath_, modelLegend_, false);
}

void KernelView::drawModelTriangle(const KernelSnapshot& s) {
    triangleShown_ = true;
    planesCurve_->data()->clear();
    newestPlane_->data()->clear();
    modelMax_->data()->clear();
    iterateValues_->data()->clear();
    evaluatedCurve_->data()->clear();
    planesDrawn_ = static_cast<int>(s.planes.size());
    QCPAxis* x = modelRect_->axis(QCPAxis::atBottom);
    QCPAxis* y = modelRect_->axis(QCPAxis::atLeft);
    // Axes mean nothing on the triangle: hidden; the colour scale sits under it.
    for (QCPAxis* a : {x, y}) {
        a->setVisible(false);
        a->grid()->setVisible(false);
    }
    alignInset(modelRect_, modelLegend_, Qt::AlignTop | Qt::AlignLeft);

    // The values over the triangle: D itself where it was evaluated for this run (linear
    // interpolation on the lattice of step 1/n), else the cutting-plane model.
    const bool evaluated = evaluatedSetup_ && evaluatedSetup_ == s.setup &&
                           !evaluatedPoints_.empty() && evaluatedPoints_[0].size() == 3 &&
                           evaluatedDivisions_ > 0;
    const int n = evaluatedDivisions_;
    auto lattice = [&](int i, int j) {
        // Point (i/n, j/n, 1 − (i + j)/n), stored in the order evaluateObjectiveGrid made them.
        if (i < 0 || j < 0 || i + j > n) return 0.0;
        const int index = i * (n + 1) - i * (i - 1) / 2 + j;
        const double v = evaluatedValues_[static_cast<std::size_t>(index)];
        return std::isfinite(v) ? v : 0.0;
    };
    auto value = [&](const Eigen::Vector3d& beta) {
        if (!evaluated) {
            double m = -std::numeric_limits<double>::infinity();
            for (const auto& p : s.planes)
                m = std::max(m, p.dot(beta));
            return m;
        }
        const double u = n * beta(0), v = n * beta(1);
        const int i = static_cast<int>(std::floor(u)), j = static_cast<int>(std::floor(v));
        const double fu = u - i, fv = v - j;
        if (fu + fv <= 1.0) {
            return (1 - fu - fv) * lattice(i, j) + fu * lattice(i + 1, j) + fv * lattice(i, j + 1);
        }
        return (fu + fv - 1) * lattice(i + 1, j + 1) + (1 - fv) * lattice(i + 1, j) +
               (1 - fu) * lattice(i, j + 1);
    };
    const int nx = 161, ny = 141;
    modelMap_->data()->setSize(nx, ny);
    modelMap_->data()->setRange(QCPRange(0, 1), QCPRange(0, kTriangleHeight));
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (int j = 0; j < ny; ++j) {
        const double b3 = static_cast<double>(j) / (ny - 1);
        for (int i = 0; i < nx; ++i) {
            const double px = static_cast<double>(i) / (nx - 1);
            const double b2 = px - 0.5 * b3;
            const double b1 = 1.0 - b2 - b3;
            double v = kNaN;
            if (b1 >= -1e-9 && b2 >= -1e-9 && b3 >= -1e-9) {
                v = value(Eigen::Vector3d(std::max(b1, 0.0), std::max(b2, 0.0), b3));
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
            modelMap_->data()->setCell(i, j, v);
        }
    }
    // D grows steeply towards the edges where a needed kernel has no weight: the colours
    // span the lower 85 % of the values, the rest saturates.
    std::vector<double> finite;
    for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
            const double v = modelMap_->data()->cell(i, j);
            if (std::isfinite(v)) finite.push_back(v);
        }
    }
    double top = hi;
    if (!finite.empty()) {
        const std::size_t q = (finite.size() - 1) * 85 / 100;
        std::nth_element(finite.begin(), finite.begin() + static_cast<std::ptrdiff_t>(q),
                         finite.end());
        top = finite[q];
    }
    if (!(top > lo)) top = hi > lo ? hi : lo + 1;
    modelScale_->setDataRange(QCPRange(lo, top));
    modelScale_->setLabel(evaluated ? QString("D(\u03b2) from %1 SVM solves (max %2)")
                                          .arg(evaluatedPoints_.size())
                                          .arg(hi, 0, 'g', 5)
                                    : QString("model max\u1d62 \u03a3\u2096 \u03b2\u2096 "
                                              "S\u2096(\u03b1\u1d62) (max %1)")
                                          .arg(hi, 0, 'g', 5));
    modelScale_->setVisible(true);
    modelMap_->setVisible(true);
    triangle_->setData({0, 1, 2, 3}, {0.0, 1.0, 0.5, 0.0}, {0.0, 0.0, kTriangleHeight, 0.0});
    const QPointF corners[3] = {{-0.02, -0.07}, {1.02, -0.07}, {0.5, kTriangleHeight + 0.06}};
    const Qt::Alignment align[3] = {Qt::AlignLeft | Qt::AlignTop, Qt::AlignRight | Qt::AlignTop,
                                    Qt::AlignHCenter | Qt::AlignBottom};
    for (int c = 0; c < 3; ++c) {
        vertexLabels_[c]->setText(
            QString::fromStdString(s.kernelLabels[static_cast<std::size_t>(c)]));
        vertexLabels_[c]->position->setCoords(corners[c]);
        vertexLabels_[c]->setPositionAlignment(align[c]);
        vertexLabels_[c]->setVisible(true);
    }
    QVector<double> t, px, py;
    for (std::size_t i = 0; i < s.betaIterates.size(); ++i) {
        if (s.betaIterates[i].size() != 3) continue;
        const QPointF p = trianglePoint(s.betaIterates[i]);
        t.append(static_cast<double>(i));
        px.append(p.x());
        py.append(p.y());
    }
    iteratePath_->setData(t, px, py);
    if (s.lpMinimiser.size() == 3) {
        const QPointF p = trianglePoint(s.lpMinimiser);
        lpMinimiser_->setData({p.x()}, {p.y()});
    } else {
        lpMinimiser_->data()->clear();
    }
    x->setRange(-0.2, 1.2);
    y->setRange(-0.16, kTriangleHeight + 0.2);
    showIn(planesCurve_, modelLegend_, false);
    showIn(newestPlane_, modelLegend_, false);
    showIn(modelMax_, modelLegend_, false);
    showIn(iterateValues_, modelLegend_, false);
    showIn(evaluatedCurve_, modelLegend_, false);
    showIn(iteratePath_, modelLegend_, !t.isEmpty());
    showIn(lpMinimiser_, modelLegend_, s.lpMinimiser.size() == 3);
    modelLegend_->setVisible(modelLegend_->itemCount() > 0);
}

QCustomPlot* KernelView::plot() const {
    if (stack_->currentWidget() == pathView_) return pathView_->plot();
    switch (tabs_->currentIndex()) {
        case 1:
            return weightsPlot_;
        case 2:
            return progressPlot_;
        default:
            return decisionPlot_;
    }
}

void KernelView::showTab(int index) {
    tabs_->setCurrentIndex(index);
}

void KernelView::scheduleReplots() {
    // Only the plot on view; another tab is replotted when it is shown.
    if (QCustomPlot* shown = plot()) {
        if (shown == decisionPlot_) decisionReplot_->schedule();
        if (shown == weightsPlot_) weightsReplot_->schedule();
        if (shown == progressPlot_) progressReplot_->schedule();
    }
}

void KernelView::fixAspect() {
    // The triangle keeps its shape: one unit on y as long as one on x.
    if (triangleShown_) {
        modelRect_->axis(QCPAxis::atLeft)->setScaleRatio(modelRect_->axis(QCPAxis::atBottom), 1.0);
    }
}

// ---- records ------------------------------------------------------------------------------

void KernelView::rebuildWeightGraphs(const std::vector<std::string>& labels) {
    if (labels == weightLabels_ && !weightGraphs_.empty()) {
        for (QCPGraph* g : weightGraphs_)
            g->data()->clear();
        return;
    }
    for (QCPGraph* g : weightGraphs_)
        weightsPlot_->removeGraph(g);
    weightGraphs_.clear();
    weightLabels_ = labels;
    betaLegend_->clearItems();
    for (std::size_t k = 0; k < labels.size(); ++k) {
        weightGraphs_.push_back(addLineGraph(weightsPlot_, betaRect_,
                                             QString::fromStdString(labels[k]),
                                             pen(runColor(static_cast<int>(k)), 1.6)));
    }
}

void KernelView::styleWeightGraphs() {
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
            g->setPen(named ? pen(runColor(static_cast<int>(rank)), 1.8) : pen(kOtherKernel, 0.8));
            g->setLayer(named ? "main" : "grid");
        }
        if (named && (!many || newest(order[rank]) > 0)) g->addToLegend(betaLegend_);
    }
    betaLegend_->setVisible(betaLegend_->itemCount() > 0);
}

int KernelView::namedKernelCount() const {
    return betaLegend_->itemCount();
}

void KernelView::setTrace(std::span<const IterationRecord> trace,
                          const std::vector<std::string>& columns, int runId) {
    std::vector<std::string> labels;
    std::vector<int> betaColumns;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        if (columns[c].rfind("beta:", 0) == 0) {
            labels.push_back(columns[c].substr(5));
            betaColumns.push_back(static_cast<int>(c));
        }
    }
    // Another run, a reset or a step back starts over; else the new records are appended.
    if (trace.size() < traceShown_ || runId != traceRun_ || labels != weightLabels_) {
        rebuildWeightGraphs(labels);
        for (QCPGraph* g : {dualObjective_, kktViolation_, smoPerStep_, callsPerStep_})
            g->data()->clear();
        traceShown_ = 0;
        traceRun_ = runId;
        lastSvmCalls_ = 0.0;
        lastSmoIterations_ = 0.0;
    }
    const int dual = columnOf(columns, "dual_objective");
    const int kkt = columnOf(columns, "kkt_violation");
    const int calls = columnOf(columns, "svm_calls");
    const int smo = columnOf(columns, "smo_iterations");
    for (std::size_t i = traceShown_; i < trace.size(); ++i) {
        const IterationRecord& r = trace[i];
        const double it = r.iteration;
        for (std::size_t k = 0; k < weightGraphs_.size(); ++k)
            weightGraphs_[k]->addData(it, extraAt(r, betaColumns[k]));
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
    traceShown_ = trace.size();
    styleWeightGraphs();

    const double last = trace.empty() ? 1.0 : std::max(1, trace.back().iteration);
    for (QCPAxisRect* rect : {betaRect_, dualRect_, callsRect_})
        rect->axis(QCPAxis::atBottom)->setRange(0, last + 0.5);
    bool found = false;
    QCPRange range = dualObjective_->getValueRange(found);
    if (found) {
        const double pad =
            std::max(0.05 * range.size(), 1e-9 * std::max(1.0, std::abs(range.upper)));
        dualRect_->axis(QCPAxis::atLeft)
            ->setRange(range.lower - pad, range.upper + 0.3 * range.size() + pad);
    }
    range = kktViolation_->getValueRange(found, QCP::sdPositive);
    if (found) setLogRange(dualRect_->axis(QCPAxis::atRight), range.lower, range.upper);
    range = smoPerStep_->getValueRange(found, QCP::sdPositive);
    if (found) setLogRange(callsRect_->axis(QCPAxis::atLeft), range.lower, range.upper * 3);
    range = callsPerStep_->getValueRange(found);
    if (found) callsRect_->axis(QCPAxis::atRight)->setRange(0, std::max(2.0, range.upper * 1.3));
}

// ---- status ---------------------------------------------------------------------------------

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

bool KernelView::evaluating() const {
    return job_ != nullptr;
}

void KernelView::updateEvaluateControls() {
    const std::size_t k = snapshot_ && snapshot_->setup ? snapshot_->setup->specs.size() : 0;
    const bool possible = k == 2 || k == 3;
    evaluateButton_->setEnabled(possible && !evaluating());
    // Without a grid to evaluate, the note says why (and replaces an older run's message).
    if (!evaluating() && snapshot_ && !possible) {
        evaluateNote_->setText(
            k < 2 ? tr("one kernel: no weights, no D(\u03b2) over them")
                  : tr("D(\u03b2) on a grid: for 2 or 3 kernels (here %1)").arg(k));
        notePossible_ = false;
    } else if (!evaluating() && possible && !notePossible_) {
        evaluateNote_->clear();
        notePossible_ = true;
    }
    cancelButton_->setVisible(evaluating());
    progress_->setVisible(evaluating());
}

void KernelView::evaluateObjectiveGrid() {
    if (evaluating() || !snapshot_ || !snapshot_->setup) return;
    const std::size_t k = snapshot_->setup->specs.size();
    if (k != 2 && k != 3) return;
    auto job = std::make_shared<Job>();
    job->setup = snapshot_->setup;
    if (k == 2) {
        for (int i = 0; i <= kLineDivisions; ++i) {
            const double b = static_cast<double>(i) / kLineDivisions;
            job->points.push_back(Eigen::Vector2d(b, 1.0 - b));
        }
    } else {
        // Lattice point (i, j) at index i(n + 1) − i(i − 1)/2 + j (rows of shrinking length).
        const int n = kTriangleDivisions;
        job->divisions = n;
        for (int i = 0; i <= n; ++i) {
            for (int j = 0; i + j <= n; ++j) {
                job->points.push_back(Eigen::Vector3d(static_cast<double>(i) / n,
                                                      static_cast<double>(j) / n,
                                                      static_cast<double>(n - i - j) / n));
            }
        }
    }
    job->values.assign(job->points.size(), kNaN);
    job->clock.start();
    auto promise = std::make_shared<QPromise<void>>();
    promise->setProgressRange(0, static_cast<int>(job->points.size()));
    watcher_->setFuture(promise->future());
    promise->start();
    job_ = job;
    progress_->setRange(0, static_cast<int>(job->points.size()));
    progress_->setValue(0);
    evaluateNote_->setText(tr("solving %1 SVMs on a worker thread ...").arg(job->points.size()));
    updateEvaluateControls();
    // The worker reads only the job's copies and the immutable setup.
    QThreadPool::globalInstance()->start([promise, job] {
        for (std::size_t i = 0; i < job->points.size(); ++i) {
            if (promise->isCanceled() || job->cancel.cancelled()) break;
            try {
                job->values[i] = evaluateMklObjective(*job->setup, job->points[i], &job->cancel);
            } catch (const std::exception& e) {
                job->error = e.what();
                break;
            }
            promise->setProgressValue(static_cast<int>(i + 1));
        }
        promise->finish();
    });
}

void KernelView::onEvaluationFinished() {
    if (!job_) return;
    const std::shared_ptr<Job> job = std::move(job_);
    job_.reset();
    const bool cancelled = job->cancel.cancelled() || watcher_->isCanceled();
    QString message;
    bool ok = false;
    if (!job->error.empty()) {
        message = tr("D(\u03b2) on a grid failed: %1").arg(QString::fromStdString(job->error));
    } else if (cancelled) {
        message = tr("D(\u03b2) on a grid cancelled");
    } else {
        ok = true;
        evaluatedSetup_ = job->setup;
        evaluatedPoints_ = job->points;
        evaluatedValues_ = job->values;
        evaluatedDivisions_ = job->divisions;
        const qint64 ms = job->clock.elapsed();
        message =
            tr("D(\u03b2) at %1 points in %2")
                .arg(job->points.size())
                .arg(ms < 1000 ? tr("%1 ms").arg(ms) : tr("%1 s").arg(ms / 1000.0, 0, 'f', 1));
    }
    evaluateNote_->setText(message);
    updateEvaluateControls();
    if (ok && snapshot_) {
        drawModel(*snapshot_);
        weightsReplot_->schedule();
    }
    emit objectiveGridEvaluated(ok, message);
}

FamilyView* kernelView(QWidget* parent) {
    return new KernelView(parent);
}

}  // namespace cplab::widgets
