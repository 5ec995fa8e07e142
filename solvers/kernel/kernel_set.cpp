// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernel_set.h"

#include <Eigen/SparseCore>
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/number_text.h"
#include "kernel_values.h"
#include "row_cache.h"

namespace cplab {

namespace {

// Pair-major storage from this many kernels held per example (kernel_set.h): with 10–19 of
// them (german's continuous feature, ionosphere's 17, sonar's 19: bench_mkl) the planes'
// products per kernel (mklPlane) and Q's products over value classes cost less than rows of Q.
constexpr int kPairMajorKernels = 32;

}  // namespace

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

KernelSet::KernelSet(std::shared_ptr<const Dataset> train, std::vector<KernelSpec> specs,
                     KernelNormalization normalization, double cacheMb, KernelPrecision precision)
    : impl_(std::make_unique<Impl>()) {
    if (!train) throw std::invalid_argument("KernelSet: no training data");
    if (!(cacheMb >= 1.0)) {
        throw std::invalid_argument("KernelSet: cache_mb = " + formatReal(cacheMb) +
                                    ": must be >= 1");
    }
    if (specs.empty()) throw std::invalid_argument("empty kernel list");
    Impl& d = *impl_;
    d.train = std::move(train);
    d.specs = std::move(specs);
    d.normalization = normalization;
    d.m = d.train->size();
    if (d.m < 1) throw std::invalid_argument("KernelSet: the training set has no examples");
    for (const KernelSpec& spec : d.specs)
        d.addKernel(spec);
    d.finishGroups();
    for (Impl::Kernel& kernel : d.kernels)
        d.setDiagonal(kernel);
    d.chooseStorage(cacheMb, precision);
}

// One kernel of the list, its features checked and its group found or made.
void KernelSet::Impl::addKernel(const KernelSpec& spec) {
    const Dataset& data = *train;
    Kernel kernel;
    kernel.spec = spec;
    if (spec.type == KernelType::Precomputed) {
        checkPrecomputed(data, specs.size(), normalization);
        kernel.rawDiagonal.resize(m);
        for (int i = 0; i < m; ++i)
            kernel.rawDiagonal[i] = featureValue(data, i, i);
        kernels.push_back(std::move(kernel));
        return;
    }
    checkFeatures(spec, data.dimension());
    // The group of kernels over the same features.
    auto same = std::find_if(groups.begin(), groups.end(),
                             [&](const auto& g) { return g.features == spec.features; });
    if (same == groups.end()) {
        Group g;
        g.features = spec.features;
        g.sparse = data.sparseStorage;
        if (spec.features.empty()) {
            g.dense = &data.dense;
            g.sparseMatrix = &data.sparse;
        } else if (g.sparse) {
            g.sparseCopy = sparseColumns(data, spec.features);
        } else {
            g.denseCopy = denseColumns(data, spec.features);
        }
        same = groups.insert(groups.end(), std::move(g));
    }
    kernel.group = static_cast<int>(same - groups.begin());
    kernels.push_back(std::move(kernel));
}

void KernelSet::Impl::finishGroups() {
    // Pointers into copies are fixed only now that the vector of groups no longer moves.
    for (Group& g : groups) {
        if (!g.features.empty()) {
            g.dense = &g.denseCopy;
            g.sparseMatrix = &g.sparseCopy;
        }
        // Sparse features that are at least a quarter filled are held dense (at most 2.7 times
        // the sparse storage): a kernel row's m inner products then run over contiguous
        // memory instead of gathering through a scattered row (3× faster on breast-cancer).
        if (g.sparse && m > 0 && g.sparseMatrix->cols() > 0 &&
            static_cast<double>(g.sparseMatrix->nonZeros()) >=
                0.25 * m * static_cast<double>(g.sparseMatrix->cols())) {
            g.denseCopy = Dataset::DenseMatrix(*g.sparseMatrix);
            g.sparseCopy = Dataset::SparseMatrix();
            g.dense = &g.denseCopy;
            g.sparseMatrix = &g.sparseCopy;
            g.sparse = false;
        }
        g.norms.resize(m);
        for (int i = 0; i < m; ++i) {
            g.norms[i] =
                g.sparse ? g.sparseMatrix->row(i).squaredNorm() : g.dense->row(i).squaredNorm();
        }
    }
}

// K(i, i) before normalisation, checked, and the normalisation's factors.
void KernelSet::Impl::setDiagonal(Kernel& kernel) {
    if (kernel.group >= 0) {
        const Eigen::VectorXd& norms = groups[kernel.group].norms;
        kernel.rawDiagonal.resize(m);
        for (int i = 0; i < m; ++i)
            kernel.rawDiagonal[i] = fromInner(kernel.spec, norms[i], norms[i], norms[i]);
    }
    // A PSD kernel is bounded by its diagonal (|K(x, x')| ≤ √(K(x, x) K(x', x'))): a finite,
    // moderate diagonal keeps every value and every SMO sum finite (poly:1000000 does not).
    for (int i = 0; i < m; ++i) {
        const double v = kernel.rawDiagonal[i];
        if (!(std::abs(v) <= 1e100)) {
            throw std::invalid_argument("kernel '" + kernel.spec.label() +
                                        "': K(x, x) = " + formatReal(v) + " on training example " +
                                        std::to_string(i + 1) +
                                        " is beyond 1e100; lower the degree or scale the data");
        }
    }
    kernel.identity =
        normalization == KernelNormalization::None || kernel.spec.type == KernelType::Gaussian;
    if (normalization == KernelNormalization::Diagonal) {
        kernel.rowFactor.resize(m);
        for (int i = 0; i < m; ++i) {
            const double v = kernel.rawDiagonal[i];
            kernel.rowFactor[i] = v > 0.0 ? 1.0 / std::sqrt(v) : 0.0;
        }
    } else if (normalization == KernelNormalization::Trace) {
        // An identically zero kernel (a feature absent from the training set) keeps
        // factor 1: any factor leaves it zero.
        const double trace = kernel.rawDiagonal.sum();
        kernel.scale = trace > 0.0 ? m / trace : 1.0;
    }
}

// Where the kernels are held: over value classes, whole (double or float) or by rows.
void KernelSet::Impl::chooseStorage(double cacheMb, KernelPrecision precision) {
    const double budget = cacheBudgetBytes(cacheMb);
    // Kernels over few value classes are held over the classes (at most (m/8)² values each,
    // exact), the rest whole or by rows.
    double compactBytes = 0.0;
    int full = 0;
    if (precision == KernelPrecision::Compact) {
        for (Group& g : groups)
            if (!g.sparse) valueClasses(*g.dense, m / 8, &g.classOf, &g.representatives);
        for (int k = 0; k < static_cast<int>(kernels.size()); ++k) {
            if (!compressed(k)) continue;
            const auto n = static_cast<double>(groups[kernels[k].group].representatives.size());
            compactBytes += n * n * sizeof(double);
        }
        if (compactBytes > budget / 2) {
            for (Group& g : groups)
                g.classOf.clear(), g.representatives.clear();
            compactBytes = 0.0;
        }
        for (std::vector<double>& buffer : widened)
            buffer.resize(static_cast<std::size_t>(m));
    }
    for (int k = 0; k < static_cast<int>(kernels.size()); ++k) {
        if (compressed(k)) continue;
        kernels[k].wholeSlot = static_cast<std::size_t>(full++);
    }
    kernelsWhole = static_cast<std::size_t>(full);
    const double room = budget - compactBytes;
    const double rowBytes = static_cast<double>(m) * sizeof(double);
    const auto squares = static_cast<std::size_t>(m) * static_cast<std::size_t>(m);
    const auto wholeCount = static_cast<std::size_t>(full) * squares;
    if (static_cast<double>(RowMemory<double>::footprint(wholeCount)) <= room) {
        storage = KernelStorage::WholeDouble;
    } else if (precision == KernelPrecision::Compact &&
               static_cast<double>(RowMemory<float>::footprint(wholeCount)) <= room) {
        storage = KernelStorage::WholeFloat;
    } else {
        lru.configure(static_cast<int>(room / rowBytes), m);
    }
    fillGroup = precision == KernelPrecision::Compact && storage != KernelStorage::Rows;
    pairMajor = fillGroup && full >= kPairMajorKernels;
    if (pairMajor) pairRowDone.assign(static_cast<std::size_t>(m), 0);
    groupKernels.resize(groups.size());
    for (int k = 0; k < static_cast<int>(kernels.size()); ++k)
        if (kernels[k].group >= 0 && !compressed(k)) groupKernels[kernels[k].group].push_back(k);
    if (fillGroup) orderGroups();
}

KernelSet::~KernelSet() = default;

int KernelSet::examples() const {
    return impl_->m;
}
int KernelSet::kernels() const {
    return static_cast<int>(impl_->kernels.size());
}
const Dataset& KernelSet::train() const {
    return *impl_->train;
}
const std::shared_ptr<const Dataset>& KernelSet::trainPtr() const {
    return impl_->train;
}
const std::vector<KernelSpec>& KernelSet::specs() const {
    return impl_->specs;
}
KernelNormalization KernelSet::normalization() const {
    return impl_->normalization;
}

namespace {

// Row i of kernel k in its whole matrix (double or float) within `block` (`count` matrices),
// computed on first use.
// (`compute` a template parameter, not a std::function: this runs for every row read.)
template <class T, class Compute>
const T* wholeRow(std::optional<RowMemory<T>>& block, std::size_t count, std::size_t slot,
                  std::vector<char>& computed, std::size_t& rowsHeld, int m, int i,
                  const Compute& compute) {
    const auto n = static_cast<std::size_t>(m);
    if (!block) block.emplace(count * n * n);
    if (computed.empty()) computed.assign(n, 0);
    T* out = block->data() + (slot * n + static_cast<std::size_t>(i)) * n;
    if (!computed[static_cast<std::size_t>(i)]) {
        compute(out);
        computed[static_cast<std::size_t>(i)] = 1;
        ++rowsHeld;
    }
    return out;
}

}  // namespace

const double* KernelSet::Impl::doubleRow(int k, int i) {
    fillSiblings(k, i);
    return doubleRowOnly(k, i);
}

const float* KernelSet::Impl::floatRow(int k, int i) {
    fillSiblings(k, i);
    return floatRowOnly(k, i);
}

const double* KernelSet::Impl::doubleRowOnly(int k, int i) {
    Kernel& kernel = kernels[k];
    return wholeRow<double>(doubles, kernelsWhole, kernel.wholeSlot, kernel.computed,
                            kernel.rowsHeld, m, i, [&](double* out) { computeRow(k, i, out); });
}

const float* KernelSet::Impl::floatRowOnly(int k, int i) {
    Kernel& kernel = kernels[k];
    return wholeRow<float>(floats, kernelsWhole, kernel.wholeSlot, kernel.computed, kernel.rowsHeld,
                           m, i, [&](float* out) {
                               double* wide = widened[nextWidened].data();
                               computeRow(k, i, wide);
                               for (int j = 0; j < m; ++j)
                                   out[j] = static_cast<float>(wide[j]);
                           });
}

void KernelSet::Impl::fillPairRow(int i) {
    if (pairRowDone[static_cast<std::size_t>(i)]) return;
    const auto n = static_cast<std::size_t>(m);
    if (pairScratch.empty()) pairScratch.resize(kernelsWhole * n);
    scratchHas.assign(kernels.size(), 0);
    scratchRow = i;
    // In order (orderGroups): a Gaussian's powerOf row is in the scratch before its own.
    for (const std::vector<int>& members : groupKernels) {
        for (const int k : members) {
            computeRow(k, i, pairScratch.data() + kernels[k].wholeSlot * n);
            scratchHas[static_cast<std::size_t>(k)] = 1;
            ++kernels[k].rowsHeld;
        }
    }
    scratchRow = -1;
    if (storage == KernelStorage::WholeFloat)
        storePairRow(floats, i);
    else
        storePairRow(doubles, i);
    pairRowDone[static_cast<std::size_t>(i)] = 1;
    ++pairRowsHeld;
}

template <class T>
void KernelSet::Impl::storePairRow(std::optional<RowMemory<T>>& block, int i) {
    const auto n = static_cast<std::size_t>(m);
    const std::size_t stride = kernelsWhole;
    if (!block) block.emplace(n * n * stride);
    T* out = block->data() + static_cast<std::size_t>(i) * n * stride;
    // A transpose in blocks of 64 columns: the scratch's rows are read in runs.
    constexpr std::size_t kBlock = 64;
    for (std::size_t j0 = 0; j0 < n; j0 += kBlock) {
        const std::size_t j1 = std::min(n, j0 + kBlock);
        for (std::size_t slot = 0; slot < stride; ++slot) {
            const double* from = pairScratch.data() + slot * n;
            for (std::size_t j = j0; j < j1; ++j)
                out[j * stride + slot] = static_cast<T>(from[j]);
        }
    }
}

namespace {

// The pair-major loops (kernel_set.h, pairMajor()). Each is compiled twice, portable (SSE2)
// and for AVX2 with FMA (four doubles, or four floats widened, per instruction: the plane's
// sums over 200 kernels ran at the SSE2 code's arithmetic bound, not memory's), and chosen
// once by the CPU, as TRW-S's passes are (solvers/map/trws.cpp).
bool useAvx2() {
    static const bool yes = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    }();
    return yes;
}

// acc[s] += Σᵢ vᵢ (vᵢ K_s(i, i) + 2 Σ_{j in support after i} vⱼ K_s(i, j)) for every slot s,
// over the support's rows of `block` (m pairs of `stride` values per row); `inner` has
// stride values.
template <class T>
[[gnu::always_inline]] inline void quadraticPass(const T* block, std::size_t m, std::size_t stride,
                                                 const double* v, const int* support,
                                                 std::size_t count, double* inner, double* acc) {
    for (std::size_t a = 0; a < count; ++a) {
        const auto i = static_cast<std::size_t>(support[a]);
        const T* row = block + i * m * stride;
        const double vi = v[i];
        const T* diagonal = row + i * stride;
        for (std::size_t s = 0; s < stride; ++s)
            inner[s] = vi * static_cast<double>(diagonal[s]);
        for (std::size_t b = a + 1; b < count; ++b) {
            const auto j = static_cast<std::size_t>(support[b]);
            const double w = 2.0 * v[j];
            const T* pair = row + j * stride;
            for (std::size_t s = 0; s < stride; ++s)
                inner[s] += w * static_cast<double>(pair[s]);
        }
        for (std::size_t s = 0; s < stride; ++s)
            acc[s] += vi * inner[s];
    }
}

// out[j] += Σ_s weight[s] K_s(i, j) over row i's pairs (`row`): over the listed nonzero slots
// when they are few, else a dot product of all `stride` slots in sixteen sums (four vectors of
// four: one chain of dependent additions per vector would wait on each addition's latency).
template <class T>
[[gnu::always_inline]] inline void weightedPass(const T* row, std::size_t stride, std::size_t m,
                                                const double* weight, const int* nonzero,
                                                std::size_t count, double* out) {
    if (count * 4 <= stride) {
        for (std::size_t j = 0; j < m; ++j) {
            const T* pair = row + j * stride;
            double sum = 0.0;
            for (std::size_t t = 0; t < count; ++t)
                sum += weight[nonzero[t]] * static_cast<double>(pair[nonzero[t]]);
            out[j] += sum;
        }
        return;
    }
    constexpr std::size_t kLanes = 16;
    const std::size_t whole = stride / kLanes * kLanes;
    for (std::size_t j = 0; j < m; ++j) {
        const T* pair = row + j * stride;
        double sum[kLanes] = {};
        for (std::size_t s = 0; s < whole; s += kLanes)
            for (std::size_t t = 0; t < kLanes; ++t)
                sum[t] += weight[s + t] * static_cast<double>(pair[s + t]);
        for (std::size_t s = whole; s < stride; ++s)
            sum[s - whole] += weight[s] * static_cast<double>(pair[s]);
        double total = 0.0;
        for (std::size_t t = 0; t < kLanes; ++t)
            total += sum[t];
        out[j] += total;
    }
}

template <class T>
void quadraticPassPortable(const T* block, std::size_t m, std::size_t stride, const double* v,
                           const int* support, std::size_t count, double* inner, double* acc) {
    quadraticPass(block, m, stride, v, support, count, inner, acc);
}

template <class T>
[[gnu::target("avx2,fma")]] void quadraticPassAvx2(const T* block, std::size_t m,
                                                   std::size_t stride, const double* v,
                                                   const int* support, std::size_t count,
                                                   double* inner, double* acc) {
    quadraticPass(block, m, stride, v, support, count, inner, acc);
}

template <class T>
void weightedPassPortable(const T* row, std::size_t stride, std::size_t m, const double* weight,
                          const int* nonzero, std::size_t count, double* out) {
    weightedPass(row, stride, m, weight, nonzero, count, out);
}

template <class T>
[[gnu::target("avx2,fma")]] void weightedPassAvx2(const T* row, std::size_t stride, std::size_t m,
                                                  const double* weight, const int* nonzero,
                                                  std::size_t count, double* out) {
    weightedPass(row, stride, m, weight, nonzero, count, out);
}

template <class T>
void quadraticSums(const T* block, std::size_t m, std::size_t stride, const double* v,
                   const std::vector<int>& support, double* inner, double* acc) {
    if (useAvx2())
        quadraticPassAvx2(block, m, stride, v, support.data(), support.size(), inner, acc);
    else
        quadraticPassPortable(block, m, stride, v, support.data(), support.size(), inner, acc);
}

template <class T>
void weightedSums(const T* row, std::size_t stride, std::size_t m,
                  const std::vector<double>& weight, const std::vector<int>& nonzero, double* out) {
    if (useAvx2())
        weightedPassAvx2(row, stride, m, weight.data(), nonzero.data(), nonzero.size(), out);
    else
        weightedPassPortable(row, stride, m, weight.data(), nonzero.data(), nonzero.size(), out);
}

}  // namespace

