// SPDX-License-Identifier: GPL-3.0-or-later
#include "map_bounds_tab.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "coalesced_replot.h"
#include "family_view.h"
#include "legend_placement.h"
#include "plot_style.h"
#include "race_legend.h"

namespace cplab::widgets {

namespace {

const QColor kBoundsCluster{25, 25, 25};
const QColor kUpper = colors::kModel;
const QColor kLower = colors::kBest;
const QColor kDisagreementLine{214, 39, 40};
const QColor kClusterLine{70, 40, 110};  // apart from the run colours

}  // namespace

MapBoundsTab::MapBoundsTab(QWidget* parent) : QCustomPlot(parent) {
    setObjectName("mapTracePlot");
    applyPlotStyle(this);
    replots_ = new CoalescedReplot(this, [this] { rescale(); });
    // U and E on top, the disagreement below, one legend row under both.
    boundRect_ = axisRect();
    disagreementRect_ = new QCPAxisRect(this);
    plotLayout()->addElement(1, 0, disagreementRect_);
    auto* margins = new QCPMarginGroup(this);
    for (QCPAxisRect* rect : {boundRect_, disagreementRect_}) {
        styleAxisRect(rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    }
    disagreementRect_->axis(QCPAxis::atBottom)->setLabel(tr("iteration (sweep)"));
    boundRect_->axis(QCPAxis::atLeft)->setLabel(tr("U and E"));
    upper_ = addLineGraph(this, boundRect_, tr("dual bound U (best so far)"), pen(kUpper, 2.0));
    lower_ = addLineGraph(this, boundRect_, tr("E(best labeling)"), pen(kLower, 2.0));
    clusterMarks_ = addPointsGraph(
        this, boundRect_, tr("clusters added"),
        markerStyle(QCPScatterStyle::ssTriangleInverted, kBoundsCluster, kBoundsCluster, 7, 1.0));
    disagreementRect_->axis(QCPAxis::atLeft)->setLabel(tr("disagreeing"));
    for (QCPAxis* axis :
         {disagreementRect_->axis(QCPAxis::atLeft), disagreementRect_->axis(QCPAxis::atRight)})
        axis->ticker()->setTickCount(3);  // the shorter panel
    disagreement_ =
        addLineGraph(this, disagreementRect_, tr("disagreeing nodes"), pen(kDisagreementLine, 1.6));
    clusterCount_ = addLineGraph(this, disagreementRect_, tr("clusters (right axis)"),
                                 pen(kClusterLine, 1.6, Qt::DashLine), true);
    QCPAxis* right = disagreementRect_->axis(QCPAxis::atRight);
    right->setLabel(tr("clusters"));
    right->setVisible(false);
    traceLegend_ = addLegendRow(this, 2, 5);
    keepLegendsWrapped(this, {traceLegend_});
    plotLayout()->setRowStretchFactors({1.0, 0.6, 0.001});
    for (QCPGraph* g : {upper_, lower_, disagreement_, clusterCount_})
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 3.0));
    legend->setVisible(false);
    for (QCPGraph* g : {upper_, lower_, clusterMarks_, disagreement_, clusterCount_})
        g->addToLegend(traceLegend_);
}

void MapBoundsTab::clear() {
    for (QCPGraph* g : {upper_, lower_, clusterMarks_, disagreement_, clusterCount_})
        g->data()->clear();
    disagreementRect_->axis(QCPAxis::atRight)->setVisible(false);
    shown_ = 0;
    run_ = -1;
}

void MapBoundsTab::setTrace(std::span<const IterationRecord> records,
                            const std::vector<std::string>& columns, int runId) {
    if (runId != run_ || records.size() < shown_) {
        for (QCPGraph* g : {upper_, lower_, clusterMarks_, disagreement_, clusterCount_})
            g->data()->clear();
        shown_ = 0;
        run_ = runId;
    }
    const int disagreeing = columnOf(columns, "disagreeing_nodes");
    const int clusters = columnOf(columns, "clusters");
    const int added = columnOf(columns, "clusters_added");
    for (std::size_t i = shown_; i < records.size(); ++i) {
        const IterationRecord& r = records[i];
        const double k = r.iteration;
        if (std::isfinite(r.upper)) upper_->addData(k, r.upper);
        if (std::isfinite(r.lower)) lower_->addData(k, r.lower);
        const double d = extraAt(r, disagreeing);
        if (std::isfinite(d)) disagreement_->addData(k, d);
        const double c = extraAt(r, clusters);
        if (std::isfinite(c)) clusterCount_->addData(k, c);
        const double a = extraAt(r, added);
        if (std::isfinite(a) && a > 0 && std::isfinite(r.upper)) clusterMarks_->addData(k, r.upper);
    }
    shown_ = records.size();
    showTightening(clusters >= 0);
}

void MapBoundsTab::showTightening(bool tightening) {
    disagreementRect_->axis(QCPAxis::atRight)->setVisible(tightening);
    clusterCount_->setVisible(tightening);
    clusterMarks_->setVisible(tightening);
    for (QCPGraph* g : {clusterCount_, clusterMarks_}) {
        if (tightening == traceLegend_->hasItemWithPlottable(g)) continue;
        if (tightening) {
            g->addToLegend(traceLegend_);
        } else {
            g->removeFromLegend(traceLegend_);
        }
    }
}

void MapBoundsTab::rescale() {
    bool found = false;
    const QCPRange k = disagreement_->getKeyRange(found);
    for (QCPAxisRect* rect : {boundRect_, disagreementRect_})
        rect->axis(QCPAxis::atBottom)
            ->setRange(found ? std::min(0.0, k.lower) : 0.0, found ? std::max(k.upper, 1.0) : 1.0);
    // U and E: the first sweeps drop U from far above; the range follows the later part of the
    // run (from a tenth of it on) so that the closing gap stays readable, and always shows E.
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    const int n = upper_->dataCount();
    const int from = n > 10 ? n / 10 : 0;
    for (int i = from; i < n; ++i) {
        const double u = (upper_->data()->constBegin() + i)->value;
        lo = std::min(lo, u);
        hi = std::max(hi, u);
    }
    for (auto it = lower_->data()->constBegin(); it != lower_->data()->constEnd(); ++it) {
        if (it - lower_->data()->constBegin() < from && lower_->dataCount() > 10) continue;
        lo = std::min(lo, it->value);
        hi = std::max(hi, it->value);
    }
    if (std::isfinite(lo) && std::isfinite(hi)) {
        const double span = std::max(hi - lo, 1e-9 * std::max(1.0, std::abs(hi)));
        boundRect_->axis(QCPAxis::atLeft)->setRange(lo - 0.08 * span, hi + 0.08 * span);
    } else {
        boundRect_->axis(QCPAxis::atLeft)->setRange(0, 1);  // nothing of a previous problem
    }
    bool any = false;
    const QCPRange d = disagreement_->getValueRange(any);
    disagreementRect_->axis(QCPAxis::atLeft)->setRange(0, any ? std::max(1.0, d.upper * 1.08) : 1);
    any = false;
    const QCPRange c = clusterCount_->getValueRange(any);
    disagreementRect_->axis(QCPAxis::atRight)->setRange(0, any ? std::max(1.0, c.upper * 1.08) : 1);
}

}  // namespace cplab::widgets
