// `cplab-cli run` over several processes (mpirun -np N, srun; issue #32), for the solvers
// whose registration declares them distributed (family.h, Distributed). ExampleShares: every
// rank reads its share of the data (data/shares.h), builds the same solver on the family's
// problem of the shares, whose risk sums over the communicator, and steps it in lockstep
// (risk/risk.h, "Processes"). WholeData: every rank reads the whole file and does its share of
// each oracle pass (structured/oracle_pass.h). Rank 0 alone prints progress and the summary and
// writes the trace and the model. Whatever can stop a run is decided collectively at iteration
// boundaries: a signal on any rank, max_seconds on rank 0's clock; then rank 0 writes what a
// finished run writes and every rank exits with its status (130/143 after a signal), after it.
// A refusal (options, outputs, a bad share) is one message, printed by rank 0, naming the rank
// and its file, and the same exit status on every rank.
#include <chrono>
#include <csignal>
#include <filesystem>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "cli.h"
#include "cli_commands.h"
#include "core/memory_budget.h"
#include "core/number_text.h"
#include "core/output_file.h"
#include "core/stop_options.h"
#include "data/shares.h"
#include "registry.h"

namespace cplab::cli_detail {

namespace {

// The solvers that run over several processes, in words ("bmrm, ocas and nslack").
std::string distributedSolvers() {
    std::vector<std::string> names;
    for (const SolverInfo& solver : solverCatalog())
        if (solver.distributed != Distributed::No) names.push_back(solver.name);
    std::string last = names.empty() ? std::string() : names.back();
    if (!names.empty()) names.pop_back();
    return names.empty() ? last : joined(names) + " and " + last;
}

// Why the files of a run whose every rank reads them whole cannot be read so (a FIFO or a
// device is read once, by one process; '%r' names shares, which these solvers do not take), or
// empty.
std::string wholeFileProblem(const RunArguments& a, int ranks) {
    const auto test = a.problemOptions.find("test");
    for (const auto& [flag, path] :
         {std::pair<std::string, std::string>{"--data", a.data},
          {"--test", test == a.problemOptions.end() ? std::string() : test->second}}) {
        std::error_code ec;
        const auto status = std::filesystem::status(path, ec);
        if (path.empty()) continue;
        if (!std::filesystem::exists(status) && namesFilePerRank(path)) {
            return flag + " " + path + ": solver '" + a.solver +
                   "' reads the whole file on every process: give one file ('%r', one file per "
                   "process, is for the solvers that share examples)";
        }
        if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) &&
            !std::filesystem::is_directory(status)) {
            return flag + " " + path + ": not a regular file (a FIFO or a device is read once, " +
                   "by one process); over " + std::to_string(ranks) +
                   " processes every process reads the whole file: give a regular file";
        }
    }
    return {};
}

// Why the arguments cannot run over several processes, or empty.
std::string distributedProblem(const RunArguments& a, const SolverInfo* solver, int ranks) {
    const std::string n = std::to_string(ranks);
    if (!solver || solver->distributed == Distributed::No) {
        return "solver '" + a.solver + "' runs as one process; over " + n +
               " processes (mpirun) cplab-cli runs " + distributedSolvers();
    }
    if (a.data.empty() || !a.problem.empty()) {
        return "over " + n +
               " processes, run needs --data FILE (each process reads its share; built-in "
               "problems run as one process)";
    }
    if (!a.dataOptions.empty())
        return "--data-set: over " + n + " processes the data are LIBSVM files, read as such";
    if (!a.labeling.empty()) return "--labeling: no labelings are written over " + n + " processes";
    if (solver->distributed == Distributed::WholeData) return wholeFileProblem(a, ranks);
    for (const auto& [name, value] : a.problemOptions) {
        if (name == "test") continue;
        if ((name == "test_fraction" && value == "0") || name == "seed") continue;
        return "--test-fraction: a held-out split needs every example in one process; over " + n +
               " processes give --test FILE (split like --data)";
    }
    return {};
}