void KernelSet::Impl::pairQuadratics(const Eigen::VectorXd& v, const std::vector<int>& support,
                                     Eigen::VectorXd& out) {
    const std::size_t stride = kernelsWhole;
    std::vector<double> acc(stride, 0.0), inner(stride);
    for (const int i : support)
        fillPairRow(i);
    const auto n = static_cast<std::size_t>(m);
    if (!support.empty()) {
        if (storage == KernelStorage::WholeFloat)
            quadraticSums(floats->data(), n, stride, v.data(), support, inner.data(), acc.data());
        else
            quadraticSums(doubles->data(), n, stride, v.data(), support, inner.data(), acc.data());
    }
    for (int k = 0; k < static_cast<int>(kernels.size()); ++k)
        if (!compressed(k)) out[k] = acc[kernels[k].wholeSlot];
}

void KernelSet::Impl::pairWeightedRow(int i, const Eigen::VectorXd& beta, double* out) {
    slotWeight.assign(kernelsWhole, 0.0);
    slotNonzero.clear();
    for (int k = 0; k < static_cast<int>(kernels.size()); ++k) {
        if (beta[k] == 0.0 || compressed(k)) continue;
        slotWeight[kernels[k].wholeSlot] = beta[k];
        slotNonzero.push_back(static_cast<int>(kernels[k].wholeSlot));
    }
    if (slotNonzero.empty()) return;
    withPairRow(i, [&](const auto* row) {
        weightedSums(row, kernelsWhole, static_cast<std::size_t>(m), slotWeight, slotNonzero, out);
    });
}

