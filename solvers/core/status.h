// SPDX-License-Identifier: GPL-3.0-or-later
// Outcome of a solver step or run: a code plus a readable message.
#pragma once

#include <string>

namespace cplab {

enum class StatusCode {
    Running,           // more steps are possible
    Converged,         // the gap reached the tolerance
    IterationLimit,    // max_iterations reached before convergence
    TimeLimit,         // max_seconds reached before convergence
    Cancelled,         // stopped by the user (cancel token)
    Stalled,           // no further progress is possible, but the gap is still open (e.g. no
                       // violated cycle left to tighten with); the result is usable
    NumericalFailure,  // the method cannot continue (e.g. master problem failed)
    InvalidInput,      // options or problem rejected at construction
};

// Stable lower-case name ("running", "converged", "iteration_limit", ...), used in traces,
// the CLI's JSON and the GUI.
const char* statusName(StatusCode code);

struct Status {
    StatusCode code = StatusCode::Running;
    std::string message;

    bool finished() const { return code != StatusCode::Running; }
    // A finished run whose result is usable: converged, stalled, or stopped by a limit or the
    // user.
    bool usable() const {
        return code == StatusCode::Converged || code == StatusCode::IterationLimit ||
               code == StatusCode::TimeLimit || code == StatusCode::Cancelled ||
               code == StatusCode::Stalled;
    }

    static Status running() { return {}; }
    static Status make(StatusCode code, std::string message) { return {code, std::move(message)}; }
};

}  // namespace cplab
