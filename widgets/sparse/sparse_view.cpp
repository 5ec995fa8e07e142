// SPDX-License-Identifier: GPL-3.0-or-later
#include "sparse_view.h"

#include <qcustomplot.h>

#include <QTabWidget>
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

// Images titled with their β up to this many (beyond, the labels would overlap).
constexpr int kLabelledImages = 64;

const QColor kSparsePositive = colors::kModel;      // class +1
const QColor kSparseNegative = colors::kCandidate;  // class −1
const QColor kFaintPositive{31, 119, 180, 90};
const QColor kFaintNegative{214, 39, 40, 90};
const QColor kFullSv{120, 120, 120, 170};
const QColor kTrail{40, 40, 40, 150};

// The side of a square image of `dimension` pixels (at least 4 × 4), or 0.
int imageSide(int dimension) {
    const int side = static_cast<int>(std::lround(std::sqrt(static_cast<double>(dimension))));
    return side >= 4 && side * side == dimension ? side : 0;
}

void fitAxis(QCPAxis* axis, const std::vector<QCPGraph*>& graphs, double floor, double pad) {
    double lo = floor, hi = floor;
    bool any = false;
    for (QCPGraph* g : graphs) {
        bool found = false;
        const QCPRange r = g->getValueRange(found);
        if (!found) continue;
        lo = any ? std::min(lo, r.lower) : std::min(floor, r.lower);
        hi = any ? std::max(hi, r.upper) : std::max(floor, r.upper);
        any = true;
    }
    if (!any) return;
    const double span = std::max(hi - lo, 1e-12);
    axis->setRange(lo - pad * span, hi + pad * span);
}

}  // namespace

