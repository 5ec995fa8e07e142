// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernel_model_panel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "kernel_tabs_common.h"
#include "plot_style.h"
#include "race_graphs.h"

namespace cplab::widgets {

namespace {

const double kTriangleHeight = std::sqrt(3.0) / 2.0;
// The triangle's view box: room for the labels around it and the colour scale at the right.
constexpr double kTriangleLeft = -0.3, kTriangleRight = 1.55;
const double kTriangleBottom = -0.3, kTriangleTop = kTriangleHeight + 0.16;

// The model's (or D's) values over the triangle, low light to high dark; outside transparent.
QCPColorGradient transparentHeatGradient() {
    QCPColorGradient g = heatGradient();
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}

void alignInset(QCPAxisRect* rect, QCPLayoutElement* element, Qt::Alignment alignment) {
    QCPLayoutInset* inset = rect->insetLayout();
    for (int i = 0; i < inset->elementCount(); ++i) {
        if (inset->elementAt(i) == element) inset->setInsetAlignment(i, alignment);
    }
}

void showIn(QCPAbstractPlottable* p, QCPLegend* legend, bool shown) {
    if (shown) {
        if (!legend->hasItemWithPlottable(p)) p->addToLegend(legend);
    } else {
        p->removeFromLegend(legend);
    }
}

// Where β on the simplex of three kernels lies in the plane: e₁ → (0, 0), e₂ → (1, 0),
// e₃ → (½, √3/2).
QPointF trianglePoint(const Eigen::VectorXd& beta) {
    return {beta(1) + 0.5 * beta(2), kTriangleHeight * beta(2)};
}

// D on the grid's triangle lattice at β, by linear interpolation between its points.
double latticeValue(const ObjectiveGridValues& grid, const Eigen::Vector3d& beta) {
    const int n = grid.divisions;
    auto lattice = [&](int i, int j) {
        // Point (i/n, j/n, 1 − (i + j)/n), stored as objective_grid.h says.
        if (i < 0 || j < 0 || i + j > n) return 0.0;
        const int index = i * (n + 1) - i * (i - 1) / 2 + j;
        const double v = grid.values[static_cast<std::size_t>(index)];
        return std::isfinite(v) ? v : 0.0;
    };
    const double u = n * beta(0), v = n * beta(1);
    const int i = static_cast<int>(std::floor(u)), j = static_cast<int>(std::floor(v));
    const double fu = u - i, fv = v - j;
    if (fu + fv <= 1.0) {
        return (1 - fu - fv) * lattice(i, j) + fu * lattice(i + 1, j) + fv * lattice(i, j + 1);
    }
    return (fu + fv - 1) * lattice(i + 1, j + 1) + (1 - fv) * lattice(i + 1, j) +
           (1 - fu) * lattice(i, j + 1);
}

// The value at which the colours saturate: D grows steeply towards the edges where a needed
// kernel has no weight, so the colours span the lower 85 % of the map's values.
double saturation(QCPColorMapData* data, int nx, int ny, double lo, double hi) {
    std::vector<double> finite;
    for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
            const double v = data->cell(i, j);
            if (std::isfinite(v)) finite.push_back(v);
        }
    }
    double top = hi;
    if (!finite.empty()) {
        const std::size_t q = (finite.size() - 1) * 85 / 100;
        std::nth_element(finite.begin(), finite.begin() + static_cast<std::ptrdiff_t>(q),
                         finite.end());
        top = finite[q];
    }
    if (!(top > lo)) top = hi > lo ? hi : lo + 1;
    return top;
}

bool gridFor(const ObjectiveGridValues* grid, const KernelSnapshot& s, Eigen::Index kernels) {
    return grid && grid->setup && grid->setup == s.setup && !grid->points.empty() &&
           grid->points[0].size() == kernels;
}

}  // namespace

KernelModelPanel::KernelModelPanel(QCustomPlot* plot, QCPAxisRect* rect)
    : plot_(plot), rect_(rect) {
    createModelItems();
    createWeightBars();
}

