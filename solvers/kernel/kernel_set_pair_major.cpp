// SPDX-License-Identifier: GPL-3.0-or-later
// KernelSet's pair-major storage (kernel_set.h, pairMajor()): rows of every kernel held per
// example computed at once and stored pair by pair, and the loops over pairs (a plane's
// quadratics, a row of Σₖ βₖ Kₖ) in portable and AVX2 code.
#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

#include "kernel_set_impl.h"

namespace cplab {

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

void KernelSet::Impl::pairRowProducts(const Eigen::VectorXd& v, const std::vector<int>& support,
                                      const std::vector<int>& rows, Eigen::MatrixXd& out) {
    const std::size_t stride = kernelsWhole;
    std::vector<double> acc(stride);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        std::fill(acc.begin(), acc.end(), 0.0);
        withPairRow(rows[r], [&](const auto* row) {
            for (const int j : support) {
                const auto* pair = row + static_cast<std::size_t>(j) * stride;
                const double vj = v[j];
                for (std::size_t s = 0; s < stride; ++s)
                    acc[s] += vj * static_cast<double>(pair[s]);
            }
        });
        for (int k = 0; k < static_cast<int>(kernels.size()); ++k)
            if (!compressed(k)) out(static_cast<Eigen::Index>(r), k) = acc[kernels[k].wholeSlot];
    }
}

}  // namespace cplab
