// SPDX-License-Identifier: GPL-3.0-or-later
#include "map_view.h"

#include <qcustomplot.h>

#include <Eigen/Dense>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QRegularExpression>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <queue>

#include "coalesced_replot.h"
#include "map/generators.h"
#include "plot_style.h"

namespace cplab::widgets {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
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

const QColor kDisagreeing{200, 0, 0};
const QColor kCluster{25, 25, 25};
const QColor kEdge{150, 150, 150, 110};
const QColor kUpper = colors::kModel;
const QColor kLower = colors::kBest;
const QColor kDisagreementLine{214, 39, 40};
const QColor kClusterLine{110, 70, 160};

QCPGraph* markerGraph(QCustomPlot* plot, QCPAxisRect* rect, const QString& name,
                      QCPScatterStyle::ScatterShape shape, const QColor& edge, const QColor& fill,
                      double size, double width) {
    return addPointsGraph(plot, rect, name, markerStyle(shape, edge, fill, size, width));
}

// A rows × columns lattice whose edges join i to i+1 within a row and i to i+columns within a
// column (wrap-around edges of a torus allowed), every node of degree ≤ 4, with edges of both
// directions; the factorisation nearest a square wins. False when there is none.
bool detectGrid(const PairwiseModel& m, int* rows, int* columns) {
    const int n = m.variables();
    if (n < 4 || m.edgeCount() == 0) return false;
    std::vector<int> degree(static_cast<std::size_t>(n), 0);
    for (const auto& e : m.edges()) {
        if (++degree[static_cast<std::size_t>(e.u)] > 4 ||
            ++degree[static_cast<std::size_t>(e.v)] > 4)
            return false;
    }
    std::vector<int> candidates;
    for (int c = 2; c <= n / 2; ++c)
        if (n % c == 0) candidates.push_back(c);
    const double side = std::sqrt(static_cast<double>(n));
    std::stable_sort(candidates.begin(), candidates.end(),
                     [side](int a, int b) { return std::abs(a - side) < std::abs(b - side); });
    for (const int c : candidates) {
        const int r = n / c;
        bool ok = true, horizontal = false, vertical = false;
        for (const auto& e : m.edges()) {
            const int a = std::min(e.u, e.v), b = std::max(e.u, e.v);
            const int ra = a / c, ca = a % c, rb = b / c, cb = b % c;
            if (ra == rb && (cb - ca == 1 || (c > 2 && cb - ca == c - 1))) {
                horizontal = true;
            } else if (ca == cb && (rb - ra == 1 || (r > 2 && rb - ra == r - 1))) {
                vertical = true;
            } else {
                ok = false;
                break;
            }
        }
        if (ok && horizontal && vertical) {
            *rows = r;
            *columns = c;
            return true;
        }
    }
    return false;
}

// Classical multidimensional scaling of the hop distances (Torgerson): the two leading
// eigenvectors of −½ J D² J, scaled into [−1, 1]². Nodes of different components are placed
// one hop beyond the largest distance from each other. Deterministic; no forces, no
// iterations.
std::vector<QPointF> distanceLayout(const PairwiseModel& m) {
    const int n = m.variables();
    std::vector<std::vector<int>> neighbours(static_cast<std::size_t>(n));
    for (const auto& e : m.edges()) {
        neighbours[static_cast<std::size_t>(e.u)].push_back(e.v);
        neighbours[static_cast<std::size_t>(e.v)].push_back(e.u);
    }
    Eigen::MatrixXd d = Eigen::MatrixXd::Constant(n, n, -1.0);
    int longest = 0;
    std::vector<int> hops(static_cast<std::size_t>(n));
    for (int source = 0; source < n; ++source) {
        std::fill(hops.begin(), hops.end(), -1);
        std::queue<int> queue;
        hops[static_cast<std::size_t>(source)] = 0;
        queue.push(source);
        while (!queue.empty()) {
            const int v = queue.front();
            queue.pop();
            for (int w : neighbours[static_cast<std::size_t>(v)]) {
                if (hops[static_cast<std::size_t>(w)] >= 0) continue;
                hops[static_cast<std::size_t>(w)] = hops[static_cast<std::size_t>(v)] + 1;
                queue.push(w);
            }
        }
        for (int w = 0; w < n; ++w) {
            d(source, w) = hops[static_cast<std::size_t>(w)];
            longest = std::max(longest, hops[static_cast<std::size_t>(w)]);
        }
    }
    d = d.unaryExpr([longest](double x) { return x < 0 ? longest + 1.0 : x; });
    Eigen::MatrixXd b = -0.5 * d.cwiseProduct(d);
    const Eigen::VectorXd rowMean = b.rowwise().mean();
    const Eigen::RowVectorXd colMean = b.colwise().mean();
    const double mean = b.mean();
    b.colwise() -= rowMean;
    b.rowwise() -= colMean;
    b.array() += mean;
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(b);
    std::vector<QPointF> points(static_cast<std::size_t>(n));
    if (eigen.info() != Eigen::Success || n < 3) return points;
    const Eigen::VectorXd x =
        eigen.eigenvectors().col(n - 1) * std::sqrt(std::max(eigen.eigenvalues()(n - 1), 0.0));
    const Eigen::VectorXd y =
        eigen.eigenvectors().col(n - 2) * std::sqrt(std::max(eigen.eigenvalues()(n - 2), 0.0));
    const double extent = std::max({x.cwiseAbs().maxCoeff(), y.cwiseAbs().maxCoeff(), 1e-12});
    for (int v = 0; v < n; ++v)
        points[static_cast<std::size_t>(v)] = QPointF(x(v) / extent, y(v) / extent);
    return points;
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
      tracePlot_(new QCustomPlot) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tabs_);
    tabs_->setDocumentMode(true);
    tabs_->addTab(labelPlot_, tr("Labeling"));
    tabs_->addTab(tracePlot_, tr("Bounds"));
    labelPlot_->setObjectName("mapLabelPlot");
    tracePlot_->setObjectName("mapTracePlot");
    for (QCustomPlot* p : {labelPlot_, tracePlot_})
        applyPlotStyle(p);
    labelReplot_ = new CoalescedReplot(labelPlot_, [this] { fitLabeling(); });
    traceReplot_ = new CoalescedReplot(tracePlot_, [this] { rescaleTrace(); });

