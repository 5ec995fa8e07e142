// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured_view.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "coalesced_replot.h"
#include "data/sequence_format.h"
#include "plot_style.h"

namespace cplab::widgets {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Labels named on the transition matrix's axes up to this many (beyond, numbers).
constexpr int kNamedLabels = 40;
// Emission tiles titled with their label up to this many.
constexpr int kTitledTiles = 64;

// Negative red, zero white, positive blue; NaN (gaps between tiles) transparent.
QCPColorGradient weightGradient() {
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(178, 24, 43));
    g.setColorStopAt(0.25, QColor(239, 138, 98));
    g.setColorStopAt(0.5, QColor(250, 250, 250));
    g.setColorStopAt(0.75, QColor(103, 169, 207));
    g.setColorStopAt(1.0, QColor(33, 102, 172));
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}

// The largest |value| of the map's cells (1 when all are zero or NaN).
double symmetricRange(QCPColorMapData* data) {
    double largest = 0.0;
    for (int x = 0; x < data->keySize(); ++x) {
        for (int y = 0; y < data->valueSize(); ++y) {
            const double v = data->cell(x, y);
            if (std::isfinite(v)) largest = std::max(largest, std::abs(v));
        }
    }
    return largest > 0 ? largest : 1.0;
}

// The rows × columns of one label's emission image: Taskar's letters are 16 × 8 pixels, other
// square dimensions square images; {0, 0} when the features are not an image.
std::pair<int, int> imageShape(int features) {
    if (features == kOcrPixels) return {16, 8};
    const int side = static_cast<int>(std::lround(std::sqrt(static_cast<double>(features))));
    if (side >= 4 && side * side == features) return {side, side};
    return {0, 0};
}

QString labelName(const std::vector<std::string>& names, int y) {
    return y < static_cast<int>(names.size()) ? QString::fromStdString(names[y])
                                              : QString::number(y);
}

void fitValues(QCPAxis* axis, const std::vector<QCPGraph*>& graphs, bool includeZero) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (QCPGraph* g : graphs) {
        bool found = false;
        const QCPRange r = g->getValueRange(found);
        if (!found) continue;
        lo = std::min(lo, r.lower);
        hi = std::max(hi, r.upper);
    }
    if (!(lo <= hi)) return;
    if (includeZero) lo = std::min(lo, 0.0);
    const double span = std::max(hi - lo, 1e-12);
    axis->setRange(lo - 0.06 * span, hi + 0.06 * span);
}

// Sets the ranges of `rect`'s bottom and left axes to hold `box` with as many pixels per unit
// across as up and down, `box` centred (the left axis keeps its reversal).
void squarePixels(QCPAxisRect* rect, const QRectF& box) {
    if (rect->width() <= 0 || rect->height() <= 0 || box.isEmpty()) return;
    const double perPixel = std::max(box.width() / rect->width(), box.height() / rect->height());
    const double halfWidth = perPixel * rect->width() / 2,
                 halfHeight = perPixel * rect->height() / 2;
    const QPointF c = box.center();
    rect->axis(QCPAxis::atBottom)->setRange(c.x() - halfWidth, c.x() + halfWidth);
    rect->axis(QCPAxis::atLeft)->setRange(c.y() - halfHeight, c.y() + halfHeight);
}

}  // namespace

