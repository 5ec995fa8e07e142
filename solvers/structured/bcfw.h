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
// Iteration:  one step() = one pass of n block steps, i drawn n times in proportion to the
//             gap estimates ĝᵢ (sampling = "gap", the default; Osokin, Alayrac, Lukasewitz,
//             Dokania & Lacoste-Julien 2016, "Minding the gaps for block Frank-Wolfe
//             optimization of structured SVMs", ICML), in a fresh random permutation of 1..n
//             ("permutation", the BCFW paper's experiments) or drawn uniformly ("uniform", its
//             analysis). The block step of the BCFW paper (pairwise = false, cache = 0) on i:
//                 ŷ = argmax_y Δ(yᵢ, y) + ⟨w, Ψ(xᵢ, y)⟩                   (oracle)
//                 w_s = ψᵢ(ŷ)/(λn),  ℓ_s = Δ(yᵢ, ŷ)/n                      (the FW corner)
//                 gapᵢ = λ⟨wᵢ − w_s, w⟩ − ℓᵢ + ℓ_s
//                 γ = clip(gapᵢ / (λ‖wᵢ − w_s‖²), 0, 1)                  (exact line search)
//                 wᵢ ← (1−γ)wᵢ + γw_s,  ℓᵢ ← (1−γ)ℓᵢ + γℓ_s,  w and ℓ follow.
//             Start: α at the truth corners (wᵢ = 0, ℓᵢ = 0), so w = 0 and D = 0.
// Gap estimates: ĝᵢ = gapᵢ at word i's last oracle call (≥ 0 but for rounding), and after every
//             evaluation the exact gapᵢ at w of every word (from the evaluation's own oracle
//             pass: gapᵢ = λ⟨wᵢ, w⟩ − ℓᵢ + Hᵢ(w)/n; with averaging one more pass at w, counted,
//             when the sampling or the cache uses them). Σᵢ ĝᵢ estimates P(w) − D(α). With
//             sampling = gap the draws follow ĝ (a Fenwick tree, gap_sampler.h, rebuilt every
//             pass; uniform while every ĝᵢ is 0), the evaluations are the paper's full passes
//             that refresh the estimates, and a pass is also evaluated as soon as Σᵢ ĝᵢ ≤ the
//             stopping gap (StopOptions::gapTolerance(U)), so that certifying needs no fixed
//             eval_every.
// Warm-up:    (sampling = gap, warmup = 2 by default) the first `warmup` passes are the BCFW
//             paper's: a fresh random permutation, the Frank–Wolfe step above on every block
//             (with pairwise steps, on the active set: every αᵢ(y) scales by 1 − γ and the
//             corner gains γ), every corner decoded (the cache is filled, not used), so that the
//             first `warmup` passes equal the 2013 algorithm's bit for bit (same seed, same
//             permutations); gap sampling, pairwise steps and the cache take over from the exact
//             gaps of the evaluation after them. Why: at w = 0 every gap estimate is the largest
//             loss / n, so gap sampling would draw uniformly with replacement and miss about 1/e
//             of the words; a pairwise step moves only one atom's weight; a cached corner is one
//             decoded at w ≈ 0 (measured: docs/structured.md, "Per pass against the
//             2013 algorithm").
// Pairwise:   (pairwise = true, the default; the paper's BCPFW) every word keeps its active set,
//             the labellings y with αᵢ(y) > 0 and their weights (the truth yᵢ with weight 1 at
//             the start). With h(y) = Δ(yᵢ, y) + ⟨w, Ψ(xᵢ, y) − Ψ(xᵢ, yᵢ)⟩ the block gap towards
//             y is base + h(y)/n, base = λ⟨wᵢ, w⟩ − ℓᵢ = −Σ_y αᵢ(y) h(y)/n. The step moves weight
//             from the away labelling v (the active one of least h) to the corner s:
//                 d = w_s − w_v = (Ψ(xᵢ, v) − Ψ(xᵢ, s))/(λn),  slope (h(s) − h(v))/n,
//                 γ = min(slope / (λ‖d‖²), αᵢ(v))                       (exact line search)
//             and v leaves the active set when γ = αᵢ(v) (a drop step). d touches only the
//             letters where s and v differ (block_corners.h), so a step costs O(T·nnz), not
//             O(D) as the Frank–Wolfe step's rescaling of wᵢ does.
// Cache:      (cache = 4 by default, 0: off) every word keeps its last `cache` distinct
//             decodings (the oracle's and the evaluations'). Before the oracle, the cached
//             labelling of largest h is tried: it serves as the corner, without a decoding,
//             when its gap is ≥ max(F·ĝᵢ, ν·Σ ĝ/n) and > 0 (the paper's rule, F =
//             cache_block_share, ν = cache_mean_share; ĝᵢ is updated only by oracle calls, since
//             a cached gap is a lower bound of gapᵢ). The paper takes F = 0.25, ν = 0.01; the
//             defaults F = 0, ν = 0.001 let cached corners serve more often (a cheap step on a
//             recent corner is still a step; why these values: docs/structured.md, "Pass 3:
//             the cache's rule").
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
// Oracle calls: loss-augmented decodings; n at construction (P(0)), one per block step that
//             the cache does not serve, and n per evaluation (the plain decodings for the errors
//             are not counted). IterationRecord::passes counts the block steps' oracle calls / n
//             (the paper's "effective passes"; evaluation passes are the bound's cost, not the
//             method's): the passes, without the cache.
// Memory:     the n block vectors wᵢ, n·D doubles, and the labellings of the active sets and
//             caches (T ints each).
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
#include <span>
#include <string>
#include <vector>