    // The evidence file, the family's problem option.
    controls_ = new QWidget;
    auto* form = new QFormLayout(controls_);
    form->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    evidence_ = new QLineEdit(controls_);
    evidence_->setObjectName("mapEvidence");
    evidence_->setPlaceholderText(tr("automatic: <model>.evid"));
    evidence_->setToolTip(
        tr("UAI evidence file (.evid) whose variables are clamped when a model is loaded; "
           "empty: the model's <file>.evid when there is one; 'none': no evidence"));
    auto* browse = new QToolButton(controls_);
    browse->setText(tr("..."));
    connect(browse, &QToolButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Evidence file"), {}, tr("UAI evidence (*.evid);;All files (*)"));
        if (!path.isEmpty()) evidence_->setText(path);
    });
    row->addWidget(evidence_);
    row->addWidget(browse);
    form->addRow(tr("Evidence"), row);
    // The generated models' options (app/families/map.cpp), as the CLI's --problem-set takes
    // them.
    modelOptions_ = new QLineEdit(controls_);
    modelOptions_->setObjectName("mapModelOptions");
    modelOptions_->setPlaceholderText(tr("e.g. smoothness=10 labels=4"));
    modelOptions_->setToolTip(
        tr("Options of the generated models (map_random_grid, map_complete_graph, "
           "map_potts_image, map_stereo_tsukuba and PNG files) as key=value pairs separated by "
           "spaces, used when the problem is loaded: seed, width, height, nodes, labels, "
           "coupling, unary, image, mode (grey or colour), smoothness, downsample, disparities, "
           "truncation, data_truncation"));
    form->addRow(tr("Model options"), modelOptions_);

    // Labeling: title, the graph, the legend in a row below.
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
    image_ = new QCPItemPixmap(labelPlot_);
    image_->setClipAxisRect(labelRect_);
    for (QCPItemPosition* p : {image_->topLeft, image_->bottomRight})
        p->setAxes(labelRect_->axis(QCPAxis::atBottom), labelRect_->axis(QCPAxis::atLeft));
    image_->setScaled(true, Qt::IgnoreAspectRatio, Qt::FastTransformation);
    image_->setLayer("background");
    image_->setVisible(false);
    input_ = new QCPItemPixmap(labelPlot_);
    input_->setClipAxisRect(labelRect_);
    for (QCPItemPosition* p : {input_->topLeft, input_->bottomRight})
        p->setAxes(labelRect_->axis(QCPAxis::atBottom), labelRect_->axis(QCPAxis::atLeft));
    input_->setScaled(true, Qt::IgnoreAspectRatio, Qt::FastTransformation);
    input_->setLayer("background");
    input_->setVisible(false);
    edges_ = new QCPCurve(labelRect_->axis(QCPAxis::atBottom), labelRect_->axis(QCPAxis::atLeft));
    edges_->setName(tr("edge"));
    edges_->setPen(pen(kEdge, 0.8));
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
    labelPlot_->plotLayout()->setRowStretchFactors({0.001, 1.0, 0.001});
    note_ = addNote(labelPlot_, labelRect_);
    note_->setVisible(false);

    // Bounds: U and E on top, the disagreement below, one legend row under both.
    boundRect_ = tracePlot_->axisRect();
    disagreementRect_ = new QCPAxisRect(tracePlot_);
    tracePlot_->plotLayout()->addElement(1, 0, disagreementRect_);
    auto* margins = new QCPMarginGroup(tracePlot_);
    for (QCPAxisRect* rect : {boundRect_, disagreementRect_}) {
        styleAxisRect(rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    }
    disagreementRect_->axis(QCPAxis::atBottom)->setLabel(tr("iteration (sweep)"));
    boundRect_->axis(QCPAxis::atLeft)->setLabel(tr("U and E"));
    upper_ =
        addLineGraph(tracePlot_, boundRect_, tr("dual bound U (best so far)"), pen(kUpper, 2.0));
    lower_ = addLineGraph(tracePlot_, boundRect_, tr("E(best labeling)"), pen(kLower, 2.0));
    clusterMarks_ = markerGraph(tracePlot_, boundRect_, tr("clusters added"),
                                QCPScatterStyle::ssTriangleInverted, kCluster, kCluster, 7, 1.0);
    disagreementRect_->axis(QCPAxis::atLeft)->setLabel(tr("disagreeing nodes"));
    disagreement_ = addLineGraph(tracePlot_, disagreementRect_, tr("disagreeing nodes"),
                                 pen(kDisagreementLine, 1.6));
    clusterCount_ = addLineGraph(tracePlot_, disagreementRect_, tr("clusters (right axis)"),
                                 pen(kClusterLine, 1.6, Qt::DashLine), true);
    QCPAxis* right = disagreementRect_->axis(QCPAxis::atRight);
    right->setLabel(tr("clusters"));
    right->setVisible(false);
    traceLegend_ = addLegendRow(tracePlot_, 2, 5);
    tracePlot_->plotLayout()->setRowStretchFactors({1.0, 0.6, 0.001});
    for (QCPGraph* g : {upper_, lower_, disagreement_, clusterCount_})
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 3.0));
    tracePlot_->legend->setVisible(false);
    labelPlot_->legend->setVisible(false);
    for (QCPAbstractPlottable* p :
         {static_cast<QCPAbstractPlottable*>(upper_), static_cast<QCPAbstractPlottable*>(lower_),
          static_cast<QCPAbstractPlottable*>(clusterMarks_),
          static_cast<QCPAbstractPlottable*>(disagreement_),
          static_cast<QCPAbstractPlottable*>(clusterCount_)})
        p->addToLegend(traceLegend_);
    clear();
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
    image_->setVisible(false);
    input_->setVisible(false);
    labelColors_.clear();
    for (QCPCurve* c : {edges_, clusters_})
        c->data()->clear();
    disagreeingRings_->data()->clear();
    for (QCPGraph* g : labelGraphs_)
        g->data()->clear();
    labelLegend_->clearItems();
    disagreeingMarkers_ = clusterPolygons_ = edgeSegments_ = 0;
    labelTitle_->setText({});
    note_->setVisible(false);
    for (QCPGraph* g : {upper_, lower_, clusterMarks_, disagreement_, clusterCount_})
        g->data()->clear();
    disagreementRect_->axis(QCPAxis::atRight)->setVisible(false);
    shown_ = 0;
    run_ = -1;
    labelReplot_->schedule();
    traceReplot_->schedule();
}

