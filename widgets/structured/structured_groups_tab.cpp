// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured_groups_tab.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "coalesced_replot.h"
#include "family_view.h"
#include "legend_placement.h"
#include "plot_style.h"
#include "race_legend.h"

namespace cplab::widgets {

namespace {

// The colour of group g: dark tones apart from the run colours (a group is no run).
QColor groupColor(std::size_t g) {
    static const std::array<QColor, 8> palette = {
        QColor(20, 50, 120),  QColor(0, 110, 50),  QColor(190, 0, 120), QColor(150, 100, 0),
        QColor(100, 30, 140), QColor(0, 110, 120), QColor(70, 70, 70),  QColor(165, 0, 30)};
    return palette[g % palette.size()];
}

}  // namespace

StructuredGroupsTab::StructuredGroupsTab(QWidget* parent) : QCustomPlot(parent) {
    setObjectName("structuredGroupPlot");
    applyPlotStyle(this);
    replots_ = new CoalescedReplot(this, [this] { rescale(); });
    // β_g along the epochs above, the last proximal step below.
    betaRect_ = axisRect();
    proxRect_ = new QCPAxisRect(this);
    plotLayout()->addElement(2, 0, proxRect_);
    auto* margins = new QCPMarginGroup(this);
    for (QCPAxisRect* rect : {betaRect_, proxRect_}) {
        styleAxisRect(rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    }
    createBetaPanel();
    createProxPanel();
    plotLayout()->setRowStretchFactors({1.4, 0.001, 1.0, 0.001});
    note_ = addNote(this, betaRect_);
    note_->setText(tr("Only online MKL has kernel groups (cplab-cli run online_mkl)."));
}

void StructuredGroupsTab::createBetaPanel() {
    betaRect_->axis(QCPAxis::atBottom)->setLabel(tr("epochs (passes over the training words)"));
    // β_g = ‖w_g‖ / Σ‖w_h‖ (the tab's header); a short title fits the panel's height.
    betaRect_->axis(QCPAxis::atLeft)->setLabel(tr("weight β_g"));
    betaRect_->axis(QCPAxis::atLeft)->setRange(0, 1.05);
    betaLegend_ = addLegendRow(this, 1, 6);
    // The number of active groups (b̃ > 0) on the right axis, as steps.
    activeGroups_ = addLineGraph(this, betaRect_, tr("active groups (right axis)"),
                                 pen(colors::kOutline, 1.2, Qt::DotLine), true);
    activeGroups_->setLineStyle(QCPGraph::lsStepLeft);
    betaRect_->axis(QCPAxis::atRight)->setVisible(true);
    betaRect_->axis(QCPAxis::atRight)->setLabel(tr("active groups"));
    betaRect_->axis(QCPAxis::atRight)->ticker()->setTickStepStrategy(QCPAxisTicker::tssReadability);
}

void StructuredGroupsTab::createProxPanel() {
    proxRect_->axis(QCPAxis::atLeft)->setLabel(tr("group norm"));
    proxRect_->axis(QCPAxis::atLeft)->ticker()->setTickCount(3);  // the shorter panel
    proxRect_->axis(QCPAxis::atBottom)->grid()->setVisible(false);
    proxBefore_ = new QCPBars(proxRect_->axis(QCPAxis::atBottom), proxRect_->axis(QCPAxis::atLeft));
    proxAfter_ = new QCPBars(proxRect_->axis(QCPAxis::atBottom), proxRect_->axis(QCPAxis::atLeft));
    proxBefore_->setName(tr("b_g = |w_g| before the proximal step"));
    proxAfter_->setName(tr("after it (b~_g)"));
    proxBefore_->setPen(pen(colors::kModel, 1.0));
    proxBefore_->setBrush(
        QColor(colors::kModel.red(), colors::kModel.green(), colors::kModel.blue(), 90));
    proxAfter_->setPen(pen(colors::kProx, 1.0));
    proxAfter_->setBrush(
        QColor(colors::kProx.red(), colors::kProx.green(), colors::kProx.blue(), 200));
    for (QCPBars* bars : {proxBefore_, proxAfter_})
        bars->setWidth(0.36);
    threshold_ = new QCPItemStraightLine(this);
    threshold_->setClipAxisRect(proxRect_);
    for (QCPItemPosition* point : {threshold_->point1, threshold_->point2})
        point->setAxes(proxRect_->axis(QCPAxis::atBottom), proxRect_->axis(QCPAxis::atLeft));
    threshold_->setPen(pen(colors::kCandidate, 1.6, Qt::DashLine));
    auto* proxLegend = addLegendRow(this, 3, 3);
    proxLegend->clearItems();
    proxBefore_->addToLegend(proxLegend);
    proxAfter_->addToLegend(proxLegend);
    keepLegendsWrapped(this, {betaLegend_, proxLegend});
}

void StructuredGroupsTab::removeShrinkLabels() {
    for (QCPItemText* label : shrinkLabels_)
        removeItem(label);
    shrinkLabels_.clear();
}

void StructuredGroupsTab::clear() {
    for (QCPGraph* g : betaGraphs_)
        removeGraph(g);
    betaGraphs_.clear();
    betaLegend_->clearItems();
    activeGroups_->data()->clear();
    groupNames_.clear();
    run_ = -1;
    shown_ = 0;
    proxBefore_->data()->clear();
    proxAfter_->data()->clear();
    threshold_->setVisible(false);
    removeShrinkLabels();
    note_->setVisible(true);
    // Nothing of the previous problem on the axes: its group names, its regulariser.
    proxRect_->axis(QCPAxis::atBottom)->setTicker(QSharedPointer<QCPAxisTicker>::create());
    proxRect_->axis(QCPAxis::atBottom)->setLabel({});
}

void StructuredGroupsTab::draw(std::span<const IterationRecord> records,
                               const std::vector<std::string>& columns, int runId,
                               const StructuredSnapshot* s) {
    appendRecords(records, columns, runId);
    drawProx(s);
}

void StructuredGroupsTab::restart(const std::vector<std::string>& names, int runId) {
    for (QCPGraph* g : betaGraphs_)
        removeGraph(g);
    betaGraphs_.clear();
    betaLegend_->clearItems();
    activeGroups_->data()->clear();
    for (std::size_t k = 0; k < names.size(); ++k) {
        QCPGraph* g = addLineGraph(this, betaRect_, QString::fromStdString(names[k]),
                                   pen(groupColor(k), 2.0));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 3.0));
        g->addToLegend(betaLegend_);
        betaGraphs_.push_back(g);
    }
    groupNames_ = names;
    run_ = runId;
    shown_ = 0;
}

