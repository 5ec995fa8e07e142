// SPDX-License-Identifier: GPL-3.0-or-later
// Warm starts after the user edits a problem's points in the GUI (drawn data): a solver for the
// edited problem that starts from a running solver's state where that state stays valid
// (BMRM/OCAS keep the planes that remain lower bounds, SMO keeps α, SILP keeps its LP rows,
// SLMC keeps its expansion vectors). Qt-free, as the registry.
#pragma once

#include <memory>
#include <string>

#include "core/options.h"
#include "core/solver.h"

namespace cplab {

struct ProblemInstance;

// A solver `solverName` with `options` for `edited` (the problem `previous` ran on, with its
// training set edited), seeded from `previous`'s state. Null when the solver cannot start warm
// from that state; then *note says why in a few words ("no warm start for kelley") and the
// caller builds a cold solver (registry.h's makeSolver). Called on the thread that owns
// `previous`.
std::unique_ptr<Solver> warmSolver(const Solver& previous, const std::string& solverName,
                                   const ProblemInstance& edited, const OptionValues& options,
                                   std::string* note);

}  // namespace cplab