QCustomPlot* MapView::plot() const {
    return tabs_->currentIndex() == 1 ? tracePlot_ : labelPlot_;
}

bool MapView::showPage(int index) {
    if (index < 0 || index >= tabs_->count()) return false;
    tabs_->setCurrentIndex(index);
    return true;
}

OptionValues MapView::problemOptions() const {
    OptionValues values;
    // key=value words; a word without '=' is passed on with an empty value, so that the
    // family's check names it instead of it being dropped silently.
    for (const QString& word :
         modelOptions_->text().split(QRegularExpression("[\\s,;]+"), Qt::SkipEmptyParts)) {
        const qsizetype eq = word.indexOf('=');
        values[(eq < 0 ? word : word.left(eq)).toStdString()] =
            eq < 0 ? std::string() : word.mid(eq + 1).toStdString();
    }
    const QString path = evidence_->text().trimmed();
    if (!path.isEmpty()) values["evidence"] = path.toStdString();
    return values;
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
        drawLabeling(s);
    }
    setTrace(frame.records, frame.columns, frame.runId);
    labelReplot_->schedule();
    traceReplot_->schedule();
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
    layout_ = picture || detectGrid(model, &rows_, &columns_)     ? Layout::Grid
              : n >= 3 && n <= kMdsNodes && model.edgeCount() > 0 ? Layout::Distances
                                                                  : Layout::Circle;
    labelColors_.clear();
    if (picture)
        for (const auto& c : picture->labelColors)
            labelColors_.emplace_back(c[0], c[1], c[2]);
    // The input image, one image width and a gap to the left of the labeling.
    const bool input = picture && picture->input.width == columns_ &&
                       picture->input.height == rows_ &&
                       (picture->input.channels == 1 || picture->input.channels == 3);
    input_->setVisible(input);
    inputGap_ = input ? std::max(1.0, std::round(columns_ / 25.0)) : 0.0;
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
        input_->topLeft->setCoords(-columns_ - inputGap_ - 0.5, -0.5);
        input_->bottomRight->setCoords(-inputGap_ - 0.5, rows_ - 0.5);
    }
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
    image_->setVisible(layout_ == Layout::Grid);
    if (layout_ == Layout::Grid) {
        cells_ = QImage(columns_, rows_, QImage::Format_RGB32);
        image_->topLeft->setCoords(-0.5, -0.5);
        image_->bottomRight->setCoords(columns_ - 0.5, rows_ - 0.5);
    } else {
        cells_ = QImage();
    }

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

    // One marker graph per label (the nodes on a circle), the legend's colour entries.
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

    labelLegend_->clearItems();
    // A picture's many shades (16 disparities) say little one by one: its first and last
    // label stand for the scale.
    const bool scale = !labelColors_.empty() && graphs > kPictureLegendLabels;
    for (int k = 0; k < std::min(graphs, kLegendLabels); ++k)
        if (!scale || k == 0) labelGraphs_[static_cast<std::size_t>(k)]->addToLegend(labelLegend_);
    if (scale) labelGraphs_[static_cast<std::size_t>(graphs - 1)]->addToLegend(labelLegend_);
    disagreeingLegendProxy_->addToLegend(labelLegend_);
    if (layout_ != Layout::Grid) edges_->addToLegend(labelLegend_);
    labelLegend_->setWrap(graphs <= 2 ? 3 : 5);
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

