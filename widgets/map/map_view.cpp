// SPDX-License-Identifier: GPL-3.0-or-later
#include "map_view.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QFontMetrics>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "coalesced_replot.h"
#include "graph_layout.h"
#include "legend_placement.h"
#include "map/generators.h"
#include "map_bounds_tab.h"
#include "map_problem_controls.h"
#include "plot_style.h"
#include "race_legend.h"

namespace cplab::widgets {

namespace {

// Label colours named in the legend at most (more labels share the palette's colours).
constexpr int kLegendLabels = 10;
// A picture's label colours are all named up to this many labels, else only the first and last.
constexpr int kPictureLegendLabels = 6;
// Diameter of the red dot on a disagreeing grid cell, in cells.
constexpr double kDot = 0.36;
// Graphs up to this many nodes are placed by classical MDS of their hop distances (a dense
// eigendecomposition, a fraction of a second once per model); larger ones on a circle.
constexpr int kMdsNodes = 400;
// Cluster polygons on a grid are shrunk toward their centre by this factor, so that the faces
// of neighbouring clusters stay apart.
constexpr double kClusterShrink = 0.55;
// Side of a higher-order factor's square on a grid, in cells; more factors than this are
// counted in the title, not drawn.
constexpr double kFactorSquare = 0.3;
constexpr int kDrawnFactors = 5000;

const QColor kDisagreeing{200, 0, 0};
const QColor kCluster{25, 25, 25};
const QColor kEdge{150, 150, 150, 110};
const QColor kFactor{70, 110, 170, 170};
const QColor kFactorOnCells{35, 35, 35, 200};

QCPGraph* markerGraph(QCustomPlot* plot, QCPAxisRect* rect, const QString& name,
                      QCPScatterStyle::ScatterShape shape, const QColor& edge, const QColor& fill,
                      double size, double width) {
    return addPointsGraph(plot, rect, name, markerStyle(shape, edge, fill, size, width));
}

// Sets `axis` to [centre − half, centre + half].
void setSpan(QCPAxis* axis, double centre, double half) {
    axis->setRange(centre - half, centre + half);
}

}  // namespace

QColor MapView::labelColor(int label) {
    // Light enough for the red outlines and the dark cluster polygons to stand out.
    static const QColor palette[] = {{120, 170, 220}, {250, 175, 95},  {125, 200, 120},
                                     {190, 160, 220}, {200, 150, 130}, {240, 160, 205},
                                     {185, 185, 185}, {215, 215, 110}, {120, 210, 225},
                                     {60, 110, 170},  {200, 110, 30},  {50, 140, 60}};
    const int n = static_cast<int>(sizeof palette / sizeof palette[0]);
    return palette[((label % n) + n) % n];
}

MapView::MapView(QWidget* parent)
    : FamilyView(parent),
      tabs_(new QTabWidget(this)),
      labelPlot_(new QCustomPlot),
      boundsTab_(new MapBoundsTab),
      controls_(new MapProblemControls) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tabs_);
    tabs_->setDocumentMode(true);
    // The labeling page; the choice of labeling in the tab bar's corner while it is shown
    // (a row of its own took height from the grids on a short screen).
    auto* labelPage = new QWidget;
    auto* labelLayout = new QVBoxLayout(labelPage);
    labelLayout->setContentsMargins(0, 0, 0, 0);
    labelLayout->setSpacing(0);
    showBest_ = new QCheckBox(tr("Best labeling found"));
    showBest_->setObjectName("mapShowBestLabeling");
    showBest_->setToolTip(
        tr("Draw each run's best labeling so far (its energy is E in the Bounds tab) instead of "
           "the one decoded from the current beliefs"));
    tabs_->setCornerWidget(showBest_, Qt::TopRightCorner);
    labelLayout->addWidget(labelPlot_, 1);
    connect(showBest_, &QCheckBox::toggled, this, [this] {
        if (!snapshot_ || layout_ == Layout::None) return;
        drawLabeling();
        labelReplot_->schedule();
    });
    tabs_->addTab(labelPage, tr("Labeling"));
    tabs_->addTab(boundsTab_, tr("Bounds"));
    connect(tabs_, &QTabWidget::currentChanged, this,
            [this, labelPage](int) { showBest_->setVisible(tabs_->currentWidget() == labelPage); });
    // A page's plot fits the room it is given: its natural minimum (a long legend row) must
    // not widen the view beyond the window.
    labelPlot_->setMinimumSize(200, 160);
    boundsTab_->setMinimumSize(200, 160);
    labelPlot_->setObjectName("mapLabelPlot");
    applyPlotStyle(labelPlot_);
    // The legend below the grids or beside them, before the layout (moving it during one,
    // from fitLabeling, would free layout elements the layout is walking).
    labelReplot_ = new CoalescedReplot(labelPlot_, [this] {
        if (labelLegendPlacement_) labelLegendPlacement_->place();
    });
    // The ranges follow the axis rectangle as laid out for this very replot (before the first
    // layout, or after a resize, an earlier rectangle would squash the cells).
    connect(labelPlot_, &QCustomPlot::afterLayout, this, &MapView::fitLabeling);
    createLabelingItems();
    clear();
}

