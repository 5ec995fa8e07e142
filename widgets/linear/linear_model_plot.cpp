// SPDX-License-Identifier: GPL-3.0-or-later
#include "linear_model_plot.h"

#include <qcustomplot.h>

#include <QResizeEvent>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "coalesced_replot.h"
#include "decision_map.h"
#include "legend_placement.h"
#include "plot_reset.h"
#include "plot_style.h"
#include "race_graphs.h"

namespace cplab::widgets {

namespace {

// Apart from the run colours (plot_style's runColor): a run's colour means only that run.
const QColor kPositive{45, 75, 160};
const QColor kNegative{180, 30, 60};
const QColor kLineBest{20, 20, 20};
const QColor kLineModel = colors::kProx;
const QColor kLineCut = colors::kNewestPlane;

// Up to this many components of w_b are drawn one bar (and marker) each. Beyond, each of
// kWeightGroups runs of consecutive features is drawn as its smallest and its largest
// component (the panel has a few hundred pixels across, so the picture is the same): a
// marker per feature of a file with 10^6 features took QCustomPlot over ten seconds to draw.
constexpr Eigen::Index kMaxWeightBars = 1024;
constexpr Eigen::Index kWeightGroups = 512;

// The x labels of the data and slice panels; narrow panels (no legends) say just "x1" and "k".
const QString kDataLabel = "x1      (o: class +1,  x: class -1)";
const QString kSliceLabel = "k  (w_b + k (w_t - w_b))";

// `legend` as the row under the upper panel of `column`: entries side by side, 8 pt, no frame.
void placeLegendRow(QCustomPlot* plot, QCPLegend* legend, int column) {
    plot->plotLayout()->addElement(1, column, legend);
    legend->setLayer("legend");
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(3);
    QFont font;
    font.setPointSize(8);
    legend->setFont(font);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setMargins(QMargins(4, 0, 4, 2));
    legend->setRowSpacing(0);
    legend->setColumnSpacing(6);
    legend->setIconSize(18, 10);
    legend->setVisible(true);
}

}  // namespace

LinearModelPlot::LinearModelPlot(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    plot_->setObjectName("linearModelPlot");
    applyPlotStyle(plot_);
    setMinimumSize(300, 200);
    replot_ = new CoalescedReplot(plot_, [this] { fitLegendRows(); });

    dataRect_ = plot_->axisRect();
    dataRect_->setObjectName(kTrainingPointsRect);  // 2-D data can be edited there
    sliceRect_ = new QCPAxisRect(plot_);
    progressRect_ = new QCPAxisRect(plot_);
    planesRect_ = new QCPAxisRect(plot_);
    plot_->plotLayout()->addElement(0, 1, sliceRect_);
    plot_->plotLayout()->addElement(1, 0, progressRect_);
    plot_->plotLayout()->addElement(1, 1, planesRect_);
    for (QCPAxisRect* rect : {dataRect_, sliceRect_, progressRect_, planesRect_}) {
        styleAxisRect(rect);
    }
    // A row under the data and the slice for their legends (inside, they covered the points
    // and ran past the panels' edges).
    plot_->plotLayout()->insertRow(1);
    plot_->plotLayout()->setRowStretchFactors({1.0, 0.001, 1.0});

    dataRect_->axis(QCPAxis::atBottom)->setLabel("x1");
    dataRect_->axis(QCPAxis::atLeft)->setLabel("x2");
    plot_->legend->setVisible(true);
    QFont small;
    small.setPointSize(8);
    plot_->legend->setFont(small);
    positives_ = addLineGraph(plot_, dataRect_, "class +1", Qt::NoPen);
    negatives_ = addLineGraph(plot_, dataRect_, "class -1", Qt::NoPen);
    positives_->setLineStyle(QCPGraph::lsNone);
    negatives_->setLineStyle(QCPGraph::lsNone);
    positives_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kPositive, 5));
    negatives_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, kNegative, 5));
    auto line = [&](const QString& name, const QColor& color, Qt::PenStyle style) {
        auto* c =
            new QCPCurve(dataRect_->axis(QCPAxis::atBottom), dataRect_->axis(QCPAxis::atLeft));
        c->setName(name);
        c->setPen(pen(color, 2.0, style));
        return c;
    };
    weightBars_ = addLineGraph(plot_, dataRect_, "weights of w_b", pen(colors::kModel, 1.5));
    weightBars_->setLineStyle(QCPGraph::lsImpulse);
    weightBars_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 3));
    lineBest_ = line("w_b best", kLineBest, Qt::SolidLine);
    lineModel_ = line("w_t model", kLineModel, Qt::DashLine);
    lineCut_ = line("w_c cut", kLineCut, Qt::DotLine);
    // The points fill the panel: the classes are named in the axis label, the legend only
    // lists the three lines and lets the points show through.
    positives_->removeFromLegend();
    negatives_->removeFromLegend();
    dataRect_->insetLayout()->take(plot_->legend);
    placeLegendRow(plot_, plot_->legend, 0);

    createSlicePanel();

    createTracePanels();
}

