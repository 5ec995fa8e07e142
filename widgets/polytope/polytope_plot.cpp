// SPDX-License-Identifier: GPL-3.0-or-later
#include "polytope_plot.h"

#include <qcustomplot.h>

#include <QVBoxLayout>
#include <limits>

#include "coalesced_replot.h"
#include "legend_placement.h"
#include "plot_style.h"
#include "race_graphs.h"

namespace cplab::widgets {

namespace {

// Entries a line of the legend under the picture, at most.
constexpr int kLegendColumns = 4;

}  // namespace

PolytopePlot::PolytopePlot(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
    replot_ = new CoalescedReplot(plot_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    plot_->setObjectName("polytopePlot");
    applyPlotStyle(plot_);
    plot_->legend->setVisible(true);
    // A small legend in a row of its own under the picture: over it, it hid a corner of the
    // polygon wherever it sat (a typed polygon may fill every corner of the view).
    QFont small;
    small.setPointSize(8);
    plot_->legend->setFont(small);
    plot_->legend->setRowSpacing(0);
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->legend->setBrush(Qt::NoBrush);
    plot_->legend->setMargins(QMargins(4, 0, 4, 2));
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    plot_->axisRect()->insetLayout()->simplify();
    plot_->plotLayout()->addElement(1, 0, plot_->legend);
    plot_->plotLayout()->setRowStretchFactor(1, 0.001);
    fitLegendWrap(plot_->legend, 560, kLegendColumns);
    setMinimumSize(280, 180);
}

void PolytopePlot::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitLegendWrap(plot_->legend, plot_->width(), kLegendColumns);
}

void PolytopePlot::clear() {
    plot_->clearPlottables();
    plot_->clearItems();
    polygon_ = contours_ = path_ = direction_ = nullptr;
    racePaths_.clear();
    raceColours_.clear();
    // No axis of the previous problem stays.
    plot_->xAxis->setLabel({});
    plot_->yAxis->setLabel({});
    plot_->xAxis->setRange(0, 1);
    plot_->yAxis->setRange(0, 1);
    current_ = fwVertex_ = awayVertex_ = optimum_ = nullptr;
    gradientArrow_ = nullptr;
    weightLabels_.clear();
    view_.reset();
    replot_->now();
}

// The problem's layers, bottom to top: the contours of f, the polytope with its vertices'
// names, then the iterates' layers; the axes span the contours' grid.
void PolytopePlot::setupProblem(const PolytopeView& view) {
    plot_->xAxis->setLabel("x1");
    plot_->yAxis->setLabel("x2");
    addContours(view);
    addPolytope(*view.problem);
    addIterateLayers(view);
    const GridSamples& g = view.grid;
    plot_->xAxis->setRange(g.x(0), g.x(g.nx - 1));
    plot_->yAxis->setRange(g.y(0), g.y(g.ny - 1));
}

void PolytopePlot::addContours(const PolytopeView& view) {
    contours_ = new QCPCurve(plot_->xAxis, plot_->yAxis);
    contours_->setName("contours of f");
    contours_->setPen(pen(colors::kContour, 0.8));
    QVector<QCPCurveData> data;
    int t = 0;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const auto& level : view.contours) {
        for (const auto& [a, b] : level.segments) {
            data.append(QCPCurveData(t++, a.x(), a.y()));
            data.append(QCPCurveData(t++, b.x(), b.y()));
            data.append(QCPCurveData(t++, nan, nan));
        }
    }
    contours_->data()->set(data, true);
}

// The polygon M and the name of each vertex.
void PolytopePlot::addPolytope(const PolytopeProblem& p) {
    polygon_ = new QCPCurve(plot_->xAxis, plot_->yAxis);
    polygon_->setName("polytope M");
    polygon_->setPen(pen(colors::kOutline, 1.8));
    polygon_->setBrush(colors::kPolygonFill);
    QVector<double> pt, px, py;
    for (std::size_t k = 0; k <= p.vertices.size(); ++k) {
        const auto& v = p.vertices[k % p.vertices.size()];
        pt.append(static_cast<double>(k));
        px.append(v.x());
        py.append(v.y());
    }
    polygon_->setData(pt, px, py);

    for (std::size_t k = 0; k < p.vertices.size(); ++k) {
        auto* label = new QCPItemText(plot_);
        label->position->setCoords(p.vertices[k].x(), p.vertices[k].y());
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        label->setPadding(QMargins(4, 0, 0, 2));
        QFont font;
        font.setPointSize(8);
        label->setFont(font);
        label->setColor(colors::kOutline);
        label->setText(QString("v%1").arg(k));
        weightLabels_.push_back(label);
    }
}

