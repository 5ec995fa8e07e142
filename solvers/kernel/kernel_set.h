// SPDX-License-Identifier: GPL-3.0-or-later
// The base kernels of a problem over its training set, normalised, with their cache; and Q,
// the SVM's Hessian Y (Σₖ βₖ Kₖ) Y for given weights β (ALGORITHMS.md §4).
//
// Memory: KernelSet keeps every base kernel matrix whole when K·m²·8 bytes fit in `cacheMb`,
// else it computes rows on demand and keeps the most recently used ones within the budget
// (LRU). KernelQ keeps composite rows in an LRU cache of its own budget and forgets them when
// the weights change. Nothing grows beyond the budgets, whatever m and K are.
//
// A precomputed kernel (KernelType::Precomputed) is stored in the Dataset itself: example i's
// features are K(i, 0..m−1) (LIBSVM's precomputed format without the serial number; see
// precomputed.h). Not thread-safe: one solver, one KernelSet.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <memory>
#include <vector>

#include "data/dataset.h"
#include "kernel_spec.h"

namespace cplab {

// The raw (unnormalised) value of `spec` between example i of `a` and example j of `b` (same
// dimension). For Precomputed, `a` holds precomputed rows and the value is a's feature j of
// example i (`b` is not read).
double kernelValue(const KernelSpec& spec, const Dataset& a, int i, const Dataset& b, int j);

class KernelSet {
  public:
    // Throws std::invalid_argument with a readable message when the specs do not fit the
    // data (a feature index beyond the dimension, a precomputed kernel that is not m × m or
    // not symmetric within 1e-9 relative) or cacheMb < 1.
    KernelSet(std::shared_ptr<const Dataset> train, std::vector<KernelSpec> specs,
              KernelNormalization normalization, double cacheMb);
    ~KernelSet();
    KernelSet(const KernelSet&) = delete;
    KernelSet& operator=(const KernelSet&) = delete;

    int examples() const;  // m
    int kernels() const;   // K
    const Dataset& train() const;
    const std::shared_ptr<const Dataset>& trainPtr() const;
    const std::vector<KernelSpec>& specs() const;
    KernelNormalization normalization() const;

    // Row i of the normalised kernel k over the m training examples. The pointer stays valid
    // until the next call of row() (the LRU may evict it) — unless fullyCached().
    const double* row(int k, int i);
    // Normalised K_k(i, i).
    double diagonal(int k, int i) const;
    // Normalised K_k(x_j, z) for example j of the training set and example i of `other`
    // (another dataset with the training set's dimension, or precomputed rows against the
    // training set). For the diagonal normalisation it evaluates k(z, z) itself.
    double cross(int k, const Dataset& other, int i, int j) const;
    // The factor of the trace normalisation of kernel k (1 for none and diagonal).
    double scale(int k) const;

    bool fullyCached() const;
    std::size_t bytes() const;       // memory held by the cache now
    long long rowsComputed() const;  // kernel rows computed so far (cache misses)

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Q = Y (Σₖ βₖ Kₖ) Y, Q_ij = y_i y_j Σₖ βₖ K_k(i, j), row by row for SMO.
class KernelQ {
  public:
    // y: ±1 labels of the training set; beta: K nonnegative weights; cacheMb ≥ 1 for the
    // composite rows.
    KernelQ(KernelSet& kernels, Eigen::VectorXd y, Eigen::VectorXd beta, double cacheMb);
    ~KernelQ();
    KernelQ(const KernelQ&) = delete;
    KernelQ& operator=(const KernelQ&) = delete;

    int size() const;
    KernelSet& kernels() const;
    const Eigen::VectorXd& labels() const;
    const Eigen::VectorXd& weights() const;
    // New weights: composite rows are dropped, the diagonal recomputed.
    void setWeights(const Eigen::VectorXd& beta);

    // Row i of Q (length m). At least the two most recently returned rows stay valid.
    const double* row(int i);
    double diagonal(int i) const;
    long long rowsComputed() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace cplab