LinearModelPlot::~LinearModelPlot() = default;

void LinearModelPlot::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // The arrangement whose panels are nearer square: two rows of two (each w/2 by h/2, the
    // view's own shape) or one row of four (each w/4 by h). One row wins when the view is more
    // than twice as wide as high (presenting, or 150 % fonts on a 1280x720 screen: 523 x 162
    // logical pixels, where two rows left panels 81 px high) and has room for four panels of
    // 120 px. In panels narrower than 280 px the legends under the data and the slice wrap to
    // three lines, which took half the height, and the run legends cover the curves: there the
    // lines go without (the caption, the pseudocode and the bounds plot's legend name them).
    const bool oneRow = width() >= 4 * 120 && width() > 2 * height();
    arrangePanels(oneRow, !oneRow || width() >= 4 * 280);
}

void LinearModelPlot::arrangePanels(bool oneRow, bool legends) {
    if (oneRow == oneRow_ && legends == legendsShown_) return;
    oneRow_ = oneRow;
    legendsShown_ = legends;
    QCPLayoutGrid* grid = plot_->plotLayout();
    for (QCPLayoutElement* element : std::initializer_list<QCPLayoutElement*>{
             progressRect_, planesRect_, plot_->legend, sliceLegend_})
        grid->take(element);
    grid->simplify();
    // Row 0: the data and the slice; row 1: their legends, when shown; the error and planes
    // panels beside them in row 0 or in the row below.
    // Narrow panels: the run legends of the error and planes panels covered their curves (the
    // runs' colours are in the bounds plot's legend), long x labels ran into each other and
    // five ticks into one number.
    for (QCPLegend* legend : {plot_->legend, sliceLegend_, errorLegend_, planesLegend_})
        legend->setVisible(legends);
    for (QCPAxisRect* rect : {dataRect_, sliceRect_, progressRect_, planesRect_})
        rect->axis(QCPAxis::atBottom)->ticker()->setTickCount(legends ? 5 : 2);
    QCPAxis* dataX = dataRect_->axis(QCPAxis::atBottom);
    if (dataX->label() == kDataLabel || dataX->label() == "x1")
        dataX->setLabel(legends ? kDataLabel : "x1");
    sliceRect_->axis(QCPAxis::atBottom)->setLabel(legends ? kSliceLabel : "k");
    if (legends) {
        grid->addElement(1, 0, plot_->legend);
        grid->addElement(1, 1, sliceLegend_);
    }
    const int row = oneRow ? 0 : (legends ? 2 : 1);
    const int column = oneRow ? 2 : 0;
    grid->addElement(row, column, progressRect_);
    grid->addElement(row, column + 1, planesRect_);
    grid->simplify();
    QList<double> rows(grid->rowCount(), 1.0);
    if (legends) rows[1] = 0.001;
    grid->setRowStretchFactors(rows);
    grid->setColumnStretchFactors(QList<double>(grid->columnCount(), 1.0));
    scheduleReplot();
}