void MapView::createLabelingItems() {
    // Title, the graph, the legend in a row below.
    labelRect_ = labelPlot_->axisRect();
    styleAxisRect(labelRect_);
    labelPlot_->plotLayout()->insertRow(0);
    labelTitle_ = new QCPTextElement(labelPlot_, QString(), QFont(font().family(), 10));
    labelTitle_->setTextColor(colors::kText);
    labelPlot_->plotLayout()->addElement(0, 0, labelTitle_);
    for (QCPAxis* axis : labelRect_->axes()) {
        axis->setTicks(false);
        axis->setTickLabels(false);
        axis->grid()->setVisible(false);
        axis->setVisible(false);
    }
    input_ = addCellImage(labelPlot_, labelRect_);
    edges_ = new QCPCurve(labelRect_->axis(QCPAxis::atBottom), labelRect_->axis(QCPAxis::atLeft));
    edges_->setName(tr("edge"));
    edges_->setPen(pen(kEdge, 0.8));
    factorLinks_ =
        new QCPCurve(labelRect_->axis(QCPAxis::atBottom), labelRect_->axis(QCPAxis::atLeft));
    factorLinks_->setName(tr("factor of 3+ variables"));
    factorLinks_->setPen(pen(kFactor, 0.8));
    factorNodes_ = markerGraph(labelPlot_, labelRect_, tr("factor of 3+ variables"),
                               QCPScatterStyle::ssSquare, kFactor, QColor(255, 255, 255), 6, 1.2);
    disagreeingRings_ =
        markerGraph(labelPlot_, labelRect_, tr("disagreeing node"), QCPScatterStyle::ssCircle,
                    kDisagreeing, Qt::transparent, 12, 1.8);
    clusters_ =
        new QCPCurve(labelRect_->axis(QCPAxis::atBottom), labelRect_->axis(QCPAxis::atLeft));
    clusters_->setName(tr("cluster added by tightening"));
    clusters_->setPen(pen(kCluster, 1.8));
    disagreeingLegendProxy_ =
        markerGraph(labelPlot_, labelRect_, tr("disagreeing node"), QCPScatterStyle::ssCircle,
                    kDisagreeing, Qt::transparent, 9, 1.8);
    labelLegend_ = addLegendRow(labelPlot_, 2, 4);
    labelLegendPlacement_ = new LegendPlacement(labelPlot_, labelRect_, labelLegend_, 4);
    labelPlot_->plotLayout()->setRowStretchFactors({0.001, 1.0, 0.001});
    note_ = addNote(labelPlot_, labelRect_);
    note_->setVisible(false);

    labelPlot_->legend->setVisible(false);
}

MapView::~MapView() {
    if (controls_ && !controls_->parent()) delete controls_;
}

void MapView::clear() {
    snapshot_.reset();
    model_.reset();
    layout_ = Layout::None;
    rows_ = columns_ = 0;
    positions_.clear();
    panels_.clear();
    selected_ = 0;
    setPanelCount(0);
    input_->setVisible(false);
    title_.clear();
    labelPlot_->setToolTip({});
    labelColors_.clear();
    for (QCPCurve* c : {edges_, clusters_, factorLinks_})
        c->data()->clear();
    factorNodes_->data()->clear();
    factorMarks_ = 0;
    disagreeingRings_->data()->clear();
    for (QCPGraph* g : labelGraphs_)
        g->data()->clear();
    labelLegend_->clearItems();
    disagreeingMarkers_ = clusterPolygons_ = separatorSegments_ = edgeSegments_ = 0;
    labelTitle_->setText({});
    note_->setVisible(false);
    boundsTab_->clear();
    labelReplot_->schedule();
    boundsTab_->replots()->schedule();
}