void MapView::drawLabeling(const MapSnapshot& s) {
    const PairwiseModel& m = *s.model;
    const int n = m.variables();
    // The labels.
    for (QCPGraph* g : labelGraphs_)
        g->data()->clear();
    if (layout_ == Layout::Grid) {
        for (int v = 0; v < n; ++v)
            cells_.setPixelColor(v % columns_, v / columns_,
                                 colorOf(s.labeling[static_cast<std::size_t>(v)]));
        image_->setPixmap(QPixmap::fromImage(cells_));
    } else {
        std::vector<QVector<double>> xs(labelGraphs_.size()), ys(labelGraphs_.size());
        for (int v = 0; v < n; ++v) {
            const int label = s.labeling[static_cast<std::size_t>(v)];
            if (label < 0 || label >= static_cast<int>(labelGraphs_.size())) continue;
            xs[static_cast<std::size_t>(label)].append(position(v).x());
            ys[static_cast<std::size_t>(label)].append(position(v).y());
        }
        for (std::size_t k = 0; k < labelGraphs_.size(); ++k)
            labelGraphs_[k]->setData(xs[k], ys[k], true);
    }

    // The disagreeing nodes: a red dot in the cell, or a red ring around the marker.
    QVector<double> rx, ry;
    for (int v = 0; v < n && static_cast<std::size_t>(v) < s.disagreeing.size(); ++v) {
        if (!s.disagreeing[static_cast<std::size_t>(v)]) continue;
        rx.append(position(v).x());
        ry.append(position(v).y());
    }
    disagreeingMarkers_ = static_cast<int>(rx.size());
    disagreeingRings_->setData(rx, ry, true);

    // The clusters: closed polygons through their nodes. On a grid, steps across the
    // wrap-around edges are unwrapped so that a face on the border stays a small square.
    QVector<QCPCurveData> polygons;
    clusterPolygons_ = 0;
    int t = 0;
    for (const auto& cluster : s.clusters) {
        if (cluster.size() < 3) continue;
        bool valid = true;
        for (int v : cluster)
            valid = valid && v >= 0 && v < n;
        if (!valid) continue;
        std::vector<QPointF> points;
        points.reserve(cluster.size());
        points.push_back(position(cluster.front()));
        for (std::size_t i = 1; i < cluster.size(); ++i) {
            QPointF step = position(cluster[i]) - position(cluster[i - 1]);
            if (layout_ == Layout::Grid) {
                if (step.x() > columns_ / 2.0) step.rx() -= columns_;
                if (step.x() < -columns_ / 2.0) step.rx() += columns_;
                if (step.y() > rows_ / 2.0) step.ry() -= rows_;
                if (step.y() < -rows_ / 2.0) step.ry() += rows_;
            }
            points.push_back(points.back() + step);
        }
        if (layout_ == Layout::Grid) {
            QPointF centre;
            for (const QPointF& p : points)
                centre += p;
            centre /= static_cast<double>(points.size());
            for (QPointF& p : points)
                p = centre + kClusterShrink * (p - centre);
        }
        points.push_back(points.front());
        for (const QPointF& p : points)
            polygons.append(QCPCurveData(t++, p.x(), p.y()));
        polygons.append(QCPCurveData(t++, kNaN, kNaN));
        ++clusterPolygons_;
    }
    clusters_->data()->set(polygons, true);
    const bool inLegend = labelLegend_->hasItemWithPlottable(clusters_);
    if ((clusterPolygons_ > 0) != inLegend) {
        if (clusterPolygons_ > 0) {
            clusters_->addToLegend(labelLegend_);
        } else {
            clusters_->removeFromLegend(labelLegend_);
        }
    }

    // Two short lines: the view is often narrow beside the panels.
    QString title = tr("%1, iteration %2: the labeling decoded from the beliefs")
                        .arg(QString::fromStdString(s.solver))
                        .arg(s.record.iteration);
    if (input_->visible())
        title = tr("%1, iteration %2: input image (left) and the labeling decoded from the "
                   "beliefs")
                    .arg(QString::fromStdString(s.solver))
                    .arg(s.record.iteration);
    QString facts = layout_ == Layout::Grid ? tr("%1 \u00d7 %2 grid").arg(rows_).arg(columns_)
                    : layout_ == Layout::Distances ? tr("nodes placed by their hop distances")
                                                   : tr("nodes on a circle");
    facts += tr("; %1 of %2 nodes disagree").arg(disagreeingMarkers_).arg(n);
    if (clusterPolygons_ > 0) facts += tr("; %1 clusters").arg(clusterPolygons_);
    if (s.badPixels >= 0) facts += tr("; %1% bad pixels").arg(100.0 * s.badPixels, 0, 'f', 2);
    title += "\n" + facts;
    labelTitle_->setText(title);
}

