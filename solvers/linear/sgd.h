// SPDX-License-Identifier: GPL-3.0-or-later
// Pegasos: primal estimated sub-gradient solver (Shalev-Shwartz, Singer, Srebro, Cotter 2011,
// "Pegasos: primal estimated sub-gradient solver for SVM", Fig. 1 and 2 (mini-batch)), here
// for every risk of Risk. A baseline of ALGORITHMS.md §3; it has NO lower bound.
//
// Problem:    min F(w) = λ/2 ‖w‖² + R(w),  R(w) = (1/m) Σᵢ ℓ(⟨w, xᵢ⟩, yᵢ), any LossKind
//             (multi-class: w = [W(:,0); W(:,1); …] as in Risk; a bias is Risk's constant
//             feature 1, regularised).
// Iteration:  one step() = one epoch: the examples in a random permutation, cut into
//             mini-batches B of `minibatch` examples (the last one may be smaller); per batch
//                 t ← t + 1,   η = 1/(λt),
//                 w ← (1 − ηλ) w − (η/|B|) Σ_{i∈B} ∂ℓᵢ(w)      (all ∂ℓᵢ taken at the same w),
//                 w ← min(1, r/‖w‖) w                            (option `projection`)
//             with per-example subgradients from the loss formulas (at a kink: hinge the zero
//             side, multi-class the lowest maximising class, as Risk). r = √(R(0)/λ): the
//             minimiser lies in that ball for every risk, since λ‖w*‖² = −⟨∇R(w*), w*⟩ ≤
//             R(0) − R(w*) ≤ R(0) by convexity; for hinge, squared hinge and multi-class
//             R(0) = 1 and r is Pegasos's 1/√λ. w is kept as s·v so that the shrink step
//             costs O(1) and an update O(nonzeros of the batch).
// Bounds:     upper U_t = min over epochs of F(w) (one full risk evaluation per epoch; the
//             best w is kept); lower L_t = −∞ always: a stochastic method certifies nothing,
//             so gap = ∞ and neither epsilon nor tol_rel can stop it; the run
//             ends at max_iterations (epochs; default 100 here) or max_seconds.
// Oracle calls (convention, as DcdSolver): 1 for F(0) at construction, then per step 1 for
//             the epoch (m per-example subgradients = one pass) + 1 for the evaluation of F;
//             so oracleCalls = 1 + 2·iteration.
// Deterministic: the permutations come from PortableRandom(seed), the same on every platform;
//             the same seed (and threads) gives the same trace, bit for bit.
#pragma once

#include <cstdint>
#include <vector>

#include "data/portable_random.h"
#include "linear/linear_svm.h"

namespace cplab {

struct SgdOptions {
    // Epochs, not updates; no gap can stop the run (lower = −∞), so the default cap is small.
    StopOptions stop{.max_iterations = 100};
    LinearSvmOptions model;  // λ or C, any risk, bias, threads (of the per-epoch F evaluation)
    bool projection = true;  // project onto the ball ‖w‖ ≤ √(R(0)/λ) after every update
    int minibatch = 1;       // examples per update, ≥ 1 (clipped to m)
    std::int64_t seed = 1;   // seed of the epochs' permutations, ≥ 0

    void visit(OptionVisitor& v);
    bool isValid(std::string* why) const;
    static bool checkGiven(const OptionValues& given, std::string* why) {
        return LinearSvmOptions::checkGiven(given, "SgdOptions", why);
    }
};

class SgdSolver final : public LinearSvmSolver {
  public:
    explicit SgdSolver(const LinearProblem& problem, SgdOptions options = {});

    std::string name() const override { return "sgd"; }
    // commonColumns(), then objective (F(w_t) of the current iterate), norm_w (‖w_t‖),
    // updates (t so far) and step_size (the last η).
    std::vector<std::string> extraColumns() const override;
    std::vector<std::string> pseudocode() const override;
    SnapshotPtr snapshot() const override;

    const SgdOptions& options() const { return sgdOptions_; }
    const Eigen::VectorXd& bestWeights() const override { return wBest_; }
    // The current iterate w_t (layout of Risk).
    Eigen::VectorXd weights() const { return scale_ * v_; }
    // Radius r of the projection ball (also reported when projection is off).
    double radius() const { return radius_; }
    long long updates() const { return t_; }

  protected:
    Status doStep(IterationRecord& record) override;
    SummaryFields familySummary() const override;

  private:
    void update(const int* batch, int size);  // one Pegasos update on the examples batch[0..size)
    void rowScores(int i, double* s) const;   // s[k] = ⟨w_k, x̃ᵢ⟩, k < K
    // ∂ℓ/∂s at scores s for example i, into c[0..K); false when it is zero.
    bool lossDerivative(int i, const double* s, double* c) const;
    // v_k += a·x̃ᵢ; returns ⟨v_k, x̃ᵢ⟩ before the addition.
    double addRow(int i, int k, double a);
    void normalise();  // folds the scale s into v

    SgdOptions sgdOptions_;
    LossKind loss_ = LossKind::Hinge;
    int d_ = 0;        // features of the data (without the bias)
    int columns_ = 0;  // d + bias: the length of one w_k
    int outputs_ = 1;  // K
    bool bias_ = false;
    Eigen::VectorXd v_;  // w = scale_·v_
    double scale_ = 1.0;
    double vNormSq_ = 0.0;       // ‖v‖², kept up to date incrementally, recomputed every epoch
    Eigen::VectorXd rowNormSq_;  // ‖x̃ᵢ‖² (with the bias feature)
    double radius_ = 0.0;
    long long t_ = 0;
    double lastEta_ = 0.0;
    std::vector<int> order_;  // the epoch's permutation
    PortableRandom random_;
    Eigen::VectorXd wBest_;
    double lastObjective_ = 0.0;       // F(w_t) at the end of the last epoch
    std::vector<double> derivatives_;  // scratch: K per batch example
    std::vector<double> scores_;       // scratch: K
};

}  // namespace cplab
