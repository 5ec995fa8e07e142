// The catalogue the GUI and the CLI share: problems (built-in functions, polytopes, later
// datasets), solvers with their options, and demo presets. Both front ends create solvers
// only through makeSolver(), so a run with the same options gives the same numbers in both.
// Qt-free: cplab-cli links it without Qt Widgets.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bmrm/linear_svm.h"
#include "core/options.h"
#include "core/solver.h"
#include "data/load_options.h"

namespace cplab {

class ConvexFunction;
struct PolytopeProblem;

// Problem families; a solver works on the problems of its family.
inline constexpr const char* kFamilyNonsmooth = "nonsmooth";
inline constexpr const char* kFamilyPolytope = "polytope";
inline constexpr const char* kFamilyLinear = "linear";  // datasets for linear models

// Size and seed of the generated 2-D demo sets offered as built-in problems.
inline constexpr int kGeneratedExamples = 200;
inline constexpr int kGeneratedSeed = 1;

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
    LinearProblem linear;                             // linear (train, optional test)
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

// Where the test set of a linear problem comes from: a file, or a held-out fraction of the
// training data (Dataset::split with `seed`), or none.
struct TestSetSpec {
    std::string file;
    double fraction = 0.0;
    std::uint64_t seed = 1;
};

// A data file: CSV when the name ends in .csv or .csv.gz, else LIBSVM/SVMlight text (gzip
// detected by content). Throws DataError naming the file and line.
Dataset loadDataFile(const std::string& path, const LoadOptions& options = {});

// A linear problem from a data file (LIBSVM/SVMlight text, or CSV when the name ends in .csv
// or .csv.gz; gzip detected by content) or a built-in one (`builtin`, when `path` is empty),
// with the test set of `test`. nullptr and *why (file, line and what was expected) on failure.
std::shared_ptr<const ProblemInstance> makeLinearProblem(const std::string& path,
                                                         const std::string& builtin,
                                                         const TestSetSpec& test, std::string* why);

// Parses and validates `options` for `solver` without building it (cheap; for forms).
bool checkSolverOptions(const std::string& solver, const OptionValues& options, std::string* why);

// A solver for `problem` with `options` (text values; missing ones take their defaults).
// Returns nullptr with *why when the solver is unknown, belongs to another family, an option
// is unknown or does not parse, or a value is out of range (the options' own validation).
std::unique_ptr<Solver> makeSolver(const std::string& solver, const ProblemInstance& problem,
                                   const OptionValues& options, std::string* why);

}  // namespace cplab