SparseView::SparseView(QWidget* parent)
    : FamilyView(parent),
      tabs_(new QTabWidget(this)),
      xvPlot_(new QCustomPlot),
      tracePlot_(new QCustomPlot),
      splitControls_(new HoldoutControls) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tabs_);
    tabs_->setDocumentMode(true);
    tabs_->addTab(xvPlot_, tr("Expansion vectors"));
    tabs_->addTab(tracePlot_, tr("Objective and errors"));
    xvPlot_->setObjectName("sparseXvPlot");
    tracePlot_->setObjectName("sparseTracePlot");
    for (QCustomPlot* p : {xvPlot_, tracePlot_})
        applyPlotStyle(p);
    // The legend below the map or beside it, wrapped to fit (its entries change).
    xvReplot_ = new CoalescedReplot(xvPlot_, [this] {
        if (xvLegendPlacement_) xvLegendPlacement_->place();
    });
    // The axis rect's size is known only once the layout is done (it changes with the window).
    connect(xvPlot_, &QCustomPlot::afterLayout, this, [this] { squarePixels(); });
    traceReplot_ = new CoalescedReplot(tracePlot_, [this] { rescaleTrace(); });

    // Expansion vectors.
    xvRect_ = xvPlot_->axisRect();
    xvRect_->setObjectName(kTrainingPointsRect);  // 2-D data can be edited there
    styleAxisRect(xvRect_);
    decisionMap_ =
        new QCPColorMap(xvRect_->axis(QCPAxis::atBottom), xvRect_->axis(QCPAxis::atLeft));
    decisionMap_->setGradient(decisionGradient());
    decisionMap_->setInterpolate(true);
    decisionMap_->setLayer("background");
    imageMap_ = new QCPColorMap(xvRect_->axis(QCPAxis::atBottom), xvRect_->axis(QCPAxis::atLeft));
    imageMap_->setGradient(inkGradient());
    imageMap_->setInterpolate(false);
    imageMap_->setVisible(false);
    zeroContour_ = addCurve(xvRect_, "f = 0", pen(colors::kFunction, 2.0));
    marginContours_ = addCurve(xvRect_, "f = \u00b11", pen(colors::kContour, 1.0, Qt::DashLine));
    positives_ = addPointsGraph(
        xvPlot_, xvRect_, "class +1",
        markerStyle(QCPScatterStyle::ssDisc, kFaintPositive, kFaintPositive, 4, 1.2));
    negatives_ = addPointsGraph(
        xvPlot_, xvRect_, "class \u22121",
        markerStyle(QCPScatterStyle::ssDisc, kFaintNegative, kFaintNegative, 4, 1.2));
    fullSvs_ =
        addPointsGraph(xvPlot_, xvRect_, "full SVM's support vectors",
                       markerStyle(QCPScatterStyle::ssCircle, kFullSv, Qt::transparent, 8, 1.0));
    trails_ = addCurve(xvRect_, "trails", pen(kTrail, 1.2));
    starts_ = addPointsGraph(xvPlot_, xvRect_, "where they started",
                             markerStyle(QCPScatterStyle::ssSquare, kTrail, Qt::white, 6, 1.2));
    xvPositive_ = addPointsGraph(
        xvPlot_, xvRect_, "expansion vector, \u03b2 > 0",
        markerStyle(QCPScatterStyle::ssDiamond, Qt::black, kSparsePositive, 12, 1.6));
    xvNegative_ = addPointsGraph(
        xvPlot_, xvRect_, "expansion vector, \u03b2 < 0",
        markerStyle(QCPScatterStyle::ssDiamond, Qt::black, kSparseNegative, 12, 1.6));
    betaBars_ = new QCPBars(xvRect_->axis(QCPAxis::atBottom), xvRect_->axis(QCPAxis::atLeft));
    betaBars_->setName("\u03b2\u1d64");
    betaBars_->setPen(pen(colors::kModel));
    betaBars_->setBrush(QColor(31, 119, 180, 120));
    betaBars_->setWidth(0.7);
    // The legend in a row below the map (inside, it covered the points).
    xvLegend_ = addLegendRow(xvPlot_, 1, 3);
    xvPlot_->plotLayout()->setRowStretchFactors({1.0, 0.001});
    xvLegendPlacement_ = new LegendPlacement(xvPlot_, xvRect_, xvLegend_, 3);
    note_ = addNote(xvPlot_, xvRect_);
    note_->setVisible(false);
    for (QCPAbstractPlottable* p : {static_cast<QCPAbstractPlottable*>(zeroContour_),
                                    static_cast<QCPAbstractPlottable*>(marginContours_)})
        p->removeFromLegend();

    createTracePanels();
    clear();
}

void SparseView::createTracePanels() {
    // Objective and errors, one above the other.
    objectiveRect_ = tracePlot_->axisRect();
    errorRect_ = new QCPAxisRect(tracePlot_);
    tracePlot_->plotLayout()->addElement(1, 0, errorRect_);
    auto* margins = new QCPMarginGroup(tracePlot_);
    for (QCPAxisRect* rect : {objectiveRect_, errorRect_}) {
        styleAxisRect(rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        rect->axis(QCPAxis::atBottom)->setLabel("iteration");
    }
    objectiveRect_->axis(QCPAxis::atLeft)->setLabel("W(Z)");
    objective_ = addLineGraph(tracePlot_, objectiveRect_, "W(Z), the restricted SVM",
                              pen(colors::kModel, 2.0));
    fullObjective_ = addLineGraph(tracePlot_, objectiveRect_, "full SVM",
                                  pen(colors::kContour, 1.4, Qt::DashLine));
    QCPLegend* objectiveLegend = addInsetLegend(objectiveRect_, Qt::AlignTop | Qt::AlignRight);
    objectiveLegend_ = objectiveLegend;
    objective_->addToLegend(objectiveLegend);
    fullObjective_->addToLegend(objectiveLegend);
    errorRect_->axis(QCPAxis::atLeft)->setLabel("error");
    trainError_ = addLineGraph(tracePlot_, errorRect_, "training", pen(colors::kModel, 1.8));
    testError_ =
        addLineGraph(tracePlot_, errorRect_, "test", pen(colors::kCandidate, 1.6, Qt::DashLine));
    // Bottom right: the errors lie well above 0 for most of a run.
    errorLegend_ = addInsetLegend(errorRect_, Qt::AlignBottom | Qt::AlignRight);
    QCPLegend* errorLegend = errorLegend_;
    trainError_->addToLegend(errorLegend);
    testError_->addToLegend(errorLegend);
    for (QCPGraph* g : {objective_, trainError_, testError_})
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 3.5));
    raceObjective_ = std::make_unique<RaceGraphs>(tracePlot_, objectiveRect_, objectiveLegend, 1.6);
    raceTrain_ = std::make_unique<RaceGraphs>(tracePlot_, errorRect_, errorLegend_, 1.4);
    raceTest_ = std::make_unique<RaceGraphs>(tracePlot_, errorRect_, nullptr, 1.2, Qt::DashLine);
}