void StructuredGroupsTab::appendRecords(std::span<const IterationRecord> records,
                                        const std::vector<std::string>& columns, int runId) {
    std::vector<std::string> names;
    std::vector<int> betaColumns;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        if (columns[c].rfind("beta:", 0) == 0) {
            names.push_back(columns[c].substr(5));
            betaColumns.push_back(static_cast<int>(c));
        }
    }
    if (runId != run_ || names != groupNames_ || records.size() < shown_) restart(names, runId);
    if (!names.empty() && !betaLegend_->hasItemWithPlottable(activeGroups_))
        activeGroups_->addToLegend(betaLegend_);
    const int active = columnOf(columns, "active_groups");
    for (std::size_t i = shown_; i < records.size(); ++i) {
        const IterationRecord& r = records[i];
        if (!names.empty() && std::isfinite(r.passes) && r.iteration > 0)
            activeGroups_->addData(r.passes, extraAt(r, active));
        for (std::size_t k = 0; k < betaGraphs_.size(); ++k) {
            const double beta = extraAt(r, betaColumns[k]);
            if (std::isfinite(beta) && std::isfinite(r.passes))
                betaGraphs_[k]->addData(r.passes, beta);
        }
    }
    shown_ = records.size();
    note_->setVisible(betaGraphs_.empty());
}

