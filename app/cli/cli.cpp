// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"

#include <sys/stat.h>
#include <unistd.h>

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStringList>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "cli_commands.h"
#include "cli_report.h"
#include "core/live_trace.h"
#include "core/output_file.h"
#include "core/trace_csv.h"
#include "data/text_io.h"
#include "registry.h"
#include "version.h"

namespace cplab {

namespace cli_detail {

namespace {

// SIGINT/SIGTERM (installCliSignalHandling): the first signal received, and the token every run
// of this process polls.
std::atomic<int> gSignal{0};
// Whether this process is one of several (setCliCommunicator): then only the same signal again
// ends it at once, as a launcher may follow a user's signal by its own (mpirun's SIGTERM to the
// ranks, then SIGKILL after odls_base_sigkill_timeout).
std::atomic<bool> gOneOfSeveral{false};
// True while a stop at the next iteration boundary is the right answer to a signal (a run and
// the writing of its outputs); at other times a signal ends the process at once.
std::atomic<bool> gStopsCleanly{false};

// A run loading its data (noteRunLoading), and the FILE.running it took then with its identity:
// a signal that ends the process before the run begins says so, and removes that file if it is
// still the run's.
struct LoadingRun {
    std::mutex mutex;
    bool active = false;
    std::string running;
    dev_t device = 0;
    ino_t inode = 0;
};
LoadingRun& loadingRun() {
    static LoadingRun run;
    return run;
}

// For the signal thread before it ends the process outside a clean stop.
void abandonLoadingRun(int signal) {
    LoadingRun& run = loadingRun();
    const std::lock_guard lock(run.mutex);
    if (!run.active) return;
    struct stat now {};
    if (!run.running.empty() && ::stat(run.running.c_str(), &now) == 0 &&
        now.st_dev == run.device && now.st_ino == run.inode)
        ::unlink(run.running.c_str());
    const std::string line = std::string("cplab-cli: ended by ") + signalName(signal) +
                             " before the run began (its data were loading): nothing written\n";
    [[maybe_unused]] const auto n = ::write(STDERR_FILENO, line.data(), line.size());
}

const CancelToken& interruptToken() {
    static const CancelToken token;
    return token;
}

// The processes of this run (setCliCommunicator).
std::shared_ptr<Communicator>& communicatorSlot() {
    static std::shared_ptr<Communicator> slot = std::make_shared<SingleProcess>();
    return slot;
}

}  // namespace

int signalReceived() {
    return gSignal.load();
}

const char* signalName(int signal) {
    return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a signal";
}

void noteRunLoading(bool loading, const std::string& tracePath) {
    LoadingRun& run = loadingRun();
    const std::lock_guard lock(run.mutex);
    run.active = loading;
    run.running.clear();
    struct stat taken {};
    const std::string running = runningTracePath(tracePath);
    if (!loading || tracePath.empty() || ::stat(running.c_str(), &taken) != 0) return;
    run.running = running;
    run.device = taken.st_dev;
    run.inode = taken.st_ino;
}

CleanStopSpan::CleanStopSpan() {
    noteRunLoading(false);  // the run stops cleanly and removes its FILE.running from now on
    gStopsCleanly = true;
}
CleanStopSpan::~CleanStopSpan() {
    gStopsCleanly = false;
}

const char* const kUsage =
    "usage:\n"
    "  cplab-cli --version\n"
    "  cplab-cli list [--json]\n"
    "  cplab-cli run SOLVER (--problem NAME | --data FILE) [--test FILE | --test-fraction F\n"
    "                [--seed S]] [--data-set key=value ...] [--problem-set key=value ...]\n"
    "                [--set key=value ...] [--trace out.csv] [--model out.txt]\n"
    "                [--model-format cplab|libsvm|liblinear] [--labeling out.MAP] [--json]\n"
    "                [--quiet] [--function F (--domain D | --polygon P)]\n"
    "  cplab-cli predict --model FILE --data FILE [--out predictions.txt] [--json]\n"
    "  cplab-cli demo NAME [--json] [--trace-prefix PREFIX] [--quiet]\n"
    "  cplab-cli session FILE.cplab [--json] [--trace-prefix PREFIX] [--quiet]\n"
    "  cplab-cli lecture FILE.cplab-lecture [--json]\n"
    "\n"
    "  list   problems, solvers with their options and defaults, and demos\n"
    "  run    run one solver; progress on stderr, summary on stdout (JSON with --json)\n"
    "  demo   run a built-in demo headless (all of its runs)\n"
    "  session  re-run a session saved by cplab (all of its runs; compared with the numbers\n"
    "         stored in it, if any)\n"
    "  predict  apply a model written by 'run --model' to a data file\n"
    "  lecture  check a lecture of the app (its sessions there, unchanged) and list its slides\n"
    "\n"
    "exit status: 0 converged, stalled or limit reached, 1 invalid input or options,\n"
    "2 numerical failure, 130/143 stopped by SIGINT/SIGTERM (outputs written)\n";

}  // namespace cli_detail

using namespace cli_detail;

void installCliSignalHandling() {
    std::signal(SIGPIPE, SIG_IGN);
    std::signal(SIGXFSZ, SIG_IGN);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    // Blocked in every thread (those started later inherit the mask); one thread waits for
    // them, so the handling is ordinary code rather than an asynchronous handler.
    if (pthread_sigmask(SIG_BLOCK, &set, nullptr) != 0) return;
    std::thread([set] {
        for (;;) {
            int signal = 0;
            if (sigwait(&set, &signal) != 0) continue;
            int first = 0;
            const bool second = !gSignal.compare_exchange_strong(first, signal);
            // One of several processes: a launcher's SIGTERM after a user's SIGINT is no
            // insistence (the launcher's SIGKILL follows anyway).
            const bool insists = second && (!gOneOfSeveral || first == signal);
            if (!gStopsCleanly) abandonLoadingRun(signal);
            if (insists || !gStopsCleanly) std::_Exit(kExitSignalBase + signal);
            interruptToken().cancel();
        }
    }).detach();
}

void setCliCommunicator(std::shared_ptr<Communicator> communicator) {
    if (!communicator) return;
    gOneOfSeveral = communicator->size() > 1;
    cli_detail::communicatorSlot() = std::move(communicator);
}

int exitStatusFor(const Status& status) {
    switch (status.code) {
        case StatusCode::Converged:
        case StatusCode::IterationLimit:
        case StatusCode::TimeLimit:
        case StatusCode::Cancelled:
        case StatusCode::Stalled:
        case StatusCode::Running:
            return kExitOk;
        case StatusCode::InvalidInput:
            return kExitInvalid;
        case StatusCode::NumericalFailure:
            return kExitNumerical;
    }
    return kExitNumerical;
}

namespace cli_detail {

Communicator& cliCommunicator() {
    return *communicatorSlot();
}
std::shared_ptr<Communicator> cliCommunicatorShared() {
    return communicatorSlot();
}

// Runs `solver` to the end with throttled progress lines (the first 10 iterations, then at
// most about 5 per second, and the last); hooks.onRecord gets every record.
RunResult runSolver(Solver& solver, const std::string& label, bool quiet, std::ostream& err,
                    const RunHooks& hooks) {
    using Clock = std::chrono::steady_clock;
    solver.setCancelToken(hooks.token ? *hooks.token : interruptToken());
    auto lastPrint = Clock::now();
    // A step that takes seconds (an oracle pass with thousands of labels) reports from inside.
    if (!quiet) {
        solver.setProgressSink([&err, &label](const std::string& text) {
            err << label << " ... " << text << '\n' << std::flush;
        });
    }
    std::size_t recorded = 0;
    solve(solver, [&](const Solver&, const IterationRecord& r) {
        for (; hooks.onRecord && recorded < solver.trace().size(); ++recorded)
            hooks.onRecord(solver.trace()[recorded]);
        if (hooks.afterIteration) hooks.afterIteration();
        const auto now = Clock::now();
        if (r.iteration > 10 && now - lastPrint < std::chrono::milliseconds(200)) return;
        lastPrint = now;
        if (!quiet) printProgress(err, label, r);
    });
    if (!quiet && !solver.trace().empty() && solver.trace().back().iteration > 10) {
        printProgress(err, label, solver.trace().back());
    }
    RunResult result;
    result.solver = solver.name();
    result.status = solver.status();
    if (const int signal = gSignal.load();
        signal != 0 && result.status.code == StatusCode::Cancelled) {
        result.status.message = std::string("stopped by ") + signalName(signal) + " after " +
                                std::to_string(solver.lastRecord().iteration) + " iterations";
    }
    result.last = solver.lastRecord();
    result.fields = solver.summary();
    return result;
}

// ---- argument parsing ----------------------------------------------------------------------

// Parses `args` (without the command word) with `parser`; on failure returns the message in
// the CLI's words.
std::optional<std::string> parse(QCommandLineParser& parser, const std::vector<std::string>& args,
                                 const std::string& command) {
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsOptions);
    QStringList list{q("cplab-cli " + command)};
    for (const auto& a : args)
        list << q(a);
    if (parser.parse(list)) return std::nullopt;
    const QStringList unknown = parser.unknownOptionNames();
    if (!unknown.isEmpty()) {
        for (const auto& a : args) {
            const QString arg = q(a);
            const QString name = arg.section('=', 0, 0).remove(QRegularExpression("^-+"));
            if (arg.startsWith('-') && name == unknown.first()) {
                return "unknown argument '" + a + "'";
            }
        }
        return "unknown argument '" + unknown.first().toStdString() + "'";
    }
    // "Missing value after '--set'." and the like.
    return command + ": " + parser.errorText().toStdString();
}

}  // namespace cli_detail

