// SPDX-License-Identifier: GPL-3.0-or-later
// The regularisation path of block-1-norm multiple kernel learning (solver `mklpath`; Bach,
// Thibaux, Jordan 2004, seed 001; ALGORITHMS.md §5).
//
// Problem, for every λ > 0 (n examples, m base kernels Kⱼ, penalty weights dⱼ > 0):
//     min_w Σᵢ φᵢ(Σⱼ ⟨wⱼ, Φⱼ(xᵢ)⟩) + λ Σⱼ dⱼ ‖wⱼ‖,
// through its dual with a log-barrier of fixed weight μ (names as in the paper):
//     max_α G(α, λ) = −Σᵢ ψᵢ(λαᵢ) + μ Σⱼ log(dⱼ² − αᵀKⱼα),
//     squared loss  φᵢ(u) = ½(yᵢ − u)²,       ψᵢ(v) = ½v² + v yᵢ          (regression)
//     logistic loss φᵢ(u) = log(1 + e^{−yᵢu}), ψᵢ(v) = (1 + vyᵢ) log(1 + vyᵢ) − vyᵢ log(−vyᵢ)
// with kernel weights ηⱼ = 2μ / (λ sⱼ), sⱼ = dⱼ² − αᵀKⱼα, so that the corrected points solve
//     R(α, λ) = ψ'(λα) + Σⱼ ηⱼ Kⱼ α = 0      (the KKT residual; ∇_α G = −λ R).
// The predictor is f(x) = −Σⱼ ηⱼ Σᵢ αᵢ Kⱼ(xᵢ, x) (for the squared loss the targets are centred,
// and with `standardize` scaled to variance 1: predictions are mapped back, errors are in the
// targets' units; λ, the objectives and ηⱼ are on the scaled targets).
//
// Iteration (one app step = one predictor–corrector step, in σ = log λ, decreasing):
//   1. the tangent dα/dσ = −(∂F/∂α)⁻¹ ∂F/∂σ (F = ∇_α G) and, at order 2, the curvature
//      d²α/dσ² from the second directional derivative of F along (dα/dσ, 1);
//   2. predictor α + t α' + ½ t² α'' at t = −h;
//   3. corrector: damped Newton steps on G until the relative KKT residual
//      maxᵢ |Rᵢ| / (1 + |ψ'ᵢ(λαᵢ)| + Σⱼ ηⱼ (|Kⱼ| |α|)ᵢ) ≤ kkt_tolerance (R against the size of
//      the terms it sums: an absolute tolerance would fall below their rounding);
//   4. a trial that leaves the barrier's domain or needs more than max_newton steps is
//      retried with h/2; after an easy correction (≤ 3 Newton steps) h grows by 1.5, after a
//      hard one (> 6) it shrinks by 0.7.
// A kernel counts as active when its share ηⱼ tr Kⱼ of the combined kernel's trace is at least
// active_threshold (the barrier leaves every ηⱼ > 0).
// Start: β = argmin ψ (squared: βᵢ = −yᵢ; logistic: βᵢ = −yᵢ/2), λ₀ = maxⱼ (βᵀKⱼβ)^{1/2}/dⱼ;
// the barrier point at λ₀ is found by Newton from α = β/(2λ₀) in the constructor (record 0).
// Penalty weights dⱼ = (number of eigenvalues of Kⱼ ≥ tr Kⱼ / (2n))^γ: the slides' "eigenvalues
// ≥ 1/(2n)" for Kⱼ scaled to unit trace, so that dⱼ does not depend on Kⱼ's scale.
//
// Bounds: L = D(α) = −Σψᵢ(λαᵢ) (α is dual feasible), U = P(w(α)) = Σφᵢ(fᵢ) + λ Σⱼ dⱼ ηⱼ
// (αᵀKⱼα)^{1/2}, the primal at w = −ηⱼ Σᵢ αᵢ Φⱼ(xᵢ); U − L ≤ m μ up to the corrector's residual.
// Stop: λ reaches lambda_min (converged), the training error reaches 0 (logistic loss; the
// squared loss stops when the mean squared residual is below 1e-12 of the targets' variance),
// or the step budget max_iterations. The gap rules do not apply (followsPath()).
//
// Cost: every kernel is kept as a dense n × n matrix (m n² doubles, plus m n·n_test for the
// test set), and each Newton step factors an n × n matrix by Cholesky: O(m n² + n³) time. n is
// limited by memory (option memory_mb) and by the cubic factorisation, a few thousand at most.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "core/solver.h"
#include "data/dataset.h"
#include "kernel_solver.h"
#include "kernel_spec.h"
#include "mkl_path_snapshot.h"