void KernelModelPanel::createModelItems() {
    rect_->axis(QCPAxis::atLeft)->setLabel("D(\u03b2)");
    map_ = new QCPColorMap(rect_->axis(QCPAxis::atBottom), rect_->axis(QCPAxis::atLeft));
    map_->setInterpolate(true);
    map_->setLayer("background");
    map_->setVisible(false);
    scale_ = new QCPColorScale(plot_);
    // Upright at the right, beside the triangle (drawTriangleMarks leaves room there): below
    // it, it covered the labels of the bottom corners.
    rect_->insetLayout()->addElement(scale_, QRectF(0.78, 0.26, 0.22, 0.6));
    scale_->setType(QCPAxis::atRight);
    scale_->setBarWidth(7);
    scale_->setGradient(transparentHeatGradient());
    scale_->setRangeDrag(false);
    scale_->setRangeZoom(false);
    scale_->axis()->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    scale_->axis()->ticker()->setTickCount(4);
    QFont small;
    small.setPointSize(8);
    scale_->axis()->setTickLabelFont(small);
    scale_->axis()->setLabelFont(small);
    map_->setColorScale(scale_);
    scale_->setVisible(false);
    legend_ = insetLegend(rect_, Qt::AlignTop | Qt::AlignHCenter);
    // Two columns: the plot keeps its upper half.
    legend_->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend_->setWrap(2);
    planesCurve_ = addCurve(rect_, "planes", pen(colors::kPlane, 1.0));
    newestPlane_ = addCurve(rect_, "newest plane", pen(colors::kNewestPlane, 1.6));
    modelMax_ = addLineGraph(plot_, rect_, "model", pen(colors::kModel, 2.0));
    evaluatedCurve_ = addLineGraph(plot_, rect_, "D(\u03b2) solved", pen(colors::kFunction, 1.6));
    evaluatedCurve_->setScatterStyle(
        markerStyle(QCPScatterStyle::ssCircle, colors::kFunction, Qt::white, 4, 1.0));
    triangle_ = addCurve(rect_, "", pen(colors::kOutline, 1.2));
    iteratePath_ = addCurve(rect_, "iterates \u03b2\u209c", pen(colors::kPath, 1.0));
    iteratePath_->setScatterStyle(
        markerStyle(QCPScatterStyle::ssCircle, colors::kPath, Qt::white, 5));
    iterateValues_ =
        addPointsGraph(plot_, rect_, "D at iterates",
                       markerStyle(QCPScatterStyle::ssCircle, colors::kPath, Qt::white, 6));
    lpMinimiser_ = addPointsGraph(
        plot_, rect_, "LP minimiser",
        markerStyle(QCPScatterStyle::ssDisc, colors::kCandidate, colors::kCandidate, 8));
    for (auto*& label : vertexLabels_) {
        label = new QCPItemText(plot_);
        label->setClipAxisRect(rect_);
        label->setClipToAxisRect(false);
        label->position->setAxes(rect_->axis(QCPAxis::atBottom), rect_->axis(QCPAxis::atLeft));
        label->setColor(colors::kOutline);
        label->setFont(small);
        label->setVisible(false);
    }
    note_ = addNote(plot_, rect_);
    note_->setText("no kernel weights yet");
}

void KernelModelPanel::createWeightBars() {
    for (int i = 0; i < 8; ++i) {
        weightBars_.push_back(addLineGraph(plot_, rect_, {}, pen(kernelColour(i), 5.0)));
        weightBars_.back()->setLineStyle(QCPGraph::lsImpulse);
    }
    otherBars_ = addLineGraph(plot_, rect_, {}, pen(kOtherKernel, 3.0));
    otherBars_->setLineStyle(QCPGraph::lsImpulse);
}

void KernelModelPanel::showAxes(bool shown) {
    for (QCPAxis* a : {rect_->axis(QCPAxis::atBottom), rect_->axis(QCPAxis::atLeft)}) {
        a->setVisible(shown);
        a->grid()->setVisible(shown);
    }
}

void KernelModelPanel::hide(const QString& note) {
    hideRace();
    map_->setVisible(false);
    scale_->setVisible(false);
    for (QCPGraph* g : weightBars_)
        g->data()->clear();
    otherBars_->data()->clear();
    for (QCPCurve* c : {planesCurve_, newestPlane_, triangle_, iteratePath_})
        c->data()->clear();
    for (QCPGraph* g : {modelMax_, evaluatedCurve_, iterateValues_, lpMinimiser_})
        g->data()->clear();
    for (QCPItemText* label : vertexLabels_)
        label->setVisible(false);
    legend_->clearItems();
    legend_->setVisible(false);
    note_->setText(note);
    note_->setVisible(true);
    triangleShown_ = false;
    planesDrawn_ = 0;
    // Nothing to draw: the note alone, without empty axes.
    rect_->axis(QCPAxis::atBottom)->setLabel({});
    rect_->axis(QCPAxis::atLeft)->setLabel({});
    showAxes(false);
}

