// SPDX-License-Identifier: GPL-3.0-or-later
// Frank–Wolfe (conditional gradient) on a polygon (ALGORITHMS.md §9, seed 003).
//
// Problem:    minimise a smooth convex f over a convex polygon M = conv(vertices): a built-in
//             quadratic or a typed function (polytope_problem.h).
// Iteration:  s_t = argmin_{v ∈ vertices} ⟨v, ∇f(x_t)⟩ (linear minimisation oracle);
//             FW gap g_t = ⟨x_t − s_t, ∇f(x_t)⟩ ≥ f(x_t) − f*;
//             x_{t+1} = x_t + γ_t (s_t − x_t), γ_t = 2/(t+2) ("standard") or the line search
//             on [0, 1] ("line_search"): exact in closed form for a quadratic, for a typed f
//             bisection on the slope ⟨∇f(x_t + γ d_t), d_t⟩ to the last bit of γ.
// Typed f:    a kink or a domain error where f is evaluated, a slope that falls along a step
//             (negative curvature) or a plane at one iterate above f at another stop the run
//             with the point named (numerical failure): its bounds would certify nothing.
//             variant "away" (Guélat–Marcotte; Lacoste-Julien–Jaggi 2015) keeps x as a convex
//             combination of active vertices and may instead step away from the active vertex
//             a_t with the largest ⟨v, ∇f⟩, along x_t − a_t with γ ≤ λ_a/(1 − λ_a) (a "drop" step
//             when γ hits the bound); it needs the line search.
// Bounds:     upper U = minₜ f(x_t); lower L = maxₜ f(x_t) − g_t (certified by convexity);
//             stop when U − L ≤ ε (StopOptions).
// One step() = one gradient, one oracle call, one move.
#pragma once

#include <memory>
#include <optional>

#include "core/solver.h"
#include "frank_wolfe_snapshot.h"
#include "nonsmooth/cutting_plane_view.h"
#include "polytope_problem.h"

namespace cplab {

struct FrankWolfeOptions {
    StopOptions stop;
    std::string step = "line_search";  // "standard" (2/(t+2)) or "line_search" (exact)
    std::string variant = "plain";     // "plain" or "away" (away steps; needs line_search)

    void visit(OptionVisitor& v) {
        stop.visit(v);
        v.choice("step", step, {"standard", "line_search"},
                 "step size: 2/(t+2), or exact line search on the segment");
        v.choice("variant", variant, {"plain", "away"},
                 "plain Frank-Wolfe, or with away steps (requires step=line_search)");
    }
    bool isValid(std::string* why) const;
};

class FrankWolfeSolver final : public Solver {
  public:
    FrankWolfeSolver(std::shared_ptr<const PolytopeProblem> problem,
                     FrankWolfeOptions options = {});

    std::string name() const override { return "frank_wolfe"; }
    std::vector<std::string> extraColumns() const override;
    std::vector<std::string> pseudocode() const override;
    SummaryFields summary() const override;
    SnapshotPtr snapshot() const override;

    const Eigen::Vector2d& point() const { return x_; }
    // FW gap at the start of the last step (≥ f(x) − f* at that point).
    double lastFwGap() const { return fwGap_; }

  protected:
    Status doStep(IterationRecord& record) override;

  private:
    int linearOracle(const Eigen::Vector2d& gradient) const;
    bool chooseAway(const Eigen::Vector2d& gradient, Eigen::Vector2d* direction, double* maxStep);
    std::optional<std::string> searchLine(const Eigen::Vector2d& d, double slope, double maxStep,
                                          double* gamma) const;
    void updateWeights(int s, double gamma, double maxStep);
    Status checkConvex(const Eigen::Vector2d& gradient, double f);
    // Notes the away, drop or vertex-added event of the step just taken.
    void noteStepEvents(bool fwVertexWasActive);

    std::shared_ptr<const PolytopeProblem> problem_;
    FrankWolfeOptions options_;
    mutable std::shared_ptr<const PolytopeView> view_;
    Eigen::Vector2d x_ = Eigen::Vector2d::Zero();
    std::vector<double> weights_;  // x = Σ weights_[v] vertices[v] (away variant)
    std::vector<Eigen::Vector2d> iterates_;
    Eigen::Vector2d lastGradient_ = Eigen::Vector2d::Zero();
    int fwVertex_ = -1, awayVertex_ = -1;
    bool awayStep_ = false, dropStep_ = false;
    double stepSize_ = 0.0, fwGap_ = 0.0;
    std::vector<CuttingPlane> planes_;  // a typed f's planes at the iterates (checkConvex)
};

}  // namespace cplab
