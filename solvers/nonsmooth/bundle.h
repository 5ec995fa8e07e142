// SPDX-License-Identifier: GPL-3.0-or-later
// Proximal bundle method (Kiwiel 1983, Lemaréchal et al. 1995; ALGORITHMS.md §2, chapter
// §7.1.2).
//
// Problem:    minimise a convex f over a box X = [l, u], given (f(x), g ∈ ∂f(x)) — the
//             same problem as Kelley's method.
// Iteration:  x_t = argmin_{x∈X} ν/2‖x − x̂‖² + f_t(x), solved in its dual over the simplex
//             (see box_prox.h; without active bounds x_t = x̂ − Aα/ν); predicted decrease
//             δ_t = f(x̂) − (f_t(x_t) + ν/2‖x_t − x̂‖²); the oracle at x_t adds a plane;
//             serious step x̂ ← x_t if f(x̂) − f(x_t) ≥ m·δ_t, else null step.
// Bounds:     upper minᵢ f(xᵢ); lower = min over X of the model (master LP, certified);
//             stop when U − L ≤ ε (StopOptions) or, optionally, δ_t ≤ decrease_tolerance.
// ν rule:     fixed, or adaptive: halve ν after a serious step whose actual decrease is at
//             least 90 % of the predicted one (the model is trustworthy: take longer steps),
//             double it after a null step whose plane shows the model was off by more than δ_t
//             at x̂ (shorter steps); ν stays in [nu_min, nu_max]. Before both: when δ_t is
//             below a tenth of the gap U − L the prox term is holding the steps back from the
//             model's dips that keep L low, so ν is halved (otherwise, with a large ν, the
//             method can sit at x̂ with U − L stuck above ε).
#pragma once

#include <memory>

#include "core/solver.h"
#include "cutting_plane_model.h"

namespace cplab {

struct BundleOptions {
    StopOptions stop;
    double nu = 1.0;                   // stabilisation weight ν > 0 (start value if adaptive)
    std::string nu_rule = "adaptive";  // "fixed" or "adaptive"
    double nu_min = 1e-4;              // adaptive rule's range, 0 < nu_min ≤ nu ≤ nu_max
    double nu_max = 1e4;
    double m = 0.1;                   // serious-step fraction of the predicted decrease, 0 < m < 1
    double decrease_tolerance = 0.0;  // also stop when δ_t ≤ this (0: off), ≥ 0

    void visit(OptionVisitor& v) {
        stop.visit(v);
        v.real("nu", nu, "stabilisation weight nu > 0 (the start value for the adaptive rule)");
        v.choice("nu_rule", nu_rule, {"fixed", "adaptive"},
                 "keep nu fixed, or adapt it after serious/null steps");
        v.real("nu_min", nu_min, "smallest nu of the adaptive rule, > 0");
        v.real("nu_max", nu_max, "largest nu of the adaptive rule, >= nu_min");
        v.real("m", m, "serious step when the decrease is >= m times the predicted one, 0 < m < 1");
        v.real("decrease_tolerance", decrease_tolerance,
               "also stop when the predicted decrease is <= this (0: off)");
    }
    bool isValid(std::string* why) const;
};

class BundleSolver final : public Solver {
  public:
    BundleSolver(std::shared_ptr<const ConvexFunction> function, BundleOptions options = {});

    std::string name() const override { return "bundle"; }
    std::vector<std::string> extraColumns() const override;
    std::vector<std::string> pseudocode() const override;
    SummaryFields summary() const override;
    SnapshotPtr snapshot() const override;

    const Eigen::VectorXd& proxCenter() const { return center_; }
    const Eigen::VectorXd& bestPoint() const { return best_; }
    double nu() const { return nu_; }
    int seriousSteps() const { return seriousCount_; }
    // The plane that showed f is not convex, when the run stopped on one.
    const std::optional<PlaneAboveF>& planeAboveF() const { return planeAboveF_; }

  protected:
    Status doStep(IterationRecord& record) override;

  private:
    static constexpr double kStallFraction = 0.1;
    void adaptNu(double decrease, double linearisationError, const IterationRecord& record);

    std::shared_ptr<const ConvexFunction> function_;
    BundleOptions options_;
    std::unique_ptr<CuttingPlaneModel> model_;  // planes and the master LP for the bound
    Eigen::VectorXd alpha_;                     // dual weights of the last prox subproblem
    mutable std::shared_ptr<const FunctionView> view_;

    Eigen::VectorXd center_;  // prox-centre x̂
    double centerValue_ = 0.0;
    double nu_ = 1.0;
    Eigen::VectorXd candidate_;
    double candidateModel_ = 0.0;
    double predicted_ = 0.0;  // δ_t
    Eigen::VectorXd modelMinimizer_;
    Eigen::VectorXd best_;
    std::vector<Eigen::VectorXd> iterates_;
    std::vector<bool> serious_;
    int seriousCount_ = 0;
    bool lastSerious_ = true;
    std::optional<PlaneAboveF> planeAboveF_;
};

}  // namespace cplab
