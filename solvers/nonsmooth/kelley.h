// SPDX-License-Identifier: GPL-3.0-or-later
// Kelley's cutting-plane method (Cheney–Goldstein 1959, Kelley 1960; ALGORITHMS.md §1,
// chapter Alg. 7.2).
//
// Problem:    minimise a convex f over a box X = [l, u], given (f(x), g ∈ ∂f(x)).
// Iteration:  (x_t, L_t) ∈ argmin { y : y ≥ f(xᵢ) + ⟨gᵢ, x − xᵢ⟩ ∀ i < t, x ∈ X }  (master LP),
//             call the oracle at x_t and add its plane.
// Bounds:     upper U_t = minᵢ f(xᵢ), lower L_t = min_X f_t (certified, see
//             CuttingPlaneModel); U_t − L_t ≤ ε stops (StopOptions).
// One step() = one master LP + one oracle call.
#pragma once

#include <memory>

#include "core/solver.h"
#include "cutting_plane_model.h"

namespace cplab {

struct KelleyOptions {
    StopOptions stop;

    void visit(OptionVisitor& v) { stop.visit(v); }
    bool isValid(std::string* why) const { return stop.isValid("KelleyOptions", why); }
};

class KelleySolver final : public Solver {
  public:
    KelleySolver(std::shared_ptr<const ConvexFunction> function, KelleyOptions options = {});

    std::string name() const override { return "kelley"; }
    std::vector<std::string> extraColumns() const override;
    std::vector<std::string> pseudocode() const override;
    SummaryFields summary() const override;
    SnapshotPtr snapshot() const override;

    const Eigen::VectorXd& bestPoint() const { return best_; }
    const std::vector<CuttingPlane>& planes() const { return model_->planes(); }
    // The plane that showed f is not convex, when the run stopped on one.
    const std::optional<PlaneAboveF>& planeAboveF() const { return planeAboveF_; }

  protected:
    Status doStep(IterationRecord& record) override;

  private:
    std::shared_ptr<const ConvexFunction> function_;
    KelleyOptions options_;
    std::unique_ptr<CuttingPlaneModel> model_;
    // Sampled on the first snapshot() call; snapshots are built on the solver's own thread.
    mutable std::shared_ptr<const FunctionView> view_;
    std::vector<Eigen::VectorXd> iterates_;
    Eigen::VectorXd best_;
    Eigen::VectorXd candidate_;  // x_t of the last master LP
    double candidateModel_ = 0.0;
    std::optional<PlaneAboveF> planeAboveF_;
};

}  // namespace cplab
