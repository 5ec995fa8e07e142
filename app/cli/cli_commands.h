// SPDX-License-Identifier: GPL-3.0-or-later
// What the command line's commands share (private to cplab-cli): exit statuses, the usage text,
// argument parsing, output checks, running one solver with progress lines, and the signals
// (cli.h). cli.cpp holds list, run and predict; cli_batch.cpp holds demo and session;
// cli_distributed.cpp holds run over several processes (mpirun).
#pragma once

#include <QCommandLineParser>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli_report.h"
#include "core/communicator.h"
#include "core/live_trace.h"
#include "core/solver.h"
#include "family.h"

namespace cplab::cli_detail {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalid = 1;
inline constexpr int kExitNumerical = 2;
inline constexpr int kExitSignalBase = 128;

extern const char* const kUsage;

// The signal (SIGINT, SIGTERM) received so far, or 0; its name.
int signalReceived();
const char* signalName(int signal);

// Whether a run is loading its data, with the trace whose FILE.running it has taken (empty:
// none): a signal before the run begins (CleanStopSpan) then ends the process at once with one
// line saying so, and removes that FILE.running.
void noteRunLoading(bool loading, const std::string& tracePath = {});

// Marks the span in which a signal stops the run cleanly (at its next iteration boundary).
struct CleanStopSpan {
    CleanStopSpan();
    ~CleanStopSpan();
    CleanStopSpan(const CleanStopSpan&) = delete;
    CleanStopSpan& operator=(const CleanStopSpan&) = delete;
};

// Parses `args` (without the command word) with `parser`; on failure returns the message in
// the CLI's words.
std::optional<std::string> parse(QCommandLineParser& parser, const std::vector<std::string>& args,
                                 const std::string& command);

// An output file of a command and the flag that names it.
struct Output {
    const char* flag;
    std::string path;
};

// Why the outputs cannot be written (checkOutputPath's reasons, an input of this run among
// them, or two outputs that are one file), or nullopt. Creates nothing.
std::optional<std::string> outputsProblem(const std::vector<Output>& outputs);

// What a run may add to runSolver's loop.
struct RunHooks {
    // Gets every record as the solver reports it (the live trace, core/live_trace.h).
    std::function<void(const IterationRecord&)> onRecord;
    // The token the run polls (null: the one SIGINT and SIGTERM cancel).
    const CancelToken* token = nullptr;
    // Called after every iteration (a distributed run's collective stop check).
    std::function<void()> afterIteration;
};

// Runs `solver` to the end with throttled progress lines (the first 10 iterations, then at
// most about 5 per second, and the last).
RunResult runSolver(Solver& solver, const std::string& label, bool quiet, std::ostream& err,
                    const RunHooks& hooks = {});

// The arguments of `cplab-cli run`.
struct RunArguments {
    std::string solver;
    std::string problem;
    std::string data;
    std::string model;
    std::string modelFormat;  // --model-format: cplab (also empty), libsvm, liblinear
    std::string labeling;
    std::string trace;
    OptionValues options;
    OptionValues problemOptions;
    OptionValues dataOptions;  // the reader's options of --data's format
    bool json = false;
    bool quiet = false;
};

// Writes a finished run's trace, model and labeling as `a` asks; 0, or kExitInvalid when one
// could not be written.
// `live` is the run's live trace: removed once the trace is written, kept when it cannot be.
int writeRunOutputs(const RunArguments& a, const Family& family, const Solver& solver,
                    const RunResult& result, LiveTrace& live, std::ostream& err);

// Prints a finished run's summary (JSON with `json`, else text) on `out`, and a failure's
// reason on `err`.
void reportRun(const RunResult& result, const ProblemInstance& problem, bool json,
               std::ostream& out, std::ostream& err);

// The processes this cplab-cli is one of (setCliCommunicator, cli.h; one process by default).
Communicator& cliCommunicator();
std::shared_ptr<Communicator> cliCommunicatorShared();

// `cplab-cli run` under mpirun with N > 1 processes (cli_distributed.cpp): every rank runs it;
// rank 0 alone prints and writes.
int commandRunDistributed(const RunArguments& a, std::ostream& out, std::ostream& err);

int commandDemo(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int commandSession(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// `cplab-cli lecture FILE.cplab-lecture [--json]`: checks a lecture as the app opens it
// (app/session/lecture.h) and lists its slides; runs nothing.
int commandLecture(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace cplab::cli_detail