QCustomPlot* MapView::plot() const {
    return tabs_->currentIndex() == 1 ? static_cast<QCustomPlot*>(boundsTab_) : labelPlot_;
}

bool MapView::showPage(int index) {
    if (index < 0 || index >= tabs_->count()) return false;
    tabs_->setCurrentIndex(index);
    return true;
}

OptionValues MapView::problemOptions() const {
    return controls_->problemOptions();
}

bool MapView::showFrame(const ViewFrame& frame) {
    auto snapshot = std::dynamic_pointer_cast<const MapSnapshot>(frame.snapshot);
    if (!snapshot) return false;
    snapshot_ = std::move(snapshot);
    const MapSnapshot& s = *snapshot_;
    const bool drawable =
        s.model && s.labeling.size() == static_cast<std::size_t>(s.model->variables());
    if (!drawable) {
        // A run that rejected its input has nothing to draw but its message.
        note_->setText(QString::fromStdString(s.status.message));
        note_->setVisible(true);
    } else {
        note_->setVisible(false);
        if (s.model != model_) setupLayout(*s.model);
        choosePanels(frame);
        drawLabeling();
    }
    boundsTab_->setTrace(frame.records, frame.columns, frame.runId);
    labelReplot_->schedule();
    boundsTab_->replots()->schedule();
    return true;
}

void MapView::setupLayout(const PairwiseModel& model) {
    model_ = snapshot_->model;
    const int n = model.variables();
    // A generated grid states its layout; other models are recognised by their edges.
    const GridPicture* picture = snapshot_->picture.get();
    if (picture && static_cast<long long>(picture->width) * picture->height != n) picture = nullptr;
    if (picture) {
        rows_ = picture->height;
        columns_ = picture->width;
    }
    // Hop distances count edges only: a model with higher-order factors goes on a circle.
    const bool byDistances =
        n >= 3 && n <= kMdsNodes && model.edgeCount() > 0 && model.factorCount() == 0;
    layout_ = picture || detectGrid(model, &rows_, &columns_) ? Layout::Grid
              : byDistances                                   ? Layout::Distances
                                                              : Layout::Circle;
    labelColors_.clear();
    if (picture)
        for (const auto& c : picture->labelColors)
            labelColors_.emplace_back(c[0], c[1], c[2]);
    arrangement_ = MapPanels{rows_, columns_, 1, 1};
    factorMarks_ = model.factorCount() <= kDrawnFactors ? model.factorCount() : 0;
    showInputImage(picture);
    placeNodes(model);
    drawEdges(model);
    setupLabelGraphs(model);
}

void MapView::showInputImage(const GridPicture* picture) {
    // The input image, in the first panel (left of the labelings).
    const bool input = picture && picture->input.width == columns_ &&
                       picture->input.height == rows_ &&
                       (picture->input.channels == 1 || picture->input.channels == 3);
    input_->setVisible(input);
    if (input) {
        const Image& in = picture->input;
        QImage pixels(in.width, in.height, QImage::Format_RGB32);
        for (int y = 0; y < in.height; ++y)
            for (int x = 0; x < in.width; ++x)
                pixels.setPixel(x, y,
                                in.channels == 1
                                    ? qRgb(in.at(x, y), in.at(x, y), in.at(x, y))
                                    : qRgb(in.at(x, y, 0), in.at(x, y, 1), in.at(x, y, 2)));
        input_->setPixmap(QPixmap::fromImage(pixels));
    }
}

void MapView::placeNodes(const PairwiseModel& model) {
    const int n = model.variables();
    if (layout_ != Layout::Grid) rows_ = columns_ = 0;
    positions_.assign(static_cast<std::size_t>(n), QPointF());
    if (layout_ == Layout::Distances) positions_ = distanceLayout(model);
    for (int v = 0; v < n; ++v) {
        if (layout_ == Layout::Grid) {
            positions_[static_cast<std::size_t>(v)] = QPointF(v % columns_, v / columns_);
        } else if (layout_ == Layout::Circle) {
            // Clockwise from the top.
            const double angle = std::numbers::pi / 2 - 2 * std::numbers::pi * v / std::max(n, 1);
            positions_[static_cast<std::size_t>(v)] = QPointF(std::cos(angle), std::sin(angle));
        }
    }
    // Row 0 of a grid at the top, as in an image.
    labelRect_->axis(QCPAxis::atLeft)->setRangeReversed(layout_ == Layout::Grid);
}

