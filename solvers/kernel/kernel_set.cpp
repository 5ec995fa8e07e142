// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernel_set.h"

#include <Eigen/SparseCore>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "core/memory_budget.h"
#include "core/number_text.h"

namespace cplab {

namespace {

constexpr double kBytesPerMb = 1024.0 * 1024.0;

// One example's features, dense (values[0..dimension)) or sparse (nnz pairs, indices sorted).
struct RowView {
    const int* index = nullptr;  // null for a dense row
    const double* value = nullptr;
    int size = 0;  // nnz (sparse) or dimension (dense)
};

RowView rowView(const Dataset& data, int i) {
    RowView view;
    if (data.sparseStorage) {
        const auto& s = data.sparse;
        const int begin = s.outerIndexPtr()[i];
        const int end = s.outerIndexPtr()[i + 1];
        view.index = s.innerIndexPtr() + begin;
        view.value = s.valuePtr() + begin;
        view.size = end - begin;
    } else {
        view.value = data.dense.data() + static_cast<std::ptrdiff_t>(i) * data.dense.cols();
        view.size = static_cast<int>(data.dense.cols());
    }
    return view;
}

bool inScope(const std::vector<int>& features, int j) {
    return features.empty() || std::binary_search(features.begin(), features.end(), j);
}

double squaredNorm(const RowView& a, const std::vector<int>& features) {
    double sum = 0.0;
    if (a.index) {
        for (int t = 0; t < a.size; ++t)
            if (inScope(features, a.index[t])) sum += a.value[t] * a.value[t];
    } else if (features.empty()) {
        for (int t = 0; t < a.size; ++t)
            sum += a.value[t] * a.value[t];
    } else {
        for (const int j : features)
            if (j < a.size) sum += a.value[j] * a.value[j];
    }
    return sum;
}

double dotRows(const RowView& a, const RowView& b, const std::vector<int>& features) {
    double sum = 0.0;
    if (a.index && b.index) {
        int s = 0;
        int t = 0;
        while (s < a.size && t < b.size) {
            if (a.index[s] < b.index[t]) {
                ++s;
            } else if (a.index[s] > b.index[t]) {
                ++t;
            } else {
                if (inScope(features, a.index[s])) sum += a.value[s] * b.value[t];
                ++s;
                ++t;
            }
        }
    } else if (a.index || b.index) {
        const RowView& sp = a.index ? a : b;
        const RowView& de = a.index ? b : a;
        for (int t = 0; t < sp.size; ++t) {
            const int j = sp.index[t];
            if (j < de.size && inScope(features, j)) sum += sp.value[t] * de.value[j];
        }
    } else if (features.empty()) {
        const int n = std::min(a.size, b.size);
        for (int t = 0; t < n; ++t)
            sum += a.value[t] * b.value[t];
    } else {
        for (const int j : features)
            if (j < a.size && j < b.size) sum += a.value[j] * b.value[j];
    }
    return sum;
}

double featureValue(const Dataset& data, int i, int j) {
    const RowView view = rowView(data, i);
    if (!view.index) return j < view.size ? view.value[j] : 0.0;
    const int* end = view.index + view.size;
    const int* at = std::lower_bound(view.index, end, j);
    return at != end && *at == j ? view.value[at - view.index] : 0.0;
}

double power(double base, int degree) {
    double result = 1.0;
    while (degree > 0) {
        if (degree & 1) result *= base;
        base *= base;
        degree >>= 1;
    }
    return result;
}

// Raw kernel value from the inner product and the two squared norms.
double fromInner(const KernelSpec& spec, double dot, double normA, double normB) {
    switch (spec.type) {
        case KernelType::Linear:
            return dot;
        case KernelType::Polynomial:
            return power(dot + spec.offset, spec.degree);
        case KernelType::Gaussian:
            return std::exp(-spec.gamma * std::max(0.0, normA + normB - 2.0 * dot));
        case KernelType::Precomputed:
            break;
    }
    return 0.0;
}

// The bytes a cache of `cacheMb` may hold: the cache is a speed knob, so a cache_mb beyond the
// memory available is held to half of it (whole matrices, or an LRU that fills row by row,
// would otherwise fail to allocate mid-run).
double cacheBudgetBytes(double cacheMb) {
    const double available = static_cast<double>(memoryBudget());
    const double asked = cacheMb * kBytesPerMb;
    return available > 0 ? std::min(asked, available / 2) : asked;
}

// Uninitialised memory for a whole kernel matrix. From 2 MB up it is aligned to 2 MB and
// advised as transparent huge pages: a solve first touches rows in no particular order, and on
// a virtual machine one 4 KB page fault can cost ~10 µs (an SMO on 683 examples took 400 of
// them, twice LIBSVM's whole solve); a huge page takes one fault for 512 pages. Smaller blocks
// come from the heap, which hands the pages of a finished solve to the next one. Pages nobody
// touches are never committed either way.
class RowMemory {
  public:
    static constexpr std::size_t kHugePage = std::size_t(2) << 20;