void MapView::fitLabeling() {
    if (layout_ == Layout::None) return;
    // Equal units per pixel on both axes, the whole layout in view with a small margin.
    const QRect r = labelRect_->rect();
    const double w = std::max(r.width(), 1), h = std::max(r.height(), 1);
    double cx = 0, cy = 0, dw = 2.3, dh = 2.3;
    if (layout_ == Layout::Grid) {
        cx = (columns_ - 1) / 2.0;
        cy = (rows_ - 1) / 2.0;
        // Faces across the wrap-around edges of a torus lie half a cell outside.
        dw = columns_ + 1.4;
        dh = rows_ + 1.4;
        if (input_->visible()) {  // the input image too, left of the labeling
            cx -= (columns_ + inputGap_) / 2.0;
            dw += columns_ + inputGap_;
        }
    }
    const double scale = std::max(dw / w, dh / h);
    setSpan(labelRect_->axis(QCPAxis::atBottom), cx, w * scale / 2);
    setSpan(labelRect_->axis(QCPAxis::atLeft), cy, h * scale / 2);
    if (layout_ == Layout::Grid) {
        QCPScatterStyle dot = disagreeingRings_->scatterStyle();
        dot.setSize(std::max(3.0, kDot / scale));
        disagreeingRings_->setScatterStyle(dot);
    }
}

