// SPDX-License-Identifier: GPL-3.0-or-later
// The polytope family: Frank–Wolfe, plain and with away steps, on quadratics over built-in
// polygons (ALGORITHMS.md §9).
#pragma once

#include <memory>

#include "family.h"
#include "polytope/polytope_problem.h"

namespace cplab {

struct PolytopeData final : ProblemData {
    std::shared_ptr<const PolytopeProblem> polytope;

    SummaryFields summary() const override;
    std::optional<double> knownOptimum() const override;
};

const Family& polytopeFamily();

}  // namespace cplab
