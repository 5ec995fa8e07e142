// SPDX-License-Identifier: GPL-3.0-or-later
// The reduced-set baselines of SLMC (ALGORITHMS.md §7; Wu, Schölkopf, Bakır 2006, eq. 4, §4.1
// and Table 1): solvers `rs` and `mrs`.
//
// Problem. The full SVM f(x) = Σᵢ cᵢ k(xᵢ, x) + b, cᵢ = αᵢyᵢ over its support vectors, has the
// weight vector w = Σᵢ cᵢ φ(xᵢ). The reduced set (RS) method (Burges 1996; Schölkopf et al.
// 1999; Schölkopf & Smola 2002, ch. 18) replaces w by N_z terms Σ_u β_u φ(z_u) minimising
//
//     ρ(Z, β) = ‖w − Σ_u β_u φ(z_u)‖² = cᵀK^{xx}c − 2βᵀK^{zx}c + βᵀK^zβ        (eq. 4)
//
// whose minimiser for fixed Z is β = (K^z)⁻¹K^{zx}c (eq. 47).
//
// Iteration (one step() = one expansion vector added; the run converges after N_z steps).
// Greedy construction (Schölkopf et al. 1999, §4): with the residual Ψ = w − Σ_{j<m} β_j φ(z_j)
// = Σ_p a_p φ(p_p) over the points P = [SVs; Z] (a = [c; −β]), the next z maximises the
// squared projection ⟨Ψ, φ(z)⟩² / k(z, z) = (Σ_p a_p k(p_p, z))² for a Gaussian kernel. Its
// stationarity condition Σ_p a_p k(p_p, z)(p_p − z) = 0 gives the fixed-point iteration
//
//     z ← Σ_p a_p k(p_p, z) p_p / Σ_p a_p k(p_p, z)                      (Gaussian only)
//
// run from `restarts` random support vectors plus the support vector at which |Ψ| is
// largest; the start whose fixed point projects most is kept. Then all β are refitted by
// eq. 47 (so ρ never increases from one step to the next). K^z's eigenvalues are floored as in
// slmc_objective.h (eigen_floor) so that a near-duplicate z cannot blow β up.
//
//   rs    β from eq. 47 and the full SVM's bias b: f(x) = Σ_u β_u k(z_u, x) + b.
//   mrs   the same Z, with β and b of the exact SVM restricted to span{φ(z_u)} (eq. 45; i.e.
//         SLMC's W(Z) at RS's Z), solved by SMO (warm-started) after every added vector.
//
// Record. rs: upper = ρ (what it minimises), lower = 0. mrs: upper = the restricted SVM's
// primal (≥ W(Z)), lower = the full SVM's dual (≤ every restricted SVM's optimum). oracleCalls
// counts fixed-point iterations (each is one pass over P).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/solver.h"
#include "expansion_budget.h"
#include "kernel/kernel_model.h"
#include "kernel/kernel_solver.h"
#include "slmc_objective.h"
#include "sparse_model.h"
#include "sparse_solver.h"
#include "xv_kernel.h"

namespace cplab {

struct ReducedSetOptions {
    StopOptions stop{0.0, 0.0, 100000, 0.0};  // the run ends after N_z steps; gap rules off
    std::string kernel = "gaussian:1";        // a Gaussian kernel gaussian:gamma
    double C = 1.0;                           // SVM box of the full SVM, in (0, 1e15]
    int expansion_vectors = 10;               // N_z ≥ 1; 0: take N_z from expansion_ratio
    double expansion_ratio = 0.0;  // N_z = max(1, round(ratio · #SV of the full SVM)), (0, 1]
    std::int64_t seed = 1;         // draw of the random fixed-point starts, ≥ 0
    int restarts = 10;             // random starts per new vector (plus the best SV), in [0, 1000]
    int fixed_point_iterations = 100;     // iterations per start, in [1, 100000]
    double fixed_point_tolerance = 1e-8;  // stop when |Δz| ≤ this · (1 + |z|), > 0
    double full_tolerance = 1e-3;         // KKT tolerance of the full SVM, > 0
    double eigen_floor = 1e-10;     // eigenvalues of K^z floored at this · λ_max, in (0, 0.01]
    double inner_tolerance = 1e-6;  // mrs: restricted SVM's KKT tolerance · max(1, C), > 0
    double cache_mb = 64.0;         // kernel caches (MB), ≥ 1

    // expansion_ratio given alone replaces the default expansion_vectors (expansion_budget.h).
    template <class Self>
    static void applyGiven(Self& options, const OptionValues& given) {
        yieldExpansionDefault(options, given);
    }