// The step direction, the path of iterates, x*, the Frank-Wolfe and away vertices, x_t and
// the gradient arrow (empty until a snapshot fills them).
void PolytopePlot::addIterateLayers(const PolytopeView& view) {
    direction_ = new QCPCurve(plot_->xAxis, plot_->yAxis);
    direction_->setPen(pen(colors::kNewestPlane, 1.4, Qt::DashLine));
    direction_->setName("step direction");

    path_ = new QCPCurve(plot_->xAxis, plot_->yAxis);
    path_->setName("iterates");
    path_->setPen(pen(colors::kModel, 1.3));
    path_->setScatterStyle(markerStyle(QCPScatterStyle::ssCircle, colors::kModel, Qt::white, 5));

    optimum_ = plot_->addGraph();
    // A typed f's minimiser is computed (polytope_problem.h), not known: said so, and not
    // drawn when it could not be computed.
    optimum_->setName(view.minimizerComputed ? "minimiser x* (computed)" : "minimiser x*");
    optimum_->setLineStyle(QCPGraph::lsNone);
    optimum_->setScatterStyle(
        markerStyle(QCPScatterStyle::ssStar, colors::kOptimum, colors::kOptimum, 12));
    if (view.minimizer.allFinite())
        optimum_->setData({view.minimizer.x()}, {view.minimizer.y()});
    else
        optimum_->removeFromLegend();

    fwVertex_ = plot_->addGraph();
    fwVertex_->setName("FW vertex s_t");
    fwVertex_->setLineStyle(QCPGraph::lsNone);
    fwVertex_->setScatterStyle(
        markerStyle(QCPScatterStyle::ssSquare, colors::kNewestPlane, colors::kNewestPlane, 10));

    awayVertex_ = plot_->addGraph();
    awayVertex_->setName("away vertex a_t");
    awayVertex_->setLineStyle(QCPGraph::lsNone);
    awayVertex_->setScatterStyle(
        markerStyle(QCPScatterStyle::ssSquare, colors::kCandidate, colors::kCandidate, 10));

    current_ = plot_->addGraph();
    current_->setName("x_t");
    current_->setLineStyle(QCPGraph::lsNone);
    current_->setScatterStyle(
        markerStyle(QCPScatterStyle::ssDisc, colors::kCandidate, colors::kCandidate, 8));

    gradientArrow_ = new QCPItemLine(plot_);
    gradientArrow_->setPen(pen(colors::kProx, 1.6));
    gradientArrow_->setHead(QCPLineEnding::esSpikeArrow);
}