void SparseView::drawRace(std::span<const RaceEntry> race, int selectedRunId) {
    // Racing, every run's W(Z) and errors (test dashed) in its colour; the selected run's own
    // curves of them step aside (the full SVM's objective stays).
    const auto upper = [](const IterationRecord& r, const std::vector<std::string>&) {
        return r.upper;
    };
    const bool racing = raceObjective_->draw(race, selectedRunId, upper, "W(Z)") > 0;
    raceTrain_->draw(race, selectedRunId, columnValue("train_error"), "training");
    raceTest_->draw(race, selectedRunId, columnValue("test_error"));
    for (QCPGraph* g : {objective_, trainError_, testError_}) {
        g->setVisible(!racing);
        QCPLegend* legend = g == objective_ ? objectiveLegend_ : errorLegend_;
        if (racing) {
            g->removeFromLegend(legend);
        } else if (!legend->hasItemWithPlottable(g) && (g != testError_ || !g->data()->isEmpty())) {
            g->addToLegend(legend);
        }
    }
}

SparseView::~SparseView() {
    if (splitControls_ && !splitControls_->parent()) delete splitControls_;
}

void SparseView::clear() {
    snapshot_.reset();
    train_.reset();
    kind_ = Kind::None;
    setShowsTrainingPoints(xvRect_, false);
    shownXvs_ = 0;
    mosaicWidth_ = mosaicHeight_ = 0;
    for (QCPGraph* g : {positives_, negatives_, fullSvs_, starts_, xvPositive_, xvNegative_})
        g->data()->clear();
    for (QCPCurve* c : {zeroContour_, marginContours_, trails_})
        c->data()->clear();
    betaBars_->data()->clear();
    decisionMap_->setVisible(false);
    imageMap_->setVisible(false);
    decisionMap_->data()->clear();
    imageMap_->data()->clear();
    for (QCPItemText* label : imageLabels_)
        xvPlot_->removeItem(label);
    imageLabels_.clear();
    for (QCPGraph* g : {objective_, fullObjective_, trainError_, testError_})
        g->data()->clear();
    for (RaceGraphs* race : {raceObjective_.get(), raceTrain_.get(), raceTest_.get()})
        race->clear();
    for (QCustomPlot* p : {xvPlot_, tracePlot_})
        resetPlot(p);
    shown_ = 0;
    run_ = -1;
    note_->setVisible(false);
    xvReplot_->schedule();
    traceReplot_->schedule();
}

QCustomPlot* SparseView::plot() const {
    return tabs_->currentIndex() == 1 ? tracePlot_ : xvPlot_;
}

bool SparseView::showPage(int index) {
    if (index < 0 || index >= tabs_->count()) return false;
    tabs_->setCurrentIndex(index);
    return true;
}

OptionValues SparseView::problemOptions() const {
    return splitControls_->problemOptions();
}