StructuredView::StructuredView(QWidget* parent)
    : FamilyView(parent),
      tabs_(new QTabWidget(this)),
      modelPlot_(new QCustomPlot),
      tracePlot_(new QCustomPlot),
      latticePlot_(new QCustomPlot),
      gapsPlot_(new QCustomPlot),
      groupsPlot_(new QCustomPlot),
      wordBox_(new QSpinBox) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tabs_);
    tabs_->setDocumentMode(true);
    tabs_->addTab(modelPlot_, tr("Model"));
    tabs_->addTab(tracePlot_, tr("Gap and errors"));
    auto* latticePage = new QWidget;
    auto* latticeLayout = new QVBoxLayout(latticePage);
    latticeLayout->setContentsMargins(0, 0, 0, 0);
    auto* wordRow = new QHBoxLayout;
    wordRow->setContentsMargins(6, 4, 6, 0);
    wordRow->addWidget(new QLabel(tr("word")));
    wordBox_->setRange(1, 1);
    wordBox_->setToolTip(
        tr("which of the first words (of the test set, else of the training "
           "set) the lattice shows"));
    wordRow->addWidget(wordBox_);
    wordRow->addStretch(1);
    latticeLayout->addLayout(wordRow);
    latticeLayout->addWidget(latticePlot_, 1);
    tabs_->addTab(latticePage, tr("Viterbi lattice"));
    latticePlot_->setObjectName("structuredLatticePlot");
    tabs_->addTab(gapsPlot_, tr("Word gaps"));
    gapsPlot_->setObjectName("structuredWordGapPlot");
    tabs_->addTab(groupsPlot_, tr("Kernel groups"));
    groupsPlot_->setObjectName("structuredGroupPlot");
    connect(wordBox_, &QSpinBox::valueChanged, this, [this](int value) {
        latticeWord_ = value - 1;
        drawLattice();
        latticeReplot_->schedule();
    });
    modelPlot_->setObjectName("structuredModelPlot");
    tracePlot_->setObjectName("structuredTracePlot");
    for (QCustomPlot* p : {modelPlot_, tracePlot_, latticePlot_, gapsPlot_, groupsPlot_})
        applyPlotStyle(p);
    latticeReplot_ = new CoalescedReplot(latticePlot_);
    gapsReplot_ = new CoalescedReplot(gapsPlot_);
    groupsReplot_ = new CoalescedReplot(groupsPlot_, [this] { rescaleGroups(); });
    // Keep the pixels square once the layout is known: widen whichever range is short.
    modelReplot_ = new CoalescedReplot(modelPlot_, [this] {
        if (layout_ == Layout::Images) squarePixels(emissionRect_, emissionBox_);
        if (transitions_) squarePixels(transitionRect_, transitionBox_);
    });
    traceReplot_ = new CoalescedReplot(tracePlot_, [this] { rescaleTrace(); });

    // Model: emission weights (left, wide) and transitions (right).
    emissionRect_ = modelPlot_->axisRect();
    transitionRect_ = new QCPAxisRect(modelPlot_);
    modelPlot_->plotLayout()->addElement(0, 1, transitionRect_);
    modelPlot_->plotLayout()->setColumnStretchFactors({1.6, 1.0});
    for (QCPAxisRect* rect : {emissionRect_, transitionRect_}) {
        styleAxisRect(rect);
        for (QCPAxis* axis : {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft)})
            axis->grid()->setVisible(false);
    }
    emission_ = new QCPColorMap(emissionRect_->axis(QCPAxis::atBottom),
                                emissionRect_->axis(QCPAxis::atLeft));
    transition_ = new QCPColorMap(transitionRect_->axis(QCPAxis::atBottom),
                                  transitionRect_->axis(QCPAxis::atLeft));
    for (QCPColorMap* map : {emission_, transition_}) {
        map->setGradient(weightGradient());
        map->setInterpolate(false);
        map->setVisible(false);
    }
    note_ = addNote(modelPlot_, emissionRect_);
    note_->setVisible(false);

    // Trace: bounds, gap, errors and the solver's own measure, one above the other, against
    // passes.
    boundsRect_ = tracePlot_->axisRect();
    gapRect_ = new QCPAxisRect(tracePlot_);
    errorRect_ = new QCPAxisRect(tracePlot_);
    ownRect_ = new QCPAxisRect(tracePlot_);
    tracePlot_->plotLayout()->addElement(1, 0, gapRect_);
    tracePlot_->plotLayout()->addElement(2, 0, errorRect_);
    tracePlot_->plotLayout()->addElement(3, 0, ownRect_);
    auto* margins = new QCPMarginGroup(tracePlot_);
    for (QCPAxisRect* rect : {boundsRect_, gapRect_, errorRect_, ownRect_}) {
        styleAxisRect(rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        rect->axis(QCPAxis::atLeft)->ticker()->setTickCount(4);
    }
    ownRect_->axis(QCPAxis::atLeft)->ticker()->setTickCount(3);  // the shortest panel
    // One x label, under the last panel: the four share their x range.
    ownRect_->axis(QCPAxis::atBottom)->setLabel(tr("passes over the training words"));
    boundsRect_->axis(QCPAxis::atLeft)->setLabel(tr("objective"));
    gapRect_->axis(QCPAxis::atLeft)->setLabel(tr("duality gap P \u2212 D"));
    useLogScale(gapRect_->axis(QCPAxis::atLeft));
    errorRect_->axis(QCPAxis::atLeft)->setLabel(tr("error"));
    primal_ = addLineGraph(tracePlot_, boundsRect_, tr("primal P(w)"), pen(colors::kModel, 2.0));
    dual_ = addLineGraph(tracePlot_, boundsRect_, tr("dual D(\u03b1)"),
                         pen(colors::kCandidate, 1.6, Qt::DashLine));
    gap_ = addLineGraph(tracePlot_, gapRect_, tr("duality gap"), pen(colors::kFunction, 1.6));
    trainError_ = addLineGraph(tracePlot_, errorRect_, tr("letter error, training words"),
                               pen(colors::kModel, 1.8));
    testError_ = addLineGraph(tracePlot_, errorRect_, tr("letter error, test words"),
                              pen(colors::kCandidate, 1.6, Qt::DashLine));
    testWordError_ = addLineGraph(tracePlot_, errorRect_, tr("word error, test words"),
                                  pen(colors::kFunction, 1.6, Qt::DotLine));
    own_[0] = addLineGraph(tracePlot_, ownRect_, {}, pen(colors::kModel, 1.8));
    own_[1] = addLineGraph(tracePlot_, ownRect_, {}, pen(colors::kCandidate, 1.6, Qt::DashLine));
    for (QCPGraph* g : traceGraphs())
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 3.0));
    ownNote_ = addNote(tracePlot_, ownRect_);
    // One legend in a row below the panels (inside, it covered the curves); the last panel
    // names its curves in its own axis label.
    errorLegend_ = addLegendRow(tracePlot_, 4, 6);
    tracePlot_->plotLayout()->setRowStretchFactors({1.0, 1.0, 1.0, 0.8, 0.001});
    for (QCPGraph* g : {primal_, dual_, gap_, trainError_, testError_, testWordError_})
        g->addToLegend(errorLegend_);

    // Lattice: the word's letters above, the L × T lattice below, on one x axis (position).
    lettersRect_ = latticePlot_->axisRect();
    latticeRect_ = new QCPAxisRect(latticePlot_);
    latticePlot_->plotLayout()->addElement(1, 0, latticeRect_);
    auto* latticeMargins = new QCPMarginGroup(latticePlot_);
    for (QCPAxisRect* rect : {lettersRect_, latticeRect_}) {
        styleAxisRect(rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, latticeMargins);
        for (QCPAxis* axis : {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft)})
            axis->grid()->setVisible(false);
    }
    lettersRect_->axis(QCPAxis::atLeft)->setTicks(false);
    lettersRect_->axis(QCPAxis::atLeft)->setTickLabels(false);
    lettersRect_->axis(QCPAxis::atLeft)->setRangeReversed(true);
    lettersRect_->axis(QCPAxis::atBottom)->setTickLabels(false);
    lettersRect_->axis(QCPAxis::atBottom)->setTicks(false);
    latticeRect_->axis(QCPAxis::atBottom)
        ->setLabel(tr("position t in the word; cells: the emission score <w_y, x_t> + b_y "
                      "(darker: higher)"));
    latticeRect_->axis(QCPAxis::atLeft)->setLabel(tr("label"));
    latticeRect_->axis(QCPAxis::atLeft)->setRangeReversed(true);
    letters_ =
        new QCPColorMap(lettersRect_->axis(QCPAxis::atBottom), lettersRect_->axis(QCPAxis::atLeft));
    letters_->setGradient(inkGradient());
    letters_->setInterpolate(false);
    lattice_ =
        new QCPColorMap(latticeRect_->axis(QCPAxis::atBottom), latticeRect_->axis(QCPAxis::atLeft));
    QCPColorGradient scores;
    scores.clearColorStops();
    scores.setColorStopAt(0.0, QColor(250, 250, 250));
    scores.setColorStopAt(1.0, QColor(253, 174, 97));
    lattice_->setGradient(scores);
    lattice_->setInterpolate(false);
    const QPen pathPens[3] = {pen(colors::kBest, 5.0), pen(colors::kModel, 2.2),
                              pen(colors::kCandidate, 1.8, Qt::DashLine)};
    const QString pathNames[3] = {tr("true labels y_i"), tr("Viterbi decoding of w"),
                                  tr("loss-augmented decoding (the oracle)")};
    auto* pathLegend = addLegendRow(latticePlot_, 2, 3);
    latticePlot_->plotLayout()->setRowStretchFactors({1.6, 4.0, 0.001});
    for (int k = 0; k < 3; ++k) {
        paths_[k] = new QCPCurve(latticeRect_->axis(QCPAxis::atBottom),
                                 latticeRect_->axis(QCPAxis::atLeft));
        paths_[k]->setName(pathNames[k]);
        paths_[k]->setPen(pathPens[k]);
        paths_[k]->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssDisc, pathPens[k].color(), k == 0 ? 9 : 6));
        paths_[k]->addToLegend(pathLegend);
    }

    // Word gaps: one strip, word i at x = i + 1, coloured by log gapᵢ.
    QCPAxisRect* gapsRect = gapsPlot_->axisRect();
    styleAxisRect(gapsRect);
    gapsRect->axis(QCPAxis::atBottom)->setLabel(tr("training word i"));
    gapsRect->axis(QCPAxis::atLeft)->setTicks(false);
    gapsRect->axis(QCPAxis::atLeft)->setTickLabels(false);
    gapsRect->axis(QCPAxis::atLeft)->grid()->setVisible(false);
    gapsRect->axis(QCPAxis::atLeft)->setRange(-0.5, 0.5);
    wordGaps_ = new QCPColorMap(gapsRect->axis(QCPAxis::atBottom), gapsRect->axis(QCPAxis::atLeft));
    QCPColorGradient heat;
    heat.clearColorStops();
    heat.setColorStopAt(0.0, QColor(255, 255, 229));
    heat.setColorStopAt(0.35, QColor(254, 196, 79));
    heat.setColorStopAt(0.7, QColor(236, 112, 20));
    heat.setColorStopAt(1.0, QColor(102, 37, 6));
    heat.setNanHandling(QCPColorGradient::nhTransparent);
    wordGaps_->setGradient(heat);
    wordGaps_->setInterpolate(false);
    wordGaps_->setDataScaleType(QCPAxis::stLogarithmic);
    auto* scale = new QCPColorScale(gapsPlot_);
    gapsPlot_->plotLayout()->addElement(1, 0, scale);
    scale->setType(QCPAxis::atBottom);
    scale->setLabel(
        tr("gap_i of the word at its last visit (log scale; their sum is about "
           "the duality gap)"));
    scale->setDataScaleType(QCPAxis::stLogarithmic);
    scale->axis()->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    scale->axis()->setNumberFormat("eb");
    scale->axis()->setNumberPrecision(0);
    wordGaps_->setColorScale(scale);
    scale->setGradient(heat);  // the scale's gradient is the map's from here on
    auto* gapsMargins = new QCPMarginGroup(gapsPlot_);
    gapsRect->setMarginGroup(QCP::msLeft | QCP::msRight, gapsMargins);
    scale->setMarginGroup(QCP::msLeft | QCP::msRight, gapsMargins);
    gapsPlot_->plotLayout()->setRowStretchFactors({1.0, 0.001});
    gapsNote_ = addNote(gapsPlot_, gapsRect);
    gapsNote_->setText(tr("Only BCFW keeps a gap per word (its block gaps)."));

    // Kernel groups (online MKL): β_g along the epochs above, the last proximal step below.
    betaRect_ = groupsPlot_->axisRect();
    proxRect_ = new QCPAxisRect(groupsPlot_);
    groupsPlot_->plotLayout()->addElement(2, 0, proxRect_);
    auto* groupMargins = new QCPMarginGroup(groupsPlot_);
    for (QCPAxisRect* rect : {betaRect_, proxRect_}) {
        styleAxisRect(rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, groupMargins);
    }
    betaRect_->axis(QCPAxis::atBottom)->setLabel(tr("epochs (passes over the training words)"));
    betaRect_->axis(QCPAxis::atLeft)->setLabel(tr("group weight β_g = |w_g| / Σ|w_h|"));
    betaRect_->axis(QCPAxis::atLeft)->setRange(0, 1.05);
    betaLegend_ = addLegendRow(groupsPlot_, 1, 6);
    // The number of active groups (b̃ > 0) on the right axis, as steps.
    activeGroups_ = addLineGraph(groupsPlot_, betaRect_, tr("active groups (right axis)"),
                                 pen(colors::kOutline, 1.2, Qt::DotLine), true);
    activeGroups_->setLineStyle(QCPGraph::lsStepLeft);
    betaRect_->axis(QCPAxis::atRight)->setVisible(true);
    betaRect_->axis(QCPAxis::atRight)->setLabel(tr("active groups"));
    betaRect_->axis(QCPAxis::atRight)->ticker()->setTickStepStrategy(QCPAxisTicker::tssReadability);
    proxRect_->axis(QCPAxis::atLeft)->setLabel(tr("group norm"));
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
    threshold_ = new QCPItemStraightLine(groupsPlot_);
    threshold_->setClipAxisRect(proxRect_);
    for (QCPItemPosition* point : {threshold_->point1, threshold_->point2})
        point->setAxes(proxRect_->axis(QCPAxis::atBottom), proxRect_->axis(QCPAxis::atLeft));
    threshold_->setPen(pen(colors::kCandidate, 1.6, Qt::DashLine));
    thresholdLabel_ = new QCPItemText(groupsPlot_);
    thresholdLabel_->setClipAxisRect(proxRect_);
    thresholdLabel_->position->setAxes(proxRect_->axis(QCPAxis::atBottom),
                                       proxRect_->axis(QCPAxis::atLeft));
    thresholdLabel_->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    thresholdLabel_->setColor(colors::kCandidate);
    auto* proxLegend = addLegendRow(groupsPlot_, 3, 3);
    proxLegend->clearItems();
    proxBefore_->addToLegend(proxLegend);
    proxAfter_->addToLegend(proxLegend);
    groupsPlot_->plotLayout()->setRowStretchFactors({1.4, 0.001, 1.0, 0.001});
    groupsNote_ = addNote(groupsPlot_, betaRect_);
    groupsNote_->setText(tr("Only online MKL has kernel groups (cplab-cli run online_mkl)."));
    clear();
}

