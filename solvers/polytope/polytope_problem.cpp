// SPDX-License-Identifier: GPL-3.0-or-later
#include "polytope_problem.h"

#include <cmath>
#include <limits>

namespace cplab {

namespace {

double cross(const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    return a.x() * b.y() - a.y() * b.x();
}

bool inside(const std::vector<Eigen::Vector2d>& polygon, const Eigen::Vector2d& x) {
    for (std::size_t k = 0; k < polygon.size(); ++k) {
        const Eigen::Vector2d& a = polygon[k];
        const Eigen::Vector2d& b = polygon[(k + 1) % polygon.size()];
        if (cross(b - a, x - a) < 0) return false;
    }
    return true;
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

Eigen::Vector2d PolytopeProblem::minimizer() const {
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
    view->minimum = problem->value(view->minimizer);
    Eigen::Vector2d lo = problem->vertices.front(), hi = lo;
    for (const auto& v : problem->vertices) {
        lo = lo.cwiseMin(v);
        hi = hi.cwiseMax(v);
    }
    lo = lo.cwiseMin(problem->c);
    hi = hi.cwiseMax(problem->c);
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