bool SparseView::setTestSplit(double testFraction, int seed) {
    splitControls_->setSplit(testFraction, seed);
    return true;
}

bool SparseView::showFrame(const ViewFrame& frame) {
    auto snapshot = std::dynamic_pointer_cast<const SparseSnapshot>(frame.snapshot);
    if (!snapshot) return false;
    snapshot_ = std::move(snapshot);
    const SparseSnapshot& s = *snapshot_;
    if (!s.train) {
        // A run that rejected its input has nothing to draw but its message.
        note_->setText(QString::fromStdString(s.status.message));
        note_->setVisible(true);
    } else {
        note_->setVisible(false);
        if (s.train != train_) setupTrainingData(s);
        switch (kind_) {
            case Kind::Map:
                drawMap(s);
                break;
            case Kind::Images:
                drawImages(s);
                break;
            default:
                drawBars(s);
                break;
        }
    }
    setTrace(frame.records, frame.columns, frame.runId);
    drawRace(frame.race, frame.runId);
    xvReplot_->schedule();
    traceReplot_->schedule();
    return true;
}

void SparseView::setupTrainingData(const SparseSnapshot& s) {
    train_ = s.train;
    const Dataset& data = *train_;
    side_ = imageSide(data.dimension());
    kind_ = data.dimension() == 2 ? Kind::Map : side_ > 0 ? Kind::Images : Kind::Bars;
    setShowsTrainingPoints(xvRect_, kind_ == Kind::Map);
    for (QCPGraph* g : {positives_, negatives_, fullSvs_, starts_, xvPositive_, xvNegative_})
        g->data()->clear();
    for (QCPCurve* c : {zeroContour_, marginContours_, trails_})
        c->data()->clear();
    betaBars_->data()->clear();
    xvLegend_->clearItems();
    decisionMap_->setVisible(kind_ == Kind::Map);
    imageMap_->setVisible(kind_ == Kind::Images);
    QCPAxis* x = xvRect_->axis(QCPAxis::atBottom);
    QCPAxis* y = xvRect_->axis(QCPAxis::atLeft);
    for (QCPAxis* axis : {x, y}) {
        axis->setTicks(kind_ != Kind::Images);
        axis->setTickLabels(kind_ != Kind::Images);
        axis->grid()->setVisible(kind_ != Kind::Images);
        axis->setRangeReversed(false);
    }
    if (kind_ == Kind::Map) {
        x->setLabel(data.featureNames.size() == 2 ? QString::fromStdString(data.featureNames[0])
                                                  : QString("x1"));
        y->setLabel(data.featureNames.size() == 2 ? QString::fromStdString(data.featureNames[1])
                                                  : QString("x2"));
        for (int i = 0; i < data.size(); ++i) {
            const Eigen::VectorXd p = data.row(i);
            (data.labels(i) > 0 ? positives_ : negatives_)->addData(p(0), p(1));
        }
        for (QCPAbstractPlottable* p : std::initializer_list<QCPAbstractPlottable*>{
                 positives_, negatives_, fullSvs_, trails_, starts_, xvPositive_, xvNegative_})
            p->addToLegend(xvLegend_);
    } else if (kind_ == Kind::Images) {
        x->setLabel(
            tr("expansion vectors as %1 \u00d7 %1 images (title: \u03b2\u1d64)").arg(side_));
        y->setLabel({});
        // The legend row must not be empty: an empty legend's maximum width (its margins)
        // would cap the layout column and squeeze the axis rect to its minimum width.
        imageMap_->setName(tr("pixel value (white: low, black: high)"));
        imageMap_->addToLegend(xvLegend_);
        // Row 0 of an image at the top.
        y->setRangeReversed(true);
    } else {
        x->setLabel(tr("expansion vector u"));
        y->setLabel(tr("\u03b2\u1d64"));
        betaBars_->addToLegend(xvLegend_);
    }
}