    // The bytes a block of `doubles` occupies once touched (rounded up to huge pages).
    static std::size_t footprint(std::size_t doubles) {
        const std::size_t bytes = doubles * sizeof(double);
        return bytes >= kHugePage ? (bytes + kHugePage - 1) / kHugePage * kHugePage : bytes;
    }

    explicit RowMemory(std::size_t doubles) {
        const std::size_t bytes = footprint(doubles);
        void* p = bytes >= kHugePage ? std::aligned_alloc(kHugePage, bytes) : std::malloc(bytes);
        if (p == nullptr) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (bytes >= kHugePage) madvise(p, bytes, MADV_HUGEPAGE);  // advice only
#endif
        data_.reset(static_cast<double*>(p));
    }
    double* data() const {
        return data_.get();
    }

  private:
    struct Free {
        void operator()(double* p) const { std::free(p); }
    };
    std::unique_ptr<double[], Free> data_;
};

// Slots of `rowLength` doubles for at most `capacity` keys, least recently used evicted.
// Slots are allocated on first use and reused after that: memory never exceeds
// capacity · rowLength · 8 bytes.
class RowLru {
  public:
    void configure(int capacity, int rowLength) {
        capacity_ = std::max(capacity, 1);
        rowLength_ = rowLength;
        slots_.clear();
        keys_.clear();
        prev_.clear();
        next_.clear();
        clear();
    }
    int capacity() const { return capacity_; }

    // The slot of `key`, marked most recent; null when absent.
    double* find(long long key) {
        const auto it = slotOf_.find(key);
        if (it == slotOf_.end()) return nullptr;
        touch(it->second);
        return slots_[it->second].get();
    }
    // A slot for `key` (absent), evicting the least recently used when full; its contents are
    // to be written by the caller.
    double* insert(long long key) {
        int slot;
        if (static_cast<int>(slots_.size()) < capacity_) {
            slot = static_cast<int>(slots_.size());
            slots_.emplace_back(new double[static_cast<std::size_t>(rowLength_)]);
            keys_.push_back(key);
            prev_.push_back(-1);
            next_.push_back(-1);
        } else if (free_ >= 0) {
            slot = free_;
            free_ = next_[slot];
            keys_[slot] = key;
        } else {
            slot = tail_;
            unlink(slot);
            slotOf_.erase(keys_[slot]);
            keys_[slot] = key;
        }
        pushFront(slot);
        slotOf_.emplace(key, slot);
        return slots_[slot].get();
    }
    // Forgets every key; the slots stay allocated for reuse.
    void clear() {
        slotOf_.clear();
        head_ = tail_ = -1;
        free_ = -1;
        for (int s = static_cast<int>(slots_.size()) - 1; s >= 0; --s) {
            prev_[s] = -1;
            next_[s] = free_;
            free_ = s;
        }
        slotOf_.reserve(static_cast<std::size_t>(capacity_));
    }
    std::size_t bytes() const {
        return slots_.size() * static_cast<std::size_t>(rowLength_) * sizeof(double);
    }

  private:
    void unlink(int s) {
        if (prev_[s] >= 0)
            next_[prev_[s]] = next_[s];
        else
            head_ = next_[s];
        if (next_[s] >= 0)
            prev_[next_[s]] = prev_[s];
        else
            tail_ = prev_[s];
        prev_[s] = next_[s] = -1;
    }
    void pushFront(int s) {
        prev_[s] = -1;
        next_[s] = head_;
        if (head_ >= 0) prev_[head_] = s;
        head_ = s;
        if (tail_ < 0) tail_ = s;
    }
    void touch(int s) {
        if (head_ == s) return;
        unlink(s);
        pushFront(s);
    }

