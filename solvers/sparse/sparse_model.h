// SPDX-License-Identifier: GPL-3.0-or-later
// What the sparse kernel machines (SLMC, RSVM, modified RSVM; ALGORITHMS.md §7) share: the
// classifier f(x) = Σ_u β_u k(z_u, x) + b over N_z expansion vectors (XVs), the snapshot the
// sparse family's view draws, the checks of a problem, and the full SVM they are compared with
// (paper §5.2: N_z is chosen as a fraction of its support vectors).
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/cancel_token.h"
#include "core/snapshot.h"
#include "data/dataset.h"
#include "kernel/kernel_model.h"
#include "kernel/kernel_solver.h"
#include "sparse_snapshot.h"

namespace cplab {

// The side of the decision grid in snapshots (n × n values), as the kernel family's.
inline constexpr int kSparseGridSize = 60;

// f(x) = Σ_u β_u k(z_u, x) + b as a KernelClassifier (its "support vectors" are the XVs, one
// kernel of weight 1, no normalisation, no serials), so that model files, decisions and
// decision grids work as for the kernel family.
KernelClassifier sparseClassifier(const KernelSpec& spec, const Eigen::MatrixXd& Z,
                                  const Eigen::VectorXd& beta, double bias,
                                  const std::vector<double>& classes);

// The history of Z for the views' trails, in bounded memory: at most `capacity` entries (≥ 2).
// Entries are kept at the iterations that are multiples of a stride (1 at first) plus the
// newest one; when full, the stride doubles and the entries off it are dropped (the newest
// stays). So the trail always starts at iteration 0, ends at the newest Z, and covers the
// whole run evenly with capacity/2 … capacity entries.
class XvTrail {
  public:
    explicit XvTrail(std::size_t capacity) : capacity_(std::max<std::size_t>(2, capacity)) {}
    // Adds Z at `iteration` (increasing from call to call).
    void add(int iteration, const Eigen::MatrixXd& Z);
    const std::vector<Eigen::MatrixXd>& entries() const { return entries_; }
    const std::vector<int>& iterations() const { return iterations_; }
    int stride() const { return stride_; }

  private:
    std::size_t capacity_;
    int stride_ = 1;
    std::vector<Eigen::MatrixXd> entries_;
    std::vector<int> iterations_;
};

// The rows of `data` as a dense matrix of `dimension` columns (≥ data.dimension(); the rest
// zero), or of data.dimension() columns when `dimension` < 0.
Eigen::MatrixXd denseRows(const Dataset& data, int dimension = -1);

// A problem checked for the sparse solvers: labels mapped to ±1, the one kernel parsed and
// supported (XvKernel::supports), the test set dense with the training set's dimension.
struct SparseProblem {
    KernelProblem problem;        // train (and test) with ±1 labels
    std::vector<double> classes;  // the training file's two label values, smaller first
    KernelSpec spec;              // the kernel
    Eigen::MatrixXd testX;        // m_test × d, empty without a test set
};
// Returns false with *why ("<owner>: …") for a missing or empty training set, not exactly two
// classes, a kernel text that is not one supported kernel for the data, or a test set with
// more features than the training set.
bool prepareSparseProblem(const KernelProblem& problem, const std::string& kernel,
                          const char* owner, SparseProblem* out, std::string* why);

// The checks of the options every budget machine (slmc, rsvm, mrsvm) has, reporting as
// `owner`: one kernel the expansion vectors support, without a feature scope (they are points
// of the whole input space; the dimension is checked against the data at construction);
// 0 < C ≤ 1e15; N_z ≥ 1 or a ratio in (0, 1], not both.
bool validBudgetOptions(const char* owner, const std::string& kernel, double C,
                        int expansionVectors, double expansionRatio, std::string* why);

// For the methods that work with Gaussian kernels only: false with *why ("<owner>::kernel =
// '…': <needs>") unless `kernel` is one Gaussian kernel.
bool requireGaussianKernel(const char* owner, const std::string& kernel, const char* needs,
                           std::string* why);

// The full SVM (the kernel module's SMO, as solver `svm` runs it) on the prepared training set.
struct FullSvm {
    double dualObjective = 0.0;       // D(α) (at the KKT tolerance when complete)
    std::vector<int> supportVectors;  // training indices with αᵢ > 0
    Eigen::VectorXd alpha;            // α over all training examples (n)
    double bias = 0.0;                // b of f(x) = Σᵢ αᵢyᵢ k(xᵢ, x) + b
    // False when `stop` ended SMO before its KKT tolerance: α is then SMO's last iterate, a
    // feasible point whose dual D(α) still bounds the full SVM's optimum (and every restricted
    // SVM's) from below.
    bool complete = true;
    long long smoSteps = 0;
    double kktViolation = 0.0;
};
// The full SVM with kernel problem.spec, KKT tolerance `tolerance`; SMO polls `stop` every 100
// steps (a set-up's deadline: 20,000 examples take seconds to minutes). Returns false with *why
// ("<owner>: the full SVM: ...") when the kernels cannot be set up; true otherwise, with
// out->complete false when `stop` cut it short.
bool solveFullSvm(const SparseProblem& problem, double C, double tolerance, double cacheMb,
                  const char* owner, const Interrupt& stop, FullSvm* out, std::string* why);

// Fraction of examples whose score has the wrong sign for its ±1 label (0 for none).
double signErrorRate(const Eigen::VectorXd& scores, const Eigen::VectorXd& labels);

}  // namespace cplab
