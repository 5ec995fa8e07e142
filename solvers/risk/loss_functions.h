// SPDX-License-Identifier: GPL-3.0-or-later
// Per-example losses ℓ(s, y) of risk.h and their derivatives ∂ℓ/∂s, shared by Risk (the passes
// over the data) and the exact line search (values of f(k) along a line). Internal to
// solvers/risk: other modules use Risk.
//
// Each function takes the K scores of one example (K = 1 except multi-class), its label as the
// loss reads it (±1, the class index 0..K−1, or the target) and returns ℓ; when `c` is not
// null it also stores a subgradient ∂ℓ/∂s (K entries), with the choices at kinks that risk.h
// documents: the zero side at a hinge's kink, the lowest maximising class for multi-class.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

#include "risk/risk.h"

namespace cplab::detail {

// z where z > 0 (or NaN), else +0, with a bit mask instead of a branch: near the optimum the
// sign of a hinge's argument is a coin toss per example, a mispredicted branch costs more than
// the whole loss, and compilers turn max(z, 0) into one.
inline double positivePart(double z) {
    const std::uint64_t keep = std::uint64_t{0} - static_cast<std::uint64_t>(!(z <= 0.0));
    return std::bit_cast<double>(std::bit_cast<std::uint64_t>(z) & keep);
}

// max(0, 1 − y s); derivative −y where 1 − y s > 0, else 0 (also at the kink).
inline double hingeLoss(double s, double y, double* c) {
    const double z = 1.0 - y * s;
    if (c) *c = z > 0.0 ? -y : 0.0;
    return positivePart(z);
}

// log(1 + exp(−y s)); derivative −y σ(−y s). One exp and one log1p: with e = exp(−|z|),
// log(1 + exp(−z)) = max(−z, 0) + log1p(e) and σ(−z) = e/(1 + e) (z ≥ 0) or 1/(1 + e).
inline double logisticLoss(double s, double y, double* c) {
    const double z = y * s;
    const double e = std::exp(-std::abs(z));
    if (c) *c = -y * (z >= 0.0 ? e / (1.0 + e) : 1.0 / (1.0 + e));
    return (z < 0.0 ? -z : 0.0) + std::log1p(e);
}

// max(0, 1 − y s)²; derivative −2 y max(0, 1 − y s).
inline double squaredHingeLoss(double s, double y, double* c) {
    const double z = positivePart(1.0 - y * s);
    if (c) *c = -2.0 * y * z;
    return z * z;
}

// max(0, |s − y| − ε); derivative sign(s − y) outside the tube, 0 inside and on its border.
inline double epsilonInsensitiveLoss(double s, double y, double epsilon, double* c) {
    const double r = s - y;
    if (r > epsilon) {
        if (c) *c = 1.0;
        return r - epsilon;
    }
    if (r < -epsilon) {
        if (c) *c = -1.0;
        return -r - epsilon;
    }
    if (c) *c = 0.0;
    return 0.0;
}

// max_k ([k ≠ y] + s_k − s_y) over the K scores s[0], s[stride], …, s[(K−1)·stride];
// derivative e_k* − e_y for the lowest maximising class k* (0 when k* = y), written densely
// to c[0..K).
inline double multiclassLoss(const double* s, int stride, int y, int K, double* c) {
    const double sy = s[static_cast<long>(y) * stride];
    double best = -INFINITY;
    int kstar = 0;
    for (int k = 0; k < K; ++k) {
        const double v = (k != y ? 1.0 : 0.0) + s[static_cast<long>(k) * stride] - sy;
        if (v > best) {
            best = v;
            kstar = k;
        }
    }
    if (c) {
        for (int k = 0; k < K; ++k)
            c[k] = 0.0;
        if (kstar != y) {
            c[kstar] = 1.0;
            c[y] = -1.0;
        }
    }
    return best;
}

// ℓ of a single-output loss (every kind but Multiclass).
inline double scalarLoss(LossKind kind, double s, double y, double epsilon, double* c) {
    switch (kind) {
        case LossKind::Hinge:
            return hingeLoss(s, y, c);
        case LossKind::Logistic:
            return logisticLoss(s, y, c);
        case LossKind::SquaredHinge:
            return squaredHingeLoss(s, y, c);
        case LossKind::EpsilonInsensitive:
            return epsilonInsensitiveLoss(s, y, epsilon, c);
        case LossKind::Multiclass:
            break;
    }
    return NAN;
}

}  // namespace cplab::detail
