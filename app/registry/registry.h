// SPDX-License-Identifier: GPL-3.0-or-later
// The catalogue the GUI and the CLI share, gathered from the registered families: problems,
// solvers with their options, and demos. Both front ends create problems and solvers only
// through these functions, so a run with the same options gives the same numbers in both.
// Qt-free: cplab-cli links it without Qt Widgets.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "families/families.h"
#include "family.h"

namespace cplab {

const std::vector<ProblemInfo>& problemCatalog();
const std::vector<SolverInfo>& solverCatalog();
const std::vector<DemoInfo>& demoCatalog();

const ProblemInfo* findProblem(const std::string& name);
const SolverInfo* findSolver(const std::string& name);
const DemoInfo* findDemo(const std::string& name);
const Family* findFamily(const std::string& name);
// The family of a problem, solver or demo (null when unknown).
const Family* familyOfSolver(const std::string& solver);
const Family* familyOfDemo(const DemoInfo& demo);
std::vector<const SolverInfo*> solversForFamily(const std::string& family);

// The group a solver form shows `option` in, as the solvers that have it declare it
// (SolverInfo::groups; the first such solver's in the catalogue); Method for a name no solver
// has.
OptionGroup optionGroup(const std::string& option);

// The built-in problem of that name (with its family's problem options); null and *why when
// unknown.
ProblemPtr makeProblem(const std::string& name, std::string* why);
ProblemPtr makeProblem(const std::string& name, const OptionValues& problemOptions,
                       std::string* why);

// Which family reads a data file, and as what: the one rule for the GUI and the CLI. The file
// is opened and sniffed once (data_format.h); its format is the best match of the format
// table. The family is `preferredFamily` when that family reads the format, else the first
// family in the list that does. Null family and *why when the file cannot be read or no family
// reads its format.
struct ReaderChoice {
    DataSource source;
    const Family* family = nullptr;
};
ReaderChoice chooseReader(const std::string& path, const std::string& preferredFamily,
                          std::string* why);

// A data file as a problem: of the family chooseReader picks with `preferredFamily`. Null and
// *why on failure.
ProblemPtr loadProblemFile(const std::string& path, const std::string& preferredFamily,
                           const OptionValues& problemOptions, std::string* why);

// One "key=value" (of --set, --problem-set, or the GUI's --solvers) into `values`; false and
// *why ("expects key=value, got 'x'") when there is no key or no '='.
bool parseOptionAssignment(const std::string& text, OptionValues* values, std::string* why);

// Parses and validates `options` for `solver` without building it (cheap; for forms).
bool checkSolverOptions(const std::string& solver, const OptionValues& options, std::string* why);

// A solver for `problem` with `options` (text values; missing ones take their defaults).
// Returns null with *why when the solver is unknown, belongs to another family, an option
// is unknown or does not parse, or a value is out of range (the options' own validation).
std::unique_ptr<Solver> makeSolver(const std::string& solver, const ProblemInstance& problem,
                                   const OptionValues& options, std::string* why);

}  // namespace cplab
