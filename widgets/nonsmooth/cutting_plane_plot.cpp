// SPDX-License-Identifier: GPL-3.0-or-later
#include "cutting_plane_plot.h"

#include <qcustomplot.h>

#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "coalesced_replot.h"
#include "iterate_labels.h"
#include "plot_style.h"
#include "race_graphs.h"

namespace cplab::widgets {

namespace {

QCPGraph* pointsGraph(QCustomPlot* plot, const QString& name, const QCPScatterStyle& style) {
    QCPGraph* g = plot->addGraph();
    g->setName(name);
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(style);
    return g;
}

QCPCurve* newCurve(QCustomPlot* plot, const QPen& p, const QString& name = {}) {
    auto* c = new QCPCurve(plot->xAxis, plot->yAxis);
    c->setPen(p);
    c->setName(name);
    c->setScatterStyle(QCPScatterStyle::ssNone);
    if (name.isEmpty()) c->removeFromLegend();
    return c;
}

// Runs on one function: the same test function in the same dimension (each run samples its own).
bool sameFunction(const FunctionView& a, const FunctionView& b) {
    return a.name == b.name && a.dimension == b.dimension;
}

// Numbers stay this far apart, as a fraction of each axis' range.
constexpr double kLabelSpacing = 0.045;

}  // namespace

CuttingPlanePlot::CuttingPlanePlot(QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)) {
    replot_ = new CoalescedReplot(plot_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    plot_->setObjectName("modelPlot");
    applyPlotStyle(plot_);
    plot_->legend->setVisible(true);
    // A small, light legend: it sits over the picture.
    QFont small;
    small.setPointSize(8);
    plot_->legend->setFont(small);
    plot_->legend->setRowSpacing(0);
    plot_->legend->setBrush(colors::kLegendFillLight);
    labels_ = std::make_unique<IterateLabels>(plot_, plot_->axisRect());
    setMinimumSize(280, 180);
}

CuttingPlanePlot::~CuttingPlanePlot() = default;

void CuttingPlanePlot::clear() {
    plot_->clearPlottables();
    plot_->clearItems();
    plot_->plotLayout()->simplify();
    // No axis of the previous function stays (labels, ranges of another box).
    plot_->xAxis->setLabel({});
    plot_->yAxis->setLabel({});
    plot_->xAxis->setRange(0, 1);
    plot_->yAxis->setRange(0, 1);
    racePaths_.clear();
    raceModels_.clear();
    racePoints_.clear();
    raceColours_.clear();
    labels_ = std::make_unique<IterateLabels>(plot_, plot_->axisRect());
    fGraph_ = nullptr;
    heatMap_ = nullptr;
    contours_ = nullptr;
    optimum_ = nullptr;
    planeCurves_.clear();
    model_ = prox_ = iterates_ = candidate_ = best_ = center_ = nullptr;
    path_ = gapSegment_ = nullptr;
    ball_ = nullptr;
    aboveF_ = aboveFPoint_ = nullptr;
    activePlaneCurves_ = 0;
    function_.reset();
    snapshot_.reset();
    replot_->now();
}

int CuttingPlanePlot::planeLineCount() const {
    return activePlaneCurves_;
}

int CuttingPlanePlot::planeCount() const {
    return snapshot_ ? static_cast<int>(snapshot_->planes.size()) : 0;
}

QCPCurve* CuttingPlanePlot::planeCurve(std::size_t index) {
    while (planeCurves_.size() <= index) {
        QCPCurve* c = newCurve(plot_, pen(colors::kPlane, 1.0));
        c->setLayer("main");
        planeCurves_.push_back(c);
    }
    planeCurves_[index]->setVisible(true);
    return planeCurves_[index];
}

void CuttingPlanePlot::labelPlane(QCPCurve* curve, std::size_t index, bool newest) {
    // The legend shows one entry for the planes and one for the newest.
    if (newest || index == 0) {
        curve->setName(newest ? "newest plane" : "planes");
        curve->addToLegend();
    } else {
        curve->removeFromLegend();
    }
}

void CuttingPlanePlot::trimPlaneCurves(std::size_t count) {
    for (std::size_t k = count; k < planeCurves_.size(); ++k) {
        planeCurves_[k]->data()->clear();
        planeCurves_[k]->setVisible(false);
        planeCurves_[k]->removeFromLegend();  // it may have been the newest of a later step
    }
}

// The function's layers (setup1d: f's graph and the model; setup2d: f's heat map and
// contours), then the candidates' markers common to both, and the legend's corner.
void CuttingPlanePlot::setupFunction(const FunctionView& view) {
    plot_->legend->setVisible(true);
    if (view.dimension == 1) {
        setup1d(view);
    } else {
        setup2d(view);
    }
    candidate_ = pointsGraph(
        plot_, "master solution x_t",
        markerStyle(QCPScatterStyle::ssDisc, colors::kCandidate, colors::kCandidate, 8));
    best_ = pointsGraph(plot_, "best point",
                        markerStyle(QCPScatterStyle::ssDiamond, colors::kBest, colors::kBest, 9));
    center_ = pointsGraph(plot_, "prox-centre",
                          markerStyle(QCPScatterStyle::ssSquare, colors::kProx, colors::kProx, 8));
    plot_->plotLayout()->simplify();
    placeLegend(true);
    styleAxisRect(plot_->axisRect());
}

// The legend in a column of its own beside the plot (`beside`), since f, the planes and the
// iterates (1-D) or the heat map, its contours and the paths (2-D) reach every corner of the
// box, and the plot is short rather than narrow in the window; else over the plot, in the
// corner where it covers least (plot_style.h's moveInsetLegendsOffData).
void CuttingPlanePlot::placeLegend(bool beside) {
    QCPLegend* legend = plot_->legend;
    QCPLayoutInset* inset = plot_->axisRect()->insetLayout();
    QCPLayoutGrid* layout = plot_->plotLayout();
    const bool isBeside = legend->layout() != inset;
    if (beside && !isBeside) {
        inset->take(legend);
        inset->simplify();
        auto* side = new QCPLayoutGrid;
        layout->addElement(0, 1, side);
        layout->setColumnStretchFactor(0, 1.0);
        layout->setColumnStretchFactor(1, 0.001);
        side->addElement(0, 0, legend);
        side->addElement(1, 0, new QCPLayoutElement(plot_));  // the room below the legend
        side->setRowStretchFactor(0, 0.001);
        side->setRowStretchFactor(1, 1.0);
        legend->setBrush(Qt::NoBrush);
        legend->setBorderPen(Qt::NoPen);
    } else if (!beside && isBeside) {
        QCPLayoutElement* side = layout->element(0, 1);
        qobject_cast<QCPLayoutGrid*>(side)->take(legend);
        layout->remove(side);
        layout->simplify();
        inset->addElement(legend, Qt::AlignTop | Qt::AlignRight);
        legend->setBrush(colors::kLegendFillLight);
        legend->setBorderPen(pen(colors::kLegendBorder));
    }
}

void CuttingPlanePlot::setup1d(const FunctionView& view) {
    const Box& box = view.box;
    plot_->xAxis->setLabel("x");
    plot_->yAxis->setLabel("f(x)");
    fGraph_ = plot_->addGraph();
    fGraph_->setName("f");
    fGraph_->setPen(pen(colors::kFunction, 2.2));
    fGraph_->setData(QVector<double>(view.xs.begin(), view.xs.end()),
                     QVector<double>(view.fs.begin(), view.fs.end()), true);
    plot_->xAxis->setRange(box.lower(0), box.upper(0));
    // Planes first so that f, the model and the points are drawn over them.
    model_ = plot_->addGraph();
    model_->setName("model f_t");
    model_->setPen(pen(colors::kModel, 2.0));
    prox_ = plot_->addGraph();
    prox_->setName("prox objective");
    prox_->setPen(pen(colors::kProx, 1.6, Qt::DashLine));
    gapSegment_ = newCurve(plot_, pen(colors::kCandidate, 1.2, Qt::DotLine));
    iterates_ =
        pointsGraph(plot_, "oracle points",
                    markerStyle(QCPScatterStyle::ssCircle, colors::kFunction, Qt::white, 6));
    optimum_ =
        pointsGraph(plot_, "minimum f*",
                    markerStyle(QCPScatterStyle::ssStar, colors::kOptimum, colors::kOptimum, 11));
    optimum_->setData({view.minimizer(0)}, {view.minimum});
}

void CuttingPlanePlot::setup2d(const FunctionView& view) {
    const Box& box = view.box;
    plot_->xAxis->setLabel("x1");
    plot_->yAxis->setLabel("x2");
    addHeatMap(view);
    addContours(view);
    plot_->xAxis->setRange(box.lower(0), box.upper(0));
    plot_->yAxis->setRange(box.lower(1), box.upper(1));
    path_ = newCurve(plot_, pen(colors::kPath, 1.2), "iterates");
    path_->setScatterStyle(markerStyle(QCPScatterStyle::ssCircle, colors::kPath, Qt::white, 5));
    iterates_ = nullptr;
    optimum_ =
        pointsGraph(plot_, "minimiser x*",
                    markerStyle(QCPScatterStyle::ssStar, colors::kOptimum, colors::kOptimum, 12));
    optimum_->setData({view.minimizer(0)}, {view.minimizer(1)});
    ball_ = new QCPItemEllipse(plot_);
    ball_->setPen(pen(colors::kProx, 1.3, Qt::DashLine));
    ball_->setVisible(false);
}

// f on the view's grid as a heat map, saturated at the outermost contour.
void CuttingPlanePlot::addHeatMap(const FunctionView& view) {
    heatMap_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
    heatMap_->setName("f");
    heatMap_->removeFromLegend();
    const GridSamples& grid = view.grid;
    heatMap_->data()->setSize(grid.nx, grid.ny);
    heatMap_->data()->setRange(QCPRange(grid.x(0), grid.x(grid.nx - 1)),
                               QCPRange(grid.y(0), grid.y(grid.ny - 1)));
    for (int j = 0; j < grid.ny; ++j) {
        for (int i = 0; i < grid.nx; ++i)
            heatMap_->data()->setCell(i, j, grid.at(i, j));
    }
    heatMap_->setGradient(heatGradient());
    heatMap_->setInterpolate(true);
    if (!view.contours.empty()) {
        heatMap_->setDataRange(
            QCPRange(view.minimum, view.contours.back().level));  // saturate the steep rim
    } else {
        heatMap_->rescaleDataRange();
    }
}

void CuttingPlanePlot::addContours(const FunctionView& view) {
    contours_ = newCurve(plot_, pen(colors::kContour, 0.8), "contours of f");
    QVector<QCPCurveData> data;
    int t = 0;
    for (const auto& level : view.contours) {
        for (const auto& [a, b] : level.segments) {
            data.append(QCPCurveData(t++, a.x(), a.y()));
            data.append(QCPCurveData(t++, b.x(), b.y()));
            data.append(QCPCurveData(t++, kNaN, kNaN));
        }
    }
    contours_->data()->set(data, true);
}

int CuttingPlanePlot::raceRunCount() const {
    return static_cast<int>(raceColours_.size());
}

std::vector<QColor> CuttingPlanePlot::raceColours() const {
    return raceColours_;
}

void CuttingPlanePlot::setSnapshot(std::shared_ptr<const CuttingPlaneSnapshot> snapshot,
                                   std::span<const RaceEntry> race, int selectedRunId) {
    if (!snapshot || !snapshot->function) {
        clear();
        return;
    }
    if (snapshot->function != function_) {
        clear();
        function_ = snapshot->function;
        setupFunction(*function_);
    }
    snapshot_ = std::move(snapshot);
    const CuttingPlaneSnapshot& s = *snapshot_;
    if (s.function->dimension == 1) {
        draw1d(s);
    } else {
        draw2d(s);
    }
    // The bundle's extras are hidden (and out of the legend) for Kelley.
    for (QCPAbstractPlottable* p :
         {static_cast<QCPAbstractPlottable*>(center_), static_cast<QCPAbstractPlottable*>(prox_)}) {
        if (!p) continue;
        p->setVisible(s.bundle);
        if (s.bundle) {
            p->addToLegend();
        } else {
            p->removeFromLegend();
        }
    }
    drawRace(race, selectedRunId);
    drawPlaneAboveF(s);
    replot_->schedule();
}

void CuttingPlanePlot::drawPlaneAboveF(const CuttingPlaneSnapshot& s) {
    const auto& v = s.planeAboveF;
    const bool shown = v && v->plane < s.planes.size() && v->point < s.planes.size();
    if (!aboveF_) {
        aboveF_ = newCurve(plot_, pen(colors::kErrorText, 2.4));
        aboveF_->removeFromLegend();
        aboveFPoint_ = newCurve(plot_, pen(colors::kErrorText, 2.4));
        aboveFPoint_->setLineStyle(QCPCurve::lsNone);
        aboveFPoint_->setScatterStyle(
            markerStyle(QCPScatterStyle::ssCross, colors::kErrorText, colors::kErrorText, 14));
        aboveFPoint_->setName(QStringLiteral("plane above f: not convex"));
    }
    aboveF_->setVisible(shown && s.function->dimension == 1);
    aboveFPoint_->setVisible(shown);
    if (!shown) {
        aboveFPoint_->removeFromLegend();
        return;
    }
    const CuttingPlane& plane = s.planes[v->plane];
    const Eigen::VectorXd& at = s.planes[v->point].point;
    if (s.function->dimension == 1) {
        // The plane over the box, then down from it to f where it lies above f.
        const double lo = s.function->box.lower(0), hi = s.function->box.upper(0);
        const auto planeAt = [&](double x) {
            return plane.value + plane.gradient(0) * (x - plane.point(0));
        };
        aboveF_->setData({0, 1, 2, 3}, {lo, hi, at(0), at(0)},
                         {planeAt(lo), planeAt(hi), v->planeValue, v->f});
        aboveFPoint_->setData({0}, {at(0)}, {v->f});
    } else {
        aboveFPoint_->setData({0}, {at(0)}, {at(1)});
    }
    aboveFPoint_->addToLegend();
}

void CuttingPlanePlot::drawRace(std::span<const RaceEntry> race, int selectedRunId) {
    for (QCPCurve* c : racePaths_) {
        c->setVisible(false);
        c->removeFromLegend();
    }
    for (QCPGraph* g : raceModels_) {
        g->setVisible(false);
        g->removeFromLegend();
    }
    for (QCPGraph* g : racePoints_)
        g->setVisible(false);
    raceColours_.clear();
    // The runs on the selected run's function (another problem's runs are not comparable).
    std::vector<std::pair<const RaceEntry*, const CuttingPlaneSnapshot*>> runs;
    for (const RaceEntry& e : race) {
        const auto* s = dynamic_cast<const CuttingPlaneSnapshot*>(e.snapshot.get());
        if (s && s->function && sameFunction(*s->function, *function_)) runs.emplace_back(&e, s);
    }
    const RaceEntry* selected = nullptr;
    if (runs.size() >= 2) {
        std::size_t slot = 0;
        for (const auto& [entry, s] : runs) {
            raceColours_.push_back(entry->colour);
            if (entry->runId == selectedRunId) {
                selected = entry;
            } else {
                drawRaceRun(*entry, *s, slot++);
            }
        }
    }
    styleSelected(selected);
    numberIterates(*snapshot_, selected ? selected->colour : colors::kPath);
}

void CuttingPlanePlot::drawRaceRun(const RaceEntry& entry, const CuttingPlaneSnapshot& s,
                                   std::size_t slot) {
    const QCPScatterStyle style = markerStyle(runMarker(entry.marker), entry.colour, Qt::white,
                                              s.function->dimension == 1 ? 7 : 6);
    if (s.function->dimension == 2) {
        while (racePaths_.size() <= slot)
            racePaths_.push_back(newCurve(plot_, pen(Qt::black)));
        QCPCurve* path = racePaths_[slot];
        QVector<double> t, x, y;
        for (std::size_t k = 0; k < s.iterates.size(); ++k) {
            t.append(static_cast<double>(k));
            x.append(s.iterates[k](0));
            y.append(s.iterates[k](1));
        }
        path->setData(t, x, y);
        path->setPen(pen(entry.colour, 1.4));
        path->setScatterStyle(style);
        path->setName(legendLabel(entry.label));
        path->addToLegend();
        path->setVisible(true);
        return;
    }
    while (raceModels_.size() <= slot) {
        raceModels_.push_back(plot_->addGraph());
        racePoints_.push_back(pointsGraph(plot_, {}, style));
        racePoints_.back()->removeFromLegend();
    }
    QCPGraph* model = raceModels_[slot];
    model->setData(QVector<double>(s.function->xs.begin(), s.function->xs.end()),
                   QVector<double>(s.modelCurve.begin(), s.modelCurve.end()), true);
    model->setPen(pen(entry.colour, 1.6, Qt::DashLine));
    model->setName(legendLabel(entry.label) + ": model");
    model->addToLegend();
    model->setVisible(true);
    QVector<double> px, py;
    for (const auto& p : s.planes) {
        px.append(p.point(0));
        py.append(p.value);
    }
    racePoints_[slot]->setData(px, py);
    racePoints_[slot]->setScatterStyle(style);
    racePoints_[slot]->setVisible(true);
}

void CuttingPlanePlot::styleSelected(const RaceEntry* entry) {
    // In a race the selected run's iterates (2-D) or model and points (1-D) take its colour
    // and name; alone, today's neutral look. They are drawn over the other runs'.
    if (path_) {
        path_->setPen(entry ? pen(entry->colour, 2.0) : pen(colors::kPath, 1.2));
        path_->setScatterStyle(
            entry ? markerStyle(runMarker(entry->marker), entry->colour, Qt::white, 7)
                  : markerStyle(QCPScatterStyle::ssCircle, colors::kPath, Qt::white, 5));
        path_->setName(entry ? legendLabel(entry->label) : QString("iterates"));
    }
    if (model_) {
        model_->setPen(entry ? pen(entry->colour, 2.0) : pen(colors::kModel, 2.0));
        model_->setName(entry ? legendLabel(entry->label) + ": model f_t" : QString("model f_t"));
        iterates_->setScatterStyle(
            entry ? markerStyle(runMarker(entry->marker), entry->colour, Qt::white, 7)
                  : markerStyle(QCPScatterStyle::ssCircle, colors::kFunction, Qt::white, 6));
    }
    for (QCPLayerable* item : std::initializer_list<QCPLayerable*>{
             path_, model_, iterates_, candidate_, best_, center_, optimum_}) {
        if (item) item->setLayer(item->layer());  // last on its layer: on top
    }
}

void CuttingPlanePlot::numberIterates(const CuttingPlaneSnapshot& s, const QColor& colour) {
    std::vector<QPointF> points;
    if (s.function->dimension == 2) {
        for (const auto& x : s.iterates)
            points.emplace_back(x(0), x(1));
    } else {
        for (const auto& p : s.planes)
            points.emplace_back(p.point(0), p.value);
    }
    const QPointF spacing(kLabelSpacing * plot_->xAxis->range().size(),
                          kLabelSpacing * plot_->yAxis->range().size());
    labels_->draw(points, colour.darker(130), spacing);
}

void CuttingPlanePlot::draw1d(const CuttingPlaneSnapshot& s) {
    const FunctionView& view = *s.function;
    const double lo = view.box.lower(0), hi = view.box.upper(0);
    for (std::size_t k = 0; k < s.planes.size(); ++k) {
        QCPCurve* c = planeCurve(k);
        const CuttingPlane& p = s.planes[k];
        Eigen::VectorXd a(1), b(1);
        a << lo;
        b << hi;
        c->setData({0, 1}, {lo, hi}, {p.at(a), p.at(b)});
        const bool newest = k + 1 == s.planes.size() && s.planes.size() > 1;
        c->setPen(newest ? pen(colors::kNewestPlane, 1.8) : pen(colors::kPlane, 1.0));
        labelPlane(c, k, newest);
    }
    trimPlaneCurves(s.planes.size());
    activePlaneCurves_ = static_cast<int>(s.planes.size());

    model_->setData(QVector<double>(view.xs.begin(), view.xs.end()),
                    QVector<double>(s.modelCurve.begin(), s.modelCurve.end()), true);
    if (s.bundle) {
        prox_->setData(QVector<double>(view.xs.begin(), view.xs.end()),
                       QVector<double>(s.proxCurve.begin(), s.proxCurve.end()), true);
    } else {
        prox_->data()->clear();
    }

    QVector<double> px, py;
    for (const auto& p : s.planes) {
        px.append(p.point(0));
        py.append(p.value);
    }
    iterates_->setData(px, py);
    if (s.record.iteration > 0) {
        candidate_->setData({s.candidate(0)}, {s.candidateModel});
        const double fAtCandidate = s.planes.back().value;
        gapSegment_->setData({0, 1}, {s.candidate(0), s.candidate(0)},
                             {s.candidateModel, fAtCandidate});
    } else {
        candidate_->data()->clear();
        gapSegment_->data()->clear();
    }
    best_->setData({s.best(0)}, {s.bestValue});
    if (s.bundle) {
        Eigen::VectorXd c = s.proxCenter;
        double fc = s.record.upper;
        for (const auto& p : s.planes) {
            if ((p.point - c).norm() == 0.0) fc = p.value;
        }
        center_->setData({c(0)}, {fc});
    }

    // y-range: all of f, and the model's minimum, which early on lies far below f.
    double yLow = *std::min_element(view.fs.begin(), view.fs.end());
    double yHigh = *std::max_element(view.fs.begin(), view.fs.end());
    if (s.record.iteration > 0 && std::isfinite(s.candidateModel)) {
        yLow = std::min(yLow, s.candidateModel);
    }
    if (std::isfinite(s.modelMinimum)) yLow = std::min(yLow, s.modelMinimum);
    const double margin = 0.06 * std::max(yHigh - yLow, 1e-9);
    plot_->yAxis->setRange(yLow - margin, yHigh + margin);
    plot_->xAxis->setRange(lo, hi);
}

void CuttingPlanePlot::draw2d(const CuttingPlaneSnapshot& s) {
    std::size_t drawn = 0;
    const std::size_t newest = s.planes.empty() ? 0 : s.planes.size() - 1;
    for (std::size_t k = 0; k < s.modelCells.size(); ++k) {
        const auto& cell = s.modelCells[k];
        if (cell.empty()) continue;
        QCPCurve* c = planeCurve(drawn++);
        QVector<double> t, x, y;
        for (std::size_t v = 0; v <= cell.size(); ++v) {
            const Eigen::Vector2d& p = cell[v % cell.size()];
            t.append(static_cast<double>(v));
            x.append(p.x());
            y.append(p.y());
        }
        c->setData(t, x, y);
        const bool isNewest = k == newest && s.planes.size() > 1;
        c->setPen(isNewest ? pen(colors::kNewestPlane, 2.0) : pen(colors::kKink, 0.9));
        c->setBrush(isNewest ? QBrush(colors::kNewestPlaneFill) : Qt::NoBrush);
        labelPlane(c, drawn - 1, isNewest);
    }
    trimPlaneCurves(drawn);
    activePlaneCurves_ = static_cast<int>(drawn);

    QVector<double> t, x, y;
    for (std::size_t k = 0; k < s.iterates.size(); ++k) {
        t.append(static_cast<double>(k));
        x.append(s.iterates[k](0));
        y.append(s.iterates[k](1));
    }
    path_->setData(t, x, y);
    if (s.record.iteration > 0) {
        candidate_->setData({s.candidate(0)}, {s.candidate(1)});
    } else {
        candidate_->data()->clear();
    }
    best_->setData({s.best(0)}, {s.best(1)});
    if (s.bundle) {
        center_->setData({s.proxCenter(0)}, {s.proxCenter(1)});
        const double r = (s.candidate - s.proxCenter).norm();
        ball_->topLeft->setCoords(s.proxCenter(0) - r, s.proxCenter(1) + r);
        ball_->bottomRight->setCoords(s.proxCenter(0) + r, s.proxCenter(1) - r);
        ball_->setVisible(r > 0 && s.record.iteration > 0);
    } else if (ball_) {
        ball_->setVisible(false);
    }
}

}  // namespace cplab::widgets
