// SPDX-License-Identifier: GPL-3.0-or-later
// MKL by cutting planes on the simplex (solver `silp`; Sonnenburg et al. 2006, §7.3 of the
// chapter, ALGORITHMS.md §4). Iteration t:
//   1. solve the SVM for the composite kernel Σ βₖ Kₖ, warm-started from the previous α;
//      D(β_t) = its dual value; the plane's coefficients are S_k(α_t);
//   2. add the row θ ≥ Σₖ βₖ S_k(α_t) to the master LP min θ over (β ∈ simplex, θ), re-solve
//      warm by Clp (solvers/math/lp_master);
//   3. β_{t+1}, θ_{t+1} = the LP's solution.
// Bounds: U = min_i D(βᵢ), L = θ_t (monotone). Stop on tol_rel: 1 − θ_t / min_i D(βᵢ) ≤ tol_rel.
// Final classifier: α of the best βᵢ with b averaged over the free SVs (eq. 7.27).
//
// Interleaved SILP (solver `silp_interleaved`; Sonnenburg et al., JMLR 2006, §4.2, Shogun's
// "interleaved" MKL): the SVM is not solved to optimality at each β. A step runs one chunk of
// SMO pair updates at β_t from where the last chunk stopped; its α is feasible (0 ≤ α ≤ C,
// yᵀα = 0), and for every feasible α and every β, D(β) = max_α′ Σₖ βₖ S_k(α′) ≥ Σₖ βₖ S_k(α):
// the plane of an inexact α still lies below D everywhere, so θ stays a valid lower bound.
// (Its height at β_t, D_βt(α), is a lower bound of D(β_t), not an upper bound.) The plane
// enters the LP, and β moves, only when it cuts: when D_βt(α) − θ exceeds half the stopping
// gap (else β_t may be optimal and SMO continues there). Upper bound: the SMO's primal
// objective P_βt(α, b) ≥ D(β_t) after every chunk, and D_βt(α) after a chunk that converged,
// as `silp` has it. A converged chunk whose plane does not cut has closed the gap.
//
// master=level (both solvers; Xu, Jin, King & Lyu, NIPS 2008): the LP still gives θ_t (the
// lower bound L), but the next β is not its minimiser (Kelley's method, which jumps between
// vertices and edges of the simplex) but the projection of β_t onto the level set
// {β ∈ Δ : maxᵢ Sᵢᵀβ ≤ ℓ}, ℓ = L + λ (U − L), λ = kLevelFraction (level_projection.h).
// The planes and both bounds are those of `lp`; only where the next SVM is solved changes.
// Interleaved, a plane enters when its height at β_t exceeds ℓ (it cuts β_t off the level
// set) and half the stopping gap above θ, or when the chunk converged. λ adapts: a plane
// whose height at β_t is above U (β_t is worse than the best point: the step overshot) moves
// ℓ towards U, (1 − λ) ← kLevelOvershoot (1 − λ), and a solved SVM with D(β_t) < U (a new
// best point) moves it back, (1 − λ) ← kLevelNewBest (1 − λ), within [kLevelFraction,
// kLevelFractionMax]. master=level is the default of both solvers since issue 50.
#pragma once

#include "kernel_solver.h"

namespace cplab {

// The level method's ℓ = L + kLevelFraction (U − L) (master=level): 1/(2 + √2) ≈ 0.293, the
// value that minimises the level method's complexity bound (Nesterov, Introductory Lectures on
// Convex Optimization, 2004, §3.3.3). Interleaved, against 0.5: planes 14 → 12 on sonar (19
// kernels), 7 → 6 on ionosphere (17), 33 → 38 on german (200) (bench_mkl, docs/kernel.md).
inline constexpr double kLevelFraction = 0.29289321881345248;
// λ adapts between kLevelFraction and kLevelFractionMax (silp.cpp, adaptLevelFraction).
// Chosen on generated sets (docs/kernel.md, "The level fraction λ adapts"): interleaved, on
// ringnorm-like data with 200 kernels 338/336/241 planes → 116/141/132 (2.6/2.1/1.3 s →
// 0.7/0.9/0.7 s), few-valued and mixed features 95/256 → 44/111; on 2-D sets with 5-9 kernels
// the planes stay at 4-15 (xor 11/10 → 12/13), where a constant 0.9 took 9-66. Exact, on the
// ringnorm-like sets 370/329/259 SVMs → 212/149/145 (Kelley's method: 947/787/691).
inline constexpr double kLevelFractionMax = 0.9;
inline constexpr double kLevelOvershoot = 0.7;
inline constexpr double kLevelNewBest = 1.5;
// master=level: at most this many ascent steps per projection. The projection only chooses
// the next β (the bounds do not depend on it), and an unfinished one is moved into the level
// set; on german with 200 kernels the ascent to its tolerance took 2,000 steps per plane late
// in the run (40 % of the time) for no fewer planes (30 at 2,000 steps, 26 at 200).
inline constexpr int kLevelProjectionSteps = 200;

struct SilpOptions {
    // Up to 2,000 SVMs (200 before issue 50): with hundreds of kernels Kelley's method takes
    // about 1,000 (947 on ringnorm-like data with 200 kernels, seed 1; master=level with the
    // adaptive λ 145-212 on seeds 1-3).
    StopOptions stop{0.0, 1e-3, 2000, 0.0};
    KernelOptions kernel{"gaussian:0.1,1,10;poly:2;linear", 1.0, "trace", kMklCacheMb};
    // lp: Kelley's method (the LP's minimiser); level: the level method, the default since
    // issue 50 (4-6× fewer SVMs with hundreds of kernels on continuous features; the demos
    // whose stories show the LP's jumps ask for lp).
    std::string master = "level";