void SparseView::drawMap(const SparseSnapshot& s) {
    const int segments = drawDecisionGrid(s.grid, decisionMap_, zeroContour_, marginContours_);
    decisionMap_->setVisible(segments >= 0);
    if (segments < 0) {
        zeroContour_->data()->clear();
        marginContours_->data()->clear();
        positives_->rescaleAxes();
        negatives_->rescaleAxes(true);
    }
    fullSvs_->data()->clear();
    for (int i : s.fullSupportVectors) {
        if (i < 0 || i >= train_->size()) continue;
        const Eigen::VectorXd p = train_->row(i);
        fullSvs_->addData(p(0), p(1));
    }
    // Trails: XV u through the stored Z, oldest first, then a break.
    QVector<double> tx, ty;
    const Eigen::Index count = s.xvs.rows();
    for (Eigen::Index u = 0; u < count; ++u) {
        for (const Eigen::MatrixXd& z : s.trail) {
            if (u >= z.rows() || z.cols() < 2) continue;
            tx.append(z(u, 0));
            ty.append(z(u, 1));
        }
        tx.append(kNaN);
        ty.append(kNaN);
    }
    starts_->data()->clear();
    if (!s.trail.empty() && s.trail.front().cols() >= 2) {
        for (Eigen::Index u = 0; u < s.trail.front().rows(); ++u)
            starts_->addData(s.trail.front()(u, 0), s.trail.front()(u, 1));
    }
    QVector<double> t(tx.size());
    for (int k = 0; k < t.size(); ++k)
        t[k] = k;
    trails_->setData(t, tx, ty, true);
    QVector<double> px, py, nx, ny;
    for (Eigen::Index u = 0; u < count && s.xvs.cols() >= 2; ++u) {
        const bool positive = u < s.beta.size() && s.beta(u) >= 0;
        (positive ? px : nx).append(s.xvs(u, 0));
        (positive ? py : ny).append(s.xvs(u, 1));
    }
    xvPositive_->setData(px, py);
    xvNegative_->setData(nx, ny);
    shownXvs_ = static_cast<int>(count);
}

void SparseView::drawImages(const SparseSnapshot& s) {
    const int count = static_cast<int>(s.xvs.rows());
    if (count == 0 || s.xvs.cols() != side_ * side_) {
        shownXvs_ = 0;
        return;
    }
    // A mosaic of tiles with a one-pixel gap (transparent), about as wide as high.
    columns_ = std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(count)))));
    const int rows = (count + columns_ - 1) / columns_;
    const int cell = side_ + 1;
    // Room above each tile for its title.
    const int titleRows = count <= kLabelledImages ? 4 : 0;
    const int cellHeight = cell + titleRows;
    const int width = columns_ * cell - 1, height = rows * cellHeight - 1;
    imageMap_->data()->setSize(width, height);
    imageMap_->data()->setRange(QCPRange(0, width - 1), QCPRange(0, height - 1));
    imageMap_->data()->fill(kNaN);
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (int u = 0; u < count; ++u) {
        for (int k = 0; k < side_ * side_; ++k) {
            lo = std::min(lo, s.xvs(u, k));
            hi = std::max(hi, s.xvs(u, k));
        }
    }
    for (int u = 0; u < count; ++u) {
        const int cx = (u % columns_) * cell, cy = (u / columns_) * cellHeight + titleRows;
        for (int r = 0; r < side_; ++r) {
            for (int c = 0; c < side_; ++c)
                imageMap_->data()->setCell(cx + c, cy + r, s.xvs(u, r * side_ + c));
        }
    }
    imageMap_->setDataRange(QCPRange(lo, hi > lo ? hi : lo + 1));
    imageMap_->setVisible(true);
    // Titles: β of each tile, above it.
    for (QCPItemText* label : imageLabels_)
        xvPlot_->removeItem(label);
    imageLabels_.clear();
    if (titleRows > 0) {
        QFont font;
        font.setPointSize(count <= 16 ? 8 : 7);
        for (int u = 0; u < count && u < s.beta.size(); ++u) {
            auto* label = new QCPItemText(xvPlot_);
            label->setClipToAxisRect(true);
            label->setClipAxisRect(xvRect_);
            label->position->setAxes(xvRect_->axis(QCPAxis::atBottom),
                                     xvRect_->axis(QCPAxis::atLeft));
            label->position->setCoords((u % columns_) * cell + (side_ - 1) / 2.0,
                                       (u / columns_) * cellHeight + titleRows / 2.0 - 0.5);
            label->setPositionAlignment(Qt::AlignCenter);
            label->setFont(font);
            label->setColor(s.beta(u) >= 0 ? kSparsePositive : kSparseNegative);
            label->setText(QString::number(s.beta(u), 'g', 2));
            imageLabels_.push_back(label);
        }
    }
    QCPAxis* x = xvRect_->axis(QCPAxis::atBottom);
    QCPAxis* y = xvRect_->axis(QCPAxis::atLeft);
    x->setRange(-1, width);
    y->setRange(-1, height);
    mosaicWidth_ = width;
    mosaicHeight_ = height;
    squarePixels();
    shownXvs_ = count;
}

