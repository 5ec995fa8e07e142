// SPDX-License-Identifier: GPL-3.0-or-later
// cplab-cli, the scriptable twin of the GUI (DESIGN.md, "Command line"):
//
//   cplab-cli list [--json]
//   cplab-cli run SOLVER (--problem NAME | --data FILE) [--test FILE | --test-fraction F
//                 [--seed S]] [--problem-set key=value ...] [--set key=value ...]
//                 [--trace out.csv] [--model out.txt] [--json] [--quiet]
//   cplab-cli predict --model FILE --data FILE [--out predictions.txt] [--json]
//   cplab-cli demo NAME [--json] [--trace-prefix PREFIX] [--quiet]
//
// Exit status: 0 on convergence, a stall or a reached limit, 1 on invalid input or options
// (message on stderr), 2 on numerical failure, 128 + the signal's number (130 for SIGINT, 143
// for SIGTERM) for a run stopped by a signal after it wrote what a finished run writes. Arguments
// are parsed by QCommandLineParser and JSON is written by QJsonDocument (QtCore only; the solver
// library stays Qt-free).
#pragma once

#include <QJsonValue>
#include <ostream>
#include <string>
#include <vector>

#include "core/communicator.h"
#include "core/solver.h"

namespace cplab {

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// The processes of an mpirun (or srun) launch, for main() before runCli (solvers/mpi): `run`
// of ocas and bmrm then shares the examples among them (docs/cli.md). Unset or one process:
// everything runs as one process.
void setCliCommunicator(std::shared_ptr<Communicator> communicator);

// For the command-line program's main(), before any thread starts: SIGINT and SIGTERM then
// stop the current run cleanly at its next iteration boundary (its outputs are written with
// status "cancelled" and runCli returns 128 + the signal's number); a second signal ends the
// process at once (in one of several processes only the same signal again: a launcher may
// follow a user's SIGINT by its own SIGTERM; Open MPI's threads block both, solvers/mpi).
// SIGPIPE and SIGXFSZ are ignored, so that a closed pipe or a file-size limit makes a write
// fail with its reason instead of killing the process.
void installCliSignalHandling();

// The exit status of a run that ended with `status`: 0 converged, stalled, stopped by a limit
// or cancelled; 1 invalid input or options; 2 numerical failure.
int exitStatusFor(const Status& status);

// A summary value as JSON: a number (null when not finite), an integer, a text, an array, or
// an object for a named map (kernel → weight).
QJsonValue toJson(const SummaryValue& value);

}  // namespace cplab
