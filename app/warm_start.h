// SPDX-License-Identifier: GPL-3.0-or-later
// Warm starts after the user edits a problem's points in the GUI (drawn data): a solver for the
// edited problem that starts from a running solver's state where that state stays valid
// (BMRM/OCAS keep the planes that remain lower bounds, SMO keeps α, SILP keeps its LP rows,
// SLMC keeps its expansion vectors). Qt-free, as the registry. What each solver keeps is in
// docs/architecture.md ("Warm starts after an edit").
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/options.h"
#include "core/solver.h"

namespace cplab {

struct Dataset;
struct ProblemInstance;

// A solver `solverName` with `options` for `edited` (the problem `previous` ran on, with its
// training set edited), seeded from `previous`'s state. Null when the solver cannot start warm
// from that state; then *note says why in a few words ("no warm start for kelley: it
// restarts") and the caller builds a cold solver (registry.h's makeSolver). On success *note
// says what was kept ("warm start: keeps ..."). The solver is built by registry.h's
// makeSolver (options parsed and validated as for a cold one) and then seeded; its records
// start at iteration 0 and its first record and snapshot already show the warm state.
// Called on the thread that owns `previous`; never throws.
std::unique_ptr<Solver> warmSolver(const Solver& previous, const std::string& solverName,
                                   const ProblemInstance& edited, const OptionValues& options,
                                   std::string* note);

// Which example of `before` each example of `after` is: result[i] is the index of an example
// of `before` with the same features (bit for bit, a missing feature 0) and label, each used
// at most once (duplicates pair off in order), or −1 for an added or moved example.
std::vector<int> exampleCorrespondence(const Dataset& before, const Dataset& after);

}  // namespace cplab