    void visit(OptionVisitor& v);
    bool isValid(std::string* why) const;
};

class SilpSolver : public KernelSvmSolver {
  public:
    SilpSolver(const KernelProblem& problem, SilpOptions options = {});
    ~SilpSolver() override;

    std::string name() const override { return "silp"; }
    std::vector<std::string> pseudocode() const override;
    SnapshotPtr snapshot() const override;
    KernelClassifier classifier() const override;
    Eigen::VectorXd weights() const override;

    // The planes so far: coefficients (S_1(αᵢ), …, S_K(αᵢ)) and where they were taken.
    const std::vector<Eigen::VectorXd>& planes() const;
    const std::vector<Eigen::VectorXd>& betaIterates() const;
    // The level fraction λ now (master=level; kLevelFraction until the first plane adapts it).
    double levelFraction() const;
    // Warm start from a run of the same kernels on the same training set with a C no larger
    // than this one's (a grid of C values solved in increasing order), before the first step:
    // the first SVM is solved at `previous`'s best β from its α (feasible here: 0 ≤ α ≤
    // C_previous ≤ C), and its planes start the master LP (S_k(α) does not depend on C, and
    // an α feasible for the smaller C is feasible for this one, so every plane stays a lower
    // bound on D). False, and nothing changed, when the runs do not fit (*why says why).
    bool warmStart(const SilpSolver& previous, std::string* why = nullptr);
    // Warm start after the training set was edited (app/registry/warm_start.h), before the first
    // step: previousIndex[i] is the index in `previous`'s training set of example i, or −1. Every
    // plane of `previous` came from an SVM solution αᵢ; carried over (carriedAlpha) it is a
    // feasible α of the new dual, and its plane S_k(α) on the new kernels is a row of the
    // master LP (a lower bound of the new D(β)); the first SVM is solved at `previous`'s best
    // β from its α carried over. False, and nothing changed, when the runs do not fit.
    bool warmStartFrom(const SilpSolver& previous, const std::vector<int>& previousIndex,
                       std::string* why);

  protected:
    // Interleaved when chunkSteps > 0: that many SMO pair updates per step.
    SilpSolver(const KernelProblem& problem, SilpOptions options, int chunkSteps);
    Status doStep(IterationRecord& record) override;

  private:
    struct State;
    Status exactStep(IterationRecord& record);
    Status interleavedStep(IterationRecord& record);
    // The record's bounds and columns after a plane was added and the LP solved (or not).
    Status planeAdded(IterationRecord& record, const Eigen::VectorXd& S, double D);
    // The next β after the LP was solved: its minimiser, or (master=level) the projection of β_t
    // onto the level set of the model at ℓ = θ + kLevelFraction (U − θ).
    Eigen::VectorXd nextBeta(const Eigen::VectorXd& lpBeta);
    static std::vector<std::string> exactPseudocode();
    static std::vector<std::string> interleavedPseudocode();
    bool levelMaster() const { return silpOptions_.master == "level"; }
    // ℓ for the bounds now (θ when U is not known yet).
    double levelValue() const;
    // master=level: λ after a plane of height D at β_t entered (silp.h); `converged`: D is
    // D(β_t) itself (an SVM solved to the end), not a lower bound of it.
    void adaptLevelFraction(bool converged, double D, double upperBefore);
    SilpOptions silpOptions_;
    int chunkSteps_ = 0;  // 0: exact SVM solves (`silp`)
    std::unique_ptr<State> state_;
};

struct InterleavedSilpOptions {
    StopOptions stop{0.0, 1e-3, 100000, 0.0};
    KernelOptions kernel{"gaussian:0.1,1,10;poly:2;linear", 1.0, "trace", kMklCacheMb};
    int chunk_steps = 0;  // SMO pair updates per step, ≥ 0; 0: automatic (m / 2, at least 50)
    // As SilpOptions::master (level by default, here since issue 34: fewer planes and less
    // time than lp on ionosphere (17 kernels), sonar (19) and german (200; 4×), bench_mkl).
    std::string master = "level";

    void visit(OptionVisitor& v);
    bool isValid(std::string* why) const;
};

class InterleavedSilpSolver final : public SilpSolver {
  public:
    InterleavedSilpSolver(const KernelProblem& problem, InterleavedSilpOptions options = {});
    std::string name() const override { return "silp_interleaved"; }
};

}  // namespace cplab