void MapView::drawEdges(const PairwiseModel& model) {
    // The edges as segments (a grid's edges are its cells' sides).
    QVector<QCPCurveData> chords;
    edgeSegments_ = 0;
    if (layout_ != Layout::Grid) {
        int t = 0;
        for (const auto& e : model.edges()) {
            const QPointF a = position(e.u), b = position(e.v);
            chords.append(QCPCurveData(t++, a.x(), a.y()));
            chords.append(QCPCurveData(t++, b.x(), b.y()));
            chords.append(QCPCurveData(t++, kNaN, kNaN));
            ++edgeSegments_;
        }
    }
    edges_->data()->set(chords, true);
}

void MapView::setupLabelGraphs(const PairwiseModel& model) {
    // One marker graph per label (the nodes on a circle), the legend's colour entries.
    const int n = model.variables();
    labelCount_ = model.maxLabels();
    const int graphs = std::min(labelCount_, 256);
    const double size = std::clamp(2400.0 / std::max(n, 1), 5.0, 11.0);
    while (static_cast<int>(labelGraphs_.size()) < graphs) {
        const int k = static_cast<int>(labelGraphs_.size());
        labelGraphs_.push_back(markerGraph(labelPlot_, labelRect_, tr("label %1").arg(k),
                                           QCPScatterStyle::ssCircle, labelColor(k).darker(150),
                                           labelColor(k), size, 0.8));
    }
    for (std::size_t k = 0; k < labelGraphs_.size(); ++k) {
        QCPGraph* g = labelGraphs_[k];
        g->data()->clear();
        QCPScatterStyle style = g->scatterStyle();
        const QColor colour = colorOf(static_cast<int>(k));
        style.setBrush(colour);
        style.setPen(pen(colour.darker(150), 0.8));
        style.setShape(layout_ == Layout::Grid ? QCPScatterStyle::ssSquare
                                               : QCPScatterStyle::ssCircle);
        style.setSize(layout_ == Layout::Grid ? 9.0 : size);
        g->setScatterStyle(style);
    }
    // A red dot in a disagreeing cell (sized to the cells when the plot is fitted), a red ring
    // around a disagreeing node's marker.
    QCPScatterStyle ring(
        layout_ == Layout::Grid ? QCPScatterStyle::ssDisc : QCPScatterStyle::ssCircle, size + 5);
    ring.setPen(pen(kDisagreeing, 1.8));
    disagreeingRings_->setScatterStyle(ring);
    QCPScatterStyle proxy = disagreeingLegendProxy_->scatterStyle();
    proxy.setShape(ring.shape());
    proxy.setSize(layout_ == Layout::Grid ? 7 : 9);
    disagreeingLegendProxy_->setScatterStyle(proxy);
    // Factors in dark grey over a grid's coloured cells (their squares sized to the cells when
    // the plot is fitted).
    const QColor factor = layout_ == Layout::Grid ? kFactorOnCells : kFactor;
    factorLinks_->setPen(pen(factor, 0.8));
    factorNodes_->setScatterStyle(
        markerStyle(QCPScatterStyle::ssSquare, factor, QColor(255, 255, 255), 6, 1.2));
    fillLabelLegend(graphs);
}

void MapView::fillLabelLegend(int graphs) {
    labelLegend_->clearItems();
    // A picture's many shades (16 disparities) say little one by one: its first and last
    // label stand for the scale.
    const bool scale = !labelColors_.empty() && graphs > kPictureLegendLabels;
    for (int k = 0; k < std::min(graphs, kLegendLabels); ++k)
        if (!scale || k == 0) labelGraphs_[static_cast<std::size_t>(k)]->addToLegend(labelLegend_);
    if (scale) labelGraphs_[static_cast<std::size_t>(graphs - 1)]->addToLegend(labelLegend_);
    disagreeingLegendProxy_->addToLegend(labelLegend_);
    if (layout_ != Layout::Grid) edges_->addToLegend(labelLegend_);
    if (factorMarks_ > 0) factorNodes_->addToLegend(labelLegend_);
    labelReplot_->schedule();  // places the legend for its new entries
}

QPointF MapView::position(int v) const {
    return positions_[static_cast<std::size_t>(v)];
}

QColor MapView::colorOf(int label) const {
    if (label >= 0 && label < static_cast<int>(labelColors_.size()))
        return labelColors_[static_cast<std::size_t>(label)];
    return labelColor(label);
}