void StructuredView::clear() {
    layout_ = Layout::None;
    labels_ = features_ = 0;
    transitions_ = false;
    labelNames_.clear();
    emission_->setVisible(false);
    transition_->setVisible(false);
    emission_->data()->clear();
    transition_->data()->clear();
    for (QCPItemText* title : titles_)
        modelPlot_->removeItem(title);
    titles_.clear();
    note_->setVisible(false);
    for (QCPGraph* g : traceGraphs())
        g->data()->clear();
    setOwnMeasure(OwnMeasure::None);
    updateLegend();
    run_ = -1;
    shown_ = 0;
    snapshot_.reset();
    letters_->data()->clear();
    lattice_->data()->clear();
    for (QCPCurve* path : paths_)
        path->data()->clear();
    wordGaps_->data()->clear();
    gapsNote_->setVisible(true);
    for (QCPGraph* g : betaGraphs_)
        groupsPlot_->removeGraph(g);
    betaGraphs_.clear();
    betaLegend_->clearItems();
    activeGroups_->data()->clear();
    groupNames_.clear();
    groupRun_ = -1;
    groupShown_ = 0;
    proxBefore_->data()->clear();
    proxAfter_->data()->clear();
    threshold_->setVisible(false);
    thresholdLabel_->setVisible(false);
    for (QCPItemText* label : shrinkLabels_)
        groupsPlot_->removeItem(label);
    shrinkLabels_.clear();
    groupsNote_->setVisible(true);
    groupsReplot_->schedule();
    latticeReplot_->schedule();
    gapsReplot_->schedule();
    modelReplot_->schedule();
    traceReplot_->schedule();
}

