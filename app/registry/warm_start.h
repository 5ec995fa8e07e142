// SPDX-License-Identifier: GPL-3.0-or-later
// Warm starts after the user edits a problem's points in the GUI (drawn data): a solver for the
// edited problem that starts from a running solver's state where that state stays valid
// (BMRM/OCAS keep the planes that remain lower bounds, SMO keeps α, SILP keeps its LP rows,
// SLMC keeps its expansion vectors). Qt-free, as the registry. What each solver keeps is in
// docs/architecture.md ("Warm starts after an edit").
//
// A solver declares its warm start with its registration (family.h, SolverDeclaration::
// warmStart = warmStartOf<S>()): the solver type S's own warm-start API,
// S::warmStartFrom(const S& previous, std::string* said), or with the example correspondence,
// S::warmStartFrom(const S& previous, const std::vector<int>& previousIndex, std::string*
// said).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/options.h"
#include "core/solver.h"
#include "data/dataset.h"
#include "family.h"

namespace cplab {

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

namespace warm_detail {

// The correspondence between the training sets of two runs of one solver type, whose labels
// were mapped by their classes (all −1 when those differ: the same label may mean another
// class).
template <class S>
std::vector<int> previousIndex(const S& previous, const S& next) {
    const Dataset& after = *next.problem().train;
    if (previous.classes() != next.classes())
        return std::vector<int>(static_cast<std::size_t>(after.size()), -1);
    return exampleCorrespondence(*previous.problem().train, after);
}

// Seeds `fresh` from `previous` when both are S. Empty optional when `fresh` is no S.
template <class S>
std::optional<bool> seedAs(const Solver& previous, Solver& fresh, std::string* said) {
    auto* next = dynamic_cast<S*>(&fresh);
    if (!next) return std::nullopt;
    const auto* before = dynamic_cast<const S*>(&previous);
    if (!before) {
        *said = "the previous run is " + previous.name();
        return false;
    }
    if constexpr (requires { next->warmStartFrom(*before, said); }) {
        return next->warmStartFrom(*before, said);
    } else {
        return next->warmStartFrom(*before, previousIndex(*before, *next), said);
    }
}

}  // namespace warm_detail

// The warm start of solver type S (and of the types derived from it), for its declaration.
template <class S>
WarmStart warmStartOf() {
    return {[](const Solver& previous) { return dynamic_cast<const S*>(&previous) != nullptr; },
            &warm_detail::seedAs<S>};
}

}  // namespace cplab
