// SPDX-License-Identifier: GPL-3.0-or-later
// Deadlines of work a solver does outside step(), and the status of work an Interrupt cut
// short: one home for what each solver rolled on its own ("the deadline passed, so the status
// is TimeLimit, unless the user asked first").
//
// A solver's set-up (its constructor: a full SVM, a first inner SVM, kernel matrices) counts
// in max_seconds (docs/cli.md): it polls setUpInterrupt(), whose deadline is max_seconds from
// the start of the set-up, and a set-up cut short keeps a consistent model (one whose bounds
// it reports) and ends the run at its first step with setUpCutStatus().
#pragma once

#include <chrono>
#include <string>

#include "cancel_token.h"
#include "number_text.h"
#include "status.h"

namespace cplab {

// `token` and a deadline `maxSeconds` from now (none when maxSeconds ≤ 0 or not finite).
inline Interrupt deadlineFromNow(const CancelToken& token, double maxSeconds) {
    if (!(maxSeconds > 0.0) || !(maxSeconds < 1e9)) return Interrupt(token);
    return Interrupt(
        token, Interrupt::Clock::now() + std::chrono::duration_cast<Interrupt::Clock::duration>(
                                             std::chrono::duration<double>(maxSeconds)));
}

// The status of work `stop` cut short `where` ("the oracle pass 3"): Cancelled ("stopped by
// the user during <where><after>") when the user asked or the deadline had not passed, else
// TimeLimit ("reached max_seconds = <maxSeconds> during <where><after>").
inline Status interruptedStatus(const Interrupt& stop, double maxSeconds, const std::string& where,
                                const std::string& after = {}) {
    if (stop.cancelled() || !stop.timedOut())
        return Status::make(StatusCode::Cancelled, "stopped by the user during " + where + after);
    return Status::make(StatusCode::TimeLimit, "reached max_seconds = " + formatReal(maxSeconds) +
                                                   " during " + where + after);
}

// What a run whose set-up max_seconds cut short says at its first step (which does no work):
// "reached max_seconds = <maxSeconds> during the set-up: <what>".
inline Status setUpCutStatus(double maxSeconds, const std::string& what) {
    return Status::make(StatusCode::TimeLimit, "reached max_seconds = " + formatReal(maxSeconds) +
                                                   " during the set-up: " + what);
}

}  // namespace cplab
