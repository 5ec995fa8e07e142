// SPDX-License-Identifier: GPL-3.0-or-later
// warmSolver: builds the solver for the edited problem as registry.h's makeSolver does, then
// seeds it from the previous run by the warm start the solver's registration declares.
#include "warm_start.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "family.h"
#include "registry.h"

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

// Whether `solver` is of a type some solver's warm start seeds from (checked before building
// a new one).
bool warmable(const Solver& solver) {
    for (const SolverInfo& info : solverCatalog())
        if (info.warmStart && info.warmStart.startsFrom(solver)) return true;
    return false;
}

// Seeds `fresh`, a `solverName`, from `previous` by the warm start its declaration names.
bool seed(const Solver& previous, Solver& fresh, const std::string& solverName, std::string* said) {
    const SolverInfo* info = findSolver(solverName);
    if (info && info->warmStart) {
        if (const std::optional<bool> done = info->warmStart.seed(previous, fresh, said))
            return *done;
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
        } else if (!refusingThrows(&said,
                                   [&] { return seed(previous, *fresh, solverName, &said); })) {
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
