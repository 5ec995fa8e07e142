// SPDX-License-Identifier: GPL-3.0-or-later
// Plot data of the cutting-plane family (Kelley, proximal bundle): the function sampled once,
// the planes and iterates of the current step, and the model drawn from them. Built on the
// solver's thread by the helpers below; widgets only draw it.
#pragma once

#include <Eigen/Dense>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "convex_function.h"
#include "core/snapshot.h"
#include "math/contours.h"

namespace cplab {

// The function itself, sampled once per run and shared by all its snapshots.
struct FunctionView {
    std::string name;
    std::string title;
    int dimension = 1;
    Box box;
    double minimum = 0.0;                // known f* over the box
    Eigen::VectorXd minimizer;           // known x*
    std::vector<double> xs, fs;          // 1-D: f at evenly spaced points of the box
    GridSamples grid;                    // 2-D: f on a grid over the box
    std::vector<ContourLevel> contours;  // 2-D: level sets of f
};

// Samples `function` (1-D: `resolution` points; 2-D: resolution × resolution grid plus
// `contourCount` quantile levels).
std::shared_ptr<const FunctionView> makeFunctionView(const ConvexFunction& function,
                                                     int resolution = 161, int contourCount = 14);

// The linearisation f(xᵢ) + ⟨gᵢ, x − xᵢ⟩ taken at point xᵢ.
struct CuttingPlane {
    Eigen::VectorXd point;
    double value = 0.0;
    Eigen::VectorXd gradient;

    double at(const Eigen::VectorXd& x) const { return value + gradient.dot(x - point); }
    // Offset b of the affine form ⟨g, x⟩ + b.
    double offset() const { return value - gradient.dot(point); }
};

// A plane that lies above f at a point where f was evaluated: impossible for a convex f (the
// subgradient inequality), so Kelley and bundle stop there (cutting_plane_model.h, lastPlaneAboveF)
// (issue 49: a typed function that is not convex is a teaching moment, not a silent wrong bound).
struct PlaneAboveF {
    std::size_t plane = 0;  // index of the plane, taken at planes[plane].point
    std::size_t point = 0;  // index of the plane whose point is where it lies above f
    double f = 0.0;         // f there
    double planeValue = 0.0;
};
// A point as short text: "0.3125" in 1-D, "(0.3125, -1.5)" otherwise (4 digits each).
std::string pointText(const Eigen::VectorXd& x);
// The PlaneAdded text of plane number `count` taken at x where f(x) = f.
std::string planeAddedText(std::size_t count, const Eigen::VectorXd& x, double f);

// max over planes at x (−∞ when there are none).
double modelValue(const std::vector<CuttingPlane>& planes, const Eigen::VectorXd& x);

// 1-D: the model max_i plane_i at each of xs.
std::vector<double> modelCurve(const std::vector<CuttingPlane>& planes,
                               const std::vector<double>& xs);

// 2-D: for each plane, the polygon (counter-clockwise vertices) of the part of the box where
// it attains the max; empty when it is nowhere the max. The polygons' shared edges are the
// model's kink lines.
std::vector<std::vector<Eigen::Vector2d>> modelCells(const std::vector<CuttingPlane>& planes,
                                                     const Box& box);

struct CuttingPlaneSnapshot final : Snapshot {
    std::shared_ptr<const FunctionView> function;
    std::vector<CuttingPlane> planes;       // in the order they were added
    std::vector<Eigen::VectorXd> iterates;  // x₀, x₁, … where the oracle was called

    // The last master problem's solution x_t and the model's value there, f_t(x_t)
    // (Kelley: the LP optimum; bundle: the prox subproblem's solution).
    Eigen::VectorXd candidate;
    double candidateModel = 0.0;
    // The model's minimum over the box, a certified lower bound (Kelley: same as candidate).
    Eigen::VectorXd modelMinimizer;
    double modelMinimum = 0.0;
    Eigen::VectorXd best;  // best point found, f(best) = record.upper
    double bestValue = 0.0;

    // Proximal bundle only.
    bool bundle = false;
    Eigen::VectorXd proxCenter;
    double nu = 0.0;
    double predictedDecrease = 0.0;
    std::vector<bool> serious;  // per iterate: it became the prox-centre (x₀ counts as one)

    // Model drawings, built with the helpers above.
    std::vector<double> modelCurve;  // 1-D, at function->xs
    std::vector<double> proxCurve;   // 1-D bundle: f_t(x) + ν/2 (x − x̂)² at function->xs
    std::vector<std::vector<Eigen::Vector2d>> modelCells;  // 2-D

    // The plane (of `planes`) that showed f is not convex, and where: the run stopped there.
    std::optional<PlaneAboveF> planeAboveF;

    std::size_t bytes() const override;
};

}  // namespace cplab
