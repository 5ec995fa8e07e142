// SPDX-License-Identifier: GPL-3.0-or-later
// Frank–Wolfe teaching problems (ALGORITHMS.md §9): a smooth convex f over a convex polygon
// given by its vertices, so that the linear minimisation oracle is "the vertex with the
// smallest ⟨v, ∇f⟩". f is either
//   * the quadratic ½ (x − c)ᵀ Q (x − c) of the built-in problems, with its exact minimiser over
//     the polygon and Frank–Wolfe's exact line search in closed form, or
//   * a function the user typed (issue 49; nonsmooth/typed_function.h: GiNaC's parser, our own
//     evaluation tree with exact gradients, the same as Kelley's and the bundle method's),
//     evaluated in smooth mode: a kink (abs at 0, a tie of max or min), sqrt or log at 0 or a
//     domain error is a message naming the point. Its minimiser has no closed form: it is
//     computed (computeTypedMinimizer) and labelled so.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "math/contours.h"

namespace cplab {

class TypedFunction;

struct PolytopeProblem {
    std::string name;                                 // registry name, e.g. "triangle_edge"
    std::string title;                                // for display
    std::string description;                          // one or two sentences for the demo panel
    std::vector<Eigen::Vector2d> vertices;            // convex polygon, counter-clockwise
    Eigen::Matrix2d Q = Eigen::Matrix2d::Identity();  // symmetric positive definite
    Eigen::Vector2d c = Eigen::Vector2d::Zero();
    int startVertex = 0;  // x₀ = vertices[startVertex]
    // The user's f (Q and c unused), or null for the quadratic.
    std::shared_ptr<const TypedFunction> typed;
    // A typed f's minimiser over the polygon as computed (computeTypedMinimizer); NaN when it
    // could not be computed to 1e-10 (f is not convex, or not evaluable everywhere).
    Eigen::Vector2d computedMinimizer = Eigen::Vector2d::Constant(std::nan(""));
    // A typed f seen not to be convex on points sampled in the polygon before any run: the
    // plane above f, as text ("f is not convex: the plane from (x, y) = ..."); Frank–Wolfe stops
    // there at its first step. Empty otherwise.
    std::string notConvex;

    bool isQuadratic() const { return !typed; }
    // f(x) (a typed f: NaN where it cannot be evaluated; kinks allowed: for drawing).
    double value(const Eigen::Vector2d& x) const {
        return typed ? typedValue(x) : 0.5 * (x - c).dot(Q * (x - c));
    }
    Eigen::Vector2d gradient(const Eigen::Vector2d& x) const {
        return typed ? typedGradient(x) : Eigen::Vector2d(Q * (x - c));
    }
    // f(x) and ∇f(x) for Frank–Wolfe: the quadratic's as above; a typed f's in smooth mode,
    // NaN and *error (naming the point) at a kink or where it cannot be evaluated.
    double evaluate(const Eigen::Vector2d& x, Eigen::Vector2d* gradient, std::string* error) const;

    // Checks the data: ≥ 3 finite vertices in convex counter-clockwise order, Q symmetric
    // positive definite. Returns false with a message otherwise.
    bool isValid(std::string* why) const;

    // The minimiser over the polygon. The quadratic's is exact: c itself when it lies inside,
    // otherwise the best of the closed-form minima of f along each edge (f restricted to an
    // edge is a 1-D quadratic). A typed f's is computedMinimizer (maybe NaN).
    Eigen::Vector2d minimizer() const;
    double minimumValue() const;

  private:
    double typedValue(const Eigen::Vector2d& x) const;
    Eigen::Vector2d typedGradient(const Eigen::Vector2d& x) const;
};

// The problem 'typed_polygon': `expression` over the polygon `polygon` (polygon.h), started
// at its first vertex typed, with its minimiser computed. Null and *why ("function 'log(x)':
// log of a non-positive number: ... at (x, y) = (0, 0), vertex 1 of the polygon") when either
// cannot be read or f cannot be evaluated at a vertex.
std::shared_ptr<const PolytopeProblem> makeTypedPolytopeProblem(const std::string& expression,
                                                                const std::string& polygon,
                                                                std::string* why);

// A reference minimiser of a typed f over the problem's polygon: projected gradient with a
// backtracking (Armijo) step from the polygon's centroid until the Frank–Wolfe gap, which
// bounds f(x) − f* for a convex f, is below 1e-11·(1 + |f(x)|). NaN when f cannot be evaluated
// on the way, when f is seen not to be convex (a plane at one of 157 sampled points of the
// polygon above f at another), or when the gap stays above 1e-8·(1 + |f(x)|).
Eigen::Vector2d computeTypedMinimizer(const PolytopeProblem& problem);

std::vector<std::string> polytopeProblemNames();
// The built-in problem of that name, or nullptr.
std::shared_ptr<const PolytopeProblem> makePolytopeProblem(const std::string& name);

// f sampled over the polygon's bounding box (with a margin) and its contours, for the view.
struct PolytopeView {
    std::shared_ptr<const PolytopeProblem> problem;
    Eigen::Vector2d minimizer;  // NaN when not known (a typed f's could not be computed)
    double minimum = 0.0;
    bool minimizerComputed = false;  // a typed f's: computed, not known in closed form
    GridSamples grid;
    std::vector<ContourLevel> contours;
};
std::shared_ptr<const PolytopeView> makePolytopeView(std::shared_ptr<const PolytopeProblem> problem,
                                                     int resolution = 121, int contourCount = 12);

}  // namespace cplab
