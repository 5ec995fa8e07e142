// SPDX-License-Identifier: GPL-3.0-or-later
// A family of problems and solvers (DESIGN.md, "A family is a plug-in"): its problems and
// data loaders, its solvers with their options (each declared once, in one entry of the
// family's solver table: SolverDeclaration, solverEntry), the codecs of its snapshot types, its
// demos, the sense and names of its bounds, and its hooks for the command line (model files,
// distributed runs). The main window, the CLI and the run
// controller know families only through this interface and the list in families/families.h;
// each family lives in app/registry/families/<family>.{h,cpp} with its maths in solvers/<family>/
// and its view in widgets/<family>_view.{h,cpp}.
//
// Qt-free: cplab-cli links it without Qt Widgets.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/memory_budget.h"
#include "core/options.h"
#include "core/solver.h"
#include "data/data_format.h"
#include "snapshot_codec.h"

namespace cplab {

class Communicator;
struct ExampleSets;

// Whether a problem minimises or maximises. Records keep bounds on the problem's own scale
// (IterationRecord): upper ≥ lower either way, and gap = upper − lower ≥ 0.
enum class Sense { Minimize, Maximize };
const char* toString(Sense sense);  // "minimize", "maximize"

// What the family calls its bounds, for the bounds plot, the status line and the CLI
// (MAP inference: "dual bound U" and "E(best labeling)").
struct BoundLabels {
    std::string upper = "upper bound U";
    std::string lower = "lower bound L";
};

struct ProblemInfo {
    std::string name;
    std::string family;
    std::string title;
    std::string description;
    int dimension = 0;
};

// Where a solver form shows an option (app/gui/option_form.h): what is solved and when to stop
// (C, lambda, kernels, epsilon, max_iterations...), the solver's own method choices, or the
// resources, seeds and inner tolerances that are rarely touched (folded until asked for).
enum class OptionGroup { Common, Method, Advanced };

// The options of a solver that are not in the Method group, by name. A family defines its
// lists once and names them in each solver's declaration; a name the solver does not have is
// ignored (a family's list may cover all of its solvers). The stop options every solver has
// (epsilon, tol_rel, max_iterations, max_seconds) are Common without being listed.
struct OptionGroups {
    std::vector<std::string> common;
    std::vector<std::string> advanced;
};

// How a solver runs over several processes (cplab-cli under mpirun; app/cli/cli_distributed.cpp).
enum class Distributed {
    No,             // one process only
    ExampleShares,  // each process reads its share of the examples (data/shares.h) and the
                    // risk sums over the processes (Family::sharedExamplesProblem)
    WholeData,      // each process reads the whole file and does its share of every oracle
                    // pass (Family::sharedPassesProblem)
};

// How a solver starts from a previous run's state after the user edits the points
// (app/registry/warm_start.h; made by warmStartOf<S>() there). Empty: the solver restarts.
struct WarmStart {
    // Whether `previous` is a run of the type this warm start seeds from.
    bool (*startsFrom)(const Solver& previous) = nullptr;
    // Seeds `fresh` from `previous`: true, or false with *said; nullopt when `fresh` is not of
    // the type (a one-vs-rest machine made of it, say).
    std::optional<bool> (*seed)(const Solver& previous, Solver& fresh, std::string* said) = nullptr;

    explicit operator bool() const { return seed != nullptr; }
};

// A solver as its family declares it, in its entry of the family's solver table (solverEntry,
// Family::addSolvers): everything the app needs of a solver beyond its options struct and its
// type — its names, the form's groups of its options, its warm start after an edit, and
// whether it runs over several processes. Nothing else names the solver.
struct SolverDeclaration {
    std::string name;
    std::string title;
    std::string description;
    OptionGroups groups{};  // the form's groups of its options (the rest: Method)
    WarmStart warmStart{};  // after an edit (empty: it restarts)
    Distributed distributed = Distributed::No;
    // The text of its model file (`cplab-cli run --model`; the family's predict reads it
    // back), for a family whose writeModel asks its solvers (Family::modelTextOf); nullopt for
    // a run of another type (a one-vs-rest machine of it). Null: the family decides alone.
    std::optional<std::string> (*modelText)(const Solver&) = nullptr;
};

// A solver in the catalogue: its declaration, its family and its options with defaults.
struct SolverInfo {
    std::string name;
    std::string family;
    std::string title;
    std::string description;
    std::vector<OptionInfo> options;            // with defaults
    std::map<std::string, OptionGroup> groups;  // every option's group
    WarmStart warmStart{};
    Distributed distributed = Distributed::No;

