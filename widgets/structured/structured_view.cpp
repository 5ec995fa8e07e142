// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured_view.h"

#include <qcustomplot.h>

#include <QTabWidget>
#include <QVBoxLayout>
#include <cmath>

#include "coalesced_replot.h"
#include "structured_gaps_tab.h"
#include "structured_groups_tab.h"
#include "structured_lattice_tab.h"
#include "structured_trace_tab.h"

namespace cplab::widgets {

StructuredView::StructuredView(QWidget* parent)
    : FamilyView(parent),
      tabs_(new QTabWidget(this)),
      modelTab_(new StructuredModelTab),
      traceTab_(new StructuredTraceTab),
      latticeTab_(new StructuredLatticeTab),
      gapsTab_(new StructuredGapsTab),
      groupsTab_(new StructuredGroupsTab) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tabs_);
    tabs_->setDocumentMode(true);
    // Five tabs in a narrow view: names elided rather than tabs scrolled out of sight.
    tabs_->setUsesScrollButtons(false);
    tabs_->setElideMode(Qt::ElideRight);
    tabs_->addTab(modelTab_, tr("Model"));
    tabs_->addTab(traceTab_, tr("Gap and errors"));
    tabs_->addTab(latticeTab_, tr("Viterbi lattice"));
    tabs_->addTab(gapsTab_, tr("Word gaps"));
    tabs_->addTab(groupsTab_, tr("Kernel groups"));
    // A page's plot fits the room it is given (legends wrap, titles elide): its natural
    // minimum (a long legend row) must not widen the view beyond the window.
    for (QWidget* page : {static_cast<QWidget*>(modelTab_), static_cast<QWidget*>(traceTab_),
                          static_cast<QWidget*>(latticeTab_), static_cast<QWidget*>(gapsTab_),
                          static_cast<QWidget*>(groupsTab_)})
        page->setMinimumSize(200, 160);
    clear();
}

void StructuredView::scheduleReplots() {
    for (CoalescedReplot* replots :
         {modelTab_->replots(), traceTab_->replots(), latticeTab_->replots(), gapsTab_->replots(),
          groupsTab_->replots()})
        replots->schedule();
}

void StructuredView::clear() {
    modelTab_->clear();
    traceTab_->clear();
    latticeTab_->clear();
    gapsTab_->clear();
    groupsTab_->clear();
    showGroupsTab(false);
    scheduleReplots();
}

void StructuredView::showGroupsTab(bool shown) {
    // Only online MKL has kernel groups: for the other solvers the tab would stay empty.
    tabs_->setTabVisible(tabs_->indexOf(groupsTab_), shown);
}

bool StructuredView::groupsTabShown() const {
    return tabs_->isTabVisible(tabs_->indexOf(groupsTab_));
}

QCustomPlot* StructuredView::plot() const {
    switch (tabs_->currentIndex()) {
        case 1:
            return traceTab_;
        case 2:
            return latticeTab_->plot();
        case 3:
            return gapsTab_;
        case 4:
            return groupsTab_;
        default:
            return modelTab_;
    }
}

bool StructuredView::showPage(int index) {
    if (index < 0 || index >= tabs_->count() || !tabs_->isTabVisible(index)) return false;
    tabs_->setCurrentIndex(index);
    return true;
}

bool StructuredView::showFrame(const ViewFrame& frame) {
    auto snapshot = std::dynamic_pointer_cast<const StructuredSnapshot>(frame.snapshot);
    if (!snapshot) return false;
    modelTab_->draw(*snapshot);
    traceTab_->setFrame(frame);
    latticeTab_->draw(snapshot);
    gapsTab_->draw(snapshot->wordGaps);
    groupsTab_->draw(frame.records, frame.columns, frame.runId, snapshot.get());
    showGroupsTab(!snapshot->groupNames.empty());
    scheduleReplots();
    return true;
}

StructuredView::Layout StructuredView::layout() const {
    return modelTab_->layout();
}

double StructuredView::emissionCell(int label, int feature) const {
    return modelTab_->emissionCell(label, feature);
}

double StructuredView::transitionCell(int from, int to) const {
    return modelTab_->transitionCell(from, to);
}

int StructuredView::tileTitleCount() const {
    return modelTab_->tileTitleCount();
}

int StructuredView::primalPointCount() const {
    return traceTab_->primalPointCount();
}

int StructuredView::gapPointCount() const {
    return traceTab_->gapPointCount();
}

int StructuredView::testErrorPointCount() const {
    return traceTab_->testErrorPointCount();
}

int StructuredView::testWordErrorPointCount() const {
    return traceTab_->testWordErrorPointCount();
}

int StructuredView::traceRunCount() const {
    return traceTab_->runCount();
}

QColor StructuredView::traceRunColour(int k) const {
    return traceTab_->runColour(k);
}

int StructuredView::traceRunGapPoints(int k) const {
    return traceTab_->runGapPoints(k);
}

int StructuredView::traceRunTestErrorPoints(int k) const {
    return traceTab_->runTestErrorPoints(k);
}

int StructuredView::traceGraphCount() const {
    return traceTab_->graphTotal();
}

double StructuredView::ownValue(int curve, int index) const {
    return traceTab_->ownValue(curve, index);
}

void StructuredView::setLatticeWord(int index) {
    latticeTab_->setWord(index);
}

double StructuredView::latticeCell(int t, int label) const {
    return latticeTab_->cell(t, label);
}

int StructuredView::latticePathLabel(int path, int t) const {
    return latticeTab_->pathLabel(path, t);
}

double StructuredView::wordGapCell(int i) const {
    return gapsTab_->cell(i);
}

int StructuredView::groupCurveCount() const {
    return groupsTab_->curveCount();
}

double StructuredView::groupWeight(int group, int index) const {
    return groupsTab_->weight(group, index);
}

double StructuredView::proxBar(bool after, int group) const {
    return groupsTab_->proxBar(after, group);
}

double StructuredView::drawnThreshold() const {
    return groupsTab_->threshold();
}

QString StructuredView::statusText(const ViewFrame& frame) const {
    const auto* s = dynamic_cast<const StructuredSnapshot*>(frame.snapshot.get());
    if (!s || s->labels <= 0) return {};
    QString text = tr("P(w) %1").arg(s->primal, 0, 'g', 8);
    if (std::isfinite(s->dual))
        text += tr(", D %1, gap %2").arg(s->dual, 0, 'g', 8).arg(s->gap, 0, 'g', 3);
    text += tr("; %1 passes; letter error %2")
                .arg(s->passes, 0, 'g', 4)
                .arg(s->errors.trainLetter, 0, 'g', 4);
    if (s->errors.testLetter >= 0)
        text += tr(" (test %1, test word error %2)")
                    .arg(s->errors.testLetter, 0, 'g', 4)
                    .arg(s->errors.testWord, 0, 'g', 4);
    return text;
}

FamilyView* structuredView(QWidget* parent) {
    return new StructuredView(parent);
}

}  // namespace cplab::widgets
