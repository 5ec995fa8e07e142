// SPDX-License-Identifier: GPL-3.0-or-later
// Stopping rules shared by every solver (ALGORITHMS.md, conventions). One gap rule for all:
// a solver stops when the gap U − L ≤ epsilon (absolute) or U − L ≤ tol_rel·|U| (relative,
// libocas's TolRel), or at an iteration or time cap, or when cancelled. Path-following
// solvers (Solver::followsPath) do not stop on the gap: a point of the path is exact and the
// path goes on.
#pragma once

#include <string>

#include "options.h"

namespace cplab {

struct StopOptions {
    double epsilon = 1e-6;  // absolute gap tolerance, ≥ 0 (0: only an exact zero gap)
    double tol_rel = 0.0;   // relative gap tolerance: U − L ≤ tol_rel·|U|, in [0, 1) (0: off)
    int max_iterations = 1000;  // outer iterations, > 0
    double max_seconds = 0.0;   // solver time limit in seconds, ≥ 0 (0: no limit)

    void visit(OptionVisitor& v) {
        v.real("epsilon", epsilon, "absolute gap tolerance: stop when upper - lower <= epsilon");
        v.real("tol_rel", tol_rel,
               "relative gap tolerance: stop when upper - lower <= tol_rel |upper| (0: off)");
        v.integer("max_iterations", max_iterations, "maximum number of outer iterations (> 0)");
        v.real("max_seconds", max_seconds, "time limit in solver seconds (0: no limit)");
    }

    // `owner` names the options struct in the message ("KelleyOptions").
    bool isValid(const char* owner, std::string* why) const;

    // The gap at which a run with upper bound `upper` has converged:
    // max(epsilon, tol_rel·|upper|) (epsilon alone while upper is not finite).
    double gapTolerance(double upper) const;
    // True when the gap satisfies the absolute rule.
    bool absoluteReached(double gap) const { return gap <= epsilon; }
    // True when the gap satisfies the relative rule (never while it is off).
    bool relativeReached(double gap, double upper) const;
    bool gapReached(double gap, double upper) const {
        return absoluteReached(gap) || relativeReached(gap, upper);
    }
};

}  // namespace cplab
