// SPDX-License-Identifier: GPL-3.0-or-later
// The inner loops of a TRW-S pass (trws.h), in two builds of the same arithmetic: Portable
// (plain loops, which GCC vectorises for the baseline x86-64, SSE2) and, on x86, Avx2 (four
// doubles per instruction; 16 labels are four registers). TrwsSolver picks Avx2 when the CPU
// has it (__builtin_cpu_supports), so the program itself is built for any x86-64.
//
// Both compute every entry exactly as the scalar formulas below, in the same order of
// operations per label: the results are the same bits, but for the sign of a zero (a max of
// +0 and −0 may keep either), which no later comparison or sum can tell apart. No fused
// multiply-add: the Avx2 functions are compiled for "avx2" alone.
// Internal to trws.cpp. Portable's functions are always inlined; Avx2's carry the "avx2"
// target, which a function built for the baseline may not inline, so the AVX2 pass is one
// flattened function (TrwsSolver::passAvx2: target avx2, everything inlined into it).
#pragma once

#include <algorithm>
#include <cstddef>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CPLAB_TRWS_X86 1
#endif

namespace cplab::trws_kernels {

#define CPLAB_INLINE [[gnu::always_inline]] inline

struct Portable {
    // b[x] = max(θ[x], F).
    CPLAB_INLINE static void floorCopy(double* b, const double* theta, double floor, int k) {
        for (int x = 0; x < k; ++x)
            b[x] = std::max(theta[x], floor);
    }
    // b[x] = max(θ[x], F) + Σ_h hops[h].toMe[x], summed in the order of the hops.
    template <class Hop>
    CPLAB_INLINE static void belief(double* b, const double* theta, double floor, int k,
                                    const Hop* hops, std::size_t count) {
        floorCopy(b, theta, floor, k);
        for (std::size_t h = 0; h < count; ++h) {
            const double* m = hops[h].toMe;
            for (int x = 0; x < k; ++x)
                b[x] += m[x];
        }
    }
    // in[x] = γ·b[x] − mine[x]; returns max_x in[x].
    CPLAB_INLINE static double lambdaMax(const double* b, const double* mine, double gamma, int k,
                                         double* in) {
        double first = in[0] = gamma * b[0] - mine[0];
        for (int x = 1; x < k; ++x) {
            in[x] = gamma * b[x] - mine[x];
            first = std::max(first, in[x]);
        }
        return first;
    }
    // out[y] = max(in[y] + w, first) − top.
    CPLAB_INLINE static void pottsOut(const double* in, double w, double first, double top, int k,
                                      double* out) {
        for (int y = 0; y < k; ++y)
            out[y] = std::max(in[y] + w, first) - top;
    }
    // out[b] = max_a max(row_a[b], F) + in[a] over the ka rows of kb entries.
    CPLAB_INLINE static void denseAlongRows(const double* table, int ka, int kb, const double* in,
                                            double floor, double* out) {
        std::fill(out, out + kb, -__builtin_inf());
        for (int a = 0; a < ka; ++a) {
            const double* row = table + static_cast<std::size_t>(a) * static_cast<std::size_t>(kb);
            const double add = in[a];
            for (int b = 0; b < kb; ++b)
                out[b] = std::max(out[b], std::max(row[b], floor) + add);
        }
    }
    // out[a] = max_b max(row_a[b], F) + in[b].
    CPLAB_INLINE static void denseAcrossRows(const double* table, int ka, int kb, const double* in,
                                             double floor, double* out) {
        for (int a = 0; a < ka; ++a) {
            const double* row = table + static_cast<std::size_t>(a) * static_cast<std::size_t>(kb);
            double best = -__builtin_inf();
            for (int b = 0; b < kb; ++b)
                best = std::max(best, std::max(row[b], floor) + in[b]);
            out[a] = best;
        }
    }
    // The chain bound's links (TrwsSolver::chainStep): in[a] = f[a] − mine[a]; returns
    // max_a in[a].
    CPLAB_INLINE static double chainIn(const double* f, const double* mine, int k, double* in) {
        double first = in[0] = f[0] - mine[0];
        for (int a = 1; a < k; ++a) {
            in[a] = f[a] - mine[a];
            first = std::max(first, in[a]);
        }
        return first;
    }
    // out[y] = max(in[y] + w, first) + (γ·b[y] − theirs[y]).
    CPLAB_INLINE static void chainPotts(const double* in, double w, double first, double gamma,
                                        const double* b, const double* theirs, int k, double* out) {
        for (int y = 0; y < k; ++y)
            out[y] = std::max(in[y] + w, first) + (gamma * b[y] - theirs[y]);
    }
    // out[y] += γ·b[y] − theirs[y].
    CPLAB_INLINE static void chainAdd(double gamma, const double* b, const double* theirs, int k,
                                      double* out) {
        for (int y = 0; y < k; ++y)
            out[y] += gamma * b[y] - theirs[y];
    }
    // The first y with v[y] = max v (0 when all are −∞).
    CPLAB_INLINE static int firstArgmax(const double* v, int k) {
        return static_cast<int>(std::max_element(v, v + k) - v);
    }
    // out[y] −= max_y out[y].
    CPLAB_INLINE static void normalise(double* out, int k) {
        const double top = *std::max_element(out, out + k);
        for (int y = 0; y < k; ++y)
            out[y] -= top;
    }
};

#ifdef CPLAB_TRWS_X86
#define CPLAB_AVX2 [[gnu::target("avx2")]] inline

struct Avx2 {
    CPLAB_AVX2 static double horizontalMax(__m256d v) {
        const __m128d pair = _mm_max_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
        return _mm_cvtsd_f64(_mm_max_sd(pair, _mm_unpackhi_pd(pair, pair)));
    }
    CPLAB_AVX2 static void floorCopy(double* b, const double* theta, double floor, int k) {
        const __m256d f = _mm256_set1_pd(floor);
        int x = 0;
        for (; x + 4 <= k; x += 4)
            _mm256_storeu_pd(b + x, _mm256_max_pd(_mm256_loadu_pd(theta + x), f));
        for (; x < k; ++x)
            b[x] = std::max(theta[x], floor);
    }
    // Four labels at a time with the sum in a register (a store and reload per hop chained
    // the hops' additions through memory).
    template <class Hop>
    CPLAB_AVX2 static void belief(double* b, const double* theta, double floor, int k,
                                  const Hop* hops, std::size_t count) {
        const __m256d f = _mm256_set1_pd(floor);
        int x = 0;
        for (; x + 4 <= k; x += 4) {
            __m256d v = _mm256_max_pd(_mm256_loadu_pd(theta + x), f);
            for (std::size_t h = 0; h < count; ++h)
                v = _mm256_add_pd(v, _mm256_loadu_pd(hops[h].toMe + x));
            _mm256_storeu_pd(b + x, v);
        }
        for (; x < k; ++x) {
            double v = std::max(theta[x], floor);
            for (std::size_t h = 0; h < count; ++h)
                v += hops[h].toMe[x];
            b[x] = v;
        }
    }
    CPLAB_AVX2 static double lambdaMax(const double* b, const double* mine, double gamma, int k,
                                       double* in) {
        if (k < 4) return Portable::lambdaMax(b, mine, gamma, k, in);
        const __m256d g = _mm256_set1_pd(gamma);
        __m256d top = _mm256_set1_pd(-__builtin_inf());
        int x = 0;
        for (; x + 4 <= k; x += 4) {
            const __m256d v =
                _mm256_sub_pd(_mm256_mul_pd(g, _mm256_loadu_pd(b + x)), _mm256_loadu_pd(mine + x));
            _mm256_storeu_pd(in + x, v);
            top = _mm256_max_pd(top, v);
        }
        double first = horizontalMax(top);
        for (; x < k; ++x) {
            in[x] = gamma * b[x] - mine[x];
            first = std::max(first, in[x]);
        }
        return first;
    }
    CPLAB_AVX2 static void pottsOut(const double* in, double w, double first, double top, int k,
                                    double* out) {
        const __m256d vw = _mm256_set1_pd(w);
        const __m256d vf = _mm256_set1_pd(first);
        const __m256d vt = _mm256_set1_pd(top);
        int y = 0;
        for (; y + 4 <= k; y += 4) {
            const __m256d v = _mm256_add_pd(_mm256_loadu_pd(in + y), vw);
            _mm256_storeu_pd(out + y, _mm256_sub_pd(_mm256_max_pd(v, vf), vt));
        }
        for (; y < k; ++y)
            out[y] = std::max(in[y] + w, first) - top;
    }
    // Sixteen columns at a time in four registers over all the rows (the running maxima went
    // through memory once per row), then four, then one.
    CPLAB_AVX2 static void denseAlongRows(const double* table, int ka, int kb, const double* in,
                                          double floor, double* out) {
        const __m256d f = _mm256_set1_pd(floor);
        const auto stride = static_cast<std::size_t>(kb);
        int b = 0;
        for (; b + 16 <= kb; b += 16) {
            __m256d m0 = _mm256_set1_pd(-__builtin_inf());
            __m256d m1 = m0, m2 = m0, m3 = m0;
            const double* row = table + b;
            for (int a = 0; a < ka; ++a, row += stride) {
                const __m256d va = _mm256_set1_pd(in[a]);
                m0 = _mm256_max_pd(m0, _mm256_add_pd(_mm256_max_pd(_mm256_loadu_pd(row), f), va));
                m1 = _mm256_max_pd(m1,
                                   _mm256_add_pd(_mm256_max_pd(_mm256_loadu_pd(row + 4), f), va));
                m2 = _mm256_max_pd(m2,
                                   _mm256_add_pd(_mm256_max_pd(_mm256_loadu_pd(row + 8), f), va));
                m3 = _mm256_max_pd(m3,
                                   _mm256_add_pd(_mm256_max_pd(_mm256_loadu_pd(row + 12), f), va));
            }
            _mm256_storeu_pd(out + b, m0);
            _mm256_storeu_pd(out + b + 4, m1);
            _mm256_storeu_pd(out + b + 8, m2);
            _mm256_storeu_pd(out + b + 12, m3);
        }
        for (; b + 4 <= kb; b += 4) {
            __m256d m0 = _mm256_set1_pd(-__builtin_inf());
            const double* row = table + b;
            for (int a = 0; a < ka; ++a, row += stride)
                m0 = _mm256_max_pd(m0, _mm256_add_pd(_mm256_max_pd(_mm256_loadu_pd(row), f),
                                                     _mm256_set1_pd(in[a])));
            _mm256_storeu_pd(out + b, m0);
        }
        for (; b < kb; ++b) {
            double best = -__builtin_inf();
            for (int a = 0; a < ka; ++a)
                best = std::max(
                    best,
                    std::max(
                        table[static_cast<std::size_t>(a) * stride + static_cast<std::size_t>(b)],
                        floor) +
                        in[a]);
            out[b] = best;
        }
    }
    // The maxima of four registers' lanes: {max r0, max r1, max r2, max r3}.
    CPLAB_AVX2 static __m256d laneMaxima(__m256d r0, __m256d r1, __m256d r2, __m256d r3) {
        const __m256d t0 = _mm256_max_pd(_mm256_unpacklo_pd(r0, r1), _mm256_unpackhi_pd(r0, r1));
        const __m256d t1 = _mm256_max_pd(_mm256_unpacklo_pd(r2, r3), _mm256_unpackhi_pd(r2, r3));
        return _mm256_max_pd(_mm256_permute2f128_pd(t0, t1, 0x20),
                             _mm256_permute2f128_pd(t0, t1, 0x31));
    }
    // max_b of row a's entries (a multiple of 4 of them) in one register's lanes.
    CPLAB_AVX2 static __m256d rowMaxima(const double* row, int kb, const double* in, __m256d f) {
        __m256d best = _mm256_add_pd(_mm256_max_pd(_mm256_loadu_pd(row), f), _mm256_loadu_pd(in));
        for (int b = 4; b < kb; b += 4)
            best = _mm256_max_pd(best, _mm256_add_pd(_mm256_max_pd(_mm256_loadu_pd(row + b), f),
                                                     _mm256_loadu_pd(in + b)));
        return best;
    }
    // Four rows at a time, their horizontal maxima in one transposition (one per row cost
    // as much as the row's sums).
    CPLAB_AVX2 static void denseAcrossRows(const double* table, int ka, int kb, const double* in,
                                           double floor, double* out) {
        if (kb < 4) return Portable::denseAcrossRows(table, ka, kb, in, floor, out);
        const __m256d f = _mm256_set1_pd(floor);
        const auto stride = static_cast<std::size_t>(kb);
        int a = 0;
        if (kb % 4 == 0) {
            for (; a + 4 <= ka; a += 4) {
                const double* row = table + static_cast<std::size_t>(a) * stride;
                _mm256_storeu_pd(out + a, laneMaxima(rowMaxima(row, kb, in, f),
                                                     rowMaxima(row + stride, kb, in, f),
                                                     rowMaxima(row + 2 * stride, kb, in, f),
                                                     rowMaxima(row + 3 * stride, kb, in, f)));
            }
        }
        for (; a < ka; ++a) {
            const double* row = table + static_cast<std::size_t>(a) * stride;
            __m256d best = _mm256_set1_pd(-__builtin_inf());
            int b = 0;
            for (; b + 4 <= kb; b += 4) {
                const __m256d v = _mm256_add_pd(_mm256_max_pd(_mm256_loadu_pd(row + b), f),
                                                _mm256_loadu_pd(in + b));
                best = _mm256_max_pd(best, v);
            }
            double value = horizontalMax(best);
            for (; b < kb; ++b)
                value = std::max(value, std::max(row[b], floor) + in[b]);
            out[a] = value;
        }
    }
    CPLAB_AVX2 static double chainIn(const double* f, const double* mine, int k, double* in) {
        if (k < 4) return Portable::chainIn(f, mine, k, in);
        __m256d top = _mm256_set1_pd(-__builtin_inf());
        int a = 0;
        for (; a + 4 <= k; a += 4) {
            const __m256d v = _mm256_sub_pd(_mm256_loadu_pd(f + a), _mm256_loadu_pd(mine + a));
            _mm256_storeu_pd(in + a, v);
            top = _mm256_max_pd(top, v);
        }
        double first = horizontalMax(top);
        for (; a < k; ++a) {
            in[a] = f[a] - mine[a];
            first = std::max(first, in[a]);
        }
        return first;
    }
    CPLAB_AVX2 static void chainPotts(const double* in, double w, double first, double gamma,
                                      const double* b, const double* theirs, int k, double* out) {
        const __m256d vw = _mm256_set1_pd(w);
        const __m256d vf = _mm256_set1_pd(first);
        const __m256d g = _mm256_set1_pd(gamma);
        int y = 0;
        for (; y + 4 <= k; y += 4) {
            const __m256d pair = _mm256_max_pd(_mm256_add_pd(_mm256_loadu_pd(in + y), vw), vf);
            const __m256d own = _mm256_sub_pd(_mm256_mul_pd(g, _mm256_loadu_pd(b + y)),
                                              _mm256_loadu_pd(theirs + y));
            _mm256_storeu_pd(out + y, _mm256_add_pd(pair, own));
        }
        for (; y < k; ++y)
            out[y] = std::max(in[y] + w, first) + (gamma * b[y] - theirs[y]);
    }
    CPLAB_AVX2 static void chainAdd(double gamma, const double* b, const double* theirs, int k,
                                    double* out) {
        const __m256d g = _mm256_set1_pd(gamma);
        int y = 0;
        for (; y + 4 <= k; y += 4) {
            const __m256d own = _mm256_sub_pd(_mm256_mul_pd(g, _mm256_loadu_pd(b + y)),
                                              _mm256_loadu_pd(theirs + y));
            _mm256_storeu_pd(out + y, _mm256_add_pd(_mm256_loadu_pd(out + y), own));
        }
        for (; y < k; ++y)
            out[y] += gamma * b[y] - theirs[y];
    }
    // The maximum in registers, then the first lane equal to it (a comparison per label with
    // a branch taken at random cost more).
    CPLAB_AVX2 static int firstArgmax(const double* v, int k) {
        if (k < 4) return Portable::firstArgmax(v, k);
        __m256d top = _mm256_loadu_pd(v);
        int y = 4;
        for (; y + 4 <= k; y += 4)
            top = _mm256_max_pd(top, _mm256_loadu_pd(v + y));
        double value = horizontalMax(top);
        for (; y < k; ++y)
            value = std::max(value, v[y]);
        const __m256d vt = _mm256_set1_pd(value);
        y = 0;
        for (; y + 4 <= k; y += 4) {
            const int mask =
                _mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(v + y), vt, _CMP_EQ_OQ));
            if (mask != 0) return y + __builtin_ctz(static_cast<unsigned>(mask));
        }
        for (; y < k; ++y)
            if (v[y] == value) return y;
        return 0;
    }
    CPLAB_AVX2 static void normalise(double* out, int k) {
        if (k < 4) return Portable::normalise(out, k);
        __m256d top = _mm256_loadu_pd(out);
        int y = 4;
        for (; y + 4 <= k; y += 4)
            top = _mm256_max_pd(top, _mm256_loadu_pd(out + y));
        double value = horizontalMax(top);
        for (; y < k; ++y)
            value = std::max(value, out[y]);
        const __m256d vt = _mm256_set1_pd(value);
        y = 0;
        for (; y + 4 <= k; y += 4)
            _mm256_storeu_pd(out + y, _mm256_sub_pd(_mm256_loadu_pd(out + y), vt));
        for (; y < k; ++y)
            out[y] -= value;
    }
};

#undef CPLAB_AVX2
#endif

#undef CPLAB_INLINE

}  // namespace cplab::trws_kernels