void KernelModelPanel::drawWeightBars(const KernelSnapshot& s) {
    // The weights now, by kernel: the ones the weights' legend names in its colours (by rank
    // when there are many kernels, by index otherwise), the rest grey.
    hide({});
    note_->setVisible(false);
    const Eigen::Index k = s.beta.size();
    std::vector<Eigen::Index> order(static_cast<std::size_t>(k));
    std::iota(order.begin(), order.end(), Eigen::Index{0});
    std::stable_sort(order.begin(), order.end(),
                     [&s](Eigen::Index a, Eigen::Index b) { return s.beta(a) > s.beta(b); });
    const bool many = k > 8;
    QVector<double> ox, ov;
    for (Eigen::Index rank = 0; rank < k; ++rank) {
        const Eigen::Index index = many ? order[static_cast<std::size_t>(rank)] : rank;
        const double x = static_cast<double>(index + 1), beta = s.beta(index);
        const std::size_t slot = static_cast<std::size_t>(rank);
        if (slot < weightBars_.size() &&
            (!many || slot < static_cast<std::size_t>(kNamedKernels))) {
            weightBars_[slot]->setData({x}, {beta});
            weightBars_[slot]->setPen(pen(kernelColour(static_cast<int>(rank)), 5.0));
            weightBars_[slot]->setLineStyle(QCPGraph::lsImpulse);
        } else {
            ox.append(x);
            ov.append(beta);
        }
    }
    otherBars_->setData(ox, ov);
    QCPAxis* x = rect_->axis(QCPAxis::atBottom);
    QCPAxis* y = rect_->axis(QCPAxis::atLeft);
    showAxes(true);
    x->setLabel(QObject::tr("kernel k (of %1)").arg(k));
    y->setLabel(QObject::tr("weight \u03b2\u2096 now"));
    x->setRange(0, static_cast<double>(k) + 1);
    const double top = k > 0 ? s.beta.maxCoeff() : 1.0;
    y->setRange(0, std::max(0.05, 1.1 * top));
}

void KernelModelPanel::draw(const KernelSnapshot& s, const ObjectiveGridValues* grid,
                            std::span<const RaceEntry> race, int selectedRunId) {
    hideRace();
    const std::size_t k = s.kernelLabels.size();
    if (k < 2) {
        hide(
            QObject::tr("one kernel: no weights to learn\n(silp and simplemkl\nlearn a "
                        "combination)"));
        return;
    }
    if (k > 3) {
        drawWeightBars(s);
        return;
    }
    if (s.planes.empty()) {
        hide(QObject::tr("no cutting plane yet"));
        return;
    }
    note_->setVisible(false);
    legend_->setVisible(true);
    if (k == 2) {
        drawLine(s, grid);
    } else {
        drawTriangle(s, grid);
    }
    drawRace(s, race, selectedRunId);
}

QCPCurve* KernelModelPanel::raceCurve(std::size_t slot) {
    while (raceCurves_.size() <= slot) {
        raceCurves_.push_back(addCurve(rect_, {}, pen(Qt::black)));
        raceCurves_.back()->removeFromLegend();
    }
    return raceCurves_[slot];
}

void KernelModelPanel::hideRace() {
    for (QCPCurve* c : raceCurves_) {
        c->setVisible(false);
        c->removeFromLegend(legend_);
    }
    raceColours_.clear();
    iteratePath_->setPen(pen(colors::kPath, 1.0));
    iteratePath_->setScatterStyle(
        markerStyle(QCPScatterStyle::ssCircle, colors::kPath, Qt::white, 5));
    iteratePath_->setName("iterates \u03b2\u209c");
    iterateValues_->setScatterStyle(
        markerStyle(QCPScatterStyle::ssCircle, colors::kPath, Qt::white, 6));
    iterateValues_->setName("D at iterates");
}