void LinearModelPlot::fitLegendRows() {
    // As many entries side by side as the panel's width holds (3 in a wide window, one a line
    // in a narrow one), never cut off at the panel's edge.
    fitLegendWrap(plot_->legend, dataRect_->outerRect().width(), 3);
    fitLegendWrap(sliceLegend_, sliceRect_->outerRect().width(), 3);
}

void LinearModelPlot::createTracePanels() {
    progressRect_->axis(QCPAxis::atBottom)->setLabel("iteration");
    progressRect_->axis(QCPAxis::atLeft)->setLabel("error of w_b (- - test)");
    errorLegend_ = addInsetLegend(progressRect_, Qt::AlignTop | Qt::AlignRight);
    errorLegend_->setRowSpacing(0);
    errorLegend_->setIconSize(18, 10);
    trainError_ = addLineGraph(plot_, progressRect_, "training error", pen(colors::kModel, 1.8));
    testError_ = addLineGraph(plot_, progressRect_, "test error", pen(colors::kCandidate, 1.8));
    for (QCPGraph* g : {trainError_, testError_}) {
        g->removeFromLegend();
        g->addToLegend(errorLegend_);
    }
    planesRect_->axis(QCPAxis::atBottom)->setLabel("iteration");
    planesRect_->axis(QCPAxis::atLeft)->setLabel("planes (stored)");
    planesLegend_ = addInsetLegend(planesRect_, Qt::AlignTop | Qt::AlignLeft);
    planesLegend_->setRowSpacing(0);
    planesLegend_->setIconSize(18, 10);
    planes_ = addLineGraph(plot_, planesRect_, "stored", pen(colors::kOutline, 1.8));
    activePlanes_ = addLineGraph(plot_, planesRect_, "active", pen(colors::kBest, 1.8));
    for (QCPGraph* g : {planes_, activePlanes_}) {
        g->removeFromLegend();
        g->addToLegend(planesLegend_);
    }
    raceTrain_ = std::make_unique<RaceGraphs>(plot_, progressRect_, errorLegend_, 1.4);
    raceTest_ = std::make_unique<RaceGraphs>(plot_, progressRect_, nullptr, 1.2, Qt::DashLine);
    racePlanes_ = std::make_unique<RaceGraphs>(plot_, planesRect_, planesLegend_, 1.4);
}

void LinearModelPlot::setRace(std::span<const RaceEntry> race, int selectedRunId) {
    // Racing, every run's training error (test dashed) and stored planes in its colour; the
    // selected run's own curves of them step aside (its active planes stay).
    const bool racing = racePlanes_->draw(race, selectedRunId, columnValue("planes")) > 0;
    raceTrain_->draw(race, selectedRunId, columnValue("train_error"));
    raceTest_->draw(race, selectedRunId, columnValue("test_error"));
    for (QCPGraph* g : {trainError_, testError_, planes_}) {
        g->setVisible(!racing);
        QCPLegend* legend = g == planes_ ? planesLegend_ : errorLegend_;
        if (racing) {
            g->removeFromLegend(legend);
        } else if (!legend->hasItemWithPlottable(g)) {
            g->addToLegend(legend);
        }
    }
    rescaleTrace();
    scheduleReplot();
}

void LinearModelPlot::rescaleTrace() {
    // Every curve on view, with headroom above for the legends.
    for (QCPAxisRect* rect : {progressRect_, planesRect_}) {
        bool any = false;
        QCPRange keys, values;
        for (QCPGraph* g : rect->graphs()) {
            bool foundKey = false, foundValue = false;
            const QCPRange k = g->getKeyRange(foundKey), v = g->getValueRange(foundValue);
            if (!g->visible() || !foundKey || !foundValue) continue;
            keys = any ? QCPRange(std::min(keys.lower, k.lower), std::max(keys.upper, k.upper)) : k;
            values =
                any ? QCPRange(std::min(values.lower, v.lower), std::max(values.upper, v.upper))
                    : v;
            any = true;
        }
        if (!any) continue;
        rect->axis(QCPAxis::atBottom)->setRange(keys.lower, std::max(keys.upper, keys.lower + 1));
        const double top = std::max(values.upper, values.lower + 1e-9);
        rect->axis(QCPAxis::atLeft)->setRange(std::min(0.0, values.lower), top * 1.45);
    }
}