namespace {

// One `key=value` of --set or --problem-set into `values`.
std::optional<std::string> addAssignments(const QStringList& items, const char* flag,
                                          OptionValues& values) {
    for (const QString& item : items) {
        std::string why;
        if (!parseOptionAssignment(item.toStdString(), &values, &why)) {
            return std::string(flag) + " " + why;
        }
    }
    return std::nullopt;
}

// --test, --test-fraction and --seed into the problem options of `a`.
std::optional<std::string> parseTestSplit(const QCommandLineParser& parser,
                                          const QCommandLineOption& test,
                                          const QCommandLineOption& fraction,
                                          const QCommandLineOption& seed, RunArguments& a) {
    // The test split flags are the problem options test, test_fraction and seed of a family
    // that reads datasets; the family checks them again. As there, a fraction of 0 (or -0)
    // holds nothing out.
    double f = 0.0;
    if (parser.isSet(fraction)) {
        const std::string text = parser.value(fraction).toStdString();
        if (parseReal(text, f) != NumberError::None || !(f >= 0 && f < 1)) {
            return "--test-fraction expects a number in [0, 1) (0: no held-out set), got '" + text +
                   "'";
        }
        a.problemOptions["test_fraction"] = f == 0 ? "0" : text;
    }
    if (parser.isSet(seed)) {
        const std::string text = parser.value(seed).toStdString();
        double s = 0.0;
        if (parseReal(text, s) != NumberError::None || s < 0 || s != std::floor(s) || s > 9e15) {
            return "--seed expects a non-negative integer, got '" + text + "'";
        }
        a.problemOptions["seed"] = text;
    }
    if (parser.isSet(test)) a.problemOptions["test"] = parser.value(test).toStdString();
    if (parser.isSet(test) && parser.isSet(fraction) && f != 0) {
        return std::string("give either --test FILE or --test-fraction F, not both");
    }
    return std::nullopt;
}

// Whether the family of `solver` has the problem option `name` (true when the solver is
// unknown: its own error comes later).
bool takesProblemOption(const std::string& solver, const std::string& name) {
    const Family* family = familyOfSolver(solver);
    if (!family) return true;
    for (const auto& o : family->problemOptions())
        if (o.name == name) return true;
    return false;
}

// The family's problem that the shorthands type: its problem named "typed..." ("typed" of the
// nonsmooth family, "typed_polygon" of the polytope family); "typed" when the solver is unknown.
std::string typedProblemOf(const std::string& solver) {
    const Family* family = familyOfSolver(solver);
    if (!family) return "typed";
    for (const auto& p : family->problems())
        if (p.name.rfind("typed", 0) == 0) return p.name;
    return {};
}

// Why --domain or --polygon does not fit the solver's family (the other one's place named).
std::optional<std::string> shapeMismatch(const QCommandLineParser& parser,
                                         const QCommandLineOption& domain,
                                         const QCommandLineOption& polygon,
                                         const std::string& solver) {
    const bool box = takesProblemOption(solver, "domain");
    const bool corners = takesProblemOption(solver, "polygon");
    if (parser.isSet(domain) && !box)
        return corners ? "--domain is the box of kelley and bundle: " + solver +
                             " takes its polygon as --polygon 'x,y x,y x,y ...'"
                       : "--domain: " + solver + " takes no typed function";
    if (parser.isSet(polygon) && !corners)
        return box ? "--polygon is Frank-Wolfe's: " + solver +
                         " takes a box, --domain lo:hi or lo:hi,lo:hi"
                   : "--polygon: " + solver + " takes no typed function";
    return std::nullopt;
}

// --function F with --domain D (kelley, bundle) or --polygon P (frank_wolfe): shorthands for
// --problem typed|typed_polygon --problem-set function=F --problem-set domain=D|polygon=P (the
// typed functions, docs/nonsmooth.md and docs/structured.md). --polygon alone: the polygon
// with the family's default function.
std::optional<std::string> typedFunctionShorthands(const QCommandLineParser& parser,
                                                   const QCommandLineOption& function,
                                                   const QCommandLineOption& domain,
                                                   const QCommandLineOption& polygon,
                                                   RunArguments& a) {
    for (const auto& [option, key] :
         {std::pair{&function, "function"}, {&domain, "domain"}, {&polygon, "polygon"}}) {
        if (!parser.isSet(*option)) continue;
        if (parser.values(*option).size() > 1)
            return "--" + std::string(key) + " given more than once";
        if (a.problemOptions.count(key))
            return "give either --" + std::string(key) + " or --problem-set " + key +
                   "=..., not both";
        a.problemOptions[key] = parser.value(*option).toStdString();
    }
    if (auto error = shapeMismatch(parser, domain, polygon, a.solver)) return error;
    const char* types = parser.isSet(function) ? "--function" : "--polygon";
    if (!parser.isSet(function) && !parser.isSet(polygon)) {
        if (parser.isSet(domain) && a.problem.empty())
            return std::string("--domain needs --function F (a typed function of x and y)");
        return std::nullopt;
    }
    const std::string typed = typedProblemOf(a.solver);
    if (typed.empty()) return std::string(types) + ": " + a.solver + " takes no typed function";
    if (a.problem.empty() && a.data.empty()) a.problem = typed;
    if (a.problem != typed)
        return std::string(types) + " types its own problem: give it without --problem " +
               a.problem + (a.data.empty() ? "" : " or --data");
    return std::nullopt;
}

std::optional<std::string> parseRunArguments(const std::vector<std::string>& args,
                                             RunArguments& a) {
    QCommandLineParser parser;
    const QCommandLineOption problem("problem", "built-in problem", "NAME");
    const QCommandLineOption data("data", "data file", "FILE");
    const QCommandLineOption test("test", "test file", "FILE");
    const QCommandLineOption fraction("test-fraction", "held-out fraction", "F");
    const QCommandLineOption seed("seed", "seed of the held-out split", "S");
    const QCommandLineOption set("set", "solver option", "key=value");
    const QCommandLineOption problemSet("problem-set", "problem option", "key=value");
    const QCommandLineOption dataSet("data-set", "reader option of the data's format", "key=value");
    const QCommandLineOption trace("trace", "trace CSV", "FILE");
    const QCommandLineOption model("model", "model file", "FILE");
    const QCommandLineOption modelFormat("model-format", "model file format", "FORMAT");
    const QCommandLineOption labeling("labeling", "labeling file", "FILE");
    const QCommandLineOption json("json", "JSON summary");
    const QCommandLineOption quiet("quiet", "no progress lines");
    const QCommandLineOption function("function", "typed function of x (and y)", "F");
    const QCommandLineOption domain("domain", "its box, lo:hi or lo:hi,lo:hi", "D");
    const QCommandLineOption polygon("polygon", "frank_wolfe's polygon, x,y x,y x,y ...", "P");
    parser.addOptions({problem, data, test, fraction, seed, set, problemSet, dataSet, trace, model,
                       modelFormat, labeling, json, quiet, function, domain, polygon});
    if (auto error = parse(parser, args, "run")) return error;
    for (const auto& once :
         {problem, data, test, fraction, seed, trace, model, modelFormat, labeling}) {
        if (parser.values(once).size() > 1) {
            return "--" + once.names().first().toStdString() + " given more than once";
        }
    }
    for (const auto& output : {trace, model, labeling}) {
        if (parser.isSet(output) && parser.value(output).isEmpty())
            return "--" + output.names().first().toStdString() + " needs a file name";
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty()) return std::string("run: missing SOLVER (see 'cplab-cli list')");
    if (positional.size() > 1) return "unexpected argument '" + positional[1].toStdString() + "'";
    a.solver = positional[0].toStdString();
    a.problem = parser.value(problem).toStdString();
    a.data = parser.value(data).toStdString();
    a.model = parser.value(model).toStdString();
    a.modelFormat = parser.value(modelFormat).toStdString();
    if (!a.modelFormat.empty() && a.model.empty())
        return std::string("--model-format needs --model FILE");
    a.labeling = parser.value(labeling).toStdString();
    a.trace = parser.value(trace).toStdString();
    a.json = parser.isSet(json);
    a.quiet = parser.isSet(quiet);
    if (auto error = addAssignments(parser.values(set), "--set", a.options)) return error;
    if (auto error = addAssignments(parser.values(problemSet), "--problem-set", a.problemOptions))
        return error;
    if (auto error = addAssignments(parser.values(dataSet), "--data-set", a.dataOptions))
        return error;
    if (!a.dataOptions.empty() && !parser.isSet(data))
        return std::string("--data-set: the options of a data file's reader need --data FILE");
    if (auto error = parseTestSplit(parser, test, fraction, seed, a)) return error;
    return typedFunctionShorthands(parser, function, domain, polygon, a);
}

}  // namespace

