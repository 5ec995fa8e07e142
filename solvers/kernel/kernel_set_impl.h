// SPDX-License-Identifier: GPL-3.0-or-later
// KernelSet::Impl (kernel_set.h), shared by kernel_set.cpp and kernel_set_pair_major.cpp (the
// pair-major storage and its loops). Private to the kernel module.
#pragma once

#include <Eigen/SparseCore>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "kernel_set.h"
#include "row_cache.h"

namespace cplab {

// ---- KernelSet ----

struct KernelSet::Impl {
    // The training features a kernel reads: all of them (pointing into the Dataset) or a
    // copy of the group's columns; kernels over the same features share a group and its
    // inner products.
    struct Group {
        std::vector<int> features;
        bool sparse = false;
        const Dataset::DenseMatrix* dense = nullptr;
        const Dataset::SparseMatrix* sparseMatrix = nullptr;
        Dataset::DenseMatrix denseCopy;
        Dataset::SparseMatrix sparseCopy;
        Eigen::VectorXd norms;  // ‖x_i‖² over the group's features
        Eigen::VectorXd dots;   // ⟨x_i, x_j⟩ for j = 0..m−1, of example dotsOf
        Eigen::VectorXd scatter;
        int dotsOf = -1;
        // Compact precision: when the examples take few distinct values on the group's
        // features (one categorical feature of an @each_feature list), classOf[i] is example
        // i's value class and representatives[c] one example of class c; empty otherwise.
        std::vector<int> classOf, representatives;
    };
    struct Kernel {
        KernelSpec spec;
        int group = -1;               // −1: precomputed
        Eigen::VectorXd rawDiagonal;  // K(i, i) before normalisation
        Eigen::VectorXd rowFactor;    // diagonal: 1/√K(i, i) (0 where K(i, i) = 0)
        bool identity = true;         // normalisation leaves the kernel as it is
        double scale = 1.0;           // trace factor
        // Whole mode: m × m, row-major, filled row by row, at wholeSlot · m² in the block of
        // all whole kernels (Impl::doubles or Impl::floats).
        std::size_t wholeSlot = 0;
        // fillGroup in double: a Gaussian whose width is 2, 2.5, 3 or 4 times that of the
        // Gaussian powerOf over the same features has row exp(−γd) = (exp(−γ′d))^(γ/γ′), taken
        // from that kernel's row (computed first) by products or a square root instead of an
        // exp (relative error ~1e-15 after ten widths from 0.01 to 10); −1 otherwise.
        int powerOf = -1;
        double power = 0.0;
        std::vector<char> computed;  // row i filled
        std::size_t rowsHeld = 0;
        // Over the group's value classes (Group::classOf): K(i, j) = compact(classOf[i],
        // classOf[j]) in double, filled on first use; empty for a kernel held per example.
        Eigen::MatrixXd compact;
    };

    std::shared_ptr<const Dataset> train;
    std::vector<KernelSpec> specs;
    KernelNormalization normalization = KernelNormalization::None;
    int m = 0;
    std::vector<Group> groups;
    std::vector<Kernel> kernels;
    KernelStorage storage = KernelStorage::Rows;
    RowLru lru;
    // Whole modes: the matrices of every kernel held per example, m × m each, in one block
    // allocated uninitialised on first use (kernelsWhole of them), so that the pages of rows a
    // solve never asks for are never touched (nor zeroed), and the kernels of an MKL problem
    // share huge pages (17 kernels of 1 MB on ionosphere took 4,000 page faults apart).
    std::optional<RowMemory<double>> doubles;
    std::optional<RowMemory<float>> floats;  // WholeFloat: the same, in single precision
    std::size_t kernelsWhole = 0;
    // Compact precision, whole storage: a row computed for one kernel is computed for every
    // kernel over the same features (an MKL plane reads the support's rows of every kernel),
    // so the m inner products of the row are taken once per group, not once per kernel.
    bool fillGroup = false;
    std::vector<std::vector<int>> groupKernels;  // the kernels held per example, by group
    std::vector<double> widened[2];  // WholeFloat: rows handed out by row(), alternately
    int nextWidened = 0;
    Eigen::ArrayXd expScratch;
    long long rowsComputed = 0;
    // Pair-major whole storage (kernel_set.h, pairMajor()): entry (i, j) of the kernel in whole
    // slot s at (i·m + j)·kernelsWhole + s of `doubles` or `floats`. Row i of every kernel is
    // computed at once into pairScratch (slot by slot, m each: a Gaussian's powerOf row is
    // there when its own is computed), then stored pair by pair.
    bool pairMajor = false;
    std::vector<char> pairRowDone;
    std::size_t pairRowsHeld = 0;
    std::vector<double> pairScratch;
    int scratchRow = -1;             // the row pairScratch is being filled for, else −1
    std::vector<char> scratchHas;    // kernel k's row scratchRow is in pairScratch
    std::vector<double> slotWeight;  // addWeightedRow: β by whole slot
    std::vector<int> slotNonzero;    // the slots with a weight ≠ 0

