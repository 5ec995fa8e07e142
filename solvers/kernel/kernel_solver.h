// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel family's common ground (ALGORITHMS.md §4): the problem (training set, optional
// test set), the options every kernel solver shares, the snapshot the views draw, and the
// base class that owns the kernels and reports errors, summaries and models.
//
// Bounds. `svm`/`libsvm`: upper U = the primal objective at the current (α, b), lower L = the
// dual D(α) (a certified bound once α is feasible). MKL (`silp`, `simplemkl`) minimises
// J(β) = D(β) = max_α Σₖ βₖ Sₖ(α) over the simplex: U = the best J(βᵢ) found (the inner SVM's
// dual value), L = θ_t for SILP (the master LP) and min_k S_k(α_t) for SimpleMKL (its
// duality gap). Both read S_k(α) = Σα − ½ αᵀ Y K_k Y α.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/solver.h"
#include "data/dataset.h"
#include "kernel_model.h"
#include "kernel_set.h"
#include "kernel_snapshot.h"
#include "kernel_spec.h"
#include "smo.h"

namespace cplab {

// A kernel weight βₖ above this counts the kernel as active (SimpleMKL's numerical-precision
// cut, which also sets smaller weights to 0 after each of its steps).
inline constexpr double kZeroKernelWeight = 1e-12;

struct KernelProblem {
    std::shared_ptr<const Dataset> train;  // two label values (mapped to ±1 by the solver)
    std::shared_ptr<const Dataset> test;   // may be null
};

// The MKL solvers' default cache_mb (silp, silp_interleaved, simplemkl): what Q's rows leave of
// it (mklQCacheMb) holds hundreds of kernels on several hundred examples whole in single
// precision (600 examples x 40 features at ten widths: 400 kernels, 576 MB), so that the
// process stays under 1 GB; beyond that the kernels' rows go to an LRU. 384 MB, half for the
// base kernels, left 500 x 30 data with 300 kernels (300 MB in float) to the LRU: 60 s where
// whole kernels take seconds.
inline constexpr double kMklCacheMb = 768.0;

// The MKL solvers' share of cache_mb for Q's rows (KernelQ): m rows of doubles and 1 MB, at
// most half of cache_mb, at least 1 MB; their KernelSet gets the rest (mklKernelCacheMb).
inline double mklQCacheMb(double cacheMb, int m) {
    const double rowsMb = static_cast<double>(m) * m * sizeof(double) / (1024.0 * 1024.0) + 1.0;
    return std::max(1.0, std::min(0.5 * cacheMb, rowsMb));
}
inline double mklKernelCacheMb(double cacheMb, int m) {
    return std::max(1.0, cacheMb - mklQCacheMb(cacheMb, m));
}

// Options every kernel solver has. `kernels` is one kernel for svm and libsvm, a list for the
// MKL solvers (kernel_spec.h's grammar).
struct KernelOptions {
    std::string kernels = "gaussian:1";
    double C = 1.0;                  // in (0, 1e15]
    std::string normalize = "none";  // none|diagonal|trace
    double cache_mb = 256.0;         // kernel cache budget in MB, ≥ 1
    double kkt_tolerance = 1e-3;     // inner SMO's KKT tolerance (LIBSVM -e), > 0
    bool shrinking = true;           // SMO shrinking heuristic (LIBSVM -h)

    // `kernelKey` is the option's name ("kernel" for one kernel, "kernels" for a list).
    void visit(OptionVisitor& v, const char* kernelKey, const char* kernelHelp);
    bool isValid(const char* owner, std::string* why) const;  // ranges and the kernel grammar
};

// D(β) by a fresh SMO solve with the setup's kernels (for views and tests).
double evaluateMklObjective(const KernelSetup& setup, const Eigen::VectorXd& beta,
                            const CancelToken* cancel = nullptr);

// The plane of α: S_k(α) = Σα − ½ αᵀ Y K_k Y α for every base kernel k of `kernels` (y = the
// training labels, ±1), from the rows of the support vectors (αᵢ > 0): O(K · nSV · m).
// D(β) ≥ Σₖ βₖ S_k(α) on the simplex for every feasible α, with equality at β's own solution.
// With `products`, for every k with wanted[k] also (*products)[k] = K_k Y α (length m, from
// the support's whole rows: O(nSV · m) instead of the triangle's half; an MKL solver forms
// SMO's gradient at new weights from them); the other entries are left empty. Over a
// pairMajor() KernelSet, without products, all kernels' vᵀKₖv come from one pass over pairs.
Eigen::VectorXd mklPlane(KernelSet& kernels, const Eigen::VectorXd& alpha,
                         const std::vector<char>* wanted = nullptr,
                         std::vector<Eigen::VectorXd>* products = nullptr);

// α carried over to an edited training set (app/registry/warm_start.h): example i takes
// previousAlpha[previousIndex[i]] (0 for −1, a new example), clipped to [0, C]; then the
// larger of the two classes' sums Σ_{y=±1} αᵢ is scaled down to the smaller, so that yᵀα = 0
// holds again. The result is feasible for the new dual (labels y = ±1, box C), so SMO may
// start from it and every plane S_k(α) it gives bounds the new D(β) from below.
Eigen::VectorXd carriedAlpha(const Eigen::VectorXd& previousAlpha,
                             const std::vector<int>& previousIndex, const Eigen::VectorXd& y,
                             double C);

// Starts `smo` from the best multiple tα, t ∈ [0, 1], of a feasible α (still feasible):
// D(tα) = tΣα − ½t² αᵀQα is largest at t = Σα / αᵀQα, so a carried α that lost its balance
// never starts below D(0) = 0. Throws std::invalid_argument as Smo::setAlpha.
void startFromBestMultiple(Smo& smo, const Eigen::VectorXd& alpha);

class KernelSvmSolver : public Solver {
  public:
    const KernelProblem& problem() const { return problem_; }
    const std::vector<KernelSpec>& specs() const { return specs_; }
    // The training file's two label values, before they were mapped to ±1.
    const std::vector<double>& classes() const { return classes_; }
    // The current classifier (α, b, β of the newest iterate).
    virtual KernelClassifier classifier() const = 0;
    virtual Eigen::VectorXd weights() const = 0;  // β (ones(1) for svm/libsvm)

