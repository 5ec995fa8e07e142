// SPDX-License-Identifier: GPL-3.0-or-later
// dlib's reduced2 trainer as a sparse kernel machine (solver `dlib_reduced2`; ALGORITHMS.md §7,
// the peer of rs/mrs/rsvm/mrsvm/slmc; Davis King, dlib, dlib/svm/reduced.h).
//
// Problem. The C-SVM with the Gaussian kernel k(x, x′) = exp(−γ‖x − x′‖²) is trained by
// dlib's svm_c_trainer (its own SMO, stopping at svm_eps), giving w = Σᵢ cᵢ φ(xᵢ). reduced2
// then replaces w by N_z terms Σ_u β_u φ(z_u), like the reduced-set method (reduced_set.h):
//   * Z starts as N_z linearly independent training points (dlib's
//     linearly_independent_subset_finder, filled by random sampling with dlib::rand's fixed
//     default seed, so a run is deterministic), β = (K^z)⁺ K^{zx} c (eq. 47 with a
//     pseudo-inverse);
//   * Z and β together minimise ρ(Z, β) = ‖w − Σ_u β_u φ(z_u)‖² (eq. 4) by L-BFGS (memory 20)
//     until one iteration lowers ρ by less than `eps` (absolute); β is refitted by eq. 47 and
//     terms with |β_u| < max|β|·ε_machine are dropped (so fewer than N_z vectors may come back);
//   * the bias is shifted so that the mean decision over the training set is unchanged.
// dlib's decision_function is f(x) = Σ_u α_u k(b_u, x) − b; here β = α, Z = the basis vectors
// and our bias = −b, so that f(x) = Σ_u β_u k(z_u, x) + bias as for the other sparse solvers.
//
// Iteration. dlib's trainer is one-shot: step 1 trains (converts the data to dlib column
// vectors, runs reduced2, reads Z, β and the bias back) and ends the run Converged; there is
// no intermediate state to show. dlib cannot be interrupted: the cancel token is checked only
// before the step (by Solver::step), not inside dlib's SMO or L-BFGS; max_seconds holds within
// that one call's cost, and when it passed during the call the message says so, with an
// estimate from the problem's size when the call was foreseen to take more than twice the time
// left (20,000 x 20 examples: 28-41 s). Our full SVM before it (full_svm, expansion_ratio)
// polls the set-up's deadline; cut short, dlib is not called and the first step ends the run. Every
// exception dlib throws is caught in step() and ends the run with NumericalFailure and its message.
//
// Budget. N_z is expansion_vectors, or round(expansion_ratio · #SV) where #SV is the number of
// support vectors of *our* full SVM (the kernel module's SMO at full_tolerance, exactly as rs,
// mrs, slmc and rsvm count them), so the same ratio gives every sparse solver the same N_z.
// dlib's own full SVM (svm_eps) is not exposed by reduced2 and may have a slightly different
// support.
//
// Record. dlib's objective ρ is not available (its full SVM stays inside reduced2). upper = the
// SVM primal of the returned function, ½βᵀK^zβ + C Σᵢ max(0, 1 − yᵢ f(xᵢ)) with the exact K^z
// — the quantity slmc, mrs and mrsvm report as their upper bound (they use K^z with its
// eigenvalues floored, ≥ K^z) and a certified value of the full SVM's primal at a feasible
// point. lower = our full SVM's dual when it was solved (full_svm, or expansion_ratio), which
// bounds every restricted SVM from below; else 0 (= D(0)). Before the step: the SVM with a bias
// only, b = ±1 toward the larger class (upper C · 2 · min(n₊, n₋)), as for mrs. oracleCalls is
// 0 (dlib does not report its kernel evaluations).
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "core/solver.h"
#include "expansion_budget.h"
#include "kernel/kernel_model.h"
#include "kernel/kernel_solver.h"
#include "sparse_model.h"
#include "sparse_solver.h"

