// SPDX-License-Identifier: GPL-3.0-or-later
// What the command line's commands share (private to cplab-cli): exit statuses, the usage text,
// argument parsing, output checks, running one solver with progress lines, and the signals
// (cli.h). cli.cpp holds list, run and predict; cli_batch.cpp holds demo and session.
#pragma once

#include <QCommandLineParser>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli_report.h"
#include "core/solver.h"

namespace cplab::cli_detail {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalid = 1;
inline constexpr int kExitNumerical = 2;
inline constexpr int kExitSignalBase = 128;

extern const char* const kUsage;

// The signal (SIGINT, SIGTERM) received so far, or 0; its name.
int signalReceived();
const char* signalName(int signal);

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

// Runs `solver` to the end with throttled progress lines (the first 10 iterations, then at
// most about 5 per second, and the last).
// `onRecord`, when given, gets every record as the solver reports it (a live trace).
RunResult runSolver(Solver& solver, const std::string& label, bool quiet, std::ostream& err,
                    const std::function<void(const IterationRecord&)>& onRecord = {});

int commandDemo(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int commandSession(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace cplab::cli_detail
