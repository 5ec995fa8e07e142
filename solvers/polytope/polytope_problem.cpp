// SPDX-License-Identifier: GPL-3.0-or-later
#include "polytope_problem.h"

#include <cmath>
#include <limits>

#include "core/number_text.h"
#include "nonsmooth/cutting_plane_model.h"
#include "nonsmooth/typed_function.h"
#include "polygon.h"

namespace cplab {

namespace {

double cross(const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    return cross2(a, b);
}

bool inside(const std::vector<Eigen::Vector2d>& polygon, const Eigen::Vector2d& x) {
    return insidePolygon(polygon, x);
}

PolytopeProblem triangleEdge() {
    PolytopeProblem p;
    p.name = "triangle_edge";
    p.title = "|x - c|^2 / 2 over a triangle, c outside";
    p.description =
        "The minimiser lies inside an edge of the triangle: plain Frank-Wolfe zig-zags between "
        "the edge's two vertices and converges at rate O(1/t); away steps drop the third "
        "vertex and converge linearly.";
    p.vertices = {{0, 0}, {4, 0}, {1, 3}};
    p.c = {3.2, 2.6};
    p.startVertex = 0;
    return p;
}

PolytopeProblem squareInterior() {
    PolytopeProblem p;
    p.name = "square_interior";
    p.title = "(x - c)' Q (x - c) / 2 over a square, c inside";
    p.description =
        "The minimiser is interior: every Frank-Wolfe step heads for a corner, so iterates "
        "approach c slowly and the FW gap certifies how far they are.";
    p.vertices = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    p.Q << 1.0, 0.3, 0.3, 2.0;
    p.c = {0.3, 0.2};
    p.startVertex = 2;
    return p;
}

PolytopeProblem hexagonVertex() {
    PolytopeProblem p;
    p.name = "hexagon_vertex";
    p.title = "|x - c|^2 / 2 over a hexagon, c beyond a vertex";
    p.description =
        "The minimiser is a vertex of the hexagon: the linear oracle finds it at once and "
        "Frank-Wolfe converges in a few steps.";
    for (int k = 0; k < 6; ++k) {
        const double angle = M_PI / 3.0 * k;
        p.vertices.emplace_back(std::cos(angle), std::sin(angle));
    }
    p.c = {2.5, 0.4};
    p.startVertex = 3;
    return p;
}

}  // namespace

bool PolytopeProblem::isValid(std::string* why) const {
    auto fail = [&](const std::string& message) {
        if (why) *why = "PolytopeProblem '" + name + "': " + message;
        return false;
    };
    if (vertices.size() < 3) return fail("needs at least 3 vertices");
    for (const auto& v : vertices) {
        if (!v.allFinite()) return fail("vertices must be finite");
    }
    for (std::size_t k = 0; k < vertices.size(); ++k) {
        const Eigen::Vector2d& a = vertices[k];
        const Eigen::Vector2d& b = vertices[(k + 1) % vertices.size()];
        const Eigen::Vector2d& d = vertices[(k + 2) % vertices.size()];
        if (cross(b - a, d - b) <= 0) {
            return fail("vertices must form a strictly convex polygon in counter-clockwise order");
        }
    }
    if (!Q.allFinite() || std::abs(Q(0, 1) - Q(1, 0)) > 1e-12 || Q(0, 0) <= 0 ||
        Q.determinant() <= 0) {
        return fail("Q must be symmetric positive definite");
    }
    if (!c.allFinite()) return fail("c must be finite");
    if (startVertex < 0 || startVertex >= static_cast<int>(vertices.size())) {
        return fail("startVertex out of range");
    }
    return true;
}

double PolytopeProblem::typedValue(const Eigen::Vector2d& x) const {
    return typed->evaluateChecked(x, nullptr, nullptr);
}

Eigen::Vector2d PolytopeProblem::typedGradient(const Eigen::Vector2d& x) const {
    Eigen::VectorXd g;
    typed->evaluateChecked(x, &g, nullptr);
    return g.size() == 2 ? Eigen::Vector2d(g) : Eigen::Vector2d::Constant(std::nan(""));
}

double PolytopeProblem::evaluate(const Eigen::Vector2d& x, Eigen::Vector2d* gradient,
                                 std::string* error) const {
    if (!typed) {
        if (error) error->clear();
        if (gradient) *gradient = this->gradient(x);
        return value(x);
    }
    Eigen::VectorXd g;
    const double f = typed->evaluateSmooth(x, &g, error);
    if (gradient) *gradient = g.size() == 2 ? Eigen::Vector2d(g) : Eigen::Vector2d::Constant(f);
    return f;
}

double PolytopeProblem::minimumValue() const {
    const Eigen::Vector2d x = minimizer();
    return x.allFinite() ? value(x) : std::nan("");
}

Eigen::Vector2d PolytopeProblem::minimizer() const {
    if (typed) return computedMinimizer;
    if (inside(vertices, c)) return c;
    // On the boundary: minimise the 1-D quadratic f(a + s(b − a)), s ∈ [0, 1], per edge.
    Eigen::Vector2d best = vertices.front();
    double bestValue = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < vertices.size(); ++k) {
        const Eigen::Vector2d& a = vertices[k];
        const Eigen::Vector2d d = vertices[(k + 1) % vertices.size()] - a;
        const double curvature = d.dot(Q * d);
        const double s = std::clamp(-d.dot(Q * (a - c)) / curvature, 0.0, 1.0);
        const Eigen::Vector2d x = a + s * d;
        if (value(x) < bestValue) {
            bestValue = value(x);
            best = x;
        }
    }
    return best;
}

