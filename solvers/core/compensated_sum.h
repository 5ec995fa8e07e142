// SPDX-License-Identifier: GPL-3.0-or-later
// CompensatedSum: a sum of doubles carried as an unevaluated pair hi + lo (Neumaier's
// compensated summation; hi + lo is exact after each add up to O(u²)·Σ|xᵢ|). Parts of a sum
// (threads, ranks) merge pair to pair, and only value() rounds, once: so a sum split in any
// way into parts — one process or N, one thread or T — rounds to the same double unless its
// exact value lies within about n·u²·Σ|xᵢ| of a rounding boundary (a chance of some 1e-10 per
// sum for a million terms without cancellation). This is what makes a distributed run's
// numbers equal one process's (issue #32): a plain sum's last bit depends on the grouping,
// and a cutting-plane method amplifies that bit over its iterations.
#pragma once

namespace cplab {

struct CompensatedSum {
    double hi = 0.0;
    double lo = 0.0;

    void add(double x) {
        const double t = hi + x;
        const double xPart = t - hi;
        lo += (hi - (t - xPart)) + (x - xPart);
        hi = t;
    }
    void add(const CompensatedSum& other) {
        add(other.hi);
        lo += other.lo;
    }
    double value() const { return hi + lo; }
};

}  // namespace cplab