const double* KernelSet::row(int k, int i) {
    Impl& d = *impl_;
    if (d.pairMajor && !d.compressed(k)) {
        double* out = d.widened[d.nextWidened].data();
        d.nextWidened ^= 1;
        const std::size_t slot = d.kernels[k].wholeSlot, stride = d.kernelsWhole;
        d.withPairRow(i, [&](const auto* row) {
            for (int j = 0; j < d.m; ++j)
                out[j] = static_cast<double>(row[static_cast<std::size_t>(j) * stride + slot]);
        });
        return out;
    }
    if (d.compressed(k)) {
        const Eigen::MatrixXd& compact = d.compactOf(k);
        const std::vector<int>& classOf = d.groups[d.kernels[k].group].classOf;
        const int a = classOf[static_cast<std::size_t>(i)];
        double* out = d.widened[d.nextWidened].data();
        d.nextWidened ^= 1;
        for (int j = 0; j < d.m; ++j)
            out[j] = compact(a, classOf[static_cast<std::size_t>(j)]);
        return out;
    }
    switch (d.storage) {
        case KernelStorage::WholeDouble:
            return d.doubleRow(k, i);
        case KernelStorage::WholeFloat: {
            const float* narrow = d.floatRow(k, i);
            double* out = d.widened[d.nextWidened].data();
            d.nextWidened ^= 1;
            for (int j = 0; j < d.m; ++j)
                out[j] = narrow[j];
            return out;
        }
        case KernelStorage::Rows:
            break;
    }
    const long long key = static_cast<long long>(k) * d.m + i;
    if (double* hit = d.lru.find(key)) return hit;
    double* out = d.lru.insert(key);
    d.computeRow(k, i, out);
    return out;
}

