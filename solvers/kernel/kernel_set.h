// SPDX-License-Identifier: GPL-3.0-or-later
// The base kernels of a problem over its training set, normalised, with their cache; and Q,
// the SVM's Hessian Y (Σₖ βₖ Kₖ) Y for given weights β (ALGORITHMS.md §4).
//
// Memory: KernelSet keeps every base kernel matrix whole when K·m²·8 bytes fit in `cacheMb`,
// else it computes rows on demand and keeps the most recently used ones within the budget
// (LRU). With KernelPrecision::Compact (the MKL solvers) two things save memory first:
//   * a kernel over features on which the examples take at most m/8 distinct values (a
//     categorical feature of an @each_feature list) is held exactly, in double, over those
//     value classes: K(i, j) = K_classes(class i, class j);
//   * the other kernels are held whole in single precision when their doubles do not fit but
//     their floats do (K·m²·4 bytes; 7 digits per value, the MKL objective moves by ~1e-8
//     relative: tests/solvers/kernel/test_mkl_interleaved.cpp).
// 200 Gaussian kernels, one per feature and width, on 400 examples of german: 190 of them are
// held over value classes, the 10 over its one continuous feature whole in double (13 MB
// instead of 256 MB). Whole kernels share one block (huge pages); with Compact precision a row
// is computed for every kernel over the same features at once, and a Gaussian whose γ is 2,
// 2.5, 3 or 4 times a narrower one's (same features) is that row raised to the ratio.
// With Compact precision and 32 or more kernels held per example, the whole block is laid out
// pair by pair (pairMajor(): entry (i, j) of every such kernel side by side, row i of all of
// them computed at once): an MKL plane's vᵀKₖv for all k, and a row of Σₖ βₖ Kₖ, then read
// contiguous memory. 200 Gaussians on 400 continuous examples (every value distinct): a plane
// over 160 support vectors took 10 ms from rows scattered over 128 MB, 2.4 ms pair by pair.
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

// How whole kernel matrices may be stored. Double only for a single kernel: it is raced
// against LIBSVM, which computes in double, step for step.
enum class KernelPrecision { Double, Compact };
// What a KernelSet holds: whole matrices in double or in float, or rows in an LRU cache.
enum class KernelStorage { WholeDouble, WholeFloat, Rows };

class KernelSet {
  public:
    // Throws std::invalid_argument with a readable message when the specs do not fit the
    // data (a feature index beyond the dimension, a precomputed kernel that is not m × m or
    // not symmetric within 1e-9 relative) or cacheMb < 1.
    KernelSet(std::shared_ptr<const Dataset> train, std::vector<KernelSpec> specs,
              KernelNormalization normalization, double cacheMb,
              KernelPrecision precision = KernelPrecision::Double);
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
    // until the next call of row() (the LRU may evict it; a float row is widened into one of
    // two buffers) — unless fullyCached().
    const double* row(int k, int i);
    // out[0..m) += weight · K_k(i, ·), read from whichever storage holds the row (no copy).
    void addRow(int k, int i, double weight, double* out);
    // out[0..m) += weight · K_k v, where `support` lists (ascending) every i with v[i] ≠ 0:
    // O(|support| + classes²) for a kernel over value classes, O(|support| · m) otherwise.
    void addProduct(int k, double weight, const Eigen::VectorXd& v, const std::vector<int>& support,
                    double* out);
    // vᵀ K_k v, summed in double, where `support` lists (ascending) every i with v[i] ≠ 0:
    // from the upper triangle of the support's rows, Σᵢ vᵢ (vᵢ K_ii + 2 Σ_{j>i} K_ij vⱼ).
    double quadratic(int k, const Eigen::VectorXd& v, const std::vector<int>& support);
    // vᵀ K_k v for every kernel k (length kernels()), as quadratic() has it; stored pair by
    // pair (pairMajor()) in one pass over the support's pairs for all kernels at once.
    Eigen::VectorXd quadratics(const Eigen::VectorXd& v, const std::vector<int>& support);
    // P(r, k) = Σ_{j ∈ support} K_k(rows[r], j) v_j for every listed row and every kernel
    // (rows.size() × kernels()), where `support` lists (ascending) every j with v[j] ≠ 0: the
    // products Kₖ v restricted to a few rows, as SimpleMKL's second-order step needs them on the
    // free support vectors (pairMajor(): one pass over each row's support pairs for all kernels).
    Eigen::MatrixXd rowProducts(const Eigen::VectorXd& v, const std::vector<int>& support,
                                const std::vector<int>& rows);
    // out[0..m) += Σₖ beta[k] · K_k(i, ·) over the kernels held per example (classGroup(k) < 0)
    // with beta[k] ≠ 0, k ascending (addRow each; pairMajor(): one pass over row i's pairs).
    void addWeightedRow(int i, const Eigen::VectorXd& beta, double* out);
    // Kernels held over value classes (KernelPrecision::Compact): the id of the classes
    // kernel k is held over (kernels over the same features share it), or −1 when it is held
    // per example; classOf(k)[i] is example i's class, and classMatrix(k) the symmetric
    // normalised kernel between the classes (K_k(i, j) = classMatrix(classOf[i], classOf[j])).
    int classGroup(int k) const;
    const std::vector<int>& classOf(int k) const;
    const Eigen::MatrixXd& classMatrix(int k);
    // Normalised K_k(i, i).
    double diagonal(int k, int i) const;
    // Normalised K_k(x_j, z) for example j of the training set and example i of `other`
    // (another dataset with the training set's dimension, or precomputed rows against the
    // training set). For the diagonal normalisation it evaluates k(z, z) itself.
    double cross(int k, const Dataset& other, int i, int j) const;
    // The factor of the trace normalisation of kernel k (1 for none and diagonal).
    double scale(int k) const;

    bool fullyCached() const;  // whole matrices in double: row() pointers stay valid
    // Whole storage pair by pair (KernelPrecision::Compact, at least 32 kernels held per
    // example): the values of all of them at (i, j) side by side, so that a row of Σₖ βₖ Kₖ
    // and the quadratics of a plane read contiguous memory (row() gathers, never stays valid).
    bool pairMajor() const;
    KernelStorage storage() const;
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

    // Q x for x of length m (KernelSet::addProduct per weighted kernel; no row is cached; over
    // a pairMajor() KernelSet, from the rows of Q for xᵢ ≠ 0, which stay cached).
    Eigen::VectorXd multiply(const Eigen::VectorXd& x) const;
    // Row i of Q (length m). At least the two most recently returned rows stay valid.
    const double* row(int i);
    double diagonal(int i) const;
    long long rowsComputed() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace cplab
