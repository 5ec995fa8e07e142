// SPDX-License-Identifier: GPL-3.0-or-later
// Dual coordinate descent for linear SVMs (Hsieh, Chang, Lin, Keerthi, Sundararajan 2008,
// "A dual coordinate descent method for large-scale linear SVM", ICML: Alg. 1 with the random
// permutation and shrinking of its §3; the algorithm of LIBLINEAR -s 3 (L1-loss) and -s 1
// (L2-loss)). A baseline of ALGORITHMS.md §3.
//
// Problem:    the C-form dual of  P(w) = ½‖w‖² + C Σᵢ ℓ(yᵢ⟨w, xᵢ⟩),  C = 1/(λm):
//                 max_α  D(α) = Σᵢ αᵢ − ½‖w(α)‖² − ½ Dᵢᵢ Σᵢ αᵢ²,   w(α) = Σᵢ αᵢ yᵢ xᵢ,
//                 0 ≤ αᵢ ≤ U,
//             hinge (L1-loss):          U = C, Dᵢᵢ = 0;
//             squared_hinge (L2-loss):  U = ∞, Dᵢᵢ = 1/(2C).
//             A bias is the Risk's constant feature 1 (regularised, LIBLINEAR -B 1).
// Iteration:  one step() = one epoch: for i in a random permutation of the active set,
//                 G = yᵢ⟨w, xᵢ⟩ − 1 + Dᵢᵢ αᵢ                     (∂(−D)/∂αᵢ)
//                 αᵢ ← min(max(αᵢ − G / (‖xᵢ‖² + Dᵢᵢ), 0), U),   w ← w + Δαᵢ yᵢ xᵢ;
//             shrinking (option, default on) drops αᵢ stuck at a bound as LIBLINEAR does.
//             LIBLINEAR stops when the projected-gradient range over the active set is ≤ eps;
//             here that test only triggers un-shrinking (all i active again), with a
//             threshold τ that starts at LIBLINEAR's default 0.1 and drops tenfold at each
//             trigger; the run itself stops on the duality gap below.
// Bounds:     λ-form, F = λP. After each epoch w is recomputed from α (so that D is the dual
//             value of the α held, not of a drifted w), then
//                 upper U_t = min over epochs of F(w)   (the best w is kept: bestWeights()),
//                 lower L_t = max over epochs of λ·D(α) (certified: D(α) ≤ min P by weak
//                                                        duality for every feasible α),
//             capped at U_t (at the optimum λD may round a few ulps above F; the gap stays ≥ 0).
//             The current duality gap F(w_t) − λD(α_t) is its own column.
// Stopping:   StopOptions on U − L (absolute epsilon and relative tol_rel).
// Oracle calls (convention): 1 for F(0) at construction, then per step 1 for the epoch (a
//             pass over the active examples) + 1 for the primal evaluation F(w) through Risk;
//             so oracleCalls = 1 + 2·iteration.
// Deterministic: the permutations come from PortableRandom(seed), the same on every platform.
#pragma once

#include <cstdint>
#include <vector>

#include "data/portable_random.h"
#include "linear/linear_svm.h"

namespace cplab {

struct DcdOptions {
    StopOptions stop;
    // λ or C, bias, threads; risk must be hinge (L1-loss) or squared_hinge (L2-loss).
    LinearSvmOptions model;
    bool shrinking = true;  // drop variables stuck at a bound from the epochs (LIBLINEAR's)
    std::int64_t seed = 1;  // seed of the epochs' permutations, ≥ 0

    void visit(OptionVisitor& v);
    bool isValid(std::string* why) const;
    static bool checkGiven(const OptionValues& given, std::string* why) {
        return LinearSvmOptions::checkGiven(given, "DcdOptions", why);
    }
};

class DcdSolver final : public LinearSvmSolver {
  public:
    explicit DcdSolver(const LinearProblem& problem, DcdOptions options = {});

    std::string name() const override { return "dcd"; }
    // commonColumns(), then primal (F(w_t)), dual (λD(α_t)), duality_gap (their difference),
    // active_set (variables in the last epoch after shrinking), support_vectors (αᵢ > 0).
    std::vector<std::string> extraColumns() const override;
    std::vector<std::string> pseudocode() const override;
    SnapshotPtr snapshot() const override;

    const DcdOptions& options() const { return dcdOptions_; }
    // w of the best primal value so far (bias last when options().model.bias), F(wBest) = U.
    const Eigen::VectorXd& bestWeights() const override { return wBest_; }
    // The current dual iterate α (m entries, in [0, boxBound()]) and w(α) = Σ αᵢ yᵢ xᵢ
    // (d + bias entries).
    const Eigen::VectorXd& alpha() const { return alpha_; }
    Eigen::VectorXd weights() const;
    // U of the box: C for hinge, +∞ for squared_hinge.
    double boxBound() const { return boxBound_; }
    // The dual objective D(α) of the C-form (lower bound of min P); λ·D is the λ-form bound.
    double dualObjectiveC() const;

    // Warm start after the training set was edited (app/registry/warm_start.h), before the first
    // step: example i takes α of example previousIndex[i] of `previous` (−1: a new example, α = 0),
    // clipped to this run's box [0, U] (U = C follows m), then scaled by the t ∈ [0, 1] that
    // maximises D(tα) (never below D(0)), and w(α) is rebuilt; the first
    // record holds F(w(α)) and the certified λD(α). False, and nothing changed, when the runs
    // do not fit (*why says why).
    bool warmStartFrom(const DcdSolver& previous, const std::vector<int>& previousIndex,
                       std::string* why);

  protected:
    Status doStep(IterationRecord& record) override;
    SummaryFields familySummary() const override;

  private:
    double margin(int i) const;        // yᵢ⟨w, xᵢ⟩ with the current w
    void addToW(int i, double scale);  // w += scale·xᵢ
    void recomputeW();                 // w ← Σ αᵢ yᵢ xᵢ
    void epoch();                      // one pass of coordinate updates
    double primal(Eigen::VectorXd& wFull, double* trainError);  // F(w) (one oracle call)
    // The iteration-0 record at the current α (one oracle call for F(w(α))).
    void setStartRecord();

    DcdOptions dcdOptions_;
    double boxBound_ = 0.0;  // U
    double diag_ = 0.0;      // Dᵢᵢ
    int d_ = 0;              // features of the data (without the bias)
    bool bias_ = false;
    Eigen::VectorXd alpha_;
    Eigen::VectorXd w_;       // feature part of w(α)
    double wBias_ = 0.0;      // bias part of w(α)
    Eigen::VectorXd qd_;      // ‖xᵢ‖² (+1 with bias) + Dᵢᵢ
    std::vector<int> index_;  // a permutation of 0..m−1; the first activeSize_ are active
    int activeSize_ = 0;
    double pgMaxOld_ = 0.0, pgMinOld_ = 0.0;  // last epoch's projected-gradient extremes
    double unshrinkTolerance_ = 0.1;          // τ
    bool unshrunk_ = false;                   // the last epoch ended by un-shrinking
    PortableRandom random_;
    Eigen::VectorXd wBest_;
    double lastPrimal_ = 0.0;
    double lastDual_ = 0.0;  // λ·D(α) after the last epoch
};

}  // namespace cplab