void SparseView::squarePixels() {
    if (kind_ != Kind::Images || mosaicWidth_ <= 0 || xvRect_->width() <= 0 ||
        xvRect_->height() <= 0)
        return;
    // Square pixels (digits look like digits only undistorted): the mosaic's ranges, then the
    // axis with room to spare widened about its centre.
    QCPAxis* x = xvRect_->axis(QCPAxis::atBottom);
    QCPAxis* y = xvRect_->axis(QCPAxis::atLeft);
    x->setRange(-1, mosaicWidth_);
    y->setRange(-1, mosaicHeight_);
    const double rectRatio = double(xvRect_->width()) / xvRect_->height();
    const double dataRatio = double(mosaicWidth_ + 1) / double(mosaicHeight_ + 1);
    if (rectRatio > dataRatio) {
        x->setScaleRatio(y, 1.0);
    } else {
        y->setScaleRatio(x, 1.0);
    }
}

void SparseView::drawBars(const SparseSnapshot& s) {
    betaBars_->data()->clear();
    for (Eigen::Index u = 0; u < s.beta.size(); ++u)
        betaBars_->addData(static_cast<double>(u + 1), s.beta(u));
    bool found = false;
    const QCPRange r = betaBars_->getValueRange(found);
    if (found) {
        const double span = std::max({r.upper, -r.lower, 1e-12});
        xvRect_->axis(QCPAxis::atLeft)
            ->setRange(std::min(0.0, r.lower) - 0.1 * span, std::max(0.0, r.upper) + 0.1 * span);
    }
    xvRect_->axis(QCPAxis::atBottom)->setRange(0, static_cast<double>(s.beta.size()) + 1);
    shownXvs_ = static_cast<int>(s.beta.size());
}

void SparseView::setTrace(std::span<const IterationRecord> records,
                          const std::vector<std::string>& columns, int runId) {
    if (runId != run_ || records.size() < shown_) {
        for (QCPGraph* g : {objective_, fullObjective_, trainError_, testError_})
            g->data()->clear();
        shown_ = 0;
        run_ = runId;
    }
    const int train = columnOf(columns, "train_error");
    const int test = columnOf(columns, "test_error");
    const bool full = snapshot_ && !snapshot_->fullSupportVectors.empty();
    for (std::size_t i = shown_; i < records.size(); ++i) {
        const IterationRecord& r = records[i];
        const double k = r.iteration;
        objective_->addData(k, r.upper);
        if (full) fullValue_ = r.lower;
        trainError_->addData(k, extraAt(r, train));
        const double t = extraAt(r, test);
        if (std::isfinite(t) && t >= 0) testError_->addData(k, t);
    }
    shown_ = records.size();
    // The test curve is named only when there is a test set.
    const bool hasTest = !testError_->data()->isEmpty();
    if (hasTest != errorLegend_->hasItemWithPlottable(testError_)) {
        if (hasTest) {
            testError_->addToLegend(errorLegend_);
        } else {
            testError_->removeFromLegend(errorLegend_);
        }
    }
    fullObjective_->data()->clear();
    if (full && !records.empty()) {
        fullObjective_->addData(records.front().iteration, fullValue_);
        fullObjective_->addData(records.back().iteration, fullValue_);
    }
    fullObjective_->setVisible(full);
}