#include "core/options.h"
#include "core/solver.h"
#include "data/portable_random.h"
#include "structured/block_corners.h"
#include "structured/chain_model.h"
#include "structured/gap_sampler.h"
#include "structured/oracle_pass.h"
#include "structured/structured_solver.h"

namespace cplab {

class WorkerTeam;

// The most decodings a word's cache may keep.
inline constexpr int kMaxBcfwCache = 64;

struct BcfwOptions {
    StopOptions stop;
    double lambda = 0.01;          // regularisation λ > 0 (BCFW paper's OCR: 0.01)
    std::string sampling = "gap";  // block order: gap | permutation | uniform (see above)
    int warmup = 2;                // with sampling = gap: passes of the 2013 algorithm first
    bool pairwise = true;          // pairwise steps within a block's active set (see above)
    int cache = 4;                 // decodings kept per word as plane candidates, 0..kMaxBcfwCache
    double cache_block_share = 0.0;   // the cache's rule (see above): share of ĝᵢ, in [0, 1]
    double cache_mean_share = 0.001;  // and of the mean estimate Σ ĝ / n, in [0, 1]
    int eval_every = 1;               // passes between evaluations of P(w), ≥ 1
    std::int64_t seed = 1;            // seed of the block order, ≥ 0
    int threads = 1;                  // threads of the evaluation passes, 0..256 (0: all cores)
    bool averaging = false;           // report the weighted average of the iterates (see above)

    void visit(OptionVisitor& v);
    bool isValid(std::string* why) const;
};

class BcfwSolver final : public StructuredSolver {
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
    // The gap estimates ĝᵢ (≥ 0 but for rounding: gapᵢ at word i's last decoding; exact after
    // every evaluation), their sum, the oracle calls of the block steps and the cache's hits.
    const std::vector<double>& gapEstimates() const { return visitGaps_; }
    double estimatedGap() const { return estimates_.total(); }
    long long blockDecodings() const { return decodings_; }
    long long cacheHits() const { return cacheHits_; }
    // Word i's active set (pairwise): its labellings and weights αᵢ(y) (they sum to 1).
    std::vector<std::pair<std::vector<int>, double>> activeSet(int i) const;

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
    // One labelling of a word in its block's active set, with its weight αᵢ(y) > 0 (pairwise).
    struct Atom {
        std::vector<int> labels;
        double weight = 0.0;
    };
    // The dual iterate at the truth corners (α = e_{yᵢ} for every word; w = 0), its active sets,
    // caches and scratch.
    void startBlocks();
    // One block step on example i; returns γ.
    double blockStep(int i);
    // The corner of block i from its cache (yHat_, its h = Δ + ⟨w, Ψ(y) − Ψ(yᵢ)⟩ in *hinge)
    // when a cached decoding's gap base + h/n is large enough (see above); false otherwise.
    bool cachedCorner(int i, double base, double truthScore, double* hinge);
    // The Frank–Wolfe step of a warm-up pass on block i towards yHat_ with pairwise steps on:
    // the 2013 step on wᵢ and ℓᵢ, every atom's weight scaled by 1 − γ, ŷ's raised by γ; ĝᵢ is
    // its gap (a warm-up pass decodes every corner). Returns γ.
    double activeFrankWolfeStep(int i);
    // Adds y to the front of word i's cache (dropping a copy of it and the oldest beyond size).
    void remember(int i, std::span<const int> y);
    // The Frank–Wolfe step on block i towards corner_ (w_s) with loss cornerLoss; returns γ
    // and sets *gap to gapᵢ before the step.
    double frankWolfeStep(int i, double cornerLoss, double* gap);
    // ĝᵢ ← gap (the sampler's weight too).
    void setEstimate(int i, double gap);
    // The block step on i with pairwise steps (its corner from the cache or the oracle, then
    // from the away atom to it); returns γ.
    double pairwiseBlockStep(int i);
    // Sets the gap estimates to the exact block gaps at w_ from the hinges Hᵢ(w) of `pass`
    // (decoded at w_), and feeds its decodings to the caches.
    void refreshGaps(const OraclePass& pass);
    // The block to step on at position k of a pass.
    int nextBlock(int k);
    bool gapSampling() const { return options_.sampling == "gap"; }
    // Recomputes w and ℓ from the blocks, then P and the errors at the reported weights (w̄
    // with averaging, else w), and the exact block gaps at w; false when P is not finite.
    // Returns the oracle passes it made in *passes (1, or 2 with averaging).
    bool evaluate(double& primal, int* passes = nullptr);
    bool averaging() const { return options_.averaging; }

    BcfwOptions options_;
    PortableRandom random_;
    Eigen::MatrixXd blocks_;         // D × n: column i is wᵢ
    std::vector<double> blockLoss_;  // ℓᵢ
    // ĝᵢ: gapᵢ at word i's last decoding (a block step's oracle call or a full pass)
    std::vector<double> visitGaps_;
    GapSampler estimates_;                   // the ĝᵢ as sampling weights, and Σᵢ ĝᵢ
    std::vector<std::vector<Atom>> active_;  // per word (pairwise only)
    std::vector<std::vector<std::vector<int>>> cache_;  // per word, newest first
    CornerDifference difference_;                       // w_s − w_v of a pairwise step
    LabellingScorer scorer_;                            // ⟨w, Ψ(xᵢ, y)⟩ of a block step
    std::vector<double> atomHinges_;                    // h of the active atoms of a step
    long long decodings_ = 0;                           // oracle calls of the block steps
    long long cacheHits_ = 0;                           // block steps served by the cache
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
    bool warmingUp_ = false;    // this pass is a warm-up pass (see above)
    double evalSeconds_ = 0.0;  // the last evaluation (P and the errors)
};

}  // namespace cplab