// Which rank's share an output is, for the refusal that says it is an input: " (rank 1's share
// of --data)", or empty.
std::string whoseShare(const std::vector<Output>& outputs, const std::string& data,
                       const std::string& test, int ranks) {
    for (const Output& o : outputs) {
        for (int rank = 0; rank < ranks && !o.path.empty(); ++rank) {
            for (const auto& [flag, pattern] :
                 {std::pair<const char*, const std::string&>{"--data", data}, {"--test", test}}) {
                std::error_code ec;
                const std::string share = shareFileName(pattern, rank);
                if (!pattern.empty() &&
                    (share == o.path || std::filesystem::equivalent(share, o.path, ec))) {
                    return " (rank " + std::to_string(rank) + "'s share of " + flag + ")";
                }
            }
        }
    }
    return {};
}

// Rank 0's verdict, on every rank.
std::string rootVerdict(Communicator& comm, const std::string& mine) {
    return comm.gatherAll(comm.rank() == 0 ? mine : std::string()).front();
}

// The family's problem of this rank's shares of the examples (and of the test file).
ProblemPtr sharedExamplesProblem(const RunArguments& a, const Family& family,
                                 const std::string& testFile, Communicator& comm) {
    ProblemPtr problem = family.sharedExamplesProblem(loadSharedExamples(a.data, testFile, comm),
                                                      a.data, cliCommunicatorShared());
    if (!problem) throw std::runtime_error("the " + family.name() + " family shares no examples");
    return problem;
}

// The family's problem of the whole file on every rank, with the communicator that shares its
// oracle passes. Throws std::runtime_error with the first failing rank's message.
ProblemPtr sharedPassesProblem(const RunArguments& a, const Family& family, Communicator& comm) {
    std::string why;
    ProblemPtr problem;
    ReaderChoice reader = chooseReader(a.data, family.name(), &why);
    if (reader.family == &family) {
        reader.source.options = a.dataOptions;
        problem = family.openFile(reader.source, a.problemOptions, &why);
    } else if (reader.family) {
        why = a.data + ": not a file the " + family.name() + " family reads (it reads " +
              family.fileFormats() + ")";
    }
    ProblemPtr shared =
        problem ? family.sharedPassesProblem(*problem, cliCommunicatorShared()) : nullptr;
    if (problem && !shared) why = "the " + family.name() + " family shares no oracle passes";
    if (const std::string failure = firstFailure(comm, shared ? std::string() : why);
        !failure.empty())
        throw std::runtime_error(failure);
    return shared;
}

// max_seconds of the options (0: none); the solver is given none, rank 0's clock decides.
double takeMaxSeconds(OptionValues& options) {
    double seconds = 0.0;
    const auto it = options.find("max_seconds");
    if (it == options.end() || parseReal(it->second, seconds) != NumberError::None) return 0.0;
    options.erase(it);
    return seconds;
}

// The collective stop of a distributed run: after every iteration the ranks sum which of them a
// signal reached (SIGINT and SIGTERM apart, with the sum of their ranks, which names the rank
// when one alone got it) and whether rank 0's clock passed max_seconds, and all cancel at that
// same iteration boundary with the same verdict.
struct CollectiveStop {
    CancelToken token;
    bool timeUp = false;
    int signal = 0;      // the agreed signal: SIGINT when any rank got it, else SIGTERM (or 0)
    int signalled = 0;   // how many ranks received it
    int rankOfOne = -1;  // the rank that received it when only one did

    RunHooks hooks(Communicator& comm, double maxSeconds) {
        const bool root = comm.rank() == 0;
        const auto start = std::chrono::steady_clock::now();
        RunHooks h;
        h.token = &token;
        h.afterIteration = [this, &comm, root, maxSeconds, start] {
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            const int mine = signalReceived();
            const double rank = comm.rank();
            double stop[5] = {mine == SIGINT ? 1.0 : 0.0, mine == SIGTERM ? 1.0 : 0.0,
                              mine == SIGINT ? rank : 0.0, mine == SIGTERM ? rank : 0.0,
                              root && maxSeconds > 0 && seconds >= maxSeconds ? 1.0 : 0.0};
            comm.sumInRankOrder(stop, 5);
            agree(stop);
        };
        return h;
    }