namespace cplab {

enum class PathLoss { Squared, Logistic };

struct MklPathOptions {
    // max_iterations is the budget of path points; the gap rules are off for a path.
    StopOptions stop{0.0, 0.0, 500, 0.0};
    std::string kernels = "gaussian:0.1,1,10;poly:2;linear";  // kernel_spec.h's grammar
    std::string normalize = "trace";                          // none|diagonal|trace (kernel_spec.h)
    bool standardize = true;       // features (squared loss: targets too) to mean 0, variance 1
    std::string loss = "squared";  // squared (regression) | logistic (two classes)
    double gamma = 0.0;            // dⱼ = (#eigenvalues ≥ tr/(2n))^gamma, in [0, 1]
    double mu = 1e-3;              // barrier weight μ, in (0, 1e3]
    double lambda_min = 0.0;       // end of the path, ≥ 0 (0: λ₀ · 1e-4)
    int order = 2;                 // predictor order, 1 or 2
    double sigma_step = 0.5;       // first step in σ = log λ, > 0
    int max_newton = 15;           // corrector Newton steps per trial, ≥ 1
    double kkt_tolerance = 1e-9;   // corrector stops at a relative KKT residual ≤ this, > 0
    double active_threshold = 0.01;  // j active when ηⱼ tr Kⱼ ≥ this · Σₖ ηₖ tr Kₖ, (0, 1)
    double memory_mb = 2048.0;  // budget for the dense kernel matrices, ≥ 1

    void visit(OptionVisitor& v);
    bool isValid(std::string* why) const;
};

class MklPathSolver final : public Solver {
  public:
    // The problem: training set (real targets for the squared loss, two label values for the
    // logistic loss, mapped to −1/+1 in ascending order) and an optional held-out set.
    MklPathSolver(const KernelProblem& problem, MklPathOptions options = {});
    ~MklPathSolver() override;

    std::string name() const override { return "mklpath"; }
    std::vector<std::string> extraColumns() const override;
    std::vector<std::string> pseudocode() const override;
    bool followsPath() const override { return true; }
    // Converged means the path reached lambda_min or zero training error, not a small gap
    // (U − L stays near mμ at every point).
    bool convergesByOwnRule() const override { return true; }
    double pathEnd() const override { return lambdaMin(); }
    SummaryFields summary() const override;
    SnapshotPtr snapshot() const override;

    // The current corrected point (valid unless the options or data were rejected).
    double lambda() const;
    double lambda0() const;
    double lambdaMin() const;
    const Eigen::VectorXd& alpha() const;
    Eigen::VectorXd eta() const;
    const Eigen::VectorXd& penaltyWeights() const;  // dⱼ
    // The relative KKT residual of the current point (step 3 above).
    double kktResidual() const;
    // The targets the dual uses: centred targets (squared) or ±1 labels (logistic).
    const Eigen::VectorXd& targets() const;
    // The normalised base kernel matrices Kⱼ over the training set.
    const std::vector<Eigen::MatrixXd>& kernelMatrices() const;
    const std::vector<KernelSpec>& specs() const;
    PathLoss loss() const;
    // Every accepted point: λ and α (the start included).
    const std::vector<double>& pathLambdas() const;
    const std::vector<Eigen::VectorXd>& pathAlphas() const;

    // Work of a from-scratch solve (solveFromScratch).
    struct ColdSolve {
        bool ok = false;
        Eigen::VectorXd alpha;
        long long newtonSteps = 0;
        long long factorizations = 0;
    };
    // One solve of the same barrier problem at `lambda` from scratch, as the constructor finds
    // the path's first point at λ₀, but at `lambda` (for benchmarks and tests): damped Newton
    // (the path's corrector, same kkt_tolerance) from β/(2λ₀), which is strictly feasible for
    // every λ ≤ λ₀, with the barrier weight 10⁴μ, 10³μ, …, μ and at most `maxStepsPerStage`
    // Newton steps each. The path, its point and its counters are left as they are.
    ColdSolve solveFromScratch(double lambda, int maxStepsPerStage = 200);

  protected:
    Status doStep(IterationRecord& record) override;

  private:
    struct State;
    MklPathOptions options_;
    std::unique_ptr<State> state_;
};

}  // namespace cplab