    // The group of `option` (Method for a name the solver does not have).
    OptionGroup groupOf(const std::string& option) const;
};

struct DemoRun {
    std::string solver;
    OptionValues options;
};

// One beat of a demo's story, told in the caption bar as the demo advances. A beat is reached
// at iteration `iteration` of the shown position, and — with `event` — once a run of the race
// has reported that event by then (a name of core/events.h, e.g. "null step"; "finished":
// every run has stopped). The caption shows the last beat reached.
struct DemoBeat {
    int iteration = 0;
    std::string event;
    std::string text;
};

struct DemoInfo {
    std::string name;
    std::string title;
    std::string description;  // what to watch
    std::string problem;
    std::vector<DemoRun> runs;
    std::vector<DemoBeat> story{};  // 3 to 6 beats, told in the caption bar
};

// The family's data behind an instantiated problem (a function, a polygon, a dataset with
// its test set, a graphical model). Each family derives its own and its solver factories
// cast back to it.
struct ProblemData {
    virtual ~ProblemData() = default;
    // Known facts for summaries (e.g. {"f_star", -0.333}, {"x_star", [...]}).
    virtual SummaryFields summary() const { return {}; }
    // The known optimum, drawn as a reference line in the bounds plot.
    virtual std::optional<double> knownOptimum() const { return std::nullopt; }
    // One line for the log ("heart_scale: 270 examples, 13 features; test set 30 examples").
    virtual std::string details() const { return {}; }
};

// Where a problem came from, so that it can be made again (a session, app/session/session.h; "Copy
// as command line"): a built-in problem by name, or a data file as read; either with the problem
// options given (a test file, the held-out split). Points drawn or edited in the GUI replace
// the training set: `points` holds them as LIBSVM text (empty when none were edited).
struct ProblemOrigin {
    std::string builtin;  // a built-in problem's name, or empty for a data file
    DataSource data;      // the data file (empty path for a built-in)
    OptionValues options;
    std::string points;

    bool operator==(const ProblemOrigin&) const = default;
};

struct ProblemInstance {
    ProblemInfo info;
    std::shared_ptr<const ProblemData> data;
    ProblemOrigin origin{};

    SummaryFields summary() const { return data ? data->summary() : SummaryFields{}; }
    // The data as the family's own type, or null.
    template <class T>
    const T* as() const {
        return dynamic_cast<const T*>(data.get());
    }
};

using ProblemPtr = std::shared_ptr<const ProblemInstance>;

// What `predict` reports: how many examples, and the error under its name ("error", or
// "mean_absolute_error" for regression), then any further measures of the family (the
// structured family's word_error and token count).
struct Prediction {
    long long examples = 0;
    std::string measure;
    double value = 0.0;
    std::vector<std::pair<std::string, double>> more{};
};

// The one boundary between the exceptions of the data and solver layers (DataError,
// std::invalid_argument, std::bad_alloc, ...) and the refusals of the app (*why): runs `work`
// and returns its result or, when it throws, a default result (null, nullopt, false) with the
// message in *why. Families call it once per entry point, not around each call.
template <class Work>
auto refusingThrows(std::string* why, Work&& work) -> decltype(work()) {
    try {
        return work();
    } catch (const std::bad_alloc&) {
        if (why) *why = outOfMemoryMessage();
    } catch (const std::exception& e) {
        if (why) *why = e.what();
    }
    return {};
}

// The options as given: parsed; then Options::applyGiven(options, values) when the options have
// one (a default the user did not give yields to an alternative they did give: expansion_ratio
// alone replaces the default expansion_vectors); validated by isValid; and by
// Options::checkGiven(values, why) when there is one (what was typed that the values alone
// cannot show: a 0 that would read as "unset").
template <class Options>
bool parseGivenOptions(Options& options, const OptionValues& values, std::string* why) {
    if (!assignOptions(options, values, why)) return false;
    if constexpr (requires { Options::applyGiven(options, values); })
        Options::applyGiven(options, values);
    if (!options.isValid(why)) return false;
    if constexpr (requires { Options::checkGiven(values, why); }) {
        return Options::checkGiven(values, why);
    } else {
        return true;
    }
}

// One row of a family's solver table (Family::addSolver): the declaration, and how the
// solver's options are described, checked and the solver is built. Made by solverEntry below;
// a family's table is data, built before the family and read by its constructor.
struct SolverEntry {
    using Describe = std::vector<OptionInfo> (*)();
    using Checker = std::function<bool(const OptionValues&, std::string*)>;
    using Factory = std::function<std::unique_ptr<Solver>(const ProblemInstance&,
                                                          const OptionValues&, std::string*)>;