namespace {

// Planes of f at 157 points of the polygon (convex combinations of its centroid and points
// around its boundary), each checked against f at the others (nonsmooth/cutting_plane_model.h):
// the first plane found above f, as text, or empty. *evaluable is false when f cannot be
// evaluated at one of them (then no minimiser is computed either).
std::string sampledNonConvexity(const PolytopeProblem& p, const Eigen::Vector2d& centroid,
                                bool* evaluable) {
    std::vector<CuttingPlane> planes;
    *evaluable = true;
    const int n = static_cast<int>(p.vertices.size());
    for (int i = 0; i < 13; ++i) {
        // Along the boundary, at a fraction of the way around.
        const double around = n * (i / 13.0);
        const int k = static_cast<int>(around);
        const Eigen::Vector2d& a = p.vertices[static_cast<std::size_t>(k % n)];
        const Eigen::Vector2d& b = p.vertices[static_cast<std::size_t>((k + 1) % n)];
        const Eigen::Vector2d edge = a + (around - k) * (b - a);
        for (int j = i == 0 ? 0 : 1; j < 13; ++j) {
            const Eigen::Vector2d x = centroid + (j / 12.0) * (edge - centroid);
            Eigen::VectorXd g;
            std::string error;
            const double f = p.typed->evaluateChecked(x, &g, &error);
            if (!std::isfinite(f)) {
                *evaluable = false;
                return {};
            }
            planes.push_back({x, f, g});
            if (const auto above = lastPlaneAboveF(planes))
                return planeAboveFText(planes, *above) + " (points sampled in the polygon)";
        }
    }
    return {};
}

// The Frank–Wolfe gap max_v ⟨x − v, g⟩ over the vertices.
double fwGapAt(const PolytopeProblem& p, const Eigen::Vector2d& x, const Eigen::Vector2d& g) {
    double gap = 0.0;
    for (const auto& v : p.vertices)
        gap = std::max(gap, (x - v).dot(g));
    return gap;
}

}  // namespace

Eigen::Vector2d computeTypedMinimizer(const PolytopeProblem& p) {
    const Eigen::Vector2d none = Eigen::Vector2d::Constant(std::nan(""));
    if (!p.typed || p.vertices.size() < 3) return none;
    Eigen::Vector2d x = Eigen::Vector2d::Zero();
    double diameter = 0.0;
    for (const auto& v : p.vertices) {
        x += v / static_cast<double>(p.vertices.size());
        for (const auto& w : p.vertices)
            diameter = std::max(diameter, (v - w).norm());
    }
    bool evaluable = true;
    if (!sampledNonConvexity(p, x, &evaluable).empty() || !evaluable) return none;
    Eigen::Vector2d g = p.gradient(x);
    double f = p.value(x);
    double step = diameter / std::max(g.norm(), 1e-300);
    for (int k = 0; k < 50000 && std::isfinite(f) && g.allFinite(); ++k) {
        if (fwGapAt(p, x, g) <= 1e-11 * (1 + std::abs(f))) return x;
        // Backtracking: the step is accepted when f lies below its quadratic model there.
        Eigen::Vector2d y = x;
        double fy = f;
        for (int halvings = 0; halvings < 80; ++halvings, step *= 0.5) {
            y = projectOntoPolygon(p.vertices, x - step * g);
            fy = p.value(y);
            if (fy <= f + g.dot(y - x) + (y - x).squaredNorm() / (2 * step)) break;
        }
        if (!std::isfinite(fy) || (y - x).norm() <= 1e-15 * (1 + x.norm())) break;
        x = y;
        f = fy;
        g = p.gradient(x);
        step *= 2;  // a longer step next time, found too long by backtracking
    }
    const bool close =
        std::isfinite(f) && g.allFinite() && fwGapAt(p, x, g) <= 1e-8 * (1 + std::abs(f));
    return close ? x : none;
}