  private:
    // The verdict of one check's sums, the same on every rank. SIGINT names the stop when any
    // rank got one (a user's): mpirun passes every signal it gets on as SIGTERM.
    void agree(const double (&stop)[5]) {
        timeUp = stop[4] > 0;
        const int k = stop[0] > 0 ? 0 : stop[1] > 0 ? 1 : -1;
        if (k >= 0) {
            signal = k == 0 ? SIGINT : SIGTERM;
            signalled = static_cast<int>(stop[k]);
            rankOfOne = signalled == 1 ? static_cast<int>(stop[k + 2]) : -1;
        }
        if (signal != 0 || timeUp) token.cancel();
    }
};

// `message` in words for the user: when it is the C++ library's own text (the what() of a
// std::length_error or std::bad_cast that reached a refusal or a status: "basic_string::
// _M_create", "vector::reserve"), perhaps after "rank R: ", a sentence naming the rank and its
// file instead (`rank`: the one that says it, when the message names none).
std::string inPlainWords(const std::string& message, const std::string& data, int rank) {
    static const char* const kLibraryTexts[] = {
        "std::",       "basic_string", "vector::",  "cannot create std::", "deque::",
        "bitset::",    "map::at",      "array::at", "bad_function_call",   "bad optional access",
        "bad_weak_ptr"};
    std::string_view text = message;
    if (text.rfind("rank ", 0) == 0) {
        const std::size_t colon = text.find(": ");
        const std::string digits(text.substr(5, colon == std::string_view::npos ? 0 : colon - 5));
        if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos &&
            digits.size() < 9) {
            rank = std::stoi(digits);
            text.remove_prefix(colon + 2);
        }
    }
    for (const char* library : kLibraryTexts) {
        if (text.rfind(library, 0) == 0) {
            return "rank " + std::to_string(rank) + ": " + shareFileName(data, rank) +
                   ": the run failed by an internal error (a C++ library exception)";
        }
    }
    return message;
}

// Which ranks had the agreed signal when they agreed, in words ("on rank 1 of 2"; a signal to
// mpirun reaches its ranks one after the other).
std::string whoWasSignalled(const CollectiveStop& stop, int ranks) {
    if (stop.rankOfOne >= 0)
        return "on rank " + std::to_string(stop.rankOfOne) + " of " + std::to_string(ranks);
    return "on " + std::to_string(stop.signalled) + " of " + std::to_string(ranks) + " ranks";
}

// What the distribution cost rank 0 (the bench's bytes per iteration and collective time), and
// how a collective stop ended the run.
void noteDistribution(RunResult& result, Communicator& comm, const CollectiveStop& stop,
                      double maxSeconds) {
    result.fields.emplace_back("ranks", static_cast<double>(comm.size()));
    result.fields.emplace_back("communicated_bytes", comm.bytesSent());
    result.fields.emplace_back("collective_seconds", comm.collectiveSeconds());
    if (result.status.code != StatusCode::Cancelled) return;
    if (stop.signal != 0) {
        result.status.message = std::string("stopped by ") + signalName(stop.signal) + " (" +
                                whoWasSignalled(stop, comm.size()) + ") after " +
                                std::to_string(result.last.iteration) + " iterations";
    } else if (stop.timeUp) {
        result.status = Status::make(
            StatusCode::TimeLimit, "reached max_seconds = " + formatReal(maxSeconds) +
                                       " (rank 0's clock) with gap " + formatReal(result.last.gap));
    }
}

// Rank 0's end of a run: its outputs, the summary and, after a signal, the one line that says
// so. The exit status, from `code` (the run's or the signal's).
int finishOnRoot(const RunArguments& a, const Family& family, const Solver& solver,
                 const ProblemInstance& problem, const RunResult& result,
                 const CollectiveStop& stop, LiveTrace& live, int code, std::ostream& out,
                 std::ostream& err) {
    const int written = writeRunOutputs(a, family, solver, result, live, err);
    if (stop.signal == 0) code = std::max(code, written);
    reportRun(result, problem, a.json, out, err);
    out.flush();
    if (stop.signal != 0) {
        err << "cplab-cli: " << result.status.message
            << (written == kExitOk ? "; outputs written as for a finished run\n"
                                   : "; an output could not be written (above)\n")
            << std::flush;
    }
    return code;
}