bool MapView::showsInputImage() const {
    return input_->visible();
}

QColor MapView::inputColor(int v) const {
    if (!input_->visible() || columns_ <= 0 || v < 0 || v >= rows_ * columns_) return {};
    return input_->pixmap().toImage().pixelColor(v % columns_, v / columns_);
}

void MapView::setShowBestLabeling(bool best) {
    showBest_->setChecked(best);
}

bool MapView::showsBestLabeling() const {
    return showBest_->isChecked();
}

const std::vector<int>& MapView::shownLabeling(const MapSnapshot& s) const {
    return showBest_->isChecked() && s.bestLabeling.size() == s.labeling.size() ? s.bestLabeling
                                                                                : s.labeling;
}

void MapView::drawLabeling() {
    const MapSnapshot& s = *snapshot_;
    const int n = s.model->variables();
    for (QCPGraph* g : labelGraphs_)
        g->data()->clear();
    if (layout_ == Layout::Grid) {
        for (int k = 0; k < static_cast<int>(panels_.size()); ++k)
            drawCells(k);
    } else {
        // The selected run's labels as markers.
        std::vector<QVector<double>> xs(labelGraphs_.size()), ys(labelGraphs_.size());
        for (int v = 0; v < n; ++v) {
            const int label = shownLabeling(s)[static_cast<std::size_t>(v)];
            if (label < 0 || label >= static_cast<int>(labelGraphs_.size())) continue;
            xs[static_cast<std::size_t>(label)].append(position(v).x());
            ys[static_cast<std::size_t>(label)].append(position(v).y());
        }
        for (std::size_t k = 0; k < labelGraphs_.size(); ++k)
            labelGraphs_[k]->setData(xs[k], ys[k], true);
    }
    // The disagreeing nodes of every panel: a red dot in the cell, or a red ring around the
    // marker.
    QVector<double> rx, ry;
    const int first = input_->visible() ? 1 : 0;
    for (int k = 0; k < static_cast<int>(panels_.size()); ++k) {
        const MapSnapshot& p = *panels_[static_cast<std::size_t>(k)].snapshot;
        const QPointF o = layout_ == Layout::Grid ? arrangement_.origin(first + k) : QPointF();
        int count = 0;
        for (int v = 0; v < n && static_cast<std::size_t>(v) < p.disagreeing.size(); ++v) {
            if (!p.disagreeing[static_cast<std::size_t>(v)]) continue;
            rx.append(o.x() + position(v).x());
            ry.append(o.y() + position(v).y());
            ++count;
        }
        if (k == selected_) disagreeingMarkers_ = count;
    }
    disagreeingRings_->setData(rx, ry, true);
    drawFactors();
    drawClusters();
    setTitle(s);
    for (std::size_t k = 1; k < captions_.size(); ++k)
        captionTexts_[k] = caption(static_cast<int>(k) - 1);
    if (!captions_.empty()) captionTexts_[0] = tr("input image");
    for (std::size_t k = 0; k < captions_.size(); ++k) {
        const bool selected = k > 0 && static_cast<int>(k) - 1 == selected_;
        QFont font = captions_[k]->font();
        font.setBold(selected && panels_.size() > 1);
        captions_[k]->setFont(font);
        captions_[k]->setColor(k == 0 ? colors::kText : panels_[k - 1].colour.darker(130));
        captions_[k]->setText(captionTexts_[k]);
    }
}

void MapView::drawClusters() {
    // The clusters: closed polygons through their nodes. On a grid, steps across the
    // wrap-around edges are unwrapped so that a face on the border stays a small square. A
    // pair separator of factors (two nodes) is a segment between them.
    const int n = model_->variables();
    QVector<QCPCurveData> polygons;
    int t = 0;
    const int first = input_->visible() ? 1 : 0;
    for (int k = 0; k < static_cast<int>(panels_.size()); ++k) {
        const MapSnapshot& p = *panels_[static_cast<std::size_t>(k)].snapshot;
        const QPointF o = layout_ == Layout::Grid ? arrangement_.origin(first + k) : QPointF();
        int count = 0, pairs = 0;
        for (const auto& cluster : p.clusters) {
            if (cluster.size() < 2) continue;
            bool valid = true;
            for (int v : cluster)
                valid = valid && v >= 0 && v < n;
            if (!valid) continue;
            for (const QPointF& point : clusterPolygon(cluster))
                polygons.append(QCPCurveData(t++, o.x() + point.x(), o.y() + point.y()));
            polygons.append(QCPCurveData(t++, kNaN, kNaN));
            ++(cluster.size() == 2 ? pairs : count);
        }
        if (k == selected_) {
            clusterPolygons_ = count;
            separatorSegments_ = pairs;
        }
    }
    clusters_->data()->set(polygons, true);
    const bool any = t > 0, inLegend = labelLegend_->hasItemWithPlottable(clusters_);
    if (any != inLegend) {
        if (any) {
            clusters_->addToLegend(labelLegend_);
        } else {
            clusters_->removeFromLegend(labelLegend_);
        }
    }
}