namespace cplab {

struct DlibReduced2Options {
    StopOptions stop{0.0, 0.0, 100000, 0.0};  // the run ends after its one step; gap rules off
    std::string kernel = "gaussian:1";        // a Gaussian kernel gaussian:gamma (dlib's RBF)
    double C = 1.0;                           // SVM box of dlib's svm_c_trainer, in (0, 1e15]
    int expansion_vectors = 10;               // N_z ≥ 1; 0: take N_z from expansion_ratio
    double expansion_ratio = 0.0;  // N_z = max(1, round(ratio · #SV of our full SVM)), (0, 1]
    bool full_svm = false;         // solve our full SVM first (lower bound, its SVs in the view)
    double full_tolerance = 1e-3;  // KKT tolerance of our full SVM, > 0
    double svm_eps = 1e-3;         // svm_c_trainer::set_epsilon (its SMO's stopping tolerance), > 0
    double eps = 1e-3;             // reduced2's eps: L-BFGS stops when ρ falls by < eps, > 0
    double cache_mb = 64.0;        // kernel cache of our full SVM (MB), ≥ 1

    // expansion_ratio given alone replaces the default expansion_vectors (expansion_budget.h).
    template <class Self>
    static void applyGiven(Self& options, const OptionValues& given) {
        yieldExpansionDefault(options, given);
    }

    void visit(OptionVisitor& v);
    bool isValid(std::string* why) const;
};

class DlibReduced2Solver final : public SparseSolver {
  public:
    DlibReduced2Solver(const KernelProblem& problem, DlibReduced2Options options = {});
    ~DlibReduced2Solver() override;

    std::string name() const override { return "dlib_reduced2"; }
    // expansion_vectors, norm_term (½βᵀK^zβ), hinge_term (C Σ hinge), train_error, test_error.
    std::vector<std::string> extraColumns() const override;
    std::vector<std::string> pseudocode() const override;
    bool convergesByOwnRule() const override { return true; }
    // objective (the SVM primal of the result), expansion_vectors, requested_expansion_vectors,
    // train_error, test_error (with a test set), norm_term, hinge_term; full_svm_objective and
    // full_svm_support_vectors when our full SVM was solved; C, kernel.
    SummaryFields summary() const override;
    // A SparseSnapshot whose XVs are dlib's basis vectors (one trail entry: they never move
    // in view).
    SnapshotPtr snapshot() const override;

    const Eigen::MatrixXd& expansionVectors() const { return Z_; }  // N × d (N ≤ N_z)
    const Eigen::VectorXd& beta() const { return beta_; }
    double bias() const { return bias_; }  // f(x) = Σ_u β_u k(z_u, x) + bias (= −dlib's b)
    int targetExpansionVectors() const { return target_; }
    // f of the current Z, β, bias (a model with no vector before the step).
    KernelClassifier classifier() const;

  protected:
    Status doStep(IterationRecord& record) override;

  private:
    bool valid() const { return !rejected() && X_.rows() > 0; }
    void fillRecord(IterationRecord& record);
    // A rough lower estimate of reduced2's seconds on this training set (measured scaling).
    double estimatedSeconds() const;
    // What the message adds when max_seconds passed during the call; `estimate` > 0 when the
    // call was foreseen to take more than twice the time left.
    std::string overrunNote(double estimate) const;

    DlibReduced2Options options_;
    Eigen::MatrixXd X_;  // training set dense, n × d
    int target_ = 0;     // N_z asked of reduced2
    Eigen::MatrixXd Z_;  // dlib's basis vectors, N × d (N = 0 before the step)
    Eigen::VectorXd beta_;
    double bias_ = 0.0;
    double normTerm_ = 0.0;   // ½βᵀK^zβ
    double hingeTerm_ = 0.0;  // C Σᵢ max(0, 1 − yᵢ f(xᵢ))
    double trainError_ = 0.0;
    double testError_ = -1.0;
};

}  // namespace cplab