void KernelModelPanel::drawRace(const KernelSnapshot& s, std::span<const RaceEntry> race,
                                int selectedRunId) {
    // The runs on the same kernels: K = 3 their paths over the triangle, K = 2 D at their
    // iterates (a curve without a line); the selected run's iterates in its colour.
    std::vector<std::pair<const RaceEntry*, const KernelSnapshot*>> runs;
    for (const RaceEntry& e : race) {
        const auto* other = dynamic_cast<const KernelSnapshot*>(e.snapshot.get());
        if (other && other->kernelLabels == s.kernelLabels) runs.emplace_back(&e, other);
    }
    if (runs.size() < 2) return;
    std::size_t slot = 0;
    for (const auto& [entry, other] : runs) {
        raceColours_.push_back(entry->colour);
        const QCPScatterStyle style =
            markerStyle(runMarker(entry->marker), entry->colour, Qt::white, 6);
        if (entry->runId == selectedRunId) {
            iteratePath_->setPen(pen(entry->colour, 1.6));
            iteratePath_->setScatterStyle(style);
            iteratePath_->setName(legendLabel(entry->label));
            iterateValues_->setScatterStyle(style);
            iterateValues_->setName(legendLabel(entry->label));
            continue;
        }
        QCPCurve* c = raceCurve(slot++);
        QVector<double> t, x, y;
        for (std::size_t i = 0; i < other->betaIterates.size(); ++i) {
            const Eigen::VectorXd& b = other->betaIterates[i];
            if (triangleShown_ && b.size() == 3) {
                const QPointF p = trianglePoint(b);
                x.append(p.x());
                y.append(p.y());
            } else if (!triangleShown_ && b.size() == 2 && i < other->dValues.size()) {
                x.append(b(0));
                y.append(other->dValues[i]);
            } else {
                continue;
            }
            t.append(static_cast<double>(t.size()));
        }
        c->setData(t, x, y);
        c->setPen(triangleShown_ ? pen(entry->colour, 1.2) : QPen(Qt::NoPen));
        c->setScatterStyle(style);
        c->setName(legendLabel(entry->label));
        c->setVisible(true);
        c->addToLegend(legend_);
    }
    iteratePath_->setLayer(iteratePath_->layer());  // the selected run's on top
    legend_->setVisible(legend_->itemCount() > 0);
}

void KernelModelPanel::drawLinePlanes(const KernelSnapshot& s, double* lo) {
    // Plane i over β₁: β₁ S₁(αᵢ) + (1 − β₁) S₂(αᵢ), a segment from (0, S₂) to (1, S₁).
    QVector<QCPCurveData> planes;
    int t = 0;
    for (std::size_t i = 0; i + 1 < s.planes.size(); ++i) {
        const Eigen::VectorXd& p = s.planes[i];
        planes.append(QCPCurveData(t++, 0.0, p(1)));
        planes.append(QCPCurveData(t++, 1.0, p(0)));
        planes.append(QCPCurveData(t++, kNaN, kNaN));
    }
    planesCurve_->data()->set(planes, true);
    const Eigen::VectorXd& newest = s.planes.back();
    newestPlane_->setData({0, 1}, {0.0, 1.0}, {newest(1), newest(0)});
    planesDrawn_ = static_cast<int>(s.planes.size());
    // The model, max of the planes, on a fine grid (its kinks are at most one per plane).
    QVector<double> bx, mv;
    for (int i = 0; i <= 400; ++i) {
        const double b1 = i / 400.0;
        double m = -std::numeric_limits<double>::infinity();
        for (const auto& p : s.planes)
            m = std::max(m, b1 * p(0) + (1 - b1) * p(1));
        bx.append(b1);
        mv.append(m);
        *lo = std::min(*lo, m);
    }
    modelMax_->setData(bx, mv, true);
}