QCustomPlot* StructuredView::plot() const {
    switch (tabs_->currentIndex()) {
        case 1:
            return tracePlot_;
        case 2:
            return latticePlot_;
        case 3:
            return gapsPlot_;
        case 4:
            return groupsPlot_;
        default:
            return modelPlot_;
    }
}

bool StructuredView::showPage(int index) {
    if (index < 0 || index >= tabs_->count()) return false;
    tabs_->setCurrentIndex(index);
    return true;
}

bool StructuredView::showFrame(const ViewFrame& frame) {
    auto snapshot = std::dynamic_pointer_cast<const StructuredSnapshot>(frame.snapshot);
    if (!snapshot) return false;
    const StructuredSnapshot& s = *snapshot;
    const long long expected = static_cast<long long>(s.labels) * s.features + s.labels +
                               (s.transitions ? static_cast<long long>(s.labels) * s.labels : 0);
    if (s.labels <= 0 || s.w.size() != expected) {
        // A run that rejected its input has nothing to draw but its message.
        emission_->setVisible(false);
        transition_->setVisible(false);
        note_->setText(
            QString::fromStdString(s.status.message.empty() ? "no model yet" : s.status.message));
        note_->setVisible(true);
    } else {
        note_->setVisible(false);
        if (s.labels != labels_ || s.features != features_ || s.transitions != transitions_ ||
            s.labelNames != labelNames_)
            setupLayout(s);
        drawWeights(s);
    }
    setTrace(frame.records, frame.columns, frame.runId);
    snapshot_ = std::move(snapshot);
    const int words = static_cast<int>(snapshot_->lattices.size());
    if (words > 0 && wordBox_->maximum() != words) {
        const QSignalBlocker block(wordBox_);
        wordBox_->setRange(1, words);
        latticeWord_ = std::min(latticeWord_, words - 1);
        wordBox_->setValue(latticeWord_ + 1);
    }
    drawLattice();
    drawWordGaps();
    drawGroups(frame.records, frame.columns, frame.runId);
    modelReplot_->schedule();
    traceReplot_->schedule();
    latticeReplot_->schedule();
    gapsReplot_->schedule();
    groupsReplot_->schedule();
    return true;
}

void StructuredView::drawGroups(std::span<const IterationRecord> records,
                                const std::vector<std::string>& columns, int runId) {
    std::vector<std::string> names;
    std::vector<int> betaColumns;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        if (columns[c].rfind("beta:", 0) == 0) {
            names.push_back(columns[c].substr(5));
            betaColumns.push_back(static_cast<int>(c));
        }
    }
    if (runId != groupRun_ || names != groupNames_ || records.size() < groupShown_) {
        for (QCPGraph* g : betaGraphs_)
            groupsPlot_->removeGraph(g);
        betaGraphs_.clear();
        betaLegend_->clearItems();
        activeGroups_->data()->clear();
        for (std::size_t k = 0; k < names.size(); ++k) {
            QCPGraph* g = addLineGraph(groupsPlot_, betaRect_, QString::fromStdString(names[k]),
                                       pen(runColor(static_cast<int>(k)), 2.0));
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 3.0));
            g->addToLegend(betaLegend_);
            betaGraphs_.push_back(g);
        }
        groupNames_ = names;
        groupRun_ = runId;
        groupShown_ = 0;
    }
    if (!names.empty() && !betaLegend_->hasItemWithPlottable(activeGroups_))
        activeGroups_->addToLegend(betaLegend_);
    const int active = columnOf(columns, "active_groups");
    for (std::size_t i = groupShown_; i < records.size(); ++i) {
        const IterationRecord& r = records[i];
        if (!names.empty() && std::isfinite(r.passes) && r.iteration > 0)
            activeGroups_->addData(r.passes, extraAt(r, active));
        for (std::size_t k = 0; k < betaGraphs_.size(); ++k) {
            const double beta = extraAt(r, betaColumns[k]);
            if (std::isfinite(beta) && std::isfinite(r.passes))
                betaGraphs_[k]->addData(r.passes, beta);
        }
    }
    groupShown_ = records.size();
    groupsNote_->setVisible(betaGraphs_.empty());

    // The last proximal step, from the snapshot: paired bars per group, the threshold s.
    QVector<double> keys, before, after;
    const StructuredSnapshot* s = snapshot_.get();
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
    proxRect_->axis(QCPAxis::atBottom)
        ->setLabel(hasProx ? tr("the last round's proximal step on the group norms (%1)")
                                 .arg(QString::fromStdString(s->regulariser))
                           : QString());
    // What the step removed from each group, in per cent of its norm (one round's shrinkage is
    // small: τ = η_t·λ), or "pruned".
    for (QCPItemText* label : shrinkLabels_)
        groupsPlot_->removeItem(label);
    shrinkLabels_.clear();
    for (int g = 0; g < keys.size(); ++g) {
        auto* label = new QCPItemText(groupsPlot_);
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
    const bool showThreshold = hasProx && std::isfinite(s->proxThreshold);
    threshold_->setVisible(showThreshold);
    thresholdLabel_->setVisible(showThreshold);
    if (showThreshold) {
        threshold_->point1->setCoords(-1.0, s->proxThreshold);
        threshold_->point2->setCoords(1.0, s->proxThreshold);
        thresholdLabel_->position->setCoords(-0.45, s->proxThreshold);
        thresholdLabel_->setText(tr("threshold s = %1").arg(s->proxThreshold, 0, 'g', 3));
    }
}