void LinearModelPlot::createSlicePanel() {
    // OCAS's line search: f along the line from w_b towards w_t, its breakpoints, k_t.
    sliceRect_->axis(QCPAxis::atBottom)->setLabel(kSliceLabel);
    sliceRect_->axis(QCPAxis::atLeft)->setLabel("F along the line");
    auto* sliceLegend = new QCPLegend;
    placeLegendRow(plot_, sliceLegend, 1);
    sliceLegend_ = sliceLegend;
    slice_ = addLineGraph(plot_, sliceRect_, "f(k)", pen(colors::kModel, 2.0));
    breakpoints_ = addLineGraph(plot_, sliceRect_, "breakpoints", Qt::NoPen);
    breakpoints_->setLineStyle(QCPGraph::lsNone);
    breakpoints_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssPlus, colors::kBreakpoint, 5));
    chosen_ = addLineGraph(plot_, sliceRect_, "chosen k_t", Qt::NoPen);
    chosen_->setLineStyle(QCPGraph::lsNone);
    chosen_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssDisc, colors::kCandidate, colors::kCandidate, 8));
    chosenLine_ =
        new QCPCurve(sliceRect_->axis(QCPAxis::atBottom), sliceRect_->axis(QCPAxis::atLeft));
    chosenLine_->setPen(pen(colors::kCandidate, 1.0, Qt::DashLine));
    for (QCPAbstractPlottable* p :
         std::initializer_list<QCPAbstractPlottable*>{slice_, breakpoints_, chosen_}) {
        p->removeFromLegend();
        p->addToLegend(sliceLegend);
    }
    chosenLine_->removeFromLegend();
    sliceNote_ = addNote(plot_, sliceRect_);
    sliceNote_->setText("no line search in this solver");
}

void LinearModelPlot::scheduleReplot() {
    replot_->schedule();
}

void LinearModelPlot::clear() {
    data_.reset();
    traceShown_ = 0;
    traceRun_ = -1;
    twoD_ = false;
    setShowsTrainingPoints(dataRect_, false);
    for (RaceGraphs* race : {raceTrain_.get(), raceTest_.get(), racePlanes_.get()})
        race->clear();
    resetPlot(plot_);
    // The data panel names no dataset's features until the next one is set up.
    dataRect_->axis(QCPAxis::atBottom)->setLabel("x1");
    dataRect_->axis(QCPAxis::atLeft)->setLabel("x2");
    sliceNote_->setVisible(false);
    replot_->now();
}

int LinearModelPlot::separatingLineCount() const {
    int count = 0;
    for (QCPCurve* c : {lineBest_, lineModel_, lineCut_})
        count += c->dataCount() > 0 ? 1 : 0;
    return count;
}

