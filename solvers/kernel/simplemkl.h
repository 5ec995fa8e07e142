// SPDX-License-Identifier: GPL-3.0-or-later
// SimpleMKL (solver `simplemkl`; Rakotomamonjy, Bach, Canu, Grandvalet 2008): reduced-gradient
// descent on β over the simplex, with ∂J/∂βₖ = −½ αᵀ Y Kₖ Y α, a descent direction that keeps
// the simplex (the reduced gradient against the largest βₖ; components at 0 with a positive
// reduced gradient stay at 0), the maximal step along it found as in the paper (moving to
// each βₖ that reaches 0 in turn while J decreases), then a line search on that step (each
// trial one warm-started SVM solve): by default Armijo's rule whose first trial is the
// minimiser of the parabola through J(0), J′(0) = Σₖ Sₖ Dₖ and J(γ_max), about two SVMs per
// step; line_search=golden is the paper's golden section. direction=newton (the default) takes
// instead the step to the minimiser over the simplex of J's second-order model (gradient and
// Hessian at the SVM's solution, mkl_second_order.h; Chapelle & Rakotomamonjy 2008), with a
// Levenberg term adapted step by step, and Armijo's rule from the full step: a few SVMs per
// step, and 6-17 steps where the reduced gradient took hundreds (200-600 Gaussians over
// continuous features). One app iteration is one descent step. Bounds: U = J(β_t); L = the value of
// the cutting-plane LP of SILP over the planes of every SVM solved so far (each SVM solution α
// gives the plane Σₖ βₖ Sₖ(α) ≤ D(β) on the whole simplex), at least min_k S_k(α_t), the paper's
// duality-gap bound; stop on tol_rel.
#pragma once

#include "kernel_solver.h"

namespace cplab {

struct SimpleMklOptions {
    // Up to 1,000 descent steps: with hundreds of kernels the reduced gradient (direction =
    // gradient) zeroes β's one SVM at a time (german with 200 kernels: about 200 steps to
    // tol_rel = 1e-3).
    StopOptions stop{0.0, 1e-3, 1000, 0.0};
    KernelOptions kernel{"gaussian:0.1,1,10;poly:2;linear", 1.0, "trace", kMklCacheMb};
    double line_search_tol = 0.1;  // golden section stops at this fraction of the step, (0, 1)
    std::string line_search = "armijo";  // armijo (quadratic first trial) or golden
    // newton: the step to the minimiser over the simplex of J's second-order model at β_t
    // (mkl_second_order.h), then Armijo from the full step; gradient: the paper's reduced
    // gradient with its maximal step and line_search.
    std::string direction = "newton";

    void visit(OptionVisitor& v);
    bool isValid(std::string* why) const;
};

class SimpleMklSolver final : public KernelSvmSolver {
  public:
    SimpleMklSolver(const KernelProblem& problem, SimpleMklOptions options = {});
    ~SimpleMklSolver() override;

    std::string name() const override { return "simplemkl"; }
    std::vector<std::string> pseudocode() const override;
    SnapshotPtr snapshot() const override;
    KernelClassifier classifier() const override;
    Eigen::VectorXd weights() const override;

    // Warm start after the training set was edited (app/registry/warm_start.h), before the first
    // step: β of `previous` is kept and the first SVM starts from its α carried over (carriedAlpha;
    // previousIndex[i] is the index in `previous`'s training set of example i, or −1). False,
    // and nothing changed, when the runs do not fit (*why says why).
    bool warmStartFrom(const SimpleMklSolver& previous, const std::vector<int>& previousIndex,
                       std::string* why);

  protected:
    Status doStep(IterationRecord& record) override;

  private:
    struct State;
    SimpleMklOptions simpleOptions_;
    std::unique_ptr<State> state_;
};

}  // namespace cplab