std::optional<std::string> cli_detail::outputsProblem(const std::vector<Output>& outputs) {
    namespace fs = std::filesystem;
    const auto normal = [](const std::string& path) {
        std::error_code ec;
        const fs::path absolute = fs::absolute(path, ec);
        return ec ? fs::path(path) : fs::weakly_canonical(absolute, ec);
    };
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const Output& o = outputs[i];
        if (o.path.empty()) continue;
        try {
            checkOutputPath(o.path);
        } catch (const std::exception& e) {
            return std::string(o.flag) + ": " + e.what();
        }
        for (std::size_t j = 0; j < i; ++j) {
            const Output& p = outputs[j];
            if (p.path.empty()) continue;
            if (sameFile(o.path, p.path) || normal(o.path) == normal(p.path)) {
                return std::string(o.flag) + " " + o.path + " and " + p.flag + " " + p.path +
                       " are one file: give each output a file of its own";
            }
        }
    }
    return std::nullopt;
}

namespace {

// The files a single-process run writes, by their flags.
std::vector<Output> runOutputs(const RunArguments& a) {
    return {{"--model", a.model}, {"--labeling", a.labeling}, {"--trace", a.trace}};
}

bool hasProblemOption(const Family& family, const std::string& name) {
    for (const auto& o : family.problemOptions()) {
        if (o.name == name) return true;
    }
    return false;
}

}  // namespace