void StructuredView::rescaleGroups() {
    double last = 1.0;
    for (QCPGraph* g : betaGraphs_) {
        bool found = false;
        const QCPRange k = g->getKeyRange(found);
        if (found) last = std::max(last, k.upper);
    }
    betaRect_->axis(QCPAxis::atBottom)->setRange(0, last * 1.02);
    betaRect_->axis(QCPAxis::atRight)->setRange(0, std::max<double>(1, groupCurveCount()) + 0.5);
    const int count = proxBefore_->dataCount();
    proxRect_->axis(QCPAxis::atBottom)->setRange(-0.6, std::max(count, 1) - 0.4);
    double top = 0.0;
    for (QCPBars* bars : {proxBefore_, proxAfter_})
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
            top = std::max(top, it->value);
    if (threshold_->visible()) top = std::max(top, threshold_->point1->coords().y());
    proxRect_->axis(QCPAxis::atLeft)->setRange(0, top > 0 ? top * 1.15 : 1.0);
}

int StructuredView::groupCurveCount() const {
    return static_cast<int>(betaGraphs_.size());
}

double StructuredView::groupWeight(int group, int index) const {
    if (group < 0 || group >= groupCurveCount()) return kNaN;
    const QCPGraph* g = betaGraphs_[static_cast<std::size_t>(group)];
    if (index < 0 || index >= g->dataCount()) return kNaN;
    return (g->data()->constBegin() + index)->value;
}

double StructuredView::proxBar(bool after, int group) const {
    const QCPBars* bars = after ? proxAfter_ : proxBefore_;
    if (group < 0 || group >= bars->dataCount()) return kNaN;
    return (bars->data()->constBegin() + group)->value;
}

double StructuredView::drawnThreshold() const {
    return threshold_->visible() ? threshold_->point1->coords().y() : kNaN;
}

void StructuredView::drawWordGaps() {
    const std::vector<double> none;
    const std::vector<double>& gaps = snapshot_ ? snapshot_->wordGaps : none;
    const int n = static_cast<int>(gaps.size());
    gapsNote_->setVisible(n == 0);
    if (n == 0) {
        wordGaps_->data()->clear();
        return;
    }
    // Two equal rows: a map one cell high would be drawn with no height.
    wordGaps_->data()->setSize(n, 2);
    wordGaps_->data()->setRange(QCPRange(1, n > 1 ? n : 1), QCPRange(-0.25, 0.25));
    double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
    for (int i = 0; i < n; ++i) {
        const double g = gaps[static_cast<std::size_t>(i)];
        // A gap at or below 0 (the word's block at its optimum, up to rounding) is drawn as
        // the smallest positive gap; NaN (not visited yet) stays blank.
        wordGaps_->data()->setCell(i, 0, g);
        wordGaps_->data()->setCell(i, 1, g);
        if (g > 0) {
            lo = std::min(lo, g);
            hi = std::max(hi, g);
        }
    }
    if (hi > 0) {
        lo = std::max(lo, hi * 1e-8);
        for (int i = 0; i < n; ++i) {
            const double g = gaps[static_cast<std::size_t>(i)];
            if (!std::isfinite(g) || g >= lo) continue;
            wordGaps_->data()->setCell(i, 0, lo);
            wordGaps_->data()->setCell(i, 1, lo);
        }
        wordGaps_->setDataRange(QCPRange(lo, hi > lo ? hi : lo * 10));
    }
    gapsPlot_->axisRect()->axis(QCPAxis::atBottom)->setRange(0.5, n + 0.5);
}

double StructuredView::wordGapCell(int i) const {
    if (i < 0 || i >= wordGaps_->data()->keySize()) return std::numeric_limits<double>::quiet_NaN();
    return wordGaps_->data()->cell(i, 0);
}

void StructuredView::setLatticeWord(int index) {
    wordBox_->setValue(index + 1);  // redraws through valueChanged
}