void SparseView::rescaleTrace() {
    bool found = false;
    QCPRange k = objective_->getKeyRange(found);
    for (QCPGraph* g : raceObjective_->graphs()) {
        bool any = false;
        const QCPRange r = g->getKeyRange(any);
        if (any) k = found ? QCPRange(std::min(k.lower, r.lower), std::max(k.upper, r.upper)) : r;
        found = found || any;
    }
    for (QCPAxisRect* rect : {objectiveRect_, errorRect_})
        rect->axis(QCPAxis::atBottom)
            ->setRange(found ? std::min(0.0, k.lower) : 0.0, found ? std::max(k.upper, 1.0) : 1.0);
    std::vector<QCPGraph*> objectiveGraphs = raceObjective_->graphs();
    objectiveGraphs.push_back(objective_);
    if (fullObjective_->visible()) objectiveGraphs.push_back(fullObjective_);
    bool any = false;
    const QCPRange w = objective_->getValueRange(any);
    fitAxis(objectiveRect_->axis(QCPAxis::atLeft), objectiveGraphs, any ? w.lower : 0.0, 0.08);
    std::vector<QCPGraph*> errorGraphs = raceTrain_->graphs();
    errorGraphs.insert(errorGraphs.end(), raceTest_->graphs().begin(), raceTest_->graphs().end());
    errorGraphs.push_back(trainError_);
    errorGraphs.push_back(testError_);
    fitAxis(errorRect_->axis(QCPAxis::atLeft), errorGraphs, 0.0, 0.08);
}

int SparseView::expansionVectorCount() const {
    return shownXvs_;
}

int SparseView::trailPointCount() const {
    int n = 0;
    for (auto it = trails_->data()->constBegin(); it != trails_->data()->constEnd(); ++it)
        n += std::isfinite(it->key) && std::isfinite(it->value);
    return n;
}

int SparseView::fullSupportVectorCount() const {
    return fullSvs_->dataCount();
}

double SparseView::imagePixel(int u, int row, int column) const {
    if (kind_ != Kind::Images || columns_ <= 0 || u < 0 || u >= shownXvs_) return kNaN;
    const int titleRows = shownXvs_ <= kLabelledImages ? 4 : 0;
    const int cell = side_ + 1;
    return imageMap_->data()->cell((u % columns_) * cell + column,
                                   (u / columns_) * (cell + titleRows) + titleRows + row);
}

int SparseView::objectivePointCount() const {
    return objective_->dataCount();
}

QString SparseView::statusText(const ViewFrame& frame) const {
    const auto* s = dynamic_cast<const SparseSnapshot*>(frame.snapshot.get());
    if (!s || !s->train) return {};
    QString text = tr("W(Z) %1, |grad W| %2; %3 expansion vectors; training error %4")
                       .arg(s->objective, 0, 'g', 8)
                       .arg(s->gradientNorm, 0, 'g', 3)
                       .arg(s->xvs.rows())
                       .arg(s->trainError, 0, 'g', 4);
    if (s->testError >= 0) text += tr(", test error %1").arg(s->testError, 0, 'g', 4);
    return text;
}

FamilyView* sparseView(QWidget* parent) {
    return new SparseView(parent);
}

}  // namespace cplab::widgets