void KernelModelPanel::drawLine(const KernelSnapshot& s, const ObjectiveGridValues* grid) {
    triangleShown_ = false;
    map_->setVisible(false);
    scale_->setVisible(false);
    alignInset(rect_, legend_, Qt::AlignTop | Qt::AlignHCenter);
    legend_->setWrap(2);
    legend_->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    triangle_->data()->clear();
    iteratePath_->data()->clear();
    for (QCPItemText* label : vertexLabels_)
        label->setVisible(false);
    QCPAxis* x = rect_->axis(QCPAxis::atBottom);
    QCPAxis* y = rect_->axis(QCPAxis::atLeft);
    showAxes(true);
    x->setLabel(
        QString("\u03b2\u2081 = weight of %1").arg(QString::fromStdString(s.kernelLabels[0])));
    y->setLabel("D(\u03b2)");
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    drawLinePlanes(s, &lo);
    QVector<double> ix, iv;
    for (std::size_t i = 0; i < s.betaIterates.size() && i < s.dValues.size(); ++i) {
        ix.append(s.betaIterates[i](0));
        iv.append(s.dValues[i]);
        hi = std::max(hi, s.dValues[i]);
        lo = std::min(lo, s.dValues[i]);
    }
    iterateValues_->setData(ix, iv);
    if (s.lpMinimiser.size() == 2) {
        lpMinimiser_->setData({s.lpMinimiser(0)}, {s.theta});
        lo = std::min(lo, s.theta);
    } else {
        lpMinimiser_->data()->clear();
    }
    const bool evaluated = gridFor(grid, s, 2);
    if (evaluated) {
        QVector<double> ex, ev;
        for (std::size_t i = 0; i < grid->points.size(); ++i) {
            if (!std::isfinite(grid->values[i])) continue;
            ex.append(grid->points[i](0));
            ev.append(grid->values[i]);
            hi = std::max(hi, grid->values[i]);
        }
        evaluatedCurve_->setData(ex, ev, true);
    } else {
        evaluatedCurve_->data()->clear();
    }
    if (!(hi > lo)) hi = lo + std::max(1.0, std::abs(lo)) * 0.1;
    const double span = hi - lo;
    x->setRange(-0.02, 1.02);
    y->setRange(lo - 0.08 * span, hi + 0.35 * span);  // headroom for the legend
    showIn(planesCurve_, legend_, s.planes.size() > 1);
    showIn(newestPlane_, legend_, true);
    showIn(modelMax_, legend_, true);
    showIn(iterateValues_, legend_, !ix.isEmpty());
    showIn(lpMinimiser_, legend_, s.lpMinimiser.size() == 2);
    showIn(evaluatedCurve_, legend_, evaluated);
    showIn(iteratePath_, legend_, false);
}

void KernelModelPanel::drawTriangle(const KernelSnapshot& s, const ObjectiveGridValues* grid) {
    triangleShown_ = true;
    planesCurve_->data()->clear();
    newestPlane_->data()->clear();
    modelMax_->data()->clear();
    iterateValues_->data()->clear();
    evaluatedCurve_->data()->clear();
    planesDrawn_ = static_cast<int>(s.planes.size());
    // Axes mean nothing on the triangle: hidden; the colour scale sits under it.
    showAxes(false);
    // One column at the top right, above the colour scale and clear of the apex's label
    // (drawTriangleMarks); light: the triangle may reach under it.
    legend_->setBrush(colors::kLegendFillLight);
    alignInset(rect_, legend_, Qt::AlignTop | Qt::AlignRight);
    legend_->setWrap(1);
    legend_->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    fillTriangleMap(s, grid);
    drawTriangleMarks(s);
}