void StructuredView::drawLattice() {
    for (QCPCurve* path : paths_)
        path->data()->clear();
    if (!snapshot_ || latticeWord_ < 0 ||
        latticeWord_ >= static_cast<int>(snapshot_->lattices.size()) || !snapshot_->words) {
        letters_->data()->clear();
        lattice_->data()->clear();
        return;
    }
    const WordLattice& word = snapshot_->lattices[static_cast<std::size_t>(latticeWord_)];
    const SequenceData& data = *snapshot_->words;
    const int T = static_cast<int>(word.scores.rows()), L = static_cast<int>(word.scores.cols());
    if (T == 0 || word.word >= data.size()) return;
    // Letters as images when the features are one (OCR: 16 × 8), one per position.
    const auto [rows, columns] = imageShape(data.dimension());
    lettersRect_->setVisible(rows > 0);
    if (rows > 0) {
        // Each position's column holds its image in the middle two thirds (its pixels about
        // square in the panel), blank cells around it.
        const int cell = columns + columns / 2, offset = columns / 4;
        letters_->data()->setSize(T * cell, rows);
        letters_->data()->setRange(QCPRange(-0.5 + 0.5 / cell, T - 0.5 - 0.5 / cell),
                                   QCPRange(0, rows - 1));
        letters_->data()->fill(std::numeric_limits<double>::quiet_NaN());
        const int first = data.first(word.word);
        for (int t = 0; t < T; ++t) {
            for (int r = 0; r < rows; ++r) {
                for (int c = 0; c < columns; ++c)
                    letters_->data()->setCell(t * cell + offset + c, r, 0.0);
            }
            for (SequenceData::SparseMatrix::InnerIterator it(data.features, first + t); it; ++it)
                letters_->data()->setCell(t * cell + offset + static_cast<int>(it.col()) % columns,
                                          static_cast<int>(it.col()) / columns, it.value());
        }
        letters_->setDataRange(QCPRange(0, 1));
        lettersRect_->axis(QCPAxis::atLeft)->setRange(-0.5, rows - 0.5);
    }
    lattice_->data()->setSize(T, L);
    lattice_->data()->setRange(QCPRange(0, std::max(T - 1, 1)), QCPRange(0, L - 1));
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (int t = 0; t < T; ++t) {
        for (int y = 0; y < L; ++y) {
            lattice_->data()->setCell(t, y, word.scores(t, y));
            lo = std::min(lo, word.scores(t, y));
            hi = std::max(hi, word.scores(t, y));
        }
    }
    if (T == 1) lattice_->data()->setKeyRange(QCPRange(0, 0));
    lattice_->setDataRange(QCPRange(lo, hi > lo ? hi : lo + 1));
    // The paths, offset a little so that coinciding ones stay visible.
    const std::vector<int>* labellings[3] = {&word.truth, &word.decoded, &word.lossAugmented};
    const double offsets[3] = {0.0, -0.12, 0.12};
    for (int k = 0; k < 3; ++k) {
        QVector<double> index, x, y;
        for (int t = 0; t < T && t < static_cast<int>(labellings[k]->size()); ++t) {
            index.append(t);
            x.append(t + offsets[k]);
            y.append((*labellings[k])[static_cast<std::size_t>(t)]);
        }
        paths_[k]->setData(index, x, y, true);
    }
    QCPAxis* bottom = latticeRect_->axis(QCPAxis::atBottom);
    QCPAxis* left = latticeRect_->axis(QCPAxis::atLeft);
    bottom->setRange(-0.5, T - 0.5);
    lettersRect_->axis(QCPAxis::atBottom)->setRange(-0.5, T - 0.5);
    left->setRange(-0.5, L - 0.5);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int t = 0; t < T; ++t)
        ticker->addTick(t, QString::number(t + 1));
    bottom->setTicker(ticker);
    if (L <= kNamedLabels) {
        auto labels = QSharedPointer<QCPAxisTickerText>::create();
        for (int y = 0; y < L; ++y)
            labels->addTick(y, labelName(snapshot_->labelNames, y));
        left->setTicker(labels);
        QFont font = left->tickLabelFont();
        font.setPointSize(L <= 30 ? 7 : 6);
        left->setTickLabelFont(font);
    }
    QString truth, decoded;
    for (int t = 0; t < T; ++t) {
        truth += labelName(snapshot_->labelNames, word.truth[static_cast<std::size_t>(t)]);
        decoded += labelName(snapshot_->labelNames, word.decoded[static_cast<std::size_t>(t)]);
    }
    lettersRect_->axis(QCPAxis::atTop)->setVisible(true);
    lettersRect_->axis(QCPAxis::atTop)->setTicks(false);
    lettersRect_->axis(QCPAxis::atTop)->setTickLabels(false);
    lettersRect_->axis(QCPAxis::atTop)->setBasePen(Qt::NoPen);
    lettersRect_->axis(QCPAxis::atTop)
        ->setLabel(tr("word %1 of '%2': \u201c%3\u201d, decoded \u201c%4\u201d")
                       .arg(word.word + 1)
                       .arg(QString::fromStdString(data.name))
                       .arg(truth)
                       .arg(decoded));
}

double StructuredView::latticeCell(int t, int label) const {
    if (!snapshot_ || latticeWord_ >= static_cast<int>(snapshot_->lattices.size()) || t < 0 ||
        label < 0 || t >= lattice_->data()->keySize() || label >= lattice_->data()->valueSize())
        return std::numeric_limits<double>::quiet_NaN();
    return lattice_->data()->cell(t, label);
}

int StructuredView::latticePathLabel(int path, int t) const {
    if (path < 0 || path > 2) return -1;
    for (auto it = paths_[path]->data()->constBegin(); it != paths_[path]->data()->constEnd(); ++it)
        if (static_cast<int>(std::lround(it->t)) == t)
            return static_cast<int>(std::lround(it->value));
    return -1;
}

