// The catalogue the GUI and the CLI share: problems (built-in functions, polytopes, later
// datasets), solvers with their options, and demo presets. Both front ends create solvers
// only through makeSolver(), so a run with the same options gives the same numbers in both.
// Qt-free: cplab-cli links it without Qt Widgets.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/options.h"
#include "core/solver.h"

namespace cplab {

class ConvexFunction;
struct PolytopeProblem;

// Problem families; a solver works on the problems of its family.
inline constexpr const char* kFamilyNonsmooth = "nonsmooth";
inline constexpr const char* kFamilyPolytope = "polytope";

struct ProblemInfo {
    std::string name;
    std::string family;
    std::string title;
    std::string description;
    int dimension = 0;
};

struct SolverInfo {
    std::string name;
    std::string family;
    std::string title;
    std::string description;
    std::vector<OptionInfo> options;  // with defaults
};

struct DemoRun {
    std::string solver;
    OptionValues options;
};

struct DemoInfo {
    std::string name;
    std::string title;
    std::string description;
    std::string problem;
    std::vector<DemoRun> runs;
};

// An instantiated problem: exactly the member of its family is set.
struct ProblemInstance {
    ProblemInfo info;
    std::shared_ptr<const ConvexFunction> function;   // nonsmooth
    std::shared_ptr<const PolytopeProblem> polytope;  // polytope
    // Known facts for summaries (e.g. {"f_star", -0.333}).
    SummaryFields summary() const;
};

const std::vector<ProblemInfo>& problemCatalog();
const std::vector<SolverInfo>& solverCatalog();
const std::vector<DemoInfo>& demoCatalog();

const ProblemInfo* findProblem(const std::string& name);
const SolverInfo* findSolver(const std::string& name);
const DemoInfo* findDemo(const std::string& name);
std::vector<const SolverInfo*> solversForFamily(const std::string& family);

// The built-in problem of that name; nullptr and *why when unknown.
std::shared_ptr<const ProblemInstance> makeProblem(const std::string& name, std::string* why);

// Parses and validates `options` for `solver` without building it (cheap; for forms).
bool checkSolverOptions(const std::string& solver, const OptionValues& options, std::string* why);

// A solver for `problem` with `options` (text values; missing ones take their defaults).
// Returns nullptr with *why when the solver is unknown, belongs to another family, an option
// is unknown or does not parse, or a value is out of range (the options' own validation).
std::unique_ptr<Solver> makeSolver(const std::string& solver, const ProblemInstance& problem,
                                   const OptionValues& options, std::string* why);

}  // namespace cplab
