// SPDX-License-Identifier: GPL-3.0-or-later
// PortableRandom: seeded random numbers that are bit-identical on every platform and compiler.
//
// Why not <random>'s distributions: std::uniform_real_distribution, std::normal_distribution
// and friends are implementation-defined, so the same seed gives different demo data with
// libstdc++, libc++ and MSVC. std::mt19937_64 itself is fully specified, so we keep the engine
// and build the transforms from IEEE-exact operations (+ - * / sqrt, frexp, floor) only; the
// logarithm and sine below are own polynomial evaluations because libm's may differ in the
// last bit between platforms. Every a·b + c is written as std::fma (correctly rounded by
// IEEE 754 everywhere), because compilers may otherwise contract it into an FMA on one target
// and not on another (GCC does with -march=native even in ISO mode).
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <utility>

namespace cplab {

class PortableRandom {
  public:
    explicit PortableRandom(std::uint64_t seed) : engine_(seed) {}

    // 64 raw bits of std::mt19937_64.
    std::uint64_t bits() { return engine_(); }
    // Uniform on [0, 1) with 53 random bits.
    double uniform();
    // Uniform on [a, b).
    double uniform(double a, double b) { return std::fma(b - a, uniform(), a); }
    // Uniform integer in [0, n); n > 0. Exact (rejection sampling, no modulo bias).
    std::uint64_t below(std::uint64_t n);
    // Standard normal N(0, 1) by Marsaglia's polar method (draws come in pairs; the second
    // one is kept for the next call).
    double normal();
    // A uniformly distributed unit vector (cos θ, sin θ), by rejection from the unit disc.
    std::pair<double, double> unitCircle();

  private:
    // A point uniform in the open unit disc minus the origin; returns its squared radius.
    double discPoint(double& u, double& v);

    std::mt19937_64 engine_;
    double spare_ = 0.0;
    bool hasSpare_ = false;
};

// Natural logarithm for finite x > 0, from + - * / and frexp only (relative error ~1e-16).
double portableLog(double x);
// Sine for finite x of moderate size (|x| < 1e6), from + - * / and nearbyint only.
double portableSin(double x);

}  // namespace cplab