    bool compressed(int k) const {
        return kernels[k].group >= 0 && !groups[kernels[k].group].classOf.empty();
    }
    // The kernel over value classes (compressed(k)), computed on first use from the rows of
    // the classes' representatives.
    const Eigen::MatrixXd& compactOf(int k) {
        Kernel& kernel = kernels[k];
        const Group& g = groups[kernel.group];
        if (kernel.compact.size() == 0) {
            const auto n = static_cast<Eigen::Index>(g.representatives.size());
            Eigen::MatrixXd compact(n, n);
            std::vector<double> full(static_cast<std::size_t>(m));
            for (Eigen::Index a = 0; a < n; ++a) {
                computeRow(k, g.representatives[a], full.data());
                for (Eigen::Index b = 0; b < n; ++b)
                    compact(a, b) = full[g.representatives[b]];
            }
            kernel.compact = std::move(compact);
        }
        return kernel.compact;
    }
    const double* doubleRow(int k, int i);  // WholeDouble
    const float* floatRow(int k, int i);    // WholeFloat
    // fillGroup: row i of every kernel of k's group, when that of k is not computed yet.
    void fillSiblings(int k, int i) {
        const Kernel& kernel = kernels[k];
        if (!fillGroup || kernel.group < 0) return;
        if (!kernel.computed.empty() && kernel.computed[static_cast<std::size_t>(i)]) return;
        // In order (orderGroups), k included: a Gaussian's powerOf row comes before its own.
        for (const int sibling : groupKernels[kernel.group]) {
            if (storage == KernelStorage::WholeFloat)
                floatRowOnly(sibling, i);
            else
                doubleRowOnly(sibling, i);
        }
    }
    const double* doubleRowOnly(int k, int i);
    const float* floatRowOnly(int k, int i);
    // Pair-major: row i of every kernel held per example, computed and stored on first use.
    void fillPairRow(int i);
    template <class T>
    void storePairRow(std::optional<RowMemory<T>>& block, int i);
    // Pair-major: the m · kernelsWhole values of row i (filled).
    template <class T>
    const T* pairRow(const std::optional<RowMemory<T>>& block, int i) const {
        const auto n = static_cast<std::size_t>(m);
        return block->data() + static_cast<std::size_t>(i) * n * kernelsWhole;
    }
    // Calls f(row i of the pair-major block) with the block's value type (float or double).
    template <class F>
    void withPairRow(int i, const F& f) {
        fillPairRow(i);
        if (storage == KernelStorage::WholeFloat)
            f(pairRow(floats, i));
        else
            f(pairRow(doubles, i));
    }
    void pairQuadratics(const Eigen::VectorXd& v, const std::vector<int>& support,
                        Eigen::VectorXd& out);
    void pairWeightedRow(int i, const Eigen::VectorXd& beta, double* out);
    // Fills out(r, k) = Σ_{j ∈ support} K_k(rows[r], j) v_j for the kernels held per example.
    void pairRowProducts(const Eigen::VectorXd& v, const std::vector<int>& support,
                         const std::vector<int>& rows, Eigen::MatrixXd& out);
    // Construction steps (KernelSet's constructor).
    void addKernel(const KernelSpec& spec);
    void finishGroups();
    void setDiagonal(Kernel& kernel);
    void chooseStorage(double cacheMb, KernelPrecision precision);

    const Eigen::VectorXd& dotsFor(Group& g, int i) {
        if (g.dotsOf == i) return g.dots;
        if (g.dots.size() != m) g.dots.resize(m);
        if (g.sparse && g.sparseMatrix->cols() > 4 * g.sparseMatrix->nonZeros() + 4096) {
            // Few features under large indices: merge x_i with each sorted row rather than
            // scatter it into a vector as long as the largest index.
            const Dataset::SparseMatrix& s = *g.sparseMatrix;
            const int* outer = s.outerIndexPtr();
            const int* inner = s.innerIndexPtr();
            const double* values = s.valuePtr();
            for (int j = 0; j < m; ++j) {
                double sum = 0.0;
                int p = outer[i], q = outer[j];
                while (p < outer[i + 1] && q < outer[j + 1]) {
                    if (inner[p] < inner[q]) {
                        ++p;
                    } else if (inner[q] < inner[p]) {
                        ++q;
                    } else {
                        sum += values[p++] * values[q++];
                    }
                }
                g.dots[j] = sum;
            }
        } else if (g.sparse) {
            const Dataset::SparseMatrix& s = *g.sparseMatrix;
            if (g.scatter.size() != s.cols()) g.scatter = Eigen::VectorXd::Zero(s.cols());
            for (Dataset::SparseMatrix::InnerIterator it(s, i); it; ++it)
                g.scatter[it.col()] = it.value();
            g.dots.noalias() = s * g.scatter;
            for (Dataset::SparseMatrix::InnerIterator it(s, i); it; ++it)
                g.scatter[it.col()] = 0.0;
        } else {
            const Dataset::DenseMatrix& d = *g.dense;
            g.dots.noalias() = d * d.row(i).transpose();
        }
        g.dotsOf = i;
        return g.dots;
    }