int runDistributed(const RunArguments& a, std::ostream& out, std::ostream& err) {
    Communicator& comm = cliCommunicator();
    const bool root = comm.rank() == 0;
    const auto refuse = [&](const std::string& why) {
        if (root) err << "cplab-cli: " << inPlainWords(why, a.data, comm.rank()) << '\n';
        return kExitInvalid;
    };
    const SolverInfo* info = findSolver(a.solver);
    if (const std::string why = distributedProblem(a, info, comm.size()); !why.empty())
        return refuse(why);
    const Family& family = *findFamily(info->family);
    const auto test = a.problemOptions.find("test");
    const std::string testFile = test == a.problemOptions.end() ? std::string() : test->second;
    // Every rank's share is an input of the run, on every rank: no output may replace any.
    for (int rank = 0; rank < comm.size(); ++rank) {
        noteInputFile(shareFileName(a.data, rank));
        if (!testFile.empty()) noteInputFile(shareFileName(testFile, rank));
    }
    const std::vector<Output> outputs = {{"--model", a.model}, {"--trace", a.trace}};
    if (const std::string why = rootVerdict(comm, outputsProblem(outputs).value_or(""));
        !why.empty())
        return refuse(why + whoseShare(outputs, a.data, testFile, comm.size()));
    // Rank 0 grows the live trace FILE.running (core/live_trace.h), taken before the data are
    // loaded; a refusal is every rank's.
    LiveTrace live;
    std::string traceRefusal;
    if (root && !a.trace.empty()) traceRefusal = live.start(a.trace).value_or("");
    if (root && traceRefusal.empty()) noteRunLoading(true, a.trace);  // rank 0 says it
    if (const std::string why = rootVerdict(comm, traceRefusal); !why.empty())
        return refuse("--trace " + why);
    ProblemPtr problem;
    try {
        problem = info->distributed == Distributed::ExampleShares
                      ? sharedExamplesProblem(a, family, testFile, comm)
                      : sharedPassesProblem(a, family, comm);
    } catch (const std::exception& e) {
        return refuse(e.what());
    }
    OptionValues options = a.options;
    const double maxSeconds = takeMaxSeconds(options);
    std::string why;
    auto solver = makeSolver(a.solver, *problem, options, &why);  // the same on every rank
    if (!solver) return refuse(why);

    CollectiveStop stop;
    RunHooks hooks = stop.hooks(comm, maxSeconds);
    if (root) {
        live.columns(solver->extraColumns());
        hooks.onRecord = [&live](const IterationRecord& r) { live.append(r); };
    }
    const CleanStopSpan cleanStop;
    RunResult result = runSolver(*solver, a.solver, a.quiet || !root, err, hooks);
    result.options = a.options;
    noteDistribution(result, comm, stop, maxSeconds);
    result.status.message = inPlainWords(result.status.message, a.data, comm.rank());
    int code = stop.signal != 0 ? kExitSignalBase + stop.signal : exitStatusFor(result.status);
    if (root) code = finishOnRoot(a, family, *solver, *problem, result, stop, live, code, out, err);
    // Every rank waits for rank 0's outputs and exits with its status: mpirun ends the job (by
    // SIGTERM, then SIGKILL) as soon as one rank exits non-zero, and passes that status on.
    return static_cast<int>(maxOverRanks(comm, root ? code : 0));
}

}  // namespace

int commandRunDistributed(const RunArguments& a, std::ostream& out, std::ostream& err) {
    // What escapes the run on one rank (a failed allocation outside the oracle's collective
    // checks) is said by that rank, naming it and its share, in words rather than the C++
    // library's text; its exit ends the job (mpirun stops the others).
    const int rank = cliCommunicator().rank();
    const std::string about =
        "cplab-cli: rank " + std::to_string(rank) + " (" + shareFileName(a.data, rank) + "): ";
    try {
        return runDistributed(a, out, err);
    } catch (const std::bad_alloc&) {
        err << about << outOfMemoryMessage() << '\n';
    } catch (const std::exception&) {
        err << about << "the run ended by an internal error (a C++ exception)\n";
    }
    return kExitInvalid;
}

}  // namespace cplab::cli_detail