void KernelSet::addRow(int k, int i, double weight, double* out) {
    Impl& d = *impl_;
    Eigen::Map<Eigen::ArrayXd> target(out, d.m);
    if (d.compressed(k)) {
        const Eigen::MatrixXd& compact = d.compactOf(k);
        const std::vector<int>& classOf = d.groups[d.kernels[k].group].classOf;
        const int a = classOf[static_cast<std::size_t>(i)];
        for (int j = 0; j < d.m; ++j)
            out[j] += weight * compact(a, classOf[static_cast<std::size_t>(j)]);
    } else if (d.pairMajor) {
        const std::size_t slot = d.kernels[k].wholeSlot, stride = d.kernelsWhole;
        d.withPairRow(i, [&](const auto* row) {
            for (int j = 0; j < d.m; ++j)
                out[j] +=
                    weight * static_cast<double>(row[static_cast<std::size_t>(j) * stride + slot]);
        });
    } else if (d.storage == KernelStorage::WholeFloat) {
        target += weight * Eigen::Map<const Eigen::ArrayXf>(d.floatRow(k, i), d.m).cast<double>();
    } else {
        target += weight * Eigen::Map<const Eigen::ArrayXd>(row(k, i), d.m);
    }
}

void KernelSet::addProduct(int k, double weight, const Eigen::VectorXd& v,
                           const std::vector<int>& support, double* out) {
    Impl& d = *impl_;
    if (!d.compressed(k)) {
        for (const int i : support)
            addRow(k, i, weight * v[i], out);
        return;
    }
    // K v = P (K_classes (Pᵀ v)) with P the examples' class indicators.
    const Eigen::MatrixXd& compact = d.compactOf(k);
    const std::vector<int>& classOf = d.groups[d.kernels[k].group].classOf;
    Eigen::VectorXd w = Eigen::VectorXd::Zero(compact.rows());
    for (const int i : support)
        w[classOf[static_cast<std::size_t>(i)]] += v[i];
    const Eigen::VectorXd z = weight * (compact * w);
    for (int j = 0; j < d.m; ++j)
        out[j] += z[classOf[static_cast<std::size_t>(j)]];
}

