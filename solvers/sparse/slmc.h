// SPDX-License-Identifier: GPL-3.0-or-later
// SLMC, the sparse large-margin classifier with moving expansion vectors (solver `slmc`;
// ALGORITHMS.md §7; Wu, Schölkopf, Bakır 2006, §3 and Table 1).
//
// Problem: min_Z W(Z), where W(Z) is the optimal value of the C-SVM whose weight vector is an
// expansion Σ_u β_u φ(z_u) of N_z expansion vectors (XVs) Z (slmc_objective.h has W, β and
// ∇W, and the eigenvalue floor that guards K^z). The classifier is f(x) = Σ_u β_u k(z_u, x) + b.
//
// Iteration (one step() = one L-BFGS iteration on the flattened Z, N_z·d variables):
//   direction  d = −H∇W by the L-BFGS two-loop recursion over the last `lbfgs_memory` pairs
//              (s, y) (Liu & Nocedal 1989), −∇W on the first iteration or after a reset;
//   line search along d by LBFGSpp's LineSearchBracketing with the (weak) Wolfe conditions,
//              each trial point one W evaluation, the inner SVM warm-started from the last α.
// Why not LBFGSpp's LBFGSSolver: its minimize() runs the whole loop and resets its history
// on every call, so it cannot be advanced one iteration at a time; the two-loop recursion is
// twenty lines here, and the line search is LBFGSpp's own (a public class of the package).
// When the line search fails (the inner SVM's finite accuracy makes W slightly noisy near a
// stationary point) the best trial point that satisfies Armijo's condition is taken; if there
// is none, the history is dropped and steepest descent tried; if that fails too, the run
// ends Stalled.
//
// Stopping (SLMC converges by its own rule, convergesByOwnRule()): ‖∇W‖ ≤ gradient_tolerance
// · max(1, |W|), or one iteration decreased W by at most decrease_tolerance · max(1, |W|); or
// the common limits.
//
// Record: upper = the inner primal objective at (Z, β, b), i.e. W(Z) up to the inner SMO's
// accuracy and a certified value of the SLMC problem (20–23) at a feasible point; lower = the
// full SVM's dual objective when the full SVM was solved (full_svm, or expansion_ratio),
// which bounds every W(Z) from below because SLMC is the full SVM plus a constraint — else 0
// (= D(0), the dual at α = 0). The gap does not close (W(Z) > full SVM for N_z < #SV): the gap
// rules are off by default. oracleCalls counts W evaluations (inner SVM solves).
//
// Memory of the XV trail for the views (XvTrail, sparse_model.h): at most kMaxTrail copies of
// Z and at most kTrailBudget doubles in all; when full, every other stored Z is dropped and
// only every second iteration is kept from then on (the first and the newest Z always are).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <deque>
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

namespace cplab {

struct SlmcOptions {
    StopOptions stop{0.0, 0.0, 200, 0.0};  // own convergence rule; gap rules off
    std::string kernel = "gaussian:1";     // one kernel: linear, poly:d[,c] or gaussian:gamma
    double C = 1.0;                        // SVM box, in (0, 1e15]
    int expansion_vectors = 10;            // N_z ≥ 1; 0: take N_z from expansion_ratio
    double expansion_ratio = 0.0;  // N_z = max(1, round(ratio · #SV of the full SVM)), (0, 1]
    std::string init = "random";   // random|kmeans: initial XVs among the distinct points
    std::int64_t seed = 1;         // random/k-means++ draws, ≥ 0
    // Inner SMO's KKT tolerance is inner_tolerance · max(1, C), > 0: the dual gradient grows
    // with C, and a fixed absolute tolerance would ask a large-C SVM for more digits than
    // double precision holds (SMO then runs for millions of steps).
    double inner_tolerance = 1e-6;
    bool full_svm = false;         // solve the full SVM first (lower bound, its SVs in the view)
    double full_tolerance = 1e-3;  // KKT tolerance of the full SVM, > 0
    double eigen_floor = 1e-10;    // eigenvalues of K^z floored at this · λ_max, in (0, 0.01]
    int lbfgs_memory = 6;          // (s, y) pairs kept by L-BFGS, in [1, 100]
    int max_line_search = 20;      // W evaluations per line search, in [2, 100]
    double gradient_tolerance = 1e-5;  // converged when ‖∇W‖ ≤ this · max(1, |W|), ≥ 0
    double decrease_tolerance = 1e-9;  // converged when a step lowers W by ≤ this · max(1,|W|)
    double cache_mb = 64.0;            // inner and full SVM kernel cache (MB), ≥ 1

