// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/portable_random.h"

#include <cmath>

namespace cplab {

double PortableRandom::uniform() {
    return static_cast<double>(bits() >> 11) * 0x1.0p-53;
}

std::uint64_t PortableRandom::below(std::uint64_t n) {
    // Accept only draws below the largest multiple of n that fits in 2^64, so that every
    // residue is equally likely. (0 - n) % n == 2^64 mod n in unsigned arithmetic.
    const std::uint64_t rejectBelow = (0 - n) % n;
    for (;;) {
        const std::uint64_t x = bits();
        if (x >= rejectBelow) return x % n;
    }
}

double PortableRandom::discPoint(double& u, double& v) {
    for (;;) {
        u = 2.0 * uniform() - 1.0;
        v = 2.0 * uniform() - 1.0;
        const double s = std::fma(u, u, v * v);
        if (s > 0.0 && s < 1.0) return s;
    }
}

double PortableRandom::normal() {
    if (hasSpare_) {
        hasSpare_ = false;
        return spare_;
    }
    double u = 0.0;
    double v = 0.0;
    const double s = discPoint(u, v);
    const double factor = std::sqrt(-2.0 * portableLog(s) / s);
    spare_ = v * factor;
    hasSpare_ = true;
    return u * factor;
}

std::pair<double, double> PortableRandom::unitCircle() {
    double u = 0.0;
    double v = 0.0;
    const double r = std::sqrt(discPoint(u, v));
    return {u / r, v / r};
}

double portableLog(double x) {
    // x = m·2^e with m in [1/√2, √2); ln m = 2·atanh(t), t = (m−1)/(m+1), |t| ≤ 0.1716, and
    // the odd series of atanh up to t^25 is below one ulp.
    int e = 0;
    double m = std::frexp(x, &e);  // m in [0.5, 1), exact
    if (m < 0.70710678118654752440) {
        m *= 2.0;
        --e;
    }
    const double t = (m - 1.0) / (m + 1.0);
    const double t2 = t * t;
    constexpr int kTerms = 13;  // 1/1, 1/3, ..., 1/25
    double series = 1.0 / (2 * kTerms - 1);
    for (int k = kTerms - 2; k >= 0; --k)
        series = std::fma(series, t2, 1.0 / (2 * k + 1));
    constexpr double kLn2 = 0.69314718055994530942;
    return std::fma(static_cast<double>(e), kLn2, (2.0 * t) * series);
}

double portableSin(double x) {
    constexpr double kPi = 3.14159265358979323846;
    constexpr double kTwoPi = 2.0 * kPi;
    double r = std::fma(-std::nearbyint(x / kTwoPi), kTwoPi, x);  // r in [−π, π]
    if (r > kPi / 2) r = kPi - r;                                 // fold onto [−π/2, π/2]
    if (r < -kPi / 2) r = -kPi - r;
    // Taylor series to r^25: |r|^27/27! < 1e-23 on [−π/2, π/2].
    const double r2 = r * r;
    double series = 1.0;
    for (int k = 12; k >= 1; --k)
        series = 1.0 - series * r2 / ((2.0 * k) * (2.0 * k + 1.0));
    return r * series;
}

}  // namespace cplab