double KernelSet::quadratic(int k, const Eigen::VectorXd& v, const std::vector<int>& support) {
    Impl& d = *impl_;
    const int m = d.m;
    if (d.compressed(k)) {
        // vᵀ K v = wᵀ K_classes w with w the sums of v over each value class.
        const Eigen::MatrixXd& compact = d.compactOf(k);
        const std::vector<int>& classOf = d.groups[d.kernels[k].group].classOf;
        Eigen::VectorXd w = Eigen::VectorXd::Zero(compact.rows());
        for (const int i : support)
            w[classOf[static_cast<std::size_t>(i)]] += v[i];
        return w.dot(compact * w);
    }
    if (d.pairMajor) {
        const std::size_t slot = d.kernels[k].wholeSlot, stride = d.kernelsWhole;
        double total = 0.0;
        for (std::size_t a = 0; a < support.size(); ++a) {
            const int i = support[a];
            d.withPairRow(i, [&](const auto* row) {
                const auto at = [&](int j) {
                    return static_cast<double>(row[static_cast<std::size_t>(j) * stride + slot]);
                };
                double inner = at(i) * v[i];
                for (std::size_t b = a + 1; b < support.size(); ++b)
                    inner += 2.0 * at(support[b]) * v[support[b]];
                total += v[i] * inner;
            });
        }
        return total;
    }
    double sum = 0.0;
    for (const int i : support) {
        const int tail = m - i - 1;
        double inner = 0.0;
        if (d.storage == KernelStorage::WholeFloat) {
            // Widened block by block into a buffer the compiler vectorises, then an Eigen dot.
            const float* row = d.floatRow(k, i);
            inner = row[i] * v[i];
            double block[256];
            for (int j = i + 1; j < m; j += 256) {
                const int n = std::min(256, m - j);
                for (int t = 0; t < n; ++t)
                    block[t] = row[j + t];
                inner += 2.0 * Eigen::Map<const Eigen::VectorXd>(block, n).dot(v.segment(j, n));
            }
        } else {
            const double* row = this->row(k, i);
            inner = row[i] * v[i] +
                    2.0 * Eigen::Map<const Eigen::VectorXd>(row + i + 1, tail).dot(v.tail(tail));
        }
        sum += v[i] * inner;
    }
    return sum;
}