std::shared_ptr<const PolytopeProblem> makeTypedPolytopeProblem(const std::string& expression,
                                                                const std::string& polygon,
                                                                std::string* why) {
    auto p = std::make_shared<PolytopeProblem>();
    if (!parsePolygon(polygon, &p->vertices, why)) return nullptr;
    Box box;
    box.lower = box.upper = p->vertices.front();
    for (const auto& v : p->vertices) {
        box.lower = box.lower.cwiseMin(v);
        box.upper = box.upper.cwiseMax(v);
    }
    p->typed = TypedFunction::parse(expression, box, why);
    if (!p->typed) return nullptr;
    for (std::size_t k = 0; k < p->vertices.size(); ++k) {
        std::string error;
        if (std::isnan(p->typed->evaluateChecked(p->vertices[k], nullptr, &error))) {
            const std::string named =
                expression.size() <= 60 ? expression : expression.substr(0, 57) + "...";
            if (why) *why = "function '" + named + "': " + error + ", a vertex of the polygon";
            return nullptr;
        }
    }
    p->name = "typed_polygon";
    p->title = expression;
    const std::string shown =
        expression.size() <= 60 ? expression : expression.substr(0, 57) + "...";
    p->description = "f = " + shown + " over a polygon of " + std::to_string(p->vertices.size()) +
                     " vertices, from (" + formatShort(p->vertices[0].x()) + ", " +
                     formatShort(p->vertices[0].y()) +
                     "): exact gradients; the minimiser x* is computed (no closed form).";
    p->startVertex = 0;
    Eigen::Vector2d centroid = Eigen::Vector2d::Zero();
    for (const auto& v : p->vertices)
        centroid += v / static_cast<double>(p->vertices.size());
    bool evaluable = true;
    p->notConvex = sampledNonConvexity(*p, centroid, &evaluable);
    p->computedMinimizer = computeTypedMinimizer(*p);
    return p;
}

std::vector<std::string> polytopeProblemNames() {
    return {"triangle_edge", "square_interior", "hexagon_vertex"};
}

std::shared_ptr<const PolytopeProblem> makePolytopeProblem(const std::string& name) {
    if (name == "triangle_edge") return std::make_shared<PolytopeProblem>(triangleEdge());
    if (name == "square_interior") return std::make_shared<PolytopeProblem>(squareInterior());
    if (name == "hexagon_vertex") return std::make_shared<PolytopeProblem>(hexagonVertex());
    return nullptr;
}

std::shared_ptr<const PolytopeView> makePolytopeView(std::shared_ptr<const PolytopeProblem> problem,
                                                     int resolution, int contourCount) {
    auto view = std::make_shared<PolytopeView>();
    view->problem = problem;
    view->minimizer = problem->minimizer();
    view->minimizerComputed = !problem->isQuadratic();
    view->minimum = view->minimizer.allFinite() ? problem->value(view->minimizer) : std::nan("");
    Eigen::Vector2d lo = problem->vertices.front(), hi = lo;
    for (const auto& v : problem->vertices) {
        lo = lo.cwiseMin(v);
        hi = hi.cwiseMax(v);
    }
    if (problem->isQuadratic()) {  // c in view: where the contours centre
        lo = lo.cwiseMin(problem->c);
        hi = hi.cwiseMax(problem->c);
    }
    const Eigen::Vector2d margin = 0.15 * (hi - lo);
    lo -= margin;
    hi += margin;
    const int n = std::max(resolution, 2);
    GridSamples& grid = view->grid;
    grid.nx = grid.ny = n;
    grid.x0 = lo.x();
    grid.y0 = lo.y();
    grid.dx = (hi.x() - lo.x()) / (n - 1);
    grid.dy = (hi.y() - lo.y()) / (n - 1);
    grid.values.resize(static_cast<std::size_t>(n) * n);
    for (int j = 0; j < n; ++j) {
        for (int i = 0; i < n; ++i) {
            grid.values[static_cast<std::size_t>(j) * n + i] =
                problem->value({grid.x(i), grid.y(j)});
        }
    }
    for (double level : quantileLevels(grid, contourCount)) {
        view->contours.push_back(contourLevel(grid, level));
    }
    return view;
}

}  // namespace cplab