    // expansion_ratio given alone replaces the default expansion_vectors (expansion_budget.h).
    template <class Self>
    static void applyGiven(Self& options, const OptionValues& given) {
        yieldExpansionDefault(options, given);
    }

    void visit(OptionVisitor& v);
    bool isValid(std::string* why) const;
};

class SlmcSolver final : public SparseSolver {
  public:
    // At most this many Z in the trail, and this many doubles in all.
    static constexpr int kMaxTrail = 256;
    static constexpr long long kTrailBudget = 1 << 21;

    SlmcSolver(const KernelProblem& problem, SlmcOptions options = {});
    ~SlmcSolver() override;

    std::string name() const override { return "slmc"; }
    // inner_dual (the W L-BFGS minimises), gradient_norm, step_length, evaluations,
    // expansion_vectors, inner_support_vectors, floored_eigenvalues, train_error, test_error.
    std::vector<std::string> extraColumns() const override;
    std::vector<std::string> pseudocode() const override;
    bool convergesByOwnRule() const override { return true; }
    // train_error, test_error (with a test set), expansion_vectors, objective, inner_dual,
    // gradient_norm, evaluations, C, kernel; full_svm_objective and full_svm_support_vectors
    // when the full SVM was solved.
    SummaryFields summary() const override;
    // A SparseSnapshot (sparse_model.h).
    SnapshotPtr snapshot() const override;

    const SlmcOptions& options() const { return options_; }

    // Warm start after the training set was edited (app/registry/warm_start.h), before the first
    // step: the expansion vectors Z of `previous` are kept (when they have this run's N_z rows and
    // d columns), W is evaluated there with the inner SVM started from `previous`'s α carried
    // over (carriedAlpha; previousIndex[i] is the index in `previous`'s training set of example
    // i, or −1), and β and b follow from that solution; L-BFGS starts without history. False,
    // and nothing changed, when the runs do not fit (*why says why).
    bool warmStartFrom(const SlmcSolver& previous, const std::vector<int>& previousIndex,
                       std::string* why);
    // Valid unless rejected.
    const SlmcObjective& objective() const { return *objective_; }
    const SlmcEvaluation& current() const { return current_; }
    KernelClassifier classifier() const;
    int expansionVectors() const { return static_cast<int>(current_.Z.rows()); }

  protected:
    Status doStep(IterationRecord& record) override;

  private:
    bool valid() const { return objective_ != nullptr && !rejected(); }
    void fillRecord(IterationRecord& record, double stepLength);
    double testError() const;
    void remember(int iteration);
    // Notes which expansion vector (row of Z) moved most from `before` to `after`, and how far.
    void noteMoves(const Eigen::MatrixXd& before, const Eigen::MatrixXd& after);
    // −H g by the two-loop recursion over the stored pairs (−g without any).
    Eigen::VectorXd direction(const Eigen::VectorXd& g) const;
    // What a step's line search found: a point (the Wolfe point, or else the best trial with
    // sufficient decrease), a cancel, or nothing (failure: the line search's last error).
    enum class SearchEnd { Accepted, Cancelled, Failed };
    struct SearchResult {
        SearchEnd end = SearchEnd::Failed;
        SlmcEvaluation accepted;
        std::string failure;
    };
    // The line search from Z = xp (W = fp, gradient gp) along −H∇W, and along −∇W (without
    // the L-BFGS pairs) when that fails.
    SearchResult lineSearch(const Eigen::VectorXd& xp, const Eigen::VectorXd& gp, double fp);
    // Stores the pair (s, y) when it has positive curvature, keeping the last lbfgs_memory.
    void rememberPair(const Eigen::VectorXd& s, const Eigen::VectorXd& y);
    // The stopping rules after a step from W = previousValue (Converged, or Running).
    Status convergence(int iteration, double previousValue);

    SlmcOptions options_;
    std::unique_ptr<SlmcObjective> objective_;
    SlmcEvaluation current_;
    std::deque<Eigen::VectorXd> s_, y_;  // L-BFGS pairs, oldest first
    long long evaluations_ = 0;
    double lastTestError_ = -1.0;
    std::unique_ptr<XvTrail> trail_;
    std::vector<int> lastLines_;
};

}  // namespace cplab
