// SPDX-License-Identifier: GPL-3.0-or-later
// One row of a run's trace: the scalars every solver reports after each outer iteration,
// plus family-specific columns whose names the solver lists in Solver::extraColumns().
//
// Bounds are on the problem's own scale and sense (ProblemInfo::sense): for a minimisation
// `upper` is the best objective found and `lower` a certified bound; for a maximisation (MAP
// inference) `upper` is a certified dual bound and `lower` the best value found. Either way
// upper ≥ lower and gap = upper − lower ≥ 0.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace cplab {

struct IterationRecord {
    int iteration = 0;          // 1-based number of the outer iteration just finished
    double seconds = 0.0;       // solver time so far (excludes pauses and GUI delays)
    long long oracleCalls = 0;  // calls of the problem's oracle so far (f/subgradient, risk, SVM…)
    double upper = std::numeric_limits<double>::infinity();   // upper bound U
    double lower = -std::numeric_limits<double>::infinity();  // lower bound L
    double gap = std::numeric_limits<double>::infinity();     // upper − lower
    // Effective passes over the data so far (online and block-coordinate solvers are compared
    // per pass). A solver that leaves it NaN gets passes = oracleCalls: a batch oracle call
    // reads every example once.
    double passes = std::numeric_limits<double>::quiet_NaN();
    // The path parameter of a path-following solver at this point (λ of a regularisation
    // path); NaN for every other solver.
    double pathParameter = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> extra;  // family fields, same order as Solver::extraColumns()
    // What this step did: a mask of Event bits (core/events.h; eventNames() reads it). The
    // snapshot's `events` hold the texts.
    std::uint32_t events = 0;

    // gap / max(1, |upper|), the relative gap of ALGORITHMS.md.
    double relGap() const { return gap / std::max(1.0, std::abs(upper)); }
    bool hasPathParameter() const { return !std::isnan(pathParameter); }
};

}  // namespace cplab