    SolverDeclaration declaration;
    Describe describe = nullptr;  // the options with their defaults (called once, by the family)
    Checker check;                // parses and validates options without building (forms)
    Factory create;               // a solver for a problem of the family
};

// Hooks of a solver entry on the family's problem data `Data`. Prepare runs before the options
// are parsed: it may add defaults that depend on the data (a precomputed kernel's kernel) or
// refuse data the solver cannot take. Build makes the solver from the data and the parsed,
// validated options.
template <class Data>
using SolverPrepare = std::function<bool(OptionValues& values, const Data& data,
                                         const ProblemInfo& problem, std::string* why)>;
template <class Options, class Data>
using SolverBuild =
    std::function<std::unique_ptr<Solver>(const Data& data, const Options& options)>;

// A solver entry for the options struct `Options` on problems whose data are `Data`. Options
// are parsed (parseGivenOptions) and validated up front, for forms as for runs; a solver that
// reports invalid input at construction is a refusal with its message.
template <class Options, class Data>
SolverEntry solverEntry(SolverDeclaration declaration, SolverBuild<Options, Data> build,
                        SolverPrepare<Data> prepare = {}) {
    SolverEntry entry;
    entry.declaration = std::move(declaration);
    entry.describe = [] { return describeOptions<Options>(); };
    entry.check = [](const OptionValues& values, std::string* why) {
        Options options;
        return parseGivenOptions(options, values, why);
    };
    entry.create = [build, prepare](const ProblemInstance& problem, const OptionValues& values,
                                    std::string* why) -> std::unique_ptr<Solver> {
        const Data* data = problem.as<Data>();
        if (!data) {
            if (why) *why = "the problem '" + problem.info.name + "' carries no data";
            return nullptr;
        }
        OptionValues given = values;
        if (prepare && !prepare(given, *data, problem.info, why)) return nullptr;
        Options options;
        if (!parseGivenOptions(options, given, why)) return nullptr;
        auto solver = build(*data, options);
        if (solver->status().code == StatusCode::InvalidInput) {
            if (why) *why = solver->status().message;
            return nullptr;
        }
        return solver;
    };
    return entry;
}

// The common case: SolverType(argument(data), options), e.g. the data's function or its
// LinearProblem.
template <class Options, class SolverType, class Data, class Argument>
SolverEntry solverEntry(SolverDeclaration declaration, Argument (*argument)(const Data&),
                        std::type_identity_t<SolverPrepare<Data>> prepare = {}) {
    return solverEntry<Options, Data>(
        std::move(declaration),
        [argument](const Data& data, const Options& options) -> std::unique_ptr<Solver> {
            return std::make_unique<SolverType>(argument(data), options);
        },
        std::move(prepare));
}

class Family {
  public:
    virtual ~Family() = default;
    Family(const Family&) = delete;
    Family& operator=(const Family&) = delete;

    // Registry name ("linear"); the same word names its files.
    virtual std::string name() const = 0;
    virtual std::string title() const = 0;
    virtual Sense sense() const { return Sense::Minimize; }
    virtual BoundLabels boundLabels() const { return {}; }

    const std::vector<ProblemInfo>& problems() const;
    const std::vector<SolverInfo>& solvers() const;
    const std::vector<DemoInfo>& demos() const;
    // The codecs of the snapshot types this family's solvers produce (snapshot_codec.h).
    const std::vector<SnapshotCodec>& snapshotCodecs() const;

    // Settings of a problem that are not a solver's (a dataset's test split), with defaults;
    // empty when the family has none.
    virtual std::vector<OptionInfo> problemOptions() const { return {}; }

    // The built-in problem `name` with `problemOptions`; null and *why when unknown.
    virtual ProblemPtr makeProblem(const std::string& name, const OptionValues& problemOptions,
                                   std::string* why) const = 0;

