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
#include "kernel_set_impl.h"
#include "kernel_values.h"
#include "row_cache.h"

namespace cplab {

namespace {

// Pair-major storage from this many kernels held per example (kernel_set.h): with 10–19 of
// them (german's continuous feature, ionosphere's 17, sonar's 19: bench_mkl) the planes'
// products per kernel (mklPlane) and Q's products over value classes cost less than rows of Q.
constexpr int kPairMajorKernels = 32;
// Pair-major kernels whose doubles exceed this are held in float even when the doubles fit the
// budget: their planes and rows of Q read the whole block at the memory's bandwidth, which
// float halves (the sets of bench_mkl's continuous section, 128-576 MB in float, all lie
// beyond it; a block this small stays near the caches and keeps double's digits).
constexpr double kPairMajorDoubleBytes = 64.0 * 1024.0 * 1024.0;

}  // namespace

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
    const auto doubleBytes = static_cast<double>(RowMemory<double>::footprint(wholeCount));
    const bool floatFirst = precision == KernelPrecision::Compact && full >= kPairMajorKernels &&
                            doubleBytes > kPairMajorDoubleBytes;
    if (!floatFirst && doubleBytes <= room) {
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

Eigen::MatrixXd KernelSet::rowProducts(const Eigen::VectorXd& v, const std::vector<int>& support,
                                       const std::vector<int>& rows) {
    Impl& d = *impl_;
    const int K = kernels();
    const auto R = static_cast<Eigen::Index>(rows.size());
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(R, K);
    std::vector<Eigen::VectorXd> classSums(d.groups.size());
    for (int k = 0; k < K; ++k) {
        if (d.compressed(k)) {
            // Over value classes: (K_classes w)[class of the row], w the sums of v by class.
            const Eigen::MatrixXd& matrix = d.compactOf(k);
            const std::vector<int>& classOf = d.groups[d.kernels[k].group].classOf;
            Eigen::VectorXd& w = classSums[static_cast<std::size_t>(d.kernels[k].group)];
            if (w.size() == 0) {
                w = Eigen::VectorXd::Zero(matrix.rows());
                for (const int j : support)
                    w[classOf[static_cast<std::size_t>(j)]] += v[j];
            }
            for (Eigen::Index r = 0; r < R; ++r)
                out(r, k) = matrix.row(classOf[static_cast<std::size_t>(rows[r])]).dot(w);
        } else if (!d.pairMajor) {
            for (Eigen::Index r = 0; r < R; ++r) {
                const double* row = this->row(k, rows[r]);
                double sum = 0.0;
                for (const int j : support)
                    sum += row[j] * v[j];
                out(r, k) = sum;
            }
        }
    }
    if (d.pairMajor) d.pairRowProducts(v, support, rows, out);
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