void MapView::setTitle(const MapSnapshot& s) {
    // Two short lines (elided to the plot's width): the view is often narrow beside the
    // panels. On a grid each panel's caption has its run's facts.
    const int n = s.model->variables();
    const bool race = panels_.size() > 1;
    const bool best = showBest_->isChecked();
    QString title = race ? (best ? tr("Iteration %1: each run's best labeling so far")
                                 : tr("Iteration %1: the labeling decoded from each run's beliefs"))
                               .arg(s.record.iteration)
                         : (best ? tr("%1, iteration %2: the best labeling so far (E %3)")
                                       .arg(QString::fromStdString(s.solver))
                                       .arg(s.record.iteration)
                                       .arg(s.record.lower, 0, 'g', 8)
                                 : tr("%1, iteration %2: the labeling decoded from the beliefs")
                                       .arg(QString::fromStdString(s.solver))
                                       .arg(s.record.iteration));
    QString facts = layout_ == Layout::Grid ? tr("%1 \u00d7 %2 grid").arg(columns_).arg(rows_)
                    : layout_ == Layout::Distances ? tr("nodes placed by their hop distances")
                                                   : tr("nodes on a circle");
    if (layout_ != Layout::Grid) {
        facts += tr("; %1 of %2 nodes disagree").arg(disagreeingMarkers_).arg(n);
        if (clusterPolygons_ > 0) facts += tr("; %1 clusters").arg(clusterPolygons_);
        if (separatorSegments_ > 0) facts += tr("; %1 pair separators").arg(separatorSegments_);
    } else if (input_->visible()) {
        facts += tr(", the input image first");
    }
    if (const int factors = s.model->factorCount(); factors > 0)
        facts += (factorMarks_ == factors ? tr("; %1 factors of 3+ variables")
                                          : tr("; %1 factors of 3+ variables (too many to draw)"))
                     .arg(factors);
    title_ = title + "\n" + facts;
    labelTitle_->setText(shownTitle());
}

std::vector<QPointF> MapView::clusterPolygon(const std::vector<int>& cluster) const {
    const std::size_t n = cluster.size();
    std::vector<QPointF> points;
    points.reserve(n + 2);
    points.push_back(position(cluster.front()));
    if (layout_ != Layout::Grid) {
        for (std::size_t i = 1; i < n; ++i)
            points.push_back(position(cluster[i]));
        points.push_back(points.front());
        return points;
    }
    // On a grid (possibly a torus: wrapped edges join opposite borders) each step is taken the
    // short way round. A cycle that uses no wrapped edge is drawn as one polygon, the small
    // ones (triangles, grid faces) shrunk toward their centre so that neighbours stay apart;
    // one that does is drawn on its nodes, broken where a step wraps (unwrapped, it would leave
    // the grid, and one that winds around the torus would not even close).
    std::vector<QPointF> steps(n);
    bool wraps = false;
    for (std::size_t i = 0; i < n; ++i) {
        QPointF step = position(cluster[(i + 1) % n]) - position(cluster[i]);
        if (step.x() > columns_ / 2.0) step.rx() -= columns_;
        if (step.x() < -columns_ / 2.0) step.rx() += columns_;
        if (step.y() > rows_ / 2.0) step.ry() -= rows_;
        if (step.y() < -rows_ / 2.0) step.ry() += rows_;
        steps[i] = step;
        wraps = wraps || step != position(cluster[(i + 1) % n]) - position(cluster[i]);
    }
    if (wraps) {
        for (std::size_t i = 0; i < n; ++i) {
            const QPointF next = position(cluster[(i + 1) % n]);
            if (next - position(cluster[i]) != steps[i]) points.emplace_back(kNaN, kNaN);
            points.push_back(next);
        }
        return points;
    }
    for (std::size_t i = 0; i + 1 < n; ++i)
        points.push_back(points.back() + steps[i]);
    if (n <= 4) {
        QPointF centre;
        for (const QPointF& p : points)
            centre += p;
        centre /= static_cast<double>(points.size());
        for (QPointF& p : points)
            p = centre + kClusterShrink * (p - centre);
    }
    points.push_back(points.front());
    return points;
}