void KernelModelPanel::fillTriangleMap(const KernelSnapshot& s, const ObjectiveGridValues* grid) {
    // The values over the triangle: D itself where it was evaluated for this run (linear
    // interpolation on the lattice of step 1/n), else the cutting-plane model.
    const bool evaluated = gridFor(grid, s, 3) && grid->divisions > 0;
    auto value = [&](const Eigen::Vector3d& beta) {
        if (evaluated) return latticeValue(*grid, beta);
        double m = -std::numeric_limits<double>::infinity();
        for (const auto& p : s.planes)
            m = std::max(m, p.dot(beta));
        return m;
    };
    const int nx = 161, ny = 141;
    map_->data()->setSize(nx, ny);
    map_->data()->setRange(QCPRange(0, 1), QCPRange(0, kTriangleHeight));
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (int j = 0; j < ny; ++j) {
        const double b3 = static_cast<double>(j) / (ny - 1);
        for (int i = 0; i < nx; ++i) {
            const double px = static_cast<double>(i) / (nx - 1);
            const double b2 = px - 0.5 * b3;
            const double b1 = 1.0 - b2 - b3;
            double v = kNaN;
            if (b1 >= -1e-9 && b2 >= -1e-9 && b3 >= -1e-9) {
                v = value(Eigen::Vector3d(std::max(b1, 0.0), std::max(b2, 0.0), b3));
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
            map_->data()->setCell(i, j, v);
        }
    }
    scale_->setDataRange(QCPRange(lo, saturation(map_->data(), nx, ny, lo, hi)));
    // Short: the scale stands upright beside the triangle; the ticks give the values.
    scale_->setLabel(evaluated ? QString("D(\u03b2), %1 solves").arg(grid->points.size())
                               : QString("model of D(\u03b2)"));
    scale_->setVisible(true);
    map_->setVisible(true);
}

void KernelModelPanel::drawTriangleMarks(const KernelSnapshot& s) {
    triangle_->setData({0, 1, 2, 3}, {0.0, 1.0, 0.5, 0.0}, {0.0, 0.0, kTriangleHeight, 0.0});
    // The bottom corners' labels on two lines (the left one under its corner, the right one a
    // line lower), so that they never run into each other however narrow the triangle; the
    // apex's to its left, clear of the legend and the colour scale at the right.
    const QPointF corners[3] = {{-0.04, -0.03}, {1.04, -0.03}, {0.47, kTriangleHeight + 0.01}};
    const Qt::Alignment align[3] = {Qt::AlignLeft | Qt::AlignTop, Qt::AlignRight | Qt::AlignTop,
                                    Qt::AlignRight | Qt::AlignBottom};
    vertexLabels_[1]->setPadding(QMargins(0, vertexLabels_[1]->font().pointSize() + 8, 0, 0));
    for (int c = 0; c < 3; ++c) {
        vertexLabels_[c]->setText(
            QString::fromStdString(s.kernelLabels[static_cast<std::size_t>(c)]));
        vertexLabels_[c]->position->setCoords(corners[c]);
        vertexLabels_[c]->setPositionAlignment(align[c]);
        vertexLabels_[c]->setVisible(true);
    }
    QVector<double> t, px, py;
    for (std::size_t i = 0; i < s.betaIterates.size(); ++i) {
        if (s.betaIterates[i].size() != 3) continue;
        const QPointF p = trianglePoint(s.betaIterates[i]);
        t.append(static_cast<double>(i));
        px.append(p.x());
        py.append(p.y());
    }
    iteratePath_->setData(t, px, py);
    if (s.lpMinimiser.size() == 3) {
        const QPointF p = trianglePoint(s.lpMinimiser);
        lpMinimiser_->setData({p.x()}, {p.y()});
    } else {
        lpMinimiser_->data()->clear();
    }
    // Room: left and right of the triangle for the labels, right of it for the colour scale,
    // below it for two lines of labels.
    rect_->axis(QCPAxis::atBottom)->setRange(kTriangleLeft, kTriangleRight);
    rect_->axis(QCPAxis::atLeft)->setRange(kTriangleBottom, kTriangleTop);
    showIn(planesCurve_, legend_, false);
    showIn(newestPlane_, legend_, false);
    showIn(modelMax_, legend_, false);
    showIn(iterateValues_, legend_, false);
    showIn(evaluatedCurve_, legend_, false);
    showIn(iteratePath_, legend_, !t.isEmpty());
    showIn(lpMinimiser_, legend_, s.lpMinimiser.size() == 3);
    legend_->setVisible(legend_->itemCount() > 0);
}

void KernelModelPanel::fixAspect() {
    if (!triangleShown_ || rect_->width() <= 0 || rect_->height() <= 0) return;
    // The whole room at one unit per unit: the axis with room to spare widened about its
    // centre (shrinking either would cut off a corner).
    QCPAxis* x = rect_->axis(QCPAxis::atBottom);
    QCPAxis* y = rect_->axis(QCPAxis::atLeft);
    x->setRange(kTriangleLeft, kTriangleRight);
    y->setRange(kTriangleBottom, kTriangleTop);
    const double rectRatio = double(rect_->width()) / rect_->height();
    const double dataRatio = (kTriangleRight - kTriangleLeft) / (kTriangleTop - kTriangleBottom);
    if (rectRatio > dataRatio) {
        x->setScaleRatio(y, 1.0);
    } else {
        y->setScaleRatio(x, 1.0);
    }
}

}  // namespace cplab::widgets
