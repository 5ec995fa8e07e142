// Stopping rules shared by every solver (ALGORITHMS.md, conventions): a solver stops when
// the gap upper − lower is ≤ epsilon, or the relative gap ≤ epsilon_rel, or at an iteration
// or time cap, or when cancelled.
#pragma once

#include <string>

#include "options.h"

namespace cplab {

struct StopOptions {
    double epsilon = 1e-6;      // absolute gap tolerance, ≥ 0 (0: only an exact zero gap)
    double epsilon_rel = 0.0;   // relative gap tolerance gap / max(1,|upper|), ≥ 0 (0: off)
    int max_iterations = 1000;  // outer iterations, > 0
    double max_seconds = 0.0;   // solver time limit in seconds, ≥ 0 (0: no limit)

    void visit(OptionVisitor& v) {
        v.real("epsilon", epsilon, "absolute gap tolerance: stop when upper - lower <= epsilon");
        v.real("epsilon_rel", epsilon_rel,
               "relative gap tolerance: stop when gap / max(1,|upper|) <= epsilon_rel (0: off)");
        v.integer("max_iterations", max_iterations, "maximum number of outer iterations (> 0)");
        v.real("max_seconds", max_seconds, "time limit in solver seconds (0: no limit)");
    }

    // `owner` names the options struct in the message ("KelleyOptions").
    bool isValid(const char* owner, std::string* why) const;

    // True when the gap satisfies the absolute or the relative tolerance.
    bool gapReached(double gap, double relGap) const {
        return gap <= epsilon || (epsilon_rel > 0.0 && relGap <= epsilon_rel);
    }
};

}  // namespace cplab
