// SPDX-License-Identifier: GPL-3.0-or-later
// warmSolver: builds the solver for the edited problem as registry.h's makeSolver does, then
// seeds it from the previous run through the solver's own warm-start API (dispatch by type).
#include "warm_start.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "bmrm/bmrm.h"
#include "bmrm/dcd.h"
#include "bmrm/ocas.h"
#include "family.h"
#include "kernel/silp.h"
#include "kernel/simplemkl.h"
#include "kernel/svm.h"
#include "registry.h"
#include "sparse/slmc.h"

namespace cplab {

namespace {

// An example as a key: its features as a dense row, then its label.
std::vector<double> exampleKey(const Dataset& data, int i, int dimension) {
    std::vector<double> key(static_cast<std::size_t>(dimension) + 1, 0.0);
    const Eigen::VectorXd row = data.row(i);
    for (Eigen::Index j = 0; j < row.size(); ++j)
        key[static_cast<std::size_t>(j)] = row[j];
    key.back() = data.labels[i];
    return key;
}

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

// Seeds `fresh` from `previous` when both are S: warmStartFrom(previous, why), or with the
// example correspondence when S's warm start takes one. Empty optional when `fresh` is no S.
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

// Whether `solver` is of a type with a warm start (checked before building a new one).
bool warmable(const Solver& solver) {
    return dynamic_cast<const BmrmSolver*>(&solver) || dynamic_cast<const OcasSolver*>(&solver) ||
           dynamic_cast<const DcdSolver*>(&solver) || dynamic_cast<const SvmSolver*>(&solver) ||
           dynamic_cast<const SilpSolver*>(&solver) ||
           dynamic_cast<const SimpleMklSolver*>(&solver) ||
           dynamic_cast<const SlmcSolver*>(&solver);
}

bool seed(const Solver& previous, Solver& fresh, std::string* said) {
    for (auto attempt :
         {seedAs<BmrmSolver>, seedAs<OcasSolver>, seedAs<DcdSolver>, seedAs<SvmSolver>,
          seedAs<SilpSolver>, seedAs<SimpleMklSolver>, seedAs<SlmcSolver>}) {
        if (const std::optional<bool> done = attempt(previous, fresh, said)) return *done;
    }
    said->clear();  // no warm start for this type
    return false;
}

}  // namespace

std::vector<int> exampleCorrespondence(const Dataset& before, const Dataset& after) {
    const int dimension = std::max(before.dimension(), after.dimension());
    std::map<std::vector<double>, std::vector<int>> unused;  // key → indices, last first
    for (int i = before.size() - 1; i >= 0; --i)
        unused[exampleKey(before, i, dimension)].push_back(i);
    std::vector<int> index(static_cast<std::size_t>(after.size()), -1);
    for (int i = 0; i < after.size(); ++i) {
        auto found = unused.find(exampleKey(after, i, dimension));
        if (found == unused.end() || found->second.empty()) continue;
        index[static_cast<std::size_t>(i)] = found->second.back();
        found->second.pop_back();
    }
    return index;
}

std::unique_ptr<Solver> warmSolver(const Solver& previous, const std::string& solverName,
                                   const ProblemInstance& edited, const OptionValues& options,
                                   std::string* note) {
    std::string said;
    std::unique_ptr<Solver> fresh;
    if (warmable(previous)) {
        std::string why;
        fresh = refusingThrows(&why, [&] { return makeSolver(solverName, edited, options, &why); });
        if (!fresh) {
            said = why;
        } else if (!refusingThrows(&said, [&] { return seed(previous, *fresh, &said); })) {
            fresh.reset();
        }
    }
    if (note) {
        *note = fresh ? "warm start: " + fresh->name() + " " + said
                      : "no warm start for " + solverName + ": it restarts" +
                            (said.empty() ? "" : " (" + said + ")");
    }
    return fresh;
}

}  // namespace cplab