Eigen::VectorXd KernelSet::quadratics(const Eigen::VectorXd& v, const std::vector<int>& support) {
    Impl& d = *impl_;
    const int K = kernels();
    Eigen::VectorXd out = Eigen::VectorXd::Zero(K);
    // Over value classes vᵀ K_k v = wᵀ K_classes w, w the sums of v over each class: one w per
    // group (kernels over the same features share it).
    std::vector<Eigen::VectorXd> classSums(d.groups.size());
    for (int k = 0; k < K; ++k) {
        if (!d.compressed(k)) {
            if (!d.pairMajor) out[k] = quadratic(k, v, support);
            continue;
        }
        const Eigen::MatrixXd& matrix = d.compactOf(k);
        Eigen::VectorXd& w = classSums[static_cast<std::size_t>(d.kernels[k].group)];
        if (w.size() == 0) {
            const std::vector<int>& classOf = d.groups[d.kernels[k].group].classOf;
            w = Eigen::VectorXd::Zero(matrix.rows());
            for (const int i : support)
                w[classOf[static_cast<std::size_t>(i)]] += v[i];
        }
        out[k] = w.dot(matrix * w);
    }
    if (d.pairMajor) d.pairQuadratics(v, support, out);
    return out;
}

void KernelSet::addWeightedRow(int i, const Eigen::VectorXd& beta, double* out) {
    Impl& d = *impl_;
    if (d.pairMajor) {
        d.pairWeightedRow(i, beta, out);
        return;
    }
    for (int k = 0; k < kernels(); ++k)
        if (beta[k] != 0.0 && !d.compressed(k)) addRow(k, i, beta[k], out);
}