    // Common columns: dual_objective, kkt_violation, svm_calls, smo_iterations,
    // support_vectors, train_error, test_error, then beta:<label> per kernel.
    std::vector<std::string> extraColumns() const override;
    // Common: weights (label → β), objective, svm_calls, smo_iterations, support_vectors,
    // train_error, test_error (with a test set), C, kernels; then familySummary().
    SummaryFields summary() const final;

  protected:
    // Validates options and data (two classes, kernel list for the data, precomputed sizes);
    // on failure rejects. `owner` names the options struct in messages; `singleKernel`
    // refuses lists of more than one kernel ("svm takes one kernel; silp or simplemkl learn
    // a combination").
    KernelSvmSolver(const KernelProblem& problem, const KernelOptions& options,
                    const StopOptions& stop, const char* owner, bool singleKernel);
    bool valid() const { return kernels_ != nullptr && !rejected(); }
    // Whether this run, before its first step, can start from `previous` (a run on the
    // training set before an edit; previousIndex[i] is the index there of example i, or −1):
    // both accepted, the correspondence of this training set's size, and as many kernels.
    // Else false with *why.
    bool warmCompatible(const KernelSvmSolver& previous, const std::vector<int>& previousIndex,
                        std::string* why) const;

    // Fills the common extra columns (and the errors of the current classifier).
    // `trainScores`, when given, are f(xᵢ) on the training set (svm reads them off SMO's
    // gradient instead of evaluating the classifier); the test error is recomputed only when
    // `testDue` (else the last value is kept: svm spreads its cost over SMO steps).
    std::vector<double> commonExtras(double dualObjective, double kktViolation,
                                     const Eigen::VectorXd* trainScores = nullptr,
                                     bool testDue = true);
    void fillKernelSnapshot(KernelSnapshot& snapshot) const;
    // The previous record's columns with the current svm_calls and smo_iterations, for a step
    // that ends without a new solution (cancelled, or the master problem failed).
    std::vector<double> previousExtrasWithCounts() const;
    virtual SummaryFields familySummary() const { return {}; }
    // Notes KernelEntered / KernelLeft for the kernels whose βₖ crossed kZeroKernelWeight from
    // `before` to `after`.
    void noteKernelChanges(const Eigen::VectorXd& before, const Eigen::VectorXd& after);
    // The classifier from α (m), b and β over the training set.
    KernelClassifier makeClassifier(const Eigen::VectorXd& alpha, double bias,
                                    const Eigen::VectorXd& beta) const;

    KernelProblem problem_;  // train labels mapped to ±1 (copied only when they were not)
    KernelOptions options_;
    std::vector<KernelSpec> specs_;
    std::unique_ptr<KernelSet> kernels_;
    std::shared_ptr<const KernelSetup> setup_;
    std::vector<double> classes_;  // the training file's two label values
    long long svmCalls_ = 0;
    long long smoIterations_ = 0;
    double lastTrainError_ = 0.0;
    double lastTestError_ = -1.0;
};

// Labels a < b of `data` → −1/+1 following `classes` (the training set's two values). Returns
// the same pointer when they already are ±1, else a copy. Throws std::invalid_argument naming
// `owner` for a label that is not one of `classes`.
std::shared_ptr<const Dataset> withPlusMinusLabels(const std::shared_ptr<const Dataset>& data,
                                                   const std::vector<double>& classes,
                                                   const char* owner);

}  // namespace cplab
