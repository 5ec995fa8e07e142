// SPDX-License-Identifier: GPL-3.0-or-later
// The nonsmooth family: Kelley's cutting planes and the proximal bundle method on built-in
// convex test functions of one or two variables (ALGORITHMS.md §1–2).
#pragma once

#include <memory>

#include "family.h"
#include "nonsmooth/convex_function.h"

namespace cplab {

// A test function over its box, with its known minimum.
struct NonsmoothProblem final : ProblemData {
    std::shared_ptr<const ConvexFunction> function;

    SummaryFields summary() const override;
    std::optional<double> knownOptimum() const override;
};

const Family& nonsmoothFamily();

}  // namespace cplab