void LinearModelPlot::setupData(const Dataset& data) {
    // Points drawn within the box shown keep it, so that the axes do not move under the mouse.
    const bool wasTwoD = twoD_;
    twoD_ = data.dimension() == 2;
    setShowsTrainingPoints(dataRect_, twoD_);
    positives_->data()->clear();
    negatives_->data()->clear();
    weightBars_->data()->clear();
    for (QCPAbstractPlottable* p :
         std::initializer_list<QCPAbstractPlottable*>{lineBest_, lineModel_, lineCut_}) {
        if (twoD_) {
            p->addToLegend();
        } else {
            p->removeFromLegend();
        }
    }
    if (twoD_) {
        weightBars_->removeFromLegend();
    } else {
        weightBars_->addToLegend();
    }
    if (!twoD_) {
        dataRect_->axis(QCPAxis::atBottom)
            ->setLabel(QString("feature (of %1; a bias comes last)").arg(data.dimension()));
        dataRect_->axis(QCPAxis::atLeft)->setLabel("weight of w_b");
        return;
    }
    dataRect_->axis(QCPAxis::atLeft)->setLabel("x2");
    dataRect_->axis(QCPAxis::atBottom)->setLabel(legendsShown_ ? kDataLabel : "x1");
    QVector<double> px, py, nx, ny;
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    for (int i = 0; i < data.size(); ++i) {
        const Eigen::VectorXd x = data.row(i);
        (data.labels(i) > 0 ? px : nx).append(x(0));
        (data.labels(i) > 0 ? py : ny).append(x(1));
        x0 = std::min(x0, x(0));
        x1 = std::max(x1, x(0));
        y0 = std::min(y0, x(1));
        y1 = std::max(y1, x(1));
    }
    const double mx = 0.08 * std::max(x1 - x0, 1e-9), my = 0.08 * std::max(y1 - y0, 1e-9);
    if (!wasTwoD || x0 < box_[0] || x1 > box_[1] || y0 < box_[2] || y1 > box_[3]) {
        box_[0] = x0 - mx;
        box_[1] = x1 + mx;
        box_[2] = y0 - my;
        box_[3] = y1 + my;
    }
    positives_->setData(px, py);
    negatives_->setData(nx, ny);
    dataRect_->axis(QCPAxis::atBottom)->setRange(box_[0], box_[1]);
    dataRect_->axis(QCPAxis::atLeft)->setRange(box_[2], box_[3]);
}

void LinearModelPlot::drawSeparator(QCPCurve* curve, const Eigen::VectorXd& w, bool bias) {
    curve->data()->clear();
    if (!twoD_ || w.size() < 2) return;
    const double a = w(0), b = w(1), c = bias && w.size() > 2 ? w(2) : 0.0;
    // Intersections of a·x + b·y + c = 0 with the four sides of the view box.
    QVector<double> xs, ys;
    auto keep = [&](double x, double y) {
        const double tx = 1e-9 * (box_[1] - box_[0]), ty = 1e-9 * (box_[3] - box_[2]);
        if (x >= box_[0] - tx && x <= box_[1] + tx && y >= box_[2] - ty && y <= box_[3] + ty) {
            xs.append(x);
            ys.append(y);
        }
    };
    if (b != 0) {
        keep(box_[0], -(a * box_[0] + c) / b);
        keep(box_[1], -(a * box_[1] + c) / b);
    }
    if (a != 0) {
        keep(-(b * box_[2] + c) / a, box_[2]);
        keep(-(b * box_[3] + c) / a, box_[3]);
    }
    if (xs.size() < 2) return;
    curve->setData({0, 1}, {xs[0], xs.back()}, {ys[0], ys.back()});
}

