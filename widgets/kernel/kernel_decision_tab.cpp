// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernel_decision_tab.h"

#include "coalesced_replot.h"
#include "decision_map.h"
#include "kernel_tabs_common.h"
#include "legend_placement.h"
#include "plot_reset.h"
#include "plot_style.h"

namespace cplab::widgets {

namespace {

const QColor kDecisionPositive = colors::kModel;      // class +1
const QColor kDecisionNegative = colors::kCandidate;  // class −1
const QColor kFreeSv{20, 20, 20};
const QColor kBoundSv = colors::kNewestPlane;

}  // namespace

KernelDecisionTab::KernelDecisionTab(QWidget* parent)
    : QCustomPlot(parent),
      // The legend below the map or beside it, wrapped to fit (its entries change).
      replots_(new CoalescedReplot(this, [this] {
          if (mapLegendPlacement_) mapLegendPlacement_->place();
      })) {
    setObjectName("kernelDecisionPlot");
    applyPlotStyle(this);
    setAutoAddPlottableToLegend(false);
    legend->setVisible(false);
    // The map, its legend in a row below.
    mapRect_ = axisRect();
    mapRect_->setObjectName(kTrainingPointsRect);  // 2-D data can be edited there
    mapLegend_ = addLegendRow(this, 1, 3);
    plotLayout()->setRowStretchFactors({1.0, 0.001});
    mapLegendPlacement_ = new LegendPlacement(this, mapRect_, mapLegend_, 3);
    styleAxisRect(mapRect_);

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
    positives_ = addPointsGraph(
        this, mapRect_, "class +1",
        markerStyle(QCPScatterStyle::ssDisc, kDecisionPositive, kDecisionPositive, 4.5, 1.0));
    negatives_ = addPointsGraph(
        this, mapRect_, "class \u22121",
        markerStyle(QCPScatterStyle::ssDisc, kDecisionNegative, kDecisionNegative, 4.5, 1.0));
    freeSvs_ =
        addPointsGraph(this, mapRect_, "free SV (0 < \u03b1 < C)",
                       markerStyle(QCPScatterStyle::ssCircle, kFreeSv, Qt::transparent, 10, 1.5));
    boundSvs_ =
        addPointsGraph(this, mapRect_, "bound SV (\u03b1 = C)",
                       markerStyle(QCPScatterStyle::ssSquare, kBoundSv, Qt::transparent, 9, 1.5));
    alphaPositive_ =
        addLineGraph(this, mapRect_, "\u03b1\u1d62, class +1", pen(kDecisionPositive, 1.2));
    alphaNegative_ =
        addLineGraph(this, mapRect_, "\u03b1\u1d62, class \u22121", pen(kDecisionNegative, 1.2));
    alphaPositive_->setLineStyle(QCPGraph::lsImpulse);
    alphaNegative_->setLineStyle(QCPGraph::lsImpulse);
    alphaBound_ = addLineGraph(this, mapRect_, "C", pen(kBoundSv, 1.2, Qt::DashLine));
    mapNote_ = addNote(this, mapRect_);
    mapNote_->setVisible(false);
}

void KernelDecisionTab::clearData() {
    for (QCPGraph* g :
         {positives_, negatives_, freeSvs_, boundSvs_, alphaPositive_, alphaNegative_, alphaBound_})
        g->data()->clear();
    for (QCPCurve* c : {zeroContour_, marginContours_})
        c->data()->clear();
}

void KernelDecisionTab::clear() {
    train_.reset();
    twoD_ = false;
    setShowsTrainingPoints(mapRect_, false);
    zeroSegments_ = 0;
    decisionMap_->data()->clear();
    clearData();
    resetPlot(this);  // no axis of the previous problem stays
    mapLegend_->clearItems();
    mapNote_->setVisible(false);
}

bool KernelDecisionTab::draw(const KernelSnapshot& s) {
    if (s.setup && s.setup->train != train_) setupTrainingData(s);
    if (!s.setup || !train_) {
        // A solver that rejected its input has no data to draw; its records may still come.
        mapNote_->setText(QString::fromStdString(s.status.message));
        mapNote_->setVisible(true);
        return false;
    }
    if (twoD_) {
        drawDecision(s);
    } else {
        drawAlphas(s);
    }
    return true;
}

void KernelDecisionTab::setupTrainingData(const KernelSnapshot& s) {
    train_ = s.setup->train;
    const Dataset& data = *train_;
    const bool precomputed =
        !s.setup->specs.empty() && s.setup->specs.front().type == KernelType::Precomputed;
    twoD_ = data.dimension() == 2 && !precomputed;
    setShowsTrainingPoints(mapRect_, twoD_);
    mapLegend_->clearItems();
    clearData();
    decisionMap_->setVisible(twoD_);
    if (twoD_) {
        setupTwoD(data);
        return;
    }
    QCPAxis* x = mapRect_->axis(QCPAxis::atBottom);
    x->setLabel(QString("training example i (of %1)").arg(data.size()));
    mapRect_->axis(QCPAxis::atLeft)->setLabel("\u03b1\u1d62  (support vectors: \u03b1\u1d62 > 0)");
    for (QCPAbstractPlottable* p :
         std::initializer_list<QCPAbstractPlottable*>{alphaPositive_, alphaNegative_, alphaBound_})
        p->addToLegend(mapLegend_);
    x->setRange(0, data.size() + 1);
}

void KernelDecisionTab::setupTwoD(const Dataset& data) {
    const bool named = data.featureNames.size() == 2;
    mapRect_->axis(QCPAxis::atBottom)
        ->setLabel(named ? QString::fromStdString(data.featureNames[0]) : QString("x1"));
    mapRect_->axis(QCPAxis::atLeft)
        ->setLabel(named ? QString::fromStdString(data.featureNames[1]) : QString("x2"));
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

void KernelDecisionTab::drawDecision(const KernelSnapshot& s) {
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

void KernelDecisionTab::drawAlphas(const KernelSnapshot& s) {
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

int KernelDecisionTab::countSupportVectors(const KernelSnapshot* s, bool bound) const {
    if (twoD_) return (bound ? boundSvs_ : freeSvs_)->dataCount();
    if (!s || !s->setup) return 0;
    int n = 0;
    for (Eigen::Index i = 0; i < s->alpha.size(); ++i)
        n += s->alpha(i) > 0 && isBound(s->alpha(i), s->setup->C) == bound;
    return n;
}

int KernelDecisionTab::freeSupportVectorCount(const KernelSnapshot* s) const {
    return countSupportVectors(s, false);
}

int KernelDecisionTab::boundSupportVectorCount(const KernelSnapshot* s) const {
    return countSupportVectors(s, true);
}

}  // namespace cplab::widgets
