// SPDX-License-Identifier: GPL-3.0-or-later
// Block-coordinate Frank–Wolfe on the structural SVM dual (Lacoste-Julien, Jaggi, Schmidt &
// Pletscher 2013, "Block-coordinate Frank-Wolfe optimization for structural SVMs", ICML:
// Alg. 4, BCFW for the structural SVM with its exact line search; ALGORITHMS.md §6 and §9;
// seed 003).
//
// Problem:    min_w P(w) = λ/2‖w‖² + (1/n) Σᵢ Hᵢ(w),
//             Hᵢ(w) = max_y Δ(yᵢ, y) − ⟨w, ψᵢ(y)⟩,  ψᵢ(y) = Ψ(xᵢ, yᵢ) − Ψ(xᵢ, y)
//             (ChainModel: Ψ, Δ and the loss-augmented Viterbi oracle).
//             Its dual over α ∈ Δ_{|Y₁|} × … × Δ_{|Yₙ|}:  D(α) = −λ/2‖Aα‖² + bᵀα with
//             w = Aα = Σᵢ wᵢ, wᵢ = Σ_y αᵢ(y) ψᵢ(y)/(λn), and ℓ = bᵀα = Σᵢ ℓᵢ,
//             ℓᵢ = Σ_y αᵢ(y) Δ(yᵢ, y)/n. Only the wᵢ (D numbers each) and ℓᵢ are stored; α never
//             is.
// Iteration:  one step() = one pass of n block steps, i in a fresh random permutation of
//             1..n (sampling = "permutation", the default) or drawn uniformly n times
//             ("uniform", the paper's analysis). Block step on i:
//                 ŷ = argmax_y Δ(yᵢ, y) + ⟨w, Ψ(xᵢ, y)⟩                   (oracle)
//                 w_s = ψᵢ(ŷ)/(λn),  ℓ_s = Δ(yᵢ, ŷ)/n                      (the FW corner)
//                 gapᵢ = λ⟨wᵢ − w_s, w⟩ − ℓᵢ + ℓ_s
//                 γ = clip(gapᵢ / (λ‖wᵢ − w_s‖²), 0, 1)                  (exact line search)
//                 wᵢ ← (1−γ)wᵢ + γw_s,  ℓᵢ ← (1−γ)ℓᵢ + γℓ_s,  w and ℓ follow.
//             Start: α at the truth corners (wᵢ = 0, ℓᵢ = 0), so w = 0 and D = 0.
// Bounds:     every eval_every passes an evaluation pass (n more oracle calls) computes
//             P(w) at the current w; w and ℓ are then recomputed as Σᵢ wᵢ, Σᵢ ℓᵢ so that
//             rounding drift never separates w from α. upper U = min over evaluations of P(w)
//             (bestWeights() is that w); lower L = max over passes of D(α) (the exact line
//             search never decreases D; the max keeps the bound monotone under rounding),
//             capped at U. The current duality gap P(w) − D(α) = Σᵢ gapᵢ(w) (the certificate
//             of seed 003: ≥ P(w) − P*) is the duality_gap column. The evaluation also
//             decodes the training words (and the test words, when given) with the current w
//             for the letter errors: one more pass each.
// Averaging:  with `averaging` the solver also keeps the weighted average of its iterates,
//             w̄ ← (1 − ρ)w̄ + ρw and ℓ̄ ← (1 − ρ)ℓ̄ + ρℓ with ρ = 2/(k + 2) after block step k
//             (k = 0, 1, …; iterate k weighs ∝ k), the paper's §4 and its code's default,
//             which "made a big difference in test error". ᾱ, the same average of the α's, is
//             feasible with w̄ = Aᾱ and ℓ̄ = bᵀᾱ, so P(w̄) is an upper and D(ᾱ) a lower bound.
//             Then the evaluation, bestWeights(), the errors and the primal/dual/duality_gap
//             columns are those of the averaged pair (w̄, ᾱ); the lower bound is the larger
//             of D(α) and D(ᾱ).
// Stopping:   StopOptions on U − L (absolute epsilon, relative tol_rel).
// Oracle calls: loss-augmented decodings; n at construction (P(0)), n per pass and n per
//             evaluation (the plain decodings for the errors are not counted).
//             IterationRecord::passes counts the BCFW passes only (the paper's "effective passes";
//             evaluation passes are the bound's cost, not the method's).
// Memory:     the n block vectors wᵢ, n·D doubles (OCR fold 0: 626 × 4,030 × 8 B = 20 MB).
// Threads:    the block steps are sequential by nature; the evaluation passes run on
//             `threads` threads with results independent of their number.
// Cancelling: the cancel token and the time limit are polled before every block step (one
//             word may cost seconds with thousands of labels); a pass stopped part-way ends
//             the run (Cancelled or TimeLimit) with the blocks stepped so far: α stays
//             feasible after every block step, so D(α) is still a valid lower bound, and
//             passes is fractional. The final iterate is then evaluated unless that would take
//             longer than max(1 s, max_seconds / 10) (finalEvaluationAffordable).
// Deterministic: the order of the blocks comes from PortableRandom(seed).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/options.h"
#include "core/solver.h"
#include "data/portable_random.h"
#include "structured/chain_model.h"
#include "structured/oracle_pass.h"