    // The computed row i of kernel k's powerOf kernel, or null.
    const double* poweredBase(int k, int i) const {
        const Kernel& kernel = kernels[k];
        if (kernel.powerOf < 0 || storage != KernelStorage::WholeDouble) return nullptr;
        if (pairMajor) {
            if (scratchRow != i || !scratchHas[static_cast<std::size_t>(kernel.powerOf)])
                return nullptr;
            return pairScratch.data() +
                   kernels[kernel.powerOf].wholeSlot * static_cast<std::size_t>(m);
        }
        if (!doubles) return nullptr;
        const Kernel& base = kernels[kernel.powerOf];
        if (base.computed.empty() || !base.computed[static_cast<std::size_t>(i)]) return nullptr;
        const auto n = static_cast<std::size_t>(m);
        return doubles->data() + (base.wholeSlot * n + static_cast<std::size_t>(i)) * n;
    }
    // fillGroup: the group's kernels in order of increasing Gaussian width (the others first),
    // and each Gaussian's powerOf.
    void orderGroups() {
        for (std::vector<int>& members : groupKernels) {
            const auto width = [&](int k) {
                const KernelSpec& spec = kernels[k].spec;
                return spec.type == KernelType::Gaussian ? spec.gamma : -1.0;
            };
            std::stable_sort(members.begin(), members.end(),
                             [&](int a, int b) { return width(a) < width(b); });
            for (std::size_t t = 1; t < members.size(); ++t) {
                const double below = width(members[t - 1]);
                if (!(below > 0.0)) continue;
                const double ratio = width(members[t]) / below;
                for (const double p : {2.0, 2.5, 3.0, 4.0}) {
                    if (std::abs(ratio - p) <= 1e-12 * p) {
                        kernels[members[t]].powerOf = members[t - 1];
                        kernels[members[t]].power = p;
                    }
                }
            }
        }
    }

    // Writes the normalised row i of kernel k to out[0..m).
    void computeRow(int k, int i, double* out) {
        Kernel& kernel = kernels[k];
        Eigen::Map<Eigen::ArrayXd> row(out, m);
        const KernelSpec& spec = kernel.spec;
        if (spec.type == KernelType::Precomputed) {
            const Dataset& data = *train;
            if (data.sparseStorage) {
                row.setZero();
                for (Dataset::SparseMatrix::InnerIterator it(data.sparse, i); it; ++it)
                    row[it.col()] = it.value();
            } else {
                row = data.dense.row(i).transpose().array();
            }
        } else if (const double* narrower = poweredBase(k, i)) {
            const Eigen::Map<const Eigen::ArrayXd> b(narrower, m);
            if (kernel.power == 2.5)
                row = b.square() * b.sqrt();
            else if (kernel.power == 2.0)
                row = b.square();
            else if (kernel.power == 3.0)
                row = b.square() * b;
            else
                row = b.square().square();
            row[i] = kernel.rawDiagonal[i];
        } else {
            Group& g = groups[kernel.group];
            const auto dots = dotsFor(g, i).array();
            switch (spec.type) {
                case KernelType::Linear:
                    row = dots;
                    break;
                case KernelType::Polynomial: {
                    row = dots + spec.offset;
                    if (spec.degree > 1) {
                        const Eigen::ArrayXd base = row;
                        for (int t = 1; t < spec.degree; ++t)
                            row *= base;
                    }
                    break;
                }
                case KernelType::Gaussian:
                    // exp into an aligned buffer, then copied: Eigen's vectorised exp and the
                    // scalar one of an unaligned head may differ in the last bit, and a row must
                    // not depend on where it is stored (whole matrix or LRU slot).
                    expScratch =
                        (-spec.gamma * (g.norms[i] + g.norms.array() - 2.0 * dots).max(0.0)).exp();
                    row = expScratch;
                    break;
                case KernelType::Precomputed:
                    break;
            }
            // K(i, i) exactly as diagonal() has it (the product above may round differently).
            row[i] = kernel.rawDiagonal[i];
        }
        if (!kernel.identity) {
            if (normalization == KernelNormalization::Diagonal) {
                row *= kernel.rowFactor[i] * kernel.rowFactor.array();
            } else if (normalization == KernelNormalization::Trace) {
                row *= kernel.scale;
            }
        }
        ++rowsComputed;
    }
};

}  // namespace cplab