void MapView::fitLabeling() {
    if (layout_ == Layout::None) return;
    // Equal units per pixel on both axes, the whole layout in view with a small margin.
    const QRect r = labelRect_->rect();
    const double w = std::max(r.width(), 1), h = std::max(r.height(), 1);
    QRectF box(-1.15, -1.15, 2.3, 2.3);
    if (layout_ == Layout::Grid) {
        const int perLine = MapPanels::bestPerLine(rows_, columns_, arrangement_.count, {w, h});
        if (perLine != arrangement_.perLine) {
            arrangement_.perLine = perLine;
            placePanels();
            if (snapshot_ && !panels_.empty()) drawLabeling();
        }
        box = arrangement_.box();
    }
    const double scale = std::max(box.width() / w, box.height() / h);
    setSpan(labelRect_->axis(QCPAxis::atBottom), box.center().x(), w * scale / 2);
    setSpan(labelRect_->axis(QCPAxis::atLeft), box.center().y(), h * scale / 2);
    if (layout_ == Layout::Grid) {
        QCPScatterStyle dot = disagreeingRings_->scatterStyle();
        dot.setSize(std::max(3.0, kDot / scale));
        disagreeingRings_->setScatterStyle(dot);
        QCPScatterStyle square = factorNodes_->scatterStyle();
        square.setSize(std::clamp(kFactorSquare / scale, 3.0, 8.0));
        factorNodes_->setScatterStyle(square);
    }
    elideTexts(1.0 / scale);
}

QColor MapView::drawnColor(int v) const {
    if (v < 0 || v >= static_cast<int>(positions_.size())) return {};
    if (layout_ == Layout::Grid) {
        if (selected_ >= static_cast<int>(images_.size())) return {};
        const QCPItemPixmap* image = images_[static_cast<std::size_t>(selected_)];
        if (!image->visible()) return {};
        // The pixmap the plot draws, not the image it was made from.
        return image->pixmap().toImage().pixelColor(v % columns_, v / columns_);
    }
    const QPointF p = position(v);
    for (QCPGraph* g : labelGraphs_) {
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
            if (it->key == p.x() && it->value == p.y()) return g->scatterStyle().brush().color();
        }
    }
    return {};
}

int MapView::upperPointCount() const {
    return boundsTab_->upperPointCount();
}

int MapView::lowerPointCount() const {
    return boundsTab_->lowerPointCount();
}

int MapView::disagreementPointCount() const {
    return boundsTab_->disagreementPointCount();
}

int MapView::clusterMarkCount() const {
    return boundsTab_->clusterMarkCount();
}

QString MapView::statusText(const ViewFrame& frame) const {
    const auto* s = dynamic_cast<const MapSnapshot*>(frame.snapshot.get());
    if (!s || !s->model) return {};
    // The status line shows the best bounds already; these are the last sweep's own values.
    QString text = tr("this sweep: U %1, E %2").arg(s->dual, 0, 'g', 10).arg(s->energy, 0, 'g', 10);
    const auto disagreeing = std::count(s->disagreeing.begin(), s->disagreeing.end(), 1);
    text += tr("; %1 of %2 nodes disagree").arg(disagreeing).arg(s->model->variables());
    const auto pairs = std::count_if(s->clusters.begin(), s->clusters.end(),
                                     [](const std::vector<int>& c) { return c.size() == 2; });
    if (s->clusters.size() > static_cast<std::size_t>(pairs))
        text += tr("; %1 clusters").arg(s->clusters.size() - static_cast<std::size_t>(pairs));
    if (pairs > 0) text += tr("; %1 pair separators").arg(pairs);
    if (s->badPixels >= 0)
        text +=
            tr("; bad pixels (off by > 1 from the truth) %1%").arg(100.0 * s->badPixels, 0, 'f', 2);
    return text;
}

FamilyView* mapView(QWidget* parent) {
    return new MapView(parent);
}

}  // namespace cplab::widgets
