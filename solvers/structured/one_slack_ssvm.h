// SPDX-License-Identifier: GPL-3.0-or-later
// The 1-slack cutting-plane method for the structural SVM (Joachims, Finley & Yu 2009,
// "Cutting-plane training of structural SVMs", Mach. Learn. 77: Alg. 3/4, the 1-slack
// formulation; ALGORITHMS.md §6), run as BMRM (Teo et al. 2010, ALGORITHMS.md §3) on the
// structured risk, with BMRM's PlaneSet (linear/plane_set.h) as the working set and its QP.
//
// Problem:    min_w P(w) = λ/2‖w‖² + R(w),  R(w) = (1/n) Σᵢ Hᵢ(w),
//             Hᵢ(w) = max_y Δ(yᵢ, y) − ⟨w, ψᵢ(y)⟩,  ψᵢ(y) = Ψ(xᵢ, yᵢ) − Ψ(xᵢ, y).
// The plane:  a pass of loss-augmented decodings at w_t gives ŷᵢ with Hᵢ(w_t) = Δ(yᵢ, ŷᵢ) −
//             ⟨w_t, ψᵢ(ŷᵢ)⟩. Each Hᵢ is a max of functions affine in w, so for every w
//                 R(w) ≥ (1/n) Σᵢ [Δ(yᵢ, ŷᵢ) − ⟨w, ψᵢ(ŷᵢ)⟩] = ⟨a, w⟩ + b,
//                 a = −(1/n) Σᵢ ψᵢ(ŷᵢ)  (a subgradient of R at w_t),
//                 b = (1/n) Σᵢ Δ(yᵢ, ŷᵢ) = R(w_t) − ⟨a, w_t⟩,
//             with equality at w_t: BMRM's plane (ALGORITHMS.md §3) is exactly the 1-slack
//             constraint ξ ≥ (1/n) Σᵢ Δ(yᵢ, ŷᵢ) − ⟨w, (1/n) Σᵢ ψᵢ(ŷᵢ)⟩ of Joachims et al.
//             (their joint labelling (ŷ₁ … ŷₙ), ξ the one slack). PlaneSet's permanent plane
//             a = 0, b = 0 is the joint labelling ŷᵢ = yᵢ, i.e. ξ ≥ 0.
// Iteration:  the reduced problem min_w λ/2‖w‖² + max_k (⟨a_k, w⟩ + b_k), the 1-slack QP over
//             the working set, is solved in its dual over the simplex by PlaneSet (SimplexQp,
//             warm started): w_{t+1} = −Σ α_k a_k / λ; then one pass of n decodings at w_{t+1}
//             gives P(w_{t+1}) and the next plane. One step() = one QP + one oracle pass. The
//             constructor makes the pass at w₀ = 0 (P(0) and the first plane).
// Bounds:     upper U = min over passes of P(w_t) (bestWeights()); lower L = the reduced
//             problem's dual value: ≤ min_w λ/2‖w‖² + R_t(w) ≤ P* since R_t ≤ R (weak
//             duality, whatever the QP's accuracy); kept as a running max (planes dropped by
//             inactive_limit or aggregated by max_planes leave valid, possibly smaller,
//             bounds). P(w_{t+1}) − L_{t+1} = R(w_{t+1}) − ξ_{t+1} (up to the QP's accuracy)
//             is the violation of the new constraint, so U − L ≤ ε implies Joachims et al.'s
//             stopping rule "no constraint violated by more than ε".
// Columns:    primal (P(w) of the step's pass), dual (the reduced dual value), duality_gap
//             (primal − dual), mean_step (NaN: no step size), train_error, test_error (NaN
//             between evaluations, every eval_every passes), planes (stored), active_planes
//             (α > 0).
// Oracle calls: n per pass (n at construction).
// Threads:    the decodings of a pass run on `threads` threads, the plane's sums in word
//             order (oracle_pass.h): results do not depend on the number of threads.
// Cancelling: polled during the pass; a cancelled pass ends the run after the QP, with the
//             QP's lower bound and primal NaN.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/options.h"
#include "core/solver.h"
#include "linear/plane_set.h"
#include "structured/bcfw.h"
#include "structured/oracle_pass.h"
#include "structured/structured_solver.h"

namespace cplab {

class WorkerTeam;

struct OneSlackOptions {
    StopOptions stop;
    double lambda = 0.01;  // regularisation λ > 0
    PlaneOptions planes;   // inactive_limit, max_planes, qp_tolerance (linear/plane_set.h)
    int eval_every = 1;    // passes between evaluations of the letter errors, ≥ 1
    int threads = 1;       // threads of the decoding passes, 0..256 (0: all cores)

    void visit(OptionVisitor& v);
    bool isValid(std::string* why) const;
};

class OneSlackSolver final : public StructuredSolver {
  public:
    explicit OneSlackSolver(StructuredProblem problem, OneSlackOptions options = {});
    ~OneSlackSolver() override;

    std::string name() const override { return "oneslack"; }
    // structuredColumns() (mean_step NaN), then planes and active_planes.
    std::vector<std::string> extraColumns() const override;
    std::vector<std::string> pseudocode() const override;
    SummaryFields summary() const override;
    SnapshotPtr snapshot() const override;

    const OneSlackOptions& options() const { return options_; }
    double lambda() const { return options_.lambda; }

    // w_t (the last oracle point, the reduced problem's minimiser) and the w of the best P.
    const Eigen::VectorXd& weights() const { return w_; }
    const Eigen::VectorXd& bestWeights() const { return wBest_; }
    const PlaneSet& planes() const { return *planes_; }

  protected:
    Status doStep(IterationRecord& record) override;
    // Evaluates the final iterate when the last step did not (eval_every).
    std::string finishRecord(IterationRecord& record, const Status& status) override;

  private:
    // The pass at w_: P(w_) and the next plane; false when cancelled.
    bool decodeAndCut(const Interrupt* stop);

    OneSlackOptions options_;
    std::unique_ptr<PlaneSet> planes_;
    OraclePass pass_;
    Eigen::VectorXd w_, wBest_, a_;
    double primal_ = 0.0, dual_ = 0.0;
    StructuredErrors lastErrors_;  // of w at the last evaluation
    int passes_ = 0;
    bool evaluatedLast_ = true;
    double evalSeconds_ = 0.0;  // the last evaluation of the errors
};

}  // namespace cplab
