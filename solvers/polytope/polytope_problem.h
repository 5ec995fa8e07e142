// SPDX-License-Identifier: GPL-3.0-or-later
// Frank–Wolfe teaching problems (ALGORITHMS.md §9): a smooth convex quadratic
// f(x) = ½ (x − c)ᵀ Q (x − c) over a convex polygon given by its vertices, so that the
// linear minimisation oracle is "the vertex with the smallest ⟨v, ∇f⟩".
#pragma once

#include <Eigen/Dense>
#include <memory>
#include <string>
#include <vector>

#include "math/contours.h"

namespace cplab {

struct PolytopeProblem {
    std::string name;                                 // registry name, e.g. "triangle_edge"
    std::string title;                                // for display
    std::string description;                          // one or two sentences for the demo panel
    std::vector<Eigen::Vector2d> vertices;            // convex polygon, counter-clockwise
    Eigen::Matrix2d Q = Eigen::Matrix2d::Identity();  // symmetric positive definite
    Eigen::Vector2d c = Eigen::Vector2d::Zero();
    int startVertex = 0;  // x₀ = vertices[startVertex]

    double value(const Eigen::Vector2d& x) const { return 0.5 * (x - c).dot(Q * (x - c)); }
    Eigen::Vector2d gradient(const Eigen::Vector2d& x) const { return Q * (x - c); }

    // Checks the data: ≥ 3 finite vertices in convex counter-clockwise order, Q symmetric
    // positive definite. Returns false with a message otherwise.
    bool isValid(std::string* why) const;

    // The exact minimum over the polygon: c itself when it lies inside, otherwise the best of
    // the closed-form minima of f along each edge (f restricted to an edge is a 1-D quadratic).
    Eigen::Vector2d minimizer() const;
    double minimumValue() const { return value(minimizer()); }
};

std::vector<std::string> polytopeProblemNames();
// The built-in problem of that name, or nullptr.
std::shared_ptr<const PolytopeProblem> makePolytopeProblem(const std::string& name);

// f sampled over the polygon's bounding box (with a margin) and its contours, for the view.
struct PolytopeView {
    std::shared_ptr<const PolytopeProblem> problem;
    Eigen::Vector2d minimizer;
    double minimum = 0.0;
    GridSamples grid;
    std::vector<ContourLevel> contours;
};
std::shared_ptr<const PolytopeView> makePolytopeView(std::shared_ptr<const PolytopeProblem> problem,
                                                     int resolution = 121, int contourCount = 12);

}  // namespace cplab