void StructuredView::setupLayout(const StructuredSnapshot& s) {
    labels_ = s.labels;
    features_ = s.features;
    transitions_ = s.transitions;
    labelNames_ = s.labelNames;
    const auto [rows, columns] = imageShape(features_);
    layout_ = rows > 0 ? Layout::Images : Layout::Matrix;
    imageRows_ = rows;
    imageColumns_ = columns;
    for (QCPItemText* title : titles_)
        modelPlot_->removeItem(title);
    titles_.clear();

    QCPAxis* x = emissionRect_->axis(QCPAxis::atBottom);
    QCPAxis* y = emissionRect_->axis(QCPAxis::atLeft);
    if (layout_ == Layout::Images) {
        // A mosaic about 1.6 times as wide as high, a one-pixel gap between tiles and room above
        // each for its title.
        titleRows_ = labels_ <= kTitledTiles ? std::max(3, imageRows_ / 4) : 0;
        const double tileWidth = imageColumns_ + 1, tileHeight = imageRows_ + 1 + titleRows_;
        tilesPerRow_ = std::clamp(
            static_cast<int>(std::ceil(std::sqrt(1.6 * labels_ * tileHeight / tileWidth))), 1,
            labels_);
        const int tileRows = (labels_ + tilesPerRow_ - 1) / tilesPerRow_;
        const int width = tilesPerRow_ * (imageColumns_ + 1) - 1;
        const int height = tileRows * (imageRows_ + 1 + titleRows_) - 1;
        emission_->data()->setSize(width, height);
        emission_->data()->setRange(QCPRange(0, width - 1), QCPRange(0, height - 1));
        emissionBox_ = QRectF(-1, -1, width + 1, height + 1);
        x->setRange(-1, width);
        y->setRange(-1, height);
        y->setRangeReversed(true);  // row 0 of an image at the top
        for (QCPAxis* axis : {x, y}) {
            axis->setTicks(false);
            axis->setTickLabels(false);
        }
        x->setLabel(tr("emission weights, a %1 \u00d7 %2 image per label (blue > 0, red < 0)")
                        .arg(imageRows_)
                        .arg(imageColumns_));
        y->setLabel({});
        if (titleRows_ > 0) {
            QFont font;
            font.setPointSize(labels_ <= 30 ? 9 : 7);
            for (int label = 0; label < labels_; ++label) {
                auto* title = new QCPItemText(modelPlot_);
                title->setClipToAxisRect(true);
                title->setClipAxisRect(emissionRect_);
                title->position->setAxes(x, y);
                title->position->setCoords(
                    (label % tilesPerRow_) * (imageColumns_ + 1) + (imageColumns_ - 1) / 2.0,
                    (label / tilesPerRow_) * (imageRows_ + 1 + titleRows_) + titleRows_ / 2.0 -
                        0.5);
                title->setPositionAlignment(Qt::AlignCenter);
                title->setFont(font);
                title->setColor(colors::kFunction);
                title->setText(labelName(labelNames_, label));
                titles_.push_back(title);
            }
        }
    } else {
        titleRows_ = 0;
        tilesPerRow_ = 0;
        emission_->data()->setSize(features_, labels_);
        emission_->data()->setRange(QCPRange(0, features_ - 1), QCPRange(0, labels_ - 1));
        x->setRange(-0.5, features_ - 0.5);
        y->setRange(-0.5, labels_ - 0.5);
        y->setRangeReversed(true);
        x->setTicks(true);
        x->setTickLabels(true);
        x->setLabel(tr("feature j (emission weight w_y,j)"));
        y->setLabel(tr("label y"));
        if (labels_ <= kNamedLabels) {
            auto ticker = QSharedPointer<QCPAxisTickerText>::create();
            for (int label = 0; label < labels_; ++label)
                ticker->addTick(label, labelName(labelNames_, label));
            y->setTicker(ticker);
        } else {
            y->setTicker(QSharedPointer<QCPAxisTicker>::create());
        }
        y->setTicks(true);
        y->setTickLabels(true);
    }
    emission_->setVisible(true);

    QCPAxis* from = transitionRect_->axis(QCPAxis::atLeft);
    QCPAxis* to = transitionRect_->axis(QCPAxis::atBottom);
    transitionRect_->setVisible(transitions_);
    transition_->setVisible(transitions_);
    if (transitions_) {
        transition_->data()->setSize(labels_, labels_);
        transition_->data()->setRange(QCPRange(0, labels_ - 1), QCPRange(0, labels_ - 1));
        transitionBox_ = QRectF(-0.5, -0.5, labels_, labels_);
        to->setRange(-0.5, labels_ - 0.5);
        from->setRange(-0.5, labels_ - 0.5);
        from->setRangeReversed(true);
        to->setLabel(tr("next label (transition weights)"));
        from->setLabel(tr("label"));
        for (QCPAxis* axis : {from, to}) {
            if (labels_ <= kNamedLabels) {
                auto ticker = QSharedPointer<QCPAxisTickerText>::create();
                for (int label = 0; label < labels_; ++label)
                    ticker->addTick(label, labelName(labelNames_, label));
                axis->setTicker(ticker);
                QFont font = axis->tickLabelFont();
                font.setPointSize(labels_ <= 30 ? 7 : 6);
                axis->setTickLabelFont(font);
            } else {
                axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
            }
        }
    }
    // Without transitions the emission weights take the whole width.
    modelPlot_->plotLayout()->setColumnStretchFactors({1.6, transitions_ ? 1.0 : 0.001});
}

QPoint StructuredView::emissionPosition(int label, int feature) const {
    if (layout_ == Layout::Images) {
        const int r = feature / imageColumns_, c = feature % imageColumns_;
        return {(label % tilesPerRow_) * (imageColumns_ + 1) + c,
                (label / tilesPerRow_) * (imageRows_ + 1 + titleRows_) + titleRows_ + r};
    }
    return {feature, label};
}

void StructuredView::drawWeights(const StructuredSnapshot& s) {
    QCPColorMapData* data = emission_->data();
    data->fill(kNaN);
    for (int label = 0; label < labels_; ++label) {
        for (int j = 0; j < features_; ++j) {
            const QPoint p = emissionPosition(label, j);
            data->setCell(p.x(), p.y(), s.w(static_cast<Eigen::Index>(label) * features_ + j));
        }
    }
    const double e = symmetricRange(data);
    emission_->setDataRange(QCPRange(-e, e));
    if (transitions_) {
        const Eigen::Index base = static_cast<Eigen::Index>(labels_) * features_ + labels_;
        for (int a = 0; a < labels_; ++a) {
            for (int b = 0; b < labels_; ++b)
                transition_->data()->setCell(b, a, s.w(base + a * labels_ + b));
        }
        const double t = symmetricRange(transition_->data());
        transition_->setDataRange(QCPRange(-t, t));
    }
}