void LinearModelPlot::setSnapshot(std::shared_ptr<const LinearSvmSnapshot> s) {
    if (!s || !s->train) return;
    if (s->train != data_) {
        data_ = s->train;
        setupData(*data_);
    }
    const bool binary = s->outputs == 1;
    if (!twoD_) {
        // The weight vector of w_b (all classes' blocks one after the other); a long one as
        // the smallest and the largest component of each group of features.
        const Eigen::VectorXd& w = s->wBest;
        const Eigen::Index d = w.size();
        const bool grouped = d > kMaxWeightBars;
        QVector<double> index, value;
        index.reserve(static_cast<qsizetype>(grouped ? 2 * kWeightGroups : d));
        value.reserve(index.capacity());
        const auto add = [&](Eigen::Index j) {
            index.append(static_cast<double>(j + 1));
            value.append(w(j));
        };
        if (!grouped) {
            for (Eigen::Index j = 0; j < d; ++j)
                add(j);
        } else {
            for (Eigen::Index g = 0; g < kWeightGroups; ++g) {
                const Eigen::Index begin = g * d / kWeightGroups, end = (g + 1) * d / kWeightGroups;
                Eigen::Index low = begin, high = begin;
                for (Eigen::Index j = begin + 1; j < end; ++j) {
                    if (w(j) < w(low)) low = j;
                    if (w(j) > w(high)) high = j;
                }
                add(std::min(low, high));  // in the order of the features
                if (low != high) add(std::max(low, high));
            }
        }
        weightBars_->setData(index, value, true);
        // Markers only where the bars stand apart.
        weightBars_->setScatterStyle(grouped ? QCPScatterStyle(QCPScatterStyle::ssNone)
                                             : QCPScatterStyle(QCPScatterStyle::ssDisc, 3));
        const double extent = d ? w.cwiseAbs().maxCoeff() : 1.0;
        dataRect_->axis(QCPAxis::atBottom)->setRange(0, s->wBest.size() + 1);
        dataRect_->axis(QCPAxis::atLeft)->setRange(-1.08 * extent - 1e-12, 1.08 * extent + 1e-12);
    }
    drawSeparator(lineBest_, binary ? s->wBest : Eigen::VectorXd(), s->bias);
    drawSeparator(lineModel_, binary ? s->wModel : Eigen::VectorXd(), s->bias);
    drawSeparator(lineCut_, binary ? s->wCut : Eigen::VectorXd(), s->bias);

    if (!s->ks.empty()) {
        sliceNote_->setVisible(false);
        slice_->setData(QVector<double>(s->ks.begin(), s->ks.end()),
                        QVector<double>(s->fks.begin(), s->fks.end()), true);
        const double kMax = s->ks.back();
        const auto [lo, hi] = std::minmax_element(s->fks.begin(), s->fks.end());
        const double margin = 0.06 * std::max(*hi - *lo, 1e-12);
        QVector<double> bx, by;
        for (double k : s->breakpoints) {
            if (k <= kMax) {
                bx.append(k);
                by.append(*lo - 0.5 * margin);
            }
        }
        breakpoints_->setData(bx, by, true);
        chosen_->setData({s->kChosen}, {s->fAtChosen});
        chosenLine_->setData({0, 1}, {s->kChosen, s->kChosen}, {*lo - margin, *hi + margin});
        sliceRect_->axis(QCPAxis::atBottom)->setRange(0, kMax);
        sliceRect_->axis(QCPAxis::atLeft)->setRange(*lo - margin, *hi + margin);
    } else {
        sliceNote_->setVisible(true);
        for (QCPGraph* g : {slice_, breakpoints_, chosen_})
            g->data()->clear();
        chosenLine_->data()->clear();
    }
    scheduleReplot();
}

void LinearModelPlot::setTrace(std::span<const IterationRecord> trace,
                               const std::vector<std::string>& columns, int runKey) {
    // Appends the records not shown yet; another run, a reset or a step back starts over.
    if (trace.size() < traceShown_ || runKey != traceRun_) {
        for (QCPGraph* g : {trainError_, testError_, planes_, activePlanes_})
            g->data()->clear();
        traceShown_ = 0;
        traceRun_ = runKey;
    }
    if (trace.size() == traceShown_) return;
    auto columnOf = [&columns](const char* name) {
        const auto it = std::find(columns.begin(), columns.end(), name);
        return it == columns.end() ? -1 : static_cast<int>(it - columns.begin());
    };
    const int train = columnOf("train_error");
    const int test = columnOf("test_error");
    const int stored = columnOf("planes");
    const int active = columnOf("active_planes");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t k = traceShown_; k < trace.size(); ++k) {
        const IterationRecord& r = trace[k];
        auto at = [&r, nan](int column) {
            return column >= 0 && column < static_cast<int>(r.extra.size())
                       ? r.extra[static_cast<std::size_t>(column)]
                       : nan;
        };
        const double t = at(test);
        trainError_->addData(r.iteration, at(train));
        testError_->addData(r.iteration, t >= 0 ? t : nan);
        planes_->addData(r.iteration, at(stored));
        activePlanes_->addData(r.iteration, at(active));
    }
    traceShown_ = trace.size();
    rescaleTrace();
    scheduleReplot();
}

}  // namespace cplab::widgets