void cli_detail::reportRun(const RunResult& result, const ProblemInstance& problem, bool json,
                           std::ostream& out, std::ostream& err) {
    if (json) {
        writeJson(out, summaryJson(result, problem));
    } else {
        writeSummaryText(out, result, problem);
    }
    // A run that ends in failure says why on stderr too (an invalid input found during the
    // run: a model whose every labeling has probability zero, memory that ran out).
    if (result.status.code == StatusCode::NumericalFailure ||
        result.status.code == StatusCode::InvalidInput) {
        err << "cplab-cli: " << result.status.message << '\n';
    }
}

// Writes a finished run's trace, model and labeling as `a` asks; 0, or kExitInvalid when one
// could not be written. A failed run's model would replace a good one with garbage: it writes
// none, and neither does a run stopped before its first iteration (its trace is written).
int cli_detail::writeRunOutputs(const RunArguments& a, const Family& family, const Solver& solver,
                                const RunResult& result, LiveTrace& live, std::ostream& err) {
    int code = kExitOk;
    std::string why;
    const auto failed = [&] {
        err << "cplab-cli: " << why << '\n';
        code = kExitInvalid;
    };
    if (!live.failure().empty()) err << "cplab-cli: warning: " << live.failure() << '\n';
    if (!a.trace.empty() && !writeTraceCsv(a.trace, solver.trace(), solver.extraColumns(), &why)) {
        failed();
        if (live.finish(true))
            err << "cplab-cli: the run's whole trace is in " << runningTracePath(a.trace) << '\n';
    }
    live.finish();
    const bool hasResult = result.status.usable() && result.last.iteration > 0;
    for (const Output& o : {Output{"--model", a.model}, Output{"--labeling", a.labeling}}) {
        if (o.path.empty() || hasResult) continue;
        err << "cplab-cli: " << o.flag << ' ' << o.path << " not written: the run "
            << (result.status.usable() ? "stopped before its first iteration" : "failed")
            << " (an existing file is left as it was)\n";
    }
    if (!hasResult) return code;
    const bool ownModel = a.modelFormat.empty() || a.modelFormat == "cplab";
    if (!a.model.empty() &&
        !(ownModel ? family.writeModel(solver, a.model, &why)
                   : family.writePeerModel(solver, a.model, a.modelFormat, &why)))
        failed();
    if (!a.labeling.empty() && !family.writeLabeling(solver, a.labeling, &why)) failed();
    return code;
}

