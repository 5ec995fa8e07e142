// SPDX-License-Identifier: GPL-3.0-or-later
// Batch Frank–Wolfe on the structural SVM dual (Lacoste-Julien, Jaggi, Schmidt & Pletscher
// 2013, "Block-coordinate Frank-Wolfe optimization for structural SVMs", ICML: Alg. 2, batch
// FW with exact line search; ALGORITHMS.md §6 and §9; seed 003, the FW gap as certificate).
//
// Problem:    min_w P(w) = λ/2‖w‖² + (1/n) Σᵢ Hᵢ(w),  Hᵢ(w) = max_y Δ(yᵢ, y) − ⟨w, ψᵢ(y)⟩,
//             and its dual over α ∈ Δ_{|Y₁|} × … × Δ_{|Yₙ|} (the same as BCFW's, bcfw.h):
//             D(α) = −λ/2‖w‖² + ℓ with w = Aα = Σᵢ Σ_y αᵢ(y) ψᵢ(y)/(λn) and
//             ℓ = bᵀα = Σᵢ Σ_y αᵢ(y) Δ(yᵢ, y)/n. Only w and ℓ are stored.
// Iteration:  the linear maximisation of ∇D over the product of simplices decomposes: its
//             corner s puts each αᵢ on ŷᵢ = argmax_y Δ(yᵢ, y) + ⟨w, Ψ(xᵢ, y)⟩ (one pass of n
//             loss-augmented decodings), with
//                 w_s = Σᵢ ψᵢ(ŷᵢ)/(λn),  ℓ_s = Σᵢ Δ(yᵢ, ŷᵢ)/n,
//                 gap = λ⟨w − w_s, w⟩ − ℓ + ℓ_s                          (FW gap)
//                 γ = clip(gap / (λ‖w − w_s‖²), 0, 1)                    (exact line search)
//                 w ← (1−γ)w + γw_s,  ℓ ← (1−γ)ℓ + γℓ_s.
//             Start: α at the truth corners, w = 0, ℓ = 0, D = 0.
// The gap:    the same pass gives P(w) = λ/2‖w‖² + (1/n) Σᵢ [Δ(yᵢ,ŷᵢ) − ⟨w, ψᵢ(ŷᵢ)⟩]
//             = λ/2‖w‖² + ℓ_s − λ⟨w, w_s⟩, hence P(w) − D(α) = λ‖w‖² − λ⟨w, w_s⟩ + ℓ_s − ℓ =
//             gap: for the SSVM the FW gap IS the duality gap (seed 003), a certificate
//             gap ≥ P(w) − P*. No evaluation pass is needed: P comes with the corner.
// Schedule:   the constructor decodes at w = 0 (P(0) and the first corner). A step() moves
//             along the stored corner, then decodes at the new w: its record reports the new
//             point, primal P(w), dual D(α), duality_gap = P(w) − D(α) (the FW gap at w), and
//             mean_step = γ of the move. So one step = one oracle pass = n oracle calls.
// Bounds:     upper U = min over passes of P(w) (bestWeights() is that w); lower L = max over
//             steps of D(α) (the line search never decreases D; the max keeps the bound
//             monotone under rounding), capped at U. Stop on U − L (StopOptions).
// Errors:     every eval_every passes the letter errors of w on the training words (and the
//             test words, when given) are evaluated: one plain decoding pass each, not counted
//             as oracle calls; NaN in the other records.
// Threads:    the decodings of a pass run on `threads` threads, the sums in word order
//             (oracle_pass.h): results do not depend on the number of threads.
// Cancelling: the cancel token is polled during the pass; a cancelled pass ends the run after
//             the move (α feasible, D valid) with primal and gap NaN.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/options.h"
#include "core/solver.h"
#include "structured/bcfw.h"
#include "structured/oracle_pass.h"
#include "structured/structured_solver.h"

namespace cplab {

class WorkerTeam;

struct FrankWolfeSsvmOptions {
    StopOptions stop;
    double lambda = 0.01;  // regularisation λ > 0
    int eval_every = 1;    // passes between evaluations of the letter errors, ≥ 1
    int threads = 1;       // threads of the decoding passes, 0..256 (0: all cores)

    void visit(OptionVisitor& v);
    bool isValid(std::string* why) const;
};

class FrankWolfeSsvmSolver final : public StructuredSolver {
  public:
    explicit FrankWolfeSsvmSolver(StructuredProblem problem, FrankWolfeSsvmOptions options = {});
    ~FrankWolfeSsvmSolver() override;

    std::string name() const override { return "fw"; }
    // primal (P(w) of the step's new w), dual (D(α)), duality_gap (the FW gap P(w) − D(α)),
    // mean_step (γ of the move), then the errors (NaN between evaluations; test −1 without
    // test words): structuredColumns().
    std::vector<std::string> extraColumns() const override;
    std::vector<std::string> pseudocode() const override;
    SummaryFields summary() const override;
    SnapshotPtr snapshot() const override;

    const FrankWolfeSsvmOptions& options() const { return options_; }
    double lambda() const { return options_.lambda; }

    // The current iterate w = Aα and ℓ = bᵀα, and the w of the best P (U = P(bestWeights())).
    const Eigen::VectorXd& weights() const { return w_; }
    double dualLoss() const { return loss_; }
    const Eigen::VectorXd& bestWeights() const { return wBest_; }
    // D(α) = −λ/2‖w‖² + ℓ; the FW gap and P(w) at the current w (from the last pass).
    double dualValue() const;
    double gap() const { return gap_; }
    double primal() const { return primal_; }

  protected:
    Status doStep(IterationRecord& record) override;
    // Evaluates the final iterate when the last step did not (eval_every).
    std::string finishRecord(IterationRecord& record, const Status& status) override;

  private:
    // The pass at w_: P, the corner and the gap; false when cancelled.
    bool decodeAt(const Interrupt* stop);

    FrankWolfeSsvmOptions options_;
    OraclePass pass_;
    Eigen::VectorXd w_, wBest_, corner_;  // w, best w, w_s of the last pass
    double loss_ = 0.0, cornerLoss_ = 0.0;
    double primal_ = 0.0, gap_ = 0.0, lastStep_ = 0.0;
    StructuredErrors lastErrors_;  // of w at the last evaluation
    int passes_ = 0;
    bool evaluatedLast_ = true;
    double evalSeconds_ = 0.0;  // the last evaluation of the errors
};

}  // namespace cplab
