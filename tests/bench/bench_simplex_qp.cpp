// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark (not a unit test): the reduced QP of BMRM and the proximal bundle method grown one
// plane at a time (SimplexQp::addVariable + a warm solve() per plane), against one cold solve
// of the final problem (solveSimplexQp from the best vertex). The instances are those of the
// unit test tests/solvers/math/test_simplex_qp.cpp largeWarmGrowthMatchesCold (same
// generator and seeds), which asserts only that the answers agree; the times are here. There
// is no target: the numbers are context for the QP's share of a long BMRM or bundle run.
//
//   warm growth   sum of the t solve() calls (the additions and H's columns excluded)
//   cold          one solveSimplexQp on the final t × t problem
//
// Each row is measured --runs times (medians, range in brackets). The exit code is 0 unless
// the benchmark itself cannot run: it is a report.
//
// Usage: bench_simplex_qp [--runs N]
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <numbers>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench_common.h"
#include "math/simplex_qp.h"

namespace {

using bench::Clock;
using bench::fmt;
using bench::header;
using bench::loadAverage;
using bench::median;
using bench::parseRuns;
using bench::secondsSince;
using cplab::SimplexQp;
using cplab::SimplexQpResult;
using Eigen::MatrixXd;
using Eigen::VectorXd;

// The unit test's portable normal variates (the std distributions are implementation-defined).
class Normal {
  public:
    explicit Normal(std::uint64_t seed) : engine_(seed) {}
    double operator()() {
        const double u1 = (static_cast<double>(engine_() >> 11) + 0.5) * 0x1.0p-53;
        const double u2 = static_cast<double>(engine_() >> 11) * 0x1.0p-53;
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
    }

  private:
    std::mt19937_64 engine_;
};

struct Row {
    const char* label;
    int t, n;
    double bScale;
};

struct Measurement {
    double warmSeconds = 0.0, coldSeconds = 0.0;
    long long warmIterations = 0;
    int coldIterations = 0, support = 0;
    bool converged = true;
    double objectiveDifference = 0.0;  // |q_warm − q_cold| / max(1, |q_cold|)
};

Measurement measure(const Row& row) {
    const int t = row.t, n = row.n;
    Normal normal(2024u + static_cast<std::uint64_t>(t + n));
    MatrixXd A(n, t);
    VectorXd b(t);
    for (int j = 0; j < t; ++j) {
        for (int i = 0; i < n; ++i)
            A(i, j) = normal() / std::sqrt(static_cast<double>(n));
        b(j) = row.bScale * normal();
    }
    Measurement m;
    SimplexQp qp;
    VectorXd column;
    for (int k = 0; k < t; ++k) {
        column = A.leftCols(k + 1).transpose() * A.col(k);
        qp.addVariable(column, b(k));
        const auto start = Clock::now();
        const SimplexQpResult result = qp.solve();
        m.warmSeconds += secondsSince(start);
        m.converged = m.converged && result.converged;
        m.warmIterations += result.iterations;
    }
    m.support = static_cast<int>((qp.alpha().array() > 0).count());
    const MatrixXd H = A.transpose() * A;
    VectorXd alpha;  // empty: start from the best vertex
    const auto start = Clock::now();
    const SimplexQpResult cold = cplab::solveSimplexQp(H, b, alpha);
    m.coldSeconds = secondsSince(start);
    m.coldIterations = cold.iterations;
    m.converged = m.converged && cold.converged;
    m.objectiveDifference =
        std::abs(qp.objective() - cold.objective) / std::max(1.0, std::abs(cold.objective));
    return m;
}

std::string msText(const std::vector<double>& seconds) {
    const auto [lo, hi] = std::minmax_element(seconds.begin(), seconds.end());
    return fmt("%.1f", 1e3 * median(seconds)) + " ms [" + fmt("%.1f", 1e3 * *lo) + "-" +
           fmt("%.1f", 1e3 * *hi) + "]";
}

}  // namespace

int main(int argc, char** argv) {
    int runs = 3;
    if (!parseRuns(argc, argv, &runs)) return 2;

    std::cout << header("bench_simplex_qp") << "; medians of " << runs
              << " runs, other processes may share the CPU)\n"
              << "t planes in dimension n; warm growth: t warm solve() calls, one per added "
                 "plane; cold: one solve of the final problem. No target (context).\n";

    // The rows of test_simplex_qp's largeWarmGrowthMatchesCold: random offsets (small
    // support, as in BMRM on most data) and equal offsets (support ≈ n + 1).
    const std::vector<Row> rows = {{"t=1000 n=50 random b", 1000, 50, 0.3},
                                   {"t=2000 n=50 random b", 2000, 50, 0.3},
                                   {"t=1000 n=250 equal b", 1000, 250, 0.0},
                                   {"t=2000 n=250 equal b", 2000, 250, 0.0}};
    for (const Row& row : rows) {
        std::vector<double> warm, cold;
        Measurement last;
        for (int run = 0; run < runs; ++run) {
            last = measure(row);
            warm.push_back(last.warmSeconds);
            cold.push_back(last.coldSeconds);
        }
        std::cout << row.label << ": warm growth " << msText(warm) << " in " << row.t << " solves ("
                  << fmt("%.3f", 1e3 * median(warm) / row.t) << " ms each, " << last.warmIterations
                  << " inner iterations), final support " << last.support << "; cold solve "
                  << msText(cold) << " (" << last.coldIterations
                  << " iterations); warm growth / cold " << fmt("%.2f", median(warm) / median(cold))
                  << "x; objectives agree to " << fmt("%.1e", last.objectiveDifference)
                  << (last.converged ? "" : "; NOT CONVERGED") << "\n";
    }
    return 0;
}