namespace {

// An output the solver's family cannot write, refused up front naming the families that can.
std::string outputRefusal(const Family& family, const char* flag, const char* what,
                          bool (Family::*writes)() const) {
    std::vector<std::string> writers;
    for (const Family* f : families()) {
        if ((f->*writes)()) writers.push_back(f->name());
    }
    return std::string(flag) + ": the " + family.name() + " family writes no " + what +
           " (the solvers of " + joined(writers) + " do)";
}

// Everything about a run's arguments that can be checked before any data are read: the
// problem options, the data file's reader (set in `reader`), the outputs the family writes,
// an output that is an input or another output, the problem or file. The refusal, or nullopt.
std::optional<std::string> runRequestProblem(const RunArguments& a, const Family& family,
                                             ReaderChoice& reader) {
    for (const auto& [name, value] : a.problemOptions) {
        if (hasProblemOption(family, name)) continue;
        std::vector<std::string> known;
        for (const auto& o : family.problemOptions())
            known.push_back(o.name);
        return "--problem-set '" + name + "': unknown option of the " + family.name() +
               " problems (" +
               (known.empty() ? std::string("they take none") : "they take " + joined(known)) + ")";
    }
    const bool readsFiles = !family.dataKinds().empty();
    std::string why;
    if (!a.data.empty() && readsFiles) {
        reader = chooseReader(a.data, family.name(), &why);
        reader.source.options = a.dataOptions;
        if (!reader.family || !checkReaderOptions(reader.source, &why))
            return (reader.family ? "--data-set: " : "") + why;
    }
    if (!a.data.empty() && reader.family != &family) {
        if (!readsFiles) {
            return "solver '" + a.solver + "' works on built-in " + family.name() +
                   " problems, not data files: use --problem NAME (see 'cplab-cli list')";
        }
        return a.data + ": a " + std::string(reader.source.dataFormat().title) +
               " file, not a file the " + family.name() + " family of solver '" + a.solver +
               "' reads (it reads " + family.fileFormats() + ")";
    }
    if (!a.model.empty() && !family.writesModels())
        return outputRefusal(family, "--model", "model files", &Family::writesModels);
    if (const auto peers = family.peerModelFormats();
        !a.modelFormat.empty() && a.modelFormat != "cplab" &&
        std::find(peers.begin(), peers.end(), a.modelFormat) == peers.end()) {
        std::vector<std::string> formats{"cplab"};
        formats.insert(formats.end(), peers.begin(), peers.end());
        return "--model-format '" + a.modelFormat + "': the " + family.name() +
               " family writes models as " + joined(formats);
    }
    if (!a.labeling.empty() && !family.writesLabelings())
        return outputRefusal(family, "--labeling", "labelings", &Family::writesLabelings);
    // Output paths are checked before any work, not found unwritable after a long solve; an
    // output that is an input (by identity: a link or another spelling of it) is refused.
    noteInputFile(a.data);
    if (auto test = a.problemOptions.find("test"); test != a.problemOptions.end())
        noteInputFile(test->second);
    if (auto error = outputsProblem(runOutputs(a))) return error;
    if (!a.data.empty() && !a.problem.empty())
        return std::string("give either --problem NAME or --data FILE, not both");
    if (a.problem.empty() && a.data.empty()) {
        std::vector<std::string> names;
        for (const auto& p : family.problems())
            names.push_back(p.name);
        return "run " + a.solver + ": missing --problem NAME" +
               (readsFiles ? " or --data FILE" : "") + "; " + family.name() +
               " problems: " + joined(names);
    }
    return std::nullopt;
}

// The run's problem: the data file through its reader, or a built-in problem of the family.
ProblemPtr openRunProblem(const RunArguments& a, const Family& family, const ReaderChoice& reader,
                          std::string* why) {
    if (!a.data.empty()) return family.openFile(reader.source, a.problemOptions, why);
    const ProblemInfo* info = findProblem(a.problem);
    if (info && info->family != family.name()) {
        *why = "solver '" + a.solver + "' works on " + family.name() + " problems, but '" +
               a.problem + "' is a " + info->family + " problem";
        return nullptr;
    }
    return makeProblem(a.problem, a.problemOptions, why);
}

int commandRun(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    RunArguments a;
    if (const auto error = parseRunArguments(args, a)) {
        if (cliCommunicator().rank() == 0) err << "cplab-cli: " << *error << '\n' << kUsage;
        return kExitInvalid;
    }
    if (cliCommunicator().size() > 1) return commandRunDistributed(a, out, err);
    const auto refuse = [&err](const std::string& why) {
        err << "cplab-cli: " << why << '\n';
        return kExitInvalid;
    };
    const Family* family = familyOfSolver(a.solver);
    std::string why;
    if (!family) {
        checkSolverOptions(a.solver, {}, &why);
        return refuse(why);
    }
    ReaderChoice reader;
    if (const auto error = runRequestProblem(a, *family, reader)) return refuse(*error);
    // The trace grows in FILE.running while the run goes (core/live_trace.h), taken before
    // the data are loaded so that a refusal costs nothing.
    LiveTrace live;
    if (!a.trace.empty()) {
        if (const auto error = live.start(a.trace)) return refuse("--trace " + *error);
    }
    noteRunLoading(true, a.trace);
    const ProblemPtr problem = openRunProblem(a, *family, reader, &why);
    if (!problem) return refuse(why);
    // Loading may have read files beside the data (a UAI model's .evid): none is an output.
    if (const auto error = outputsProblem(runOutputs(a))) return refuse(*error);
    auto solver = makeSolver(a.solver, *problem, a.options, &why);
    if (!solver) return refuse(why);
    live.columns(solver->extraColumns());
    const CleanStopSpan cleanStop;
    RunHooks hooks;
    hooks.onRecord = [&live](const IterationRecord& r) { live.append(r); };
    RunResult result = runSolver(*solver, a.solver, a.quiet, err, hooks);
    result.options = a.options;
    int code = std::max(exitStatusFor(result.status),
                        writeRunOutputs(a, *family, *solver, result, live, err));
    reportRun(result, *problem, a.json, out, err);
    if (const int signal = gSignal.load()) {
        err << "cplab-cli: " << result.status.message
            << "; outputs written as for a finished run\n";
        code = kExitSignalBase + signal;
    }
    return code;
}

// The first bytes of a file (for telling model formats apart); empty when unreadable.
std::string fileHead(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string head(256, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
    return head;
}

int commandPredict(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    QCommandLineParser parser;
    const QCommandLineOption model("model", "model file", "FILE");
    const QCommandLineOption data("data", "data file", "FILE");
    const QCommandLineOption output("out", "predictions", "FILE");
    const QCommandLineOption json("json", "JSON summary");
    parser.addOptions({model, data, output, json});
    if (auto error = parse(parser, args, "predict")) {
        err << "cplab-cli: predict: " << *error << '\n' << kUsage;
        return kExitInvalid;
    }
    if (!parser.positionalArguments().isEmpty()) {
        err << "cplab-cli: predict: unexpected argument '"
            << parser.positionalArguments().first().toStdString() << "'\n"
            << kUsage;
        return kExitInvalid;
    }
    const std::string modelPath = parser.value(model).toStdString();
    const std::string dataPath = parser.value(data).toStdString();
    if (modelPath.empty() || dataPath.empty()) {
        err << "cplab-cli: predict needs --model FILE and --data FILE\n" << kUsage;
        return kExitInvalid;
    }
    noteInputFile(modelPath);
    noteInputFile(dataPath);
    if (parser.isSet(output)) {
        if (const auto error = outputsProblem({{"--out", parser.value(output).toStdString()}})) {
            err << "cplab-cli: " << *error << '\n';
            return kExitInvalid;
        }
    }
    // The family whose model format the file has (the best claim; ties to the earlier one).
    const std::string head = fileHead(modelPath);
    const Family* reader = nullptr;
    int best = 0;
    for (const Family* f : families()) {
        const int affinity = f->writesModels() ? f->modelAffinity(head) : 0;
        if (affinity > best) {
            best = affinity;
            reader = f;
        }
    }
    if (!reader) {
        err << "cplab-cli: " << modelPath << ": no family reads model files\n";
        return kExitInvalid;
    }
    std::string why;
    const auto prediction =
        reader->predict(modelPath, dataPath, parser.value(output).toStdString(), &why);
    if (!prediction) {
        err << "cplab-cli: " << why << '\n';
        return kExitInvalid;
    }
    if (parser.isSet(json)) {
        QJsonObject summary{{"cplab_version", CPLAB_VERSION},
                            {"model", q(modelPath)},
                            {"data", q(dataPath)},
                            {"examples", static_cast<qint64>(prediction->examples)},
                            {q(prediction->measure), jsonNumber(prediction->value)}};
        for (const auto& [name, value] : prediction->more)
            summary.insert(q(name), jsonNumber(value));
        writeJson(out, summary);
    } else {
        printLine(out, "examples", std::to_string(prediction->examples));
        printLine(out, prediction->measure, formatReal(prediction->value));
        for (const auto& [name, value] : prediction->more)
            printLine(out, name, formatReal(value));
    }
    return kExitOk;
}

int commandList(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    QCommandLineParser parser;
    const QCommandLineOption json("json", "JSON listing");
    parser.addOption(json);
    if (auto error = parse(parser, args, "list")) {
        err << "cplab-cli: list: " << *error << '\n';
        return kExitInvalid;
    }
    if (!parser.positionalArguments().isEmpty()) {
        err << "cplab-cli: list: unexpected argument '"
            << parser.positionalArguments().first().toStdString() << "'\n";
        return kExitInvalid;
    }
    if (parser.isSet(json)) {
        writeListJson(out);
    } else {
        writeListText(out);
    }
    return kExitOk;
}

}  // namespace

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
        (args.empty() ? err : out) << kUsage;
        return args.empty() ? kExitInvalid : kExitOk;
    }
    if (args[0] == "--version" || args[0] == "version") {
        out << "cplab-cli " << CPLAB_VERSION << '\n';
        return kExitOk;
    }
    const std::string& command = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    const InputFileScope inputs;  // no output of the command replaces a file it reads
    // A refused run has removed the FILE.running it took: no run is loading after a command.
    const struct ForgetLoadingRun {
        ~ForgetLoadingRun() { noteRunLoading(false); }
    } forget;
    if (command == "list") return commandList(rest, out, err);
    if (command == "run") return commandRun(rest, out, err);
    if (command == "demo") return commandDemo(rest, out, err);
    if (command == "session") return commandSession(rest, out, err);
    if (command == "lecture") return commandLecture(rest, out, err);
    if (command == "predict") return commandPredict(rest, out, err);
    err << "cplab-cli: unknown command '" << command << "'\n" << kUsage;
    return kExitInvalid;
}

}  // namespace cplab