namespace cplab {

class WorkerTeam;

struct BcfwOptions {
    StopOptions stop;
    double lambda = 0.01;                  // regularisation λ > 0 (BCFW paper's OCR: 0.01)
    std::string sampling = "permutation";  // block order: permutation | uniform
    int eval_every = 1;                    // passes between evaluations of P(w), ≥ 1
    std::int64_t seed = 1;                 // seed of the block order, ≥ 0
    int threads = 1;         // threads of the evaluation passes, 0..256 (0: all cores)
    bool averaging = false;  // report the weighted average of the iterates (see above)

    void visit(OptionVisitor& v);
    bool isValid(std::string* why) const;
};

class BcfwSolver final : public Solver {
  public:
    explicit BcfwSolver(StructuredProblem problem, BcfwOptions options = {});
    ~BcfwSolver() override;

    std::string name() const override { return "bcfw"; }
    // primal (P(w) at the pass's evaluation, NaN without one), dual (D(α)), duality_gap
    // (P(w) − D(α), NaN without an evaluation), mean_step (mean γ of the pass), then
    // the error columns of structuredColumns() (the letter errors and the test word error of the
    // current w at the evaluation, NaN without one; the test errors −1 without test words). With
    // averaging, primal, dual, duality_gap and the errors are those of the averaged pair (w̄, ᾱ).
    std::vector<std::string> extraColumns() const override;
    std::vector<std::string> pseudocode() const override;
    SummaryFields summary() const override;
    SnapshotPtr snapshot() const override;

    const BcfwOptions& options() const { return options_; }
    const ChainModel& model() const { return *model_; }
    const StructuredProblem& problem() const { return problem_; }
    double lambda() const { return options_.lambda; }

    // The current primal iterate w = Σᵢ wᵢ, and the reported weights (w, or w̄ with
    // averaging) of the best evaluated P (U = P(bestWeights())).
    const Eigen::VectorXd& weights() const { return w_; }
    const Eigen::VectorXd& bestWeights() const { return wBest_; }
    // With averaging: w̄ = Aᾱ and ℓ̄ = bᵀᾱ (else w and ℓ), and the block steps so far.
    const Eigen::VectorXd& averagedWeights() const { return averaging() ? wAvg_ : w_; }
    double averagedLoss() const { return averaging() ? lossAvg_ : loss_; }
    long long blockSteps() const { return blockSteps_; }
    // Block i of the dual iterate: wᵢ = A_i αᵢ (D entries) and ℓᵢ = bᵢᵀαᵢ.
    Eigen::Ref<const Eigen::VectorXd> blockWeights(int i) const { return blocks_.col(i); }
    double blockLoss(int i) const { return blockLoss_[static_cast<std::size_t>(i)]; }

    // D(α) = −λ/2‖w‖² + ℓ of the current iterate; D(ᾱ) of the averaged one (D(α) without
    // averaging).
    double dualValue() const;
    double averagedDualValue() const;
    // P(w) = λ/2‖w‖² + (1/n) Σᵢ Hᵢ(w) by n loss-augmented decodings (not counted as oracle
    // calls of the run).
    double primalValue(const Eigen::VectorXd& w) const;
    // gapᵢ = λ⟨wᵢ − w_s, w⟩ − ℓᵢ + ℓ_s at the current w for every block (n decodings, not
    // counted); their sum is P(w) − D(α).
    std::vector<double> blockGaps() const;

  protected:
    Status doStep(IterationRecord& record) override;
    // Evaluates the final iterate when the last step did not (eval_every).
    std::string finishRecord(IterationRecord& record, const Status& status) override;

  private:
    // One block step on example i; returns γ.
    double blockStep(int i);
    // Recomputes w and ℓ from the blocks, then P and the errors at the reported weights (w̄
    // with averaging, else w); false when P is not finite.
    bool evaluate(double& primal);
    bool averaging() const { return options_.averaging; }

    StructuredProblem problem_;
    std::shared_ptr<const ChainModel> model_;  // problem_.train
    BcfwOptions options_;
    std::unique_ptr<WorkerTeam> team_;  // evaluation threads (null: one thread)
    PortableRandom random_;
    Eigen::MatrixXd blocks_;         // D × n: column i is wᵢ
    std::vector<double> blockLoss_;  // ℓᵢ
    std::vector<double> visitGaps_;  // gapᵢ when word i was last visited (NaN: not yet)
    Eigen::VectorXd w_, wBest_;
    double loss_ = 0.0;         // ℓ = Σᵢ ℓᵢ
    Eigen::VectorXd wAvg_;      // w̄ (averaging only)
    double lossAvg_ = 0.0;      // ℓ̄
    long long blockSteps_ = 0;  // k
    std::vector<int> order_;
    // Scratch of a block step.
    ChainWorkspace ws_;
    std::vector<int> yHat_;
    Eigen::VectorXd corner_;  // w_s
    double lastPrimal_ = 0.0, lastDual_ = 0.0, lastMeanStep_ = 0.0;
    double lastGap_ = 0.0;         // P(w) − D(α) at the last evaluation
    StructuredErrors lastErrors_;  // of the reported weights at the last evaluation
    int passes_ = 0;
    bool evaluatedLast_ = true;
    double evalSeconds_ = 0.0;  // the last evaluation (P and the errors)
};

}  // namespace cplab