void PolytopePlot::drawRace(std::span<const RaceEntry> race, int selectedRunId) {
    for (QCPCurve* c : racePaths_) {
        c->setVisible(false);
        c->removeFromLegend();
    }
    raceColours_.clear();
    std::vector<std::pair<const RaceEntry*, const FrankWolfeSnapshot*>> runs;
    for (const RaceEntry& e : race) {
        const auto* s = dynamic_cast<const FrankWolfeSnapshot*>(e.snapshot.get());
        if (s && s->view && s->view->problem->name == view_->problem->name)
            runs.emplace_back(&e, s);
    }
    const RaceEntry* selected = nullptr;
    std::size_t slot = 0;
    for (const auto& [entry, s] : runs) {
        if (runs.size() < 2) break;
        raceColours_.push_back(entry->colour);
        if (entry->runId == selectedRunId) {
            selected = entry;
            continue;
        }
        if (racePaths_.size() <= slot)
            racePaths_.push_back(new QCPCurve(plot_->xAxis, plot_->yAxis));
        QCPCurve* c = racePaths_[slot++];
        QVector<double> t, x, y;
        for (const Eigen::Vector2d& p : s->iterates) {
            t.append(static_cast<double>(t.size()));
            x.append(p.x());
            y.append(p.y());
        }
        c->setData(t, x, y);
        c->setPen(pen(entry->colour, 1.2));
        c->setScatterStyle(markerStyle(runMarker(entry->marker), entry->colour, Qt::white, 6));
        c->setName(legendLabel(entry->label));
        c->addToLegend();
        c->setVisible(true);
    }
    // The selected run's path in its colour when racing, else the model blue.
    const QColor colour = selected ? selected->colour : colors::kModel;
    path_->setPen(pen(colour, selected ? 1.8 : 1.3));
    path_->setScatterStyle(markerStyle(
        selected ? runMarker(selected->marker) : QCPScatterStyle::ssCircle, colour, Qt::white, 5));
    path_->setName(selected ? legendLabel(selected->label) : QString("iterates"));
    for (QCPLayerable* item :
         std::initializer_list<QCPLayerable*>{path_, current_, fwVertex_, awayVertex_, optimum_})
        item->setLayer(item->layer());  // the selected run's marks on top
}

void PolytopePlot::setSnapshot(std::shared_ptr<const FrankWolfeSnapshot> snapshot,
                               std::span<const RaceEntry> race, int selectedRunId) {
    if (!snapshot || !snapshot->view) {
        clear();
        return;
    }
    if (snapshot->view != view_) {
        clear();
        view_ = snapshot->view;
        setupProblem(*view_);
    }
    const FrankWolfeSnapshot& s = *snapshot;
    const auto& vertices = view_->problem->vertices;

    QVector<double> t, x, y;
    for (std::size_t k = 0; k < s.iterates.size(); ++k) {
        t.append(static_cast<double>(k));
        x.append(s.iterates[k].x());
        y.append(s.iterates[k].y());
    }
    path_->setData(t, x, y);
    const Eigen::Vector2d xt = s.iterates.back();
    current_->setData({xt.x()}, {xt.y()});

    // The step just taken started at the previous iterate.
    const Eigen::Vector2d from = s.iterates.size() >= 2 ? s.iterates[s.iterates.size() - 2] : xt;
    fwVertex_->data()->clear();
    awayVertex_->data()->clear();
    direction_->data()->clear();
    if (s.fwVertex >= 0) {
        const auto& v = vertices[static_cast<std::size_t>(s.fwVertex)];
        fwVertex_->setData({v.x()}, {v.y()});
        if (!s.awayStep) direction_->setData({0, 1}, {from.x(), v.x()}, {from.y(), v.y()});
    }
    if (s.awayStep && s.awayVertex >= 0) {
        const auto& a = vertices[static_cast<std::size_t>(s.awayVertex)];
        awayVertex_->setData({a.x()}, {a.y()});
        direction_->setData({0, 1}, {a.x(), from.x()}, {a.y(), from.y()});
    }
    // −∇f at the step's start, scaled to a fifth of the view's width.
    const double width = plot_->xAxis->range().size();
    const double norm = s.gradient.norm();
    if (norm > 0 && s.record.iteration > 0) {
        const Eigen::Vector2d tip = from - 0.2 * width * s.gradient / norm;
        gradientArrow_->start->setCoords(from.x(), from.y());
        gradientArrow_->end->setCoords(tip.x(), tip.y());
        gradientArrow_->setVisible(true);
    } else {
        gradientArrow_->setVisible(false);
    }
    for (std::size_t k = 0; k < weightLabels_.size(); ++k) {
        QString text = QString("v%1").arg(k);
        if (k < s.weights.size() && s.weights[k] > 0) {
            text += QString("  w=%1").arg(s.weights[k], 0, 'f', 3);
        }
        weightLabels_[k]->setText(text);
    }
    drawRace(race, selectedRunId);
    fitLegendWrap(plot_->legend, plot_->width(), kLegendColumns);  // its entries changed
    replot_->schedule();
}

}  // namespace cplab::widgets