bool KernelSet::pairMajor() const {
    return impl_->pairMajor;
}

int KernelSet::classGroup(int k) const {
    return impl_->compressed(k) ? impl_->kernels[k].group : -1;
}

const std::vector<int>& KernelSet::classOf(int k) const {
    static const std::vector<int> none;
    return impl_->compressed(k) ? impl_->groups[impl_->kernels[k].group].classOf : none;
}

const Eigen::MatrixXd& KernelSet::classMatrix(int k) {
    static const Eigen::MatrixXd none;
    return impl_->compressed(k) ? impl_->compactOf(k) : none;
}

double KernelSet::diagonal(int k, int i) const {
    const Impl::Kernel& kernel = impl_->kernels[k];
    const double raw = kernel.rawDiagonal[i];
    if (kernel.identity) return raw;
    if (impl_->normalization == KernelNormalization::Diagonal)
        return raw * kernel.rowFactor[i] * kernel.rowFactor[i];
    return raw * kernel.scale;
}

double KernelSet::cross(int k, const Dataset& other, int i, int j) const {
    const Impl& d = *impl_;
    const Impl::Kernel& kernel = d.kernels[k];
    const double raw = kernelValue(kernel.spec, other, i, *d.train, j);
    if (kernel.identity) return raw;
    if (d.normalization == KernelNormalization::Trace) return raw * kernel.scale;
    const double self = kernelValue(kernel.spec, other, i, other, i);
    const double product = kernel.rawDiagonal[j] * self;
    return product > 0.0 ? raw / std::sqrt(product) : 0.0;
}

double KernelSet::scale(int k) const {
    return impl_->kernels[k].scale;
}

bool KernelSet::fullyCached() const {
    const Impl& d = *impl_;
    for (int k = 0; k < static_cast<int>(d.kernels.size()); ++k)
        if (d.compressed(k)) return false;  // its rows are widened into two buffers
    return d.storage == KernelStorage::WholeDouble && !d.pairMajor;
}

KernelStorage KernelSet::storage() const {
    return impl_->storage;
}

std::size_t KernelSet::bytes() const {
    const Impl& d = *impl_;
    const std::size_t value =
        d.storage == KernelStorage::WholeFloat ? sizeof(float) : sizeof(double);
    std::size_t total = d.storage == KernelStorage::Rows ? d.lru.bytes() : 0;
    for (const Impl::Kernel& kernel : d.kernels) {
        total += static_cast<std::size_t>(kernel.compact.size()) * sizeof(double);
        if (d.storage != KernelStorage::Rows && !d.pairMajor)
            total += kernel.rowsHeld * static_cast<std::size_t>(d.m) * value;
    }
    if (d.pairMajor) {
        total += d.pairRowsHeld * static_cast<std::size_t>(d.m) * d.kernelsWhole * value +
                 d.pairScratch.capacity() * sizeof(double);
    }
    return total;
}

long long KernelSet::rowsComputed() const {
    return impl_->rowsComputed;
}

}  // namespace cplab