void MapView::setTrace(std::span<const IterationRecord> records,
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
    const bool tightening = clusters >= 0;
    disagreementRect_->axis(QCPAxis::atRight)->setVisible(tightening);
    clusterCount_->setVisible(tightening);
    clusterMarks_->setVisible(tightening);
    for (QCPAbstractPlottable* p : {static_cast<QCPAbstractPlottable*>(clusterCount_),
                                    static_cast<QCPAbstractPlottable*>(clusterMarks_)}) {
        if (tightening != traceLegend_->hasItemWithPlottable(p)) {
            if (tightening) {
                p->addToLegend(traceLegend_);
            } else {
                p->removeFromLegend(traceLegend_);
            }
        }
    }
}

void MapView::rescaleTrace() {
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
    }
    bool any = false;
    const QCPRange d = disagreement_->getValueRange(any);
    disagreementRect_->axis(QCPAxis::atLeft)->setRange(0, any ? std::max(1.0, d.upper * 1.08) : 1);
    any = false;
    const QCPRange c = clusterCount_->getValueRange(any);
    disagreementRect_->axis(QCPAxis::atRight)->setRange(0, any ? std::max(1.0, c.upper * 1.08) : 1);
}

QColor MapView::drawnColor(int v) const {
    if (v < 0 || v >= static_cast<int>(positions_.size())) return {};
    if (layout_ == Layout::Grid) {
        if (!image_->visible() || cells_.isNull()) return {};
        // The pixmap the plot draws, not the image it was made from.
        return image_->pixmap().toImage().pixelColor(v % columns_, v / columns_);
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
    return upper_->dataCount();
}

int MapView::lowerPointCount() const {
    return lower_->dataCount();
}

int MapView::disagreementPointCount() const {
    return disagreement_->dataCount();
}

int MapView::clusterMarkCount() const {
    return clusterMarks_->dataCount();
}

QString MapView::statusText(const ViewFrame& frame) const {
    const auto* s = dynamic_cast<const MapSnapshot*>(frame.snapshot.get());
    if (!s || !s->model) return {};
    // The status line shows the best bounds already; these are the last sweep's own values.
    QString text = tr("this sweep: U %1, E %2").arg(s->dual, 0, 'g', 10).arg(s->energy, 0, 'g', 10);
    const auto disagreeing = std::count(s->disagreeing.begin(), s->disagreeing.end(), 1);
    text += tr("; %1 of %2 nodes disagree").arg(disagreeing).arg(s->model->variables());
    if (!s->clusters.empty()) text += tr("; %1 clusters").arg(s->clusters.size());
    if (s->badPixels >= 0)
        text +=
            tr("; bad pixels (off by > 1 from the truth) %1%").arg(100.0 * s->badPixels, 0, 'f', 2);
    return text;
}

FamilyView* mapView(QWidget* parent) {
    return new MapView(parent);
}

}  // namespace cplab::widgets
