// SPDX-License-Identifier: GPL-3.0-or-later
// Stochastic subgradient method for the structural SVM (Pegasos-style; Ratliff, Bagnell &
// Zinkevich 2007, Shalev-Shwartz et al. 2011; the SSG baseline of Lacoste-Julien et al. 2013,
// Alg. 3 there; ALGORITHMS.md §6). A baseline: it has NO lower bound.
//
// Problem:    min_w P(w) = λ/2‖w‖² + (1/n) Σᵢ Hᵢ(w),  Hᵢ(w) = max_y Δ(yᵢ, y) − ⟨w, ψᵢ(y)⟩.
// Iteration:  one step() = one pass of n updates, i in a fresh random permutation of 1..n
//             (sampling = "permutation", the default) or drawn uniformly n times ("uniform").
//             Update t = 1, 2, … on example i:
//                 ŷ = argmax_y Δ(yᵢ, y) + ⟨w, Ψ(xᵢ, y)⟩        (oracle; −ψᵢ(ŷ) ∈ ∂Hᵢ(w))
//                 η = 1/(λt),  w ← w − η(λw − ψᵢ(ŷ)) = (1 − γ)w + γ ψᵢ(ŷ)/λ,  γ = 1/t.
//             The second form is the paper's: a convex combination with the "corner"
//             ψᵢ(ŷ)/λ (BCFW's w_s for n = 1), so mean_step reports the mean γ = 1/t of the
//             pass, on BCFW's scale. The first update (t = 1) sets w = ψᵢ(ŷ)/λ whatever w was.
// Averaging:  option `averaging`:
//               "weighted" (default, the paper's code's choice) w̄ ← (1 − ρ)w̄ + ρw with
//                          ρ = 2/(t + 1) after update t: iterate t weighs ∝ t, which removes
//                          the log t factor of the 1/(λt) rate (Lacoste-Julien, Schmidt & Bach
//                          2012);
//               "uniform"  ρ = 1/t: the plain running mean of the iterates;
//               "none"     report the last iterate.
//             The reported weights (evaluations, bestWeights(), errors, snapshot) are w̄, or w
//             without averaging.
// Bounds:     upper U = min over evaluations of P(reported w), every eval_every passes (one
//             more pass of n oracle calls); lower L = −∞ always: a stochastic method
//             certifies nothing, so gap = ∞ and neither epsilon nor tol_rel can stop it (the
//             same as SgdSolver, linear/sgd.h); the run ends at max_iterations (passes; default
//             100 here), max_seconds or a cancel. Columns dual and duality_gap are NaN.
// Oracle calls: loss-augmented decodings: n at construction (P(0)), n per pass, n per
//             evaluation. IterationRecord::passes counts the update passes only.
// Threads:    the updates are sequential; the evaluation passes run on `threads` threads with
//             results independent of their number.
// Cancelling: polled every 64 updates; a pass stopped part-way ends the run (Cancelled) with
//             fractional passes.
// Deterministic: the order comes from PortableRandom(seed).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/options.h"
#include "core/solver.h"
#include "data/portable_random.h"
#include "structured/bcfw.h"
#include "structured/structured_solver.h"

namespace cplab {

class WorkerTeam;

struct SsgOptions {
    // Passes, not updates; no gap can stop the run (lower = −∞), so the default cap is small.
    StopOptions stop{.max_iterations = 100};
    double lambda = 0.01;                  // regularisation λ > 0
    std::string sampling = "permutation";  // example order: permutation | uniform
    std::string averaging = "weighted";    // none | uniform | weighted (see above)
    int eval_every = 1;                    // passes between evaluations of P, ≥ 1
    std::int64_t seed = 1;                 // seed of the example order, ≥ 0
    int threads = 1;  // threads of the evaluation passes, 0..256 (0: all cores)

    void visit(OptionVisitor& v);
    bool isValid(std::string* why) const;
};

class SsgSolver final : public StructuredSolver {
  public:
    explicit SsgSolver(StructuredProblem problem, SsgOptions options = {});
    ~SsgSolver() override;

    std::string name() const override { return "ssg"; }
    // structuredColumns(): primal (P of the reported w at the evaluation, NaN without one),
    // dual (NaN), duality_gap (NaN), mean_step (mean γ = 1/t of the pass), then the errors
    // (NaN without an evaluation; test −1 without test words).
    std::vector<std::string> extraColumns() const override;
    std::vector<std::string> pseudocode() const override;
    SummaryFields summary() const override;
    SnapshotPtr snapshot() const override;

    const SsgOptions& options() const { return options_; }
    double lambda() const { return options_.lambda; }

    // The last iterate w_t, the reported weights (w̄, or w without averaging), the weights of
    // the best evaluated P (U = P(bestWeights())), and the updates so far (t).
    const Eigen::VectorXd& weights() const { return w_; }
    const Eigen::VectorXd& reportedWeights() const { return averaging() ? wAvg_ : w_; }
    const Eigen::VectorXd& bestWeights() const { return wBest_; }
    long long updates() const { return t_; }

  protected:
    Status doStep(IterationRecord& record) override;
    // Evaluates the final iterate when the last step did not (eval_every).
    std::string finishRecord(IterationRecord& record, const Status& status) override;

  private:
    double update(int i);  // one update on example i; returns γ
    bool averaging() const { return options_.averaging != "none"; }

    SsgOptions options_;
    PortableRandom random_;
    Eigen::VectorXd w_, wAvg_, wBest_;
    long long t_ = 0;
    std::vector<int> order_;
    ChainWorkspace ws_;
    std::vector<int> yHat_;
    double lastPrimal_ = 0.0, lastMeanStep_ = 0.0;
    StructuredErrors lastErrors_;  // of w at the last evaluation
    int passes_ = 0;
    bool evaluatedLast_ = true;
    double evalSeconds_ = 0.0;  // the last evaluation (P and the errors)
};

}  // namespace cplab