void StructuredGroupsTab::drawProx(const StructuredSnapshot* s) {
    // The last proximal step, from the snapshot: paired bars per group, the threshold s.
    QVector<double> keys, before, after;
    const bool hasProx = s && !s->groupNames.empty() &&
                         s->proxBefore.size() == s->groupNames.size() &&
                         s->proxAfter.size() == s->groupNames.size();
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    if (hasProx) {
        for (std::size_t g = 0; g < s->groupNames.size(); ++g) {
            keys.push_back(static_cast<double>(g));
            before.push_back(s->proxBefore[g]);
            after.push_back(s->proxAfter[g]);
            ticker->addTick(static_cast<double>(g), QString::fromStdString(s->groupNames[g]));
        }
    }
    QVector<double> left = keys, right = keys;
    for (double& k : left)
        k -= 0.19;
    for (double& k : right)
        k += 0.19;
    proxBefore_->setData(left, before, true);
    proxAfter_->setData(right, after, true);
    proxRect_->axis(QCPAxis::atBottom)->setTicker(ticker);
    // The threshold in the axis label: a label at the line would cover the bars.
    QString label;
    if (hasProx) {
        label = tr("the last proximal step (%1").arg(QString::fromStdString(s->regulariser));
        if (std::isfinite(s->proxThreshold))
            label += tr(", s = %1").arg(s->proxThreshold, 0, 'g', 3);
        label += ")";
    }
    proxRect_->axis(QCPAxis::atBottom)->setLabel(label);
    labelShrinkage(keys, before, after);
    const bool showThreshold = hasProx && std::isfinite(s->proxThreshold);
    threshold_->setVisible(showThreshold);
    if (showThreshold) {
        threshold_->point1->setCoords(-1.0, s->proxThreshold);
        threshold_->point2->setCoords(1.0, s->proxThreshold);
    }
}

void StructuredGroupsTab::labelShrinkage(const QVector<double>& keys, const QVector<double>& before,
                                         const QVector<double>& after) {
    // What the step removed from each group, in per cent of its norm (one round's shrinkage is
    // small: τ = η_t·λ), or "pruned".
    removeShrinkLabels();
    for (int g = 0; g < keys.size(); ++g) {
        auto* label = new QCPItemText(this);
        label->setClipAxisRect(proxRect_);
        label->position->setAxes(proxRect_->axis(QCPAxis::atBottom),
                                 proxRect_->axis(QCPAxis::atLeft));
        label->position->setCoords(keys[g], std::max(before[g], after[g]));
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setColor(colors::kOutline);
        QFont font;
        font.setPointSize(8);
        label->setFont(font);
        const double b = before[g], shrunk = after[g];
        label->setText(b <= 0        ? tr("0")
                       : shrunk <= 0 ? tr("pruned")
                                     : tr("−%1 %").arg(100.0 * (b - shrunk) / b, 0, 'g', 2));
        shrinkLabels_.push_back(label);
    }
}

void StructuredGroupsTab::rescale() {
    double last = 1.0;
    for (QCPGraph* g : betaGraphs_) {
        bool found = false;
        const QCPRange k = g->getKeyRange(found);
        if (found) last = std::max(last, k.upper);
    }
    betaRect_->axis(QCPAxis::atBottom)->setRange(0, last * 1.02);
    betaRect_->axis(QCPAxis::atRight)->setRange(0, std::max<double>(1, curveCount()) + 0.5);
    const int count = proxBefore_->dataCount();
    proxRect_->axis(QCPAxis::atBottom)->setRange(-0.6, std::max(count, 1) - 0.4);
    double top = 0.0;
    for (QCPBars* bars : {proxBefore_, proxAfter_})
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
            top = std::max(top, it->value);
    if (threshold_->visible()) top = std::max(top, threshold_->point1->coords().y());
    // Room above the bars for their shrinkage labels.
    proxRect_->axis(QCPAxis::atLeft)->setRange(0, top > 0 ? top * 1.35 : 1.0);
}

double StructuredGroupsTab::weight(int group, int index) const {
    if (group < 0 || group >= curveCount()) return kNaN;
    const QCPGraph* g = betaGraphs_[static_cast<std::size_t>(group)];
    if (index < 0 || index >= g->dataCount()) return kNaN;
    return (g->data()->constBegin() + index)->value;
}

double StructuredGroupsTab::proxBar(bool after, int group) const {
    const QCPBars* bars = after ? proxAfter_ : proxBefore_;
    if (group < 0 || group >= bars->dataCount()) return kNaN;
    return (bars->data()->constBegin() + group)->value;
}

double StructuredGroupsTab::threshold() const {
    return threshold_->visible() ? threshold_->point1->coords().y() : kNaN;
}

}  // namespace cplab::widgets