    void visit(OptionVisitor& v);
    bool isValid(std::string* why) const { return validate("ReducedSetOptions", why); }
    bool validate(const char* owner, std::string* why) const;
};

// The result of the fixed-point iteration from one start.
struct PreimageResult {
    Eigen::VectorXd z;       // the last iterate (d)
    double projection = 0;   // s(z) = Σ_p a_p k(p_p, z) = ⟨Ψ, φ(z)⟩
    int iterations = 0;      // iterations done
    bool converged = false;  // |Δz| ≤ tolerance · (1 + |z|) reached
};

// Fixed-point iteration z ← Σ a_p k(p_p, z) p_p / Σ a_p k(p_p, z) for a Gaussian `kernel`,
// P the rows of `points` (|P| × d), from `start`. Stops (not converged) when the denominator
// vanishes relative to Σ|a_p|. Precondition: kernel.spec() is Gaussian.
PreimageResult gaussianPreimage(const XvKernel& kernel, const Eigen::MatrixXd& points,
                                const Eigen::VectorXd& a, const Eigen::VectorXd& start,
                                int maxIterations, double tolerance);

// β = K̃⁻¹ K^{zx} c (eq. 47, K^z's eigenvalues floored at eigenFloor·λ_max) and
// ρ = ‖Σᵢ cᵢφ(xᵢ) − Σ_u β_u φ(z_u)‖² evaluated from the kernel sums (clamped at ≥ 0).
struct ReducedSetFit {
    Eigen::VectorXd beta;
    double error = 0.0;  // ρ
    int flooredEigenvalues = 0;
};
ReducedSetFit reducedSetCoefficients(const XvKernel& kernel, const Eigen::MatrixXd& Z,
                                     const Eigen::MatrixXd& Xs, const Eigen::VectorXd& c,
                                     double wNormSquared, double eigenFloor);

struct RsOptions : ReducedSetOptions {
    bool isValid(std::string* why) const { return validate("RsOptions", why); }
};
struct MrsOptions : ReducedSetOptions {
    bool isValid(std::string* why) const { return validate("MrsOptions", why); }
};

class ReducedSetSolver : public SparseSolver {
  public:
    ~ReducedSetSolver() override;

    // approximation_error, relative_approximation_error, expansion_vectors, projection,
    // fixed_point_iterations, floored_eigenvalues, inner_dual (mrs), train_error, test_error.
    std::vector<std::string> extraColumns() const override;
    std::vector<std::string> pseudocode() const override;
    bool convergesByOwnRule() const override { return true; }
    // objective (rs: ρ; mrs: the restricted SVM's primal), approximation_error,
    // relative_approximation_error, expansion_vectors, train_error, test_error (with a test
    // set), full_svm_objective, full_svm_support_vectors, inner_dual (mrs), C, kernel.
    SummaryFields summary() const override;
    SnapshotPtr snapshot() const override;

    const Eigen::MatrixXd& expansionVectors() const { return Z_; }  // current N × d
    const Eigen::VectorXd& beta() const { return beta_; }
    double bias() const { return bias_; }
    double approximationError() const { return error_; }
    double wNormSquared() const { return wNorm2_; }
    int targetExpansionVectors() const { return target_; }
    KernelClassifier classifier() const;
    const FullSvm& fullSvm() const { return full_; }
    const Eigen::MatrixXd& supportVectorRows() const { return Xs_; }
    const Eigen::VectorXd& supportCoefficients() const { return c_; }  // αᵢyᵢ over the SVs

  protected:
    ReducedSetSolver(const KernelProblem& problem, const ReducedSetOptions& options, bool modified,
                     const char* owner);
    Status doStep(IterationRecord& record) override;

  private:
    bool valid() const { return kernel_ != nullptr && !rejected(); }
    void fillRecord(IterationRecord& record);
    Eigen::VectorXd nextVector(int* iterations, double* projection);

    ReducedSetOptions options_;
    bool modified_;  // mrs
    std::unique_ptr<XvKernel> kernel_;
    Eigen::MatrixXd X_;   // training set dense, n × d
    Eigen::MatrixXd Xs_;  // support vectors, N_SV × d
    Eigen::VectorXd c_;   // αᵢyᵢ
    double wNorm2_ = 0.0;
    int target_ = 0;
    Eigen::MatrixXd Z_;
    Eigen::VectorXd rsBeta_;  // eq. 47's β (the residual's; rs's classifier)
    Eigen::VectorXd beta_;    // the classifier's β (mrs: eq. 45)
    double bias_ = 0.0;
    double emptyPrimal_ = 0.0;  // mrs: the restricted SVM's optimum with no vector
    double error_ = 0.0;
    double projection_ = 0.0;
    long long fixedPointIterations_ = 0;
    int floored_ = 0;
    Eigen::MatrixXd psiTrain_;                   // k(Z, X), N × n (appended row by row)
    Eigen::MatrixXd psiTest_;                    // k(Z, test)
    std::unique_ptr<SlmcObjective> restricted_;  // mrs
    SlmcEvaluation inner_;                       // mrs: the restricted SVM at Z
    double trainError_ = 0.0;
    double testError_ = -1.0;
};

class RsSolver final : public ReducedSetSolver {
  public:
    RsSolver(const KernelProblem& problem, RsOptions options = {})
        : ReducedSetSolver(problem, options, false, "RsOptions") {}
    std::string name() const override { return "rs"; }
};

class MrsSolver final : public ReducedSetSolver {
  public:
    MrsSolver(const KernelProblem& problem, MrsOptions options = {})
        : ReducedSetSolver(problem, options, true, "MrsOptions") {}
    std::string name() const override { return "mrs"; }
};

}  // namespace cplab
