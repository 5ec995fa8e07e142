// SPDX-License-Identifier: GPL-3.0-or-later
// The baselines of SLMC with random, fixed expansion vectors (ALGORITHMS.md §7; paper §4.2 and
// Table 1): solvers `rsvm` and `mrsvm`.
//
// Both draw N_z distinct training points Z at random (as xv_init.h; the same seed gives SLMC's
// random start) and keep them; only β and b are learnt, by the kernel module's SMO on a linear
// kernel over N_z features, exactly like `svm`: one app iteration is `smo_steps` pair updates
// and the run converges when the maximal KKT violation is ≤ kkt_tolerance.
//
//   rsvm   (reduced SVM, Lee & Mangasarian 2001; Lin & Lin 2003): the regulariser ½βᵀK^zβ of
//          (28) is simplified to ½βᵀβ, i.e. a linear SVM on the empirical kernel map
//          ψ_z(x) = [k(z_1,x) … k(z_{N_z},x)]ᵀ; β is that SVM's weight vector.
//   mrsvm  (modified RSVM, the paper's proposal): the exact problem (28–30) at the random Z,
//          a linear SVM on the whitened features φ_z(x) = Λ̃^{-1/2}Vᵀψ_z(x), β by eq. 45 —
//          i.e. W(Z) of SLMC at its starting point, without moving Z. K^z's eigenvalues are
//          floored as in slmc_objective.h (eigen_floor).
//
// Either way f(x) = Σ_u β_u k(z_u, x) + b. In features Φ = Ψᵀ B (B = I for rsvm, VΛ̃^{-1/2} for
// mrsvm), the SVM's weights w give β = B w.
//
// Record (as `svm`): upper = the primal objective at the current (β, b), lower = the dual
// D(α); oracleCalls = kernel rows of the feature SVM computed.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/solver.h"
#include "expansion_budget.h"
#include "kernel/kernel_set.h"
#include "kernel/kernel_solver.h"
#include "kernel/smo.h"
#include "sparse_model.h"
#include "sparse_solver.h"

namespace cplab {

struct RsvmOptions {
    StopOptions stop{0.0, 0.0, 100000, 0.0};  // the KKT rule ends the run; gap rules off
    std::string kernel = "gaussian:1";        // one kernel: linear, poly:d[,c] or gaussian:gamma
    double C = 1.0;                           // SVM box, in (0, 1e15]
    int expansion_vectors = 10;               // N_z ≥ 1; 0: take N_z from expansion_ratio
    double expansion_ratio = 0.0;  // N_z = max(1, round(ratio · #SV of the full SVM)), (0, 1]
    std::int64_t seed = 1;         // draw of the random XVs, ≥ 0
    bool full_svm = false;         // solve the full SVM first (its objective and SVs reported)
    double full_tolerance = 1e-3;  // KKT tolerance of the full SVM, > 0
    double kkt_tolerance = 1e-3;   // KKT tolerance of the feature SVM (LIBSVM -e), > 0
    int smo_steps = 100;           // SMO pair updates per app iteration, ≥ 1
    double cache_mb = 64.0;        // kernel caches (MB), ≥ 1

    // expansion_ratio given alone replaces the default expansion_vectors (expansion_budget.h).
    template <class Self>
    static void applyGiven(Self& options, const OptionValues& given) {
        yieldExpansionDefault(options, given);
    }

    void visit(OptionVisitor& v);
    bool isValid(std::string* why) const { return validate("RsvmOptions", why); }
    // The checks of isValid with `owner` naming the struct in messages.
    bool validate(const char* owner, std::string* why) const;
};

struct MrsvmOptions : RsvmOptions {
    double eigen_floor = 1e-10;  // eigenvalues of K^z floored at this · λ_max, in (0, 0.01]

    void visit(OptionVisitor& v);
    bool isValid(std::string* why) const;
};

class ReducedSvmSolver : public SparseSolver {
  public:
    ~ReducedSvmSolver() override;

    // dual_objective, kkt_violation, smo_iterations, support_vectors, expansion_vectors,
    // floored_eigenvalues, train_error, test_error.
    std::vector<std::string> extraColumns() const override;
    std::vector<std::string> pseudocode() const override;
    bool convergesByOwnRule() const override { return true; }  // the KKT rule
    // objective, dual_objective, expansion_vectors, train_error, test_error (with a test set),
    // support_vectors, smo_iterations; full_svm_objective and full_svm_support_vectors when
    // the full SVM was solved; C, kernel.
    SummaryFields summary() const override;
    // A SparseSnapshot whose trail is the one (fixed) Z.
    SnapshotPtr snapshot() const override;

    const Eigen::MatrixXd& expansionVectors() const { return Z_; }  // N_z × d
    Eigen::VectorXd beta() const;                                   // β (N_z)
    double bias() const;
    const Smo& smo() const { return *smo_; }
    KernelClassifier classifier() const;

  protected:
    // whiten: the whitened features with K^z's eigenvalues floored at eigenFloor·λ_max (mrsvm;
    // eigenFloor is validated here); else the empirical kernel map (rsvm).
    ReducedSvmSolver(const KernelProblem& problem, const RsvmOptions& options, bool whiten,
                     double eigenFloor, const char* owner);
    Status doStep(IterationRecord& record) override;

  private:
    bool valid() const { return smo_ != nullptr && !rejected(); }
    std::vector<double> extras(double kktViolation);

    RsvmOptions options_;
    bool whiten_;  // mrsvm
    Eigen::MatrixXd Z_;
    Eigen::MatrixXd B_;        // β = B w (identity for rsvm)
    Eigen::MatrixXd psiTest_;  // k(Z, test) N_z × m_test, empty without a test set
    int floored_ = 0;
    std::shared_ptr<const Dataset> features_;  // Φ, n × N_z
    std::unique_ptr<KernelSet> kernels_;
    std::unique_ptr<KernelQ> q_;
    std::unique_ptr<Smo> smo_;
    double lastTrainError_ = 0.0;
    double lastTestError_ = -1.0;
};

class RsvmSolver final : public ReducedSvmSolver {
  public:
    RsvmSolver(const KernelProblem& problem, RsvmOptions options = {})
        : ReducedSvmSolver(problem, options, false, 0.0, "RsvmOptions") {}
    std::string name() const override { return "rsvm"; }
};

class MrsvmSolver final : public ReducedSvmSolver {
  public:
    MrsvmSolver(const KernelProblem& problem, MrsvmOptions options = {})
        : ReducedSvmSolver(problem, options, true, options.eigen_floor, "MrsvmOptions") {}
    std::string name() const override { return "mrsvm"; }
};

}  // namespace cplab