    int capacity_ = 1;
    int rowLength_ = 0;
    std::vector<std::unique_ptr<double[]>> slots_;
    std::vector<long long> keys_;
    std::vector<int> prev_, next_;
    int head_ = -1, tail_ = -1, free_ = -1;
    std::unordered_map<long long, int> slotOf_;
};

}  // namespace

double kernelValue(const KernelSpec& spec, const Dataset& a, int i, const Dataset& b, int j) {
    if (spec.type == KernelType::Precomputed) return featureValue(a, i, j);
    const RowView ra = rowView(a, i);
    const RowView rb = rowView(b, j);
    const double dot = dotRows(ra, rb, spec.features);
    if (spec.type != KernelType::Gaussian) return fromInner(spec, dot, 0.0, 0.0);
    return fromInner(spec, dot, squaredNorm(ra, spec.features), squaredNorm(rb, spec.features));
}

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
    };
    struct Kernel {
        KernelSpec spec;
        int group = -1;               // −1: precomputed
        Eigen::VectorXd rawDiagonal;  // K(i, i) before normalisation
        Eigen::VectorXd rowFactor;    // diagonal: 1/√K(i, i) (0 where K(i, i) = 0)
        bool identity = true;         // normalisation leaves the kernel as it is
        double scale = 1.0;           // trace factor
        // Whole mode: m × m, row-major, filled row by row. Allocated uninitialised, so that the
        // pages of rows a solve never asks for are never touched (nor zeroed).
        std::optional<RowMemory> matrix;
        std::vector<char> computed;  // row i filled
        std::size_t rowsHeld = 0;
    };

    std::shared_ptr<const Dataset> train;
    std::vector<KernelSpec> specs;
    KernelNormalization normalization = KernelNormalization::None;
    int m = 0;
    std::vector<Group> groups;
    std::vector<Kernel> kernels;
    bool whole = false;
    RowLru lru;
    Eigen::ArrayXd expScratch;
    long long rowsComputed = 0;

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
                     KernelNormalization normalization, double cacheMb)
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
    const Dataset& data = *d.train;
    d.m = data.size();
    const int m = d.m;
    const int dimension = data.dimension();
    if (m < 1) throw std::invalid_argument("KernelSet: the training set has no examples");

    for (const KernelSpec& spec : d.specs) {
        Impl::Kernel kernel;
        kernel.spec = spec;
        if (spec.type == KernelType::Precomputed) {
            if (d.specs.size() > 1) {
                throw std::invalid_argument(
                    "'precomputed' cannot be combined with other kernels (the file holds one "
                    "kernel)");
            }
            if (dimension != m) {
                throw std::invalid_argument(
                    "precomputed kernel '" + data.source + "' is " + std::to_string(m) + " × " +
                    std::to_string(dimension) + "; expected a square matrix (" + std::to_string(m) +
                    " training examples × " + std::to_string(m) + " kernel values)");
            }
            if (normalization == KernelNormalization::Diagonal) {
                throw std::invalid_argument(
                    "precomputed kernel cannot be normalised by its diagonal (a new point's "
                    "K(z, z) is not in the file); use normalize none or trace");
            }
            for (int i = 0; i < m; ++i) {
                for (int j = i + 1; j < m; ++j) {
                    const double a = featureValue(data, i, j);
                    const double b = featureValue(data, j, i);
                    if (std::abs(a - b) > 1e-9 * std::max(std::abs(a), std::abs(b))) {
                        throw std::invalid_argument(
                            "precomputed kernel '" + data.source + "' is not symmetric: K(" +
                            std::to_string(i + 1) + ", " + std::to_string(j + 1) +
                            ") = " + formatReal(a) + " but K(" + std::to_string(j + 1) + ", " +
                            std::to_string(i + 1) + ") = " + formatReal(b));
                    }
                }
            }
            kernel.rawDiagonal.resize(m);
            for (int i = 0; i < m; ++i)
                kernel.rawDiagonal[i] = featureValue(data, i, i);
        } else {
            for (const int f : spec.features) {
                if (f < 0 || f >= dimension) {
                    throw std::invalid_argument("kernel '" + spec.label() + "': feature " +
                                                std::to_string(f + 1) + " is outside 1.." +
                                                std::to_string(dimension));
                }
            }
            // The group of kernels over the same features.
            auto same = std::find_if(d.groups.begin(), d.groups.end(),
                                     [&](const auto& g) { return g.features == spec.features; });
            if (same == d.groups.end()) {
                Impl::Group g;
                g.features = spec.features;
                g.sparse = data.sparseStorage;
                if (spec.features.empty()) {
                    g.dense = &data.dense;
                    g.sparseMatrix = &data.sparse;
                } else if (g.sparse) {
                    // The group's column of a feature by a sorted search (features are
                    // sorted), not a table as long as the largest index.
                    const std::vector<int>& features = spec.features;
                    std::vector<Eigen::Triplet<double, int>> entries;
                    for (int i = 0; i < m; ++i) {
                        for (Dataset::SparseMatrix::InnerIterator it(data.sparse, i); it; ++it) {
                            const auto at =
                                std::lower_bound(features.begin(), features.end(), it.col());
                            if (at != features.end() && *at == it.col()) {
                                entries.emplace_back(i, static_cast<int>(at - features.begin()),
                                                     it.value());
                            }
                        }
                    }
                    g.sparseCopy = sparseFromTriplets(m, static_cast<int>(spec.features.size()),
                                                      std::move(entries));
                } else {
                    g.denseCopy.resize(m, static_cast<int>(spec.features.size()));
                    for (std::size_t t = 0; t < spec.features.size(); ++t)
                        g.denseCopy.col(static_cast<int>(t)) = data.dense.col(spec.features[t]);
                }
                same = d.groups.insert(d.groups.end(), std::move(g));
            }
            kernel.group = static_cast<int>(same - d.groups.begin());
        }
        d.kernels.push_back(std::move(kernel));
    }
    // Pointers into copies are fixed only now that the vector of groups no longer moves.
    for (Impl::Group& g : d.groups) {
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
    for (Impl::Kernel& kernel : d.kernels) {
        if (kernel.group >= 0) {
            const Eigen::VectorXd& norms = d.groups[kernel.group].norms;
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
                                            "': K(x, x) = " + formatReal(v) +
                                            " on training example " + std::to_string(i + 1) +
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

    const double budget = cacheBudgetBytes(cacheMb);
    const double rowBytes = static_cast<double>(m) * sizeof(double);
    const auto matrixBytes =
        static_cast<double>(RowMemory::footprint(static_cast<std::size_t>(m) * m));
    d.whole = static_cast<double>(d.kernels.size()) * matrixBytes <= budget;
    if (!d.whole) d.lru.configure(static_cast<int>(budget / rowBytes), m);
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

const double* KernelSet::row(int k, int i) {
    Impl& d = *impl_;
    if (d.whole) {
        Impl::Kernel& kernel = d.kernels[k];
        const auto m = static_cast<std::size_t>(d.m);
        if (!kernel.matrix) {
            kernel.matrix.emplace(m * m);
            kernel.computed.assign(m, 0);
        }
        double* out = kernel.matrix->data() + static_cast<std::size_t>(i) * m;
        if (!kernel.computed[static_cast<std::size_t>(i)]) {
            d.computeRow(k, i, out);
            kernel.computed[static_cast<std::size_t>(i)] = 1;
            ++kernel.rowsHeld;
        }
        return out;
    }
    const long long key = static_cast<long long>(k) * d.m + i;
    if (double* hit = d.lru.find(key)) return hit;
    double* out = d.lru.insert(key);
    d.computeRow(k, i, out);
    return out;
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
    return impl_->whole;
}

std::size_t KernelSet::bytes() const {
    const Impl& d = *impl_;
    if (!d.whole) return d.lru.bytes();
    std::size_t total = 0;
    for (const Impl::Kernel& kernel : d.kernels)
        total += kernel.rowsHeld * static_cast<std::size_t>(d.m) * sizeof(double);
    return total;
}

long long KernelSet::rowsComputed() const {
    return impl_->rowsComputed;
}

// ---- KernelQ ----

struct KernelQ::Impl {
    KernelSet* kernels = nullptr;
    Eigen::VectorXd y;
    Eigen::VectorXd beta;
    Eigen::VectorXd diagonal;
    int m = 0;
    // One base kernel held whole: rows are y_i β y ∘ K_i formed in a ring of two buffers
    // instead of a second copy of the matrix.
    bool direct = false;
    std::vector<double> ring[2];
    int nextRing = 0;
    RowLru lru;
    long long rowsComputed = 0;

    void setWeights(const Eigen::VectorXd& b) {
        const int K = kernels->kernels();
        if (b.size() != K) {
            throw std::invalid_argument("KernelQ: " + std::to_string(b.size()) + " weights for " +
                                        std::to_string(K) + " kernels");
        }
        for (int k = 0; k < K; ++k) {
            if (!(b[k] >= 0.0) || !std::isfinite(b[k])) {
                throw std::invalid_argument("KernelQ: weight " + std::to_string(k + 1) + " = " +
                                            formatReal(b[k]) + ": must be finite and >= 0");
            }
        }
        beta = b;
        diagonal = Eigen::VectorXd::Zero(m);
        for (int k = 0; k < K; ++k) {
            if (beta[k] == 0.0) continue;
            for (int i = 0; i < m; ++i)
                diagonal[i] += beta[k] * kernels->diagonal(k, i);
        }
        lru.clear();
    }
};

KernelQ::KernelQ(KernelSet& kernels, Eigen::VectorXd y, Eigen::VectorXd beta, double cacheMb)
    : impl_(std::make_unique<Impl>()) {
    Impl& d = *impl_;
    d.kernels = &kernels;
    d.m = kernels.examples();
    if (y.size() != d.m) {
        throw std::invalid_argument("KernelQ: " + std::to_string(y.size()) + " labels for " +
                                    std::to_string(d.m) + " examples");
    }
    for (int i = 0; i < d.m; ++i) {
        if (y[i] != 1.0 && y[i] != -1.0) {
            throw std::invalid_argument("KernelQ: labels must be -1/+1 (example " +
                                        std::to_string(i + 1) + " has " + formatReal(y[i]) + ")");
        }
    }
    if (!(cacheMb >= 1.0)) {
        throw std::invalid_argument("KernelQ: cache_mb = " + formatReal(cacheMb) +
                                    ": must be >= 1");
    }
    d.y = std::move(y);
    d.direct = kernels.kernels() == 1 && kernels.fullyCached();
    if (d.direct) {
        d.ring[0].resize(static_cast<std::size_t>(d.m));
        d.ring[1].resize(static_cast<std::size_t>(d.m));
    } else {
        const double rowBytes = static_cast<double>(d.m) * sizeof(double);
        const double rows = std::min(cacheBudgetBytes(cacheMb) / rowBytes, double(d.m));
        d.lru.configure(std::max(2, static_cast<int>(rows)), d.m);
    }
    d.setWeights(beta);
}

KernelQ::~KernelQ() = default;

int KernelQ::size() const {
    return impl_->m;
}
KernelSet& KernelQ::kernels() const {
    return *impl_->kernels;
}
const Eigen::VectorXd& KernelQ::labels() const {
    return impl_->y;
}
const Eigen::VectorXd& KernelQ::weights() const {
    return impl_->beta;
}
void KernelQ::setWeights(const Eigen::VectorXd& beta) {
    impl_->setWeights(beta);
}

const double* KernelQ::row(int i) {
    Impl& d = *impl_;
    const int m = d.m;
    const double yi = d.y[i];
    if (d.direct) {
        double* out = d.ring[d.nextRing].data();
        d.nextRing ^= 1;
        const double factor = yi * d.beta[0];
        Eigen::Map<Eigen::ArrayXd> q(out, m);
        const Eigen::Map<const Eigen::ArrayXd> base(d.kernels->row(0, i), m);
        q = factor * d.y.array() * base;
        return out;
    }
    if (double* hit = d.lru.find(i)) return hit;
    double* out = d.lru.insert(i);
    Eigen::Map<Eigen::ArrayXd> q(out, m);
    q.setZero();
    const int K = d.kernels->kernels();
    for (int k = 0; k < K; ++k) {
        if (d.beta[k] == 0.0) continue;
        q += d.beta[k] * Eigen::Map<const Eigen::ArrayXd>(d.kernels->row(k, i), m);
    }
    q *= yi * d.y.array();
    ++d.rowsComputed;
    return out;
}

double KernelQ::diagonal(int i) const {
    return impl_->diagonal[i];
}

long long KernelQ::rowsComputed() const {
    return impl_->direct ? impl_->kernels->rowsComputed() : impl_->rowsComputed;
}

}  // namespace cplab
