// One row of a run's trace: the scalars every solver reports after each outer iteration,
// plus family-specific columns whose names the solver lists in Solver::extraColumns().
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace cplab {

struct IterationRecord {
    int iteration = 0;          // 1-based number of the outer iteration just finished
    double seconds = 0.0;       // solver time so far (excludes pauses and GUI delays)
    long long oracleCalls = 0;  // calls of the problem's oracle so far (f/subgradient, risk, SVM…)
    double upper = std::numeric_limits<double>::infinity();   // best objective found
    double lower = -std::numeric_limits<double>::infinity();  // certified lower bound
    double gap = std::numeric_limits<double>::infinity();     // upper − lower
    std::vector<double> extra;  // family fields, same order as Solver::extraColumns()

    // gap / max(1, |upper|), the relative gap of ALGORITHMS.md.
    double relGap() const { return gap / std::max(1.0, std::abs(upper)); }
};

}  // namespace cplab
