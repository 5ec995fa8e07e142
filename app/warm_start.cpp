// SPDX-License-Identifier: GPL-3.0-or-later
#include "warm_start.h"

namespace cplab {

std::unique_ptr<Solver> warmSolver(const Solver& /*previous*/, const std::string& solverName,
                                   const ProblemInstance& /*edited*/,
                                   const OptionValues& /*options*/, std::string* note) {
    if (note) *note = "no warm start for " + solverName + ": it restarts";
    return nullptr;
}

}  // namespace cplab