    // Data files: the kinds of data this family reads (solvers/data/data_format.h: examples,
    // kernel rows, sequences, models, images), so that it reads every format of those kinds
    // — a new format of a known kind needs no change here; the formats it reads, and what
    // they are in words ("LIBSVM/SVMlight (.libsvm, .svm) or CSV (.csv)"). None by default.
    // registry.h's chooseReader decides which family takes a file.
    virtual std::vector<DataKind> dataKinds() const { return {}; }
    bool readsFormat(const std::string& format) const;
    std::vector<const DataFormat*> readFormats() const;
    std::string fileFormats() const;
    // A problem from `source` (a format of one of dataKinds()) with `problemOptions`; null and
    // *why (file, line and what was expected) on failure. The default reads no files.
    virtual ProblemPtr loadFile(const DataSource& source, const OptionValues& problemOptions,
                                std::string* why) const;
    // loadFile, with the problem's origin noted (the source and the options).
    ProblemPtr openFile(const DataSource& source, const OptionValues& problemOptions,
                        std::string* why) const;

    // Distributed runs (cplab-cli under mpirun, app/cli/cli_distributed.cpp) of the solvers this
    // family declares `distributed`; a family that declares none keeps the defaults (null).
    // Distributed::ExampleShares: the problem of `shares`, the examples this process read of
    // the file `path` (data/shares.h), whose risk sums over `communicator`'s processes.
    virtual ProblemPtr sharedExamplesProblem(ExampleSets shares, const std::string& path,
                                             std::shared_ptr<Communicator> communicator) const;
    // Distributed::WholeData: `problem` (this family's, read whole by every process) with each
    // oracle pass shared among `communicator`'s processes.
    virtual ProblemPtr sharedPassesProblem(const ProblemInstance& problem,
                                           std::shared_ptr<Communicator> communicator) const;

    // Parses and validates `options` for `solver` without building it (cheap; for forms).
    bool checkSolverOptions(const std::string& solver, const OptionValues& options,
                            std::string* why) const;
    // A solver of this family for `problem` (which must be of this family); null and *why
    // when an option is unknown, does not parse or is out of range, or the data are rejected.
    std::unique_ptr<Solver> makeSolver(const std::string& solver, const ProblemInstance& problem,
                                       const OptionValues& options, std::string* why) const;

    // Model files for `cplab-cli run --model` and `predict`. The defaults write none.
    virtual bool writesModels() const { return false; }
    virtual bool writeModel(const Solver& solver, const std::string& path, std::string* why) const;
    // Model files in a peer's own format (`cplab-cli run --model-format libsvm|liblinear`), for
    // the peer's tools to read: the formats this family writes besides its own, and the writer
    // (false and *why when this run's model cannot be expressed in `format`). The defaults
    // write none.
    virtual std::vector<std::string> peerModelFormats() const { return {}; }
    virtual bool writePeerModel(const Solver& solver, const std::string& path,
                                const std::string& format, std::string* why) const {
        if (why) *why = "the " + name() + " family writes no " + format + " model";
        (void)solver, (void)path;
        return false;
    }
    // 0 when `head` (the first bytes of a file) is not one of this family's models.
    virtual int modelAffinity(const std::string& head) const;
    virtual std::optional<Prediction> predict(const std::string& modelPath,
                                              const std::string& dataPath,
                                              const std::string& outPath, std::string* why) const;

    // Labelings (`cplab-cli run --labeling`): the best labeling of a run, in the family's
    // result format. The defaults write none.
    virtual bool writesLabelings() const { return false; }
    virtual bool writeLabeling(const Solver& solver, const std::string& path,
                               std::string* why) const;

  protected:
    Family() = default;

    // Registration, from the family's constructor: the family's tables, in order.
    void addProblem(ProblemInfo info);
    void addProblems(const std::vector<ProblemInfo>& problems);
    // Each solver's entry (solverEntry) declares everything the app needs of it.
    void addSolvers(const std::vector<SolverEntry>& solvers);
    void addSnapshotCodec(SnapshotCodec codec);
    void addDemos(const std::vector<DemoInfo>& demos);

    // The model file's text of `solver`, a run of this family, by its declaration's modelText;
    // nullopt when it declares none or the run is not of its type.
    std::optional<std::string> modelTextOf(const Solver& solver) const;

  private:
    void addSolver(const SolverEntry& entry);
    const SolverEntry* findEntry(const std::string& solver) const;
    // Appends to an "unknown option 'x'" refusal which other solvers of the family have x.
    void hintOtherSolvers(const std::string& solver, const OptionValues& options,
                          std::string* why) const;

    std::vector<ProblemInfo> problems_;
    std::vector<SolverInfo> solverInfos_;
    std::vector<SolverEntry> solvers_;
    std::vector<DemoInfo> demos_;
    std::vector<SnapshotCodec> codecs_;
};

}  // namespace cplab