void StructuredView::setTrace(std::span<const IterationRecord> records,
                              const std::vector<std::string>& columns, int runId) {
    if (runId != run_ || records.size() < shown_) {
        for (QCPGraph* g : traceGraphs())
            g->data()->clear();
        shown_ = 0;
        run_ = runId;
    }
    const int primal = columnOf(columns, "primal");
    const int dual = columnOf(columns, "dual");
    const int gap = columnOf(columns, "duality_gap");
    const int train = columnOf(columns, "train_error");
    const int test = columnOf(columns, "test_error");
    const int testWord = columnOf(columns, "test_word_error");
    // The last panel: n-slack's working sets, 1-slack's planes, else the mean step.
    int own[2] = {-1, -1};
    if (const int c = columnOf(columns, "constraints"); c >= 0) {
        setOwnMeasure(OwnMeasure::WorkingSets);
        own[0] = c;
    } else if (const int p = columnOf(columns, "planes"); p >= 0) {
        setOwnMeasure(OwnMeasure::Planes);
        own[0] = p;
        own[1] = columnOf(columns, "active_planes");
    } else {
        own[0] = columnOf(columns, "mean_step");
        setOwnMeasure(own[0] >= 0 ? OwnMeasure::MeanStep : OwnMeasure::None);
    }
    // Only the finite values: a solver evaluates P(w) and the errors every few passes.
    auto add = [](QCPGraph* g, double key, double value, bool positive = false) {
        if (std::isfinite(key) && std::isfinite(value) && (!positive || value > 0))
            g->addData(key, value);
    };
    for (std::size_t i = shown_; i < records.size(); ++i) {
        const IterationRecord& r = records[i];
        const double k = r.passes;
        add(primal_, k, extraAt(r, primal));
        add(dual_, k, extraAt(r, dual));
        add(gap_, k, extraAt(r, gap), true);
        add(trainError_, k, extraAt(r, train));
        const double t = extraAt(r, test);
        if (t >= 0) add(testError_, k, t);
        const double tw = extraAt(r, testWord);
        if (tw >= 0) add(testWordError_, k, tw);
        for (int c = 0; c < 2; ++c)
            add(own_[c], k, extraAt(r, own[c]));
    }
    shown_ = records.size();
    updateLegend();
    ownNote_->setVisible(own_[0]->data()->isEmpty());
}

std::vector<QCPGraph*> StructuredView::traceGraphs() const {
    return {primal_, dual_, gap_, trainError_, testError_, testWordError_, own_[0], own_[1]};
}

void StructuredView::setOwnMeasure(OwnMeasure measure) {
    if (measure == ownMeasure_) return;
    ownMeasure_ = measure;
    QCPAxis* left = ownRect_->axis(QCPAxis::atLeft);
    switch (measure) {
        case OwnMeasure::WorkingSets:
            left->setLabel(tr("constraints Σ|W_i|"));
            ownNote_->setText(tr("no pass yet"));
            break;
        case OwnMeasure::Planes:
            left->setLabel(tr("planes"));
            ownNote_->setText(tr("no pass yet"));
            break;
        case OwnMeasure::MeanStep:
            left->setLabel(tr("mean step γ"));
            ownNote_->setText(tr("no pass yet"));
            break;
        case OwnMeasure::None:
            left->setLabel({});
            ownNote_->setText(tr("no working set or step size to show"));
            break;
    }
    own_[0]->setName(measure == OwnMeasure::Planes ? tr("1-slack planes") : left->label());
    own_[1]->setName(tr("active planes"));
}

void StructuredView::updateLegend() {
    // In a fixed order, with the curves that have something to show.
    std::vector<QCPGraph*> listed = {primal_, dual_, gap_, trainError_};
    for (QCPGraph* g : {testError_, testWordError_})
        if (!g->data()->isEmpty()) listed.push_back(g);
    if (ownMeasure_ == OwnMeasure::Planes) listed.insert(listed.end(), {own_[0], own_[1]});
    bool same = errorLegend_->itemCount() == static_cast<int>(listed.size());
    for (std::size_t k = 0; same && k < listed.size(); ++k) {
        auto* item = qobject_cast<QCPPlottableLegendItem*>(errorLegend_->item(static_cast<int>(k)));
        same = item && item->plottable() == listed[k];
    }
    if (same) return;
    errorLegend_->clearItems();
    for (QCPGraph* g : listed)
        g->addToLegend(errorLegend_);
}

void StructuredView::rescaleTrace() {
    double last = 1.0;
    for (QCPGraph* g : {primal_, dual_, trainError_}) {
        bool found = false;
        const QCPRange k = g->getKeyRange(found);
        if (found) last = std::max(last, k.upper);
    }
    for (QCPAxisRect* rect : {boundsRect_, gapRect_, errorRect_, ownRect_})
        rect->axis(QCPAxis::atBottom)->setRange(0, last * 1.02);
    fitValues(boundsRect_->axis(QCPAxis::atLeft), {primal_, dual_}, true);
    fitValues(errorRect_->axis(QCPAxis::atLeft), {trainError_, testError_, testWordError_}, true);
    fitValues(ownRect_->axis(QCPAxis::atLeft), {own_[0], own_[1]}, true);
    bool found = false;
    const QCPRange g = gap_->getValueRange(found, QCP::sdBoth, QCPRange());
    if (found && g.lower > 0) {
        // Whole decades, at least two, so that the axis labels powers of ten only.
        double lo = std::pow(10.0, std::floor(std::log10(g.lower)));
        const double hi = std::pow(10.0, std::ceil(std::log10(g.upper)));
        if (hi < 100 * lo) lo = hi / 100;
        gapRect_->axis(QCPAxis::atLeft)->setRange(lo, hi);
    }
}

double StructuredView::emissionCell(int label, int feature) const {
    if (layout_ == Layout::None || label < 0 || label >= labels_ || feature < 0 ||
        feature >= features_)
        return kNaN;
    const QPoint p = emissionPosition(label, feature);
    return emission_->data()->cell(p.x(), p.y());
}

double StructuredView::transitionCell(int from, int to) const {
    if (!transitions_ || from < 0 || from >= labels_ || to < 0 || to >= labels_) return kNaN;
    return transition_->data()->cell(to, from);
}

int StructuredView::primalPointCount() const {
    return primal_->dataCount();
}

int StructuredView::gapPointCount() const {
    return gap_->dataCount();
}

int StructuredView::testErrorPointCount() const {
    return testError_->dataCount();
}

int StructuredView::testWordErrorPointCount() const {
    return testWordError_->dataCount();
}

double StructuredView::ownValue(int curve, int index) const {
    if (curve < 0 || curve > 1 || index < 0 || index >= own_[curve]->dataCount()) return kNaN;
    return (own_[curve]->data()->constBegin() + index)->value;
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
