// SPDX-License-Identifier: GPL-3.0-or-later
// The step-wise solver interface (DESIGN.md, "Solver model").
//
// A solver owns explicit state and advances by one outer iteration per step(): one cutting
// plane, one bundle iteration, one Frank–Wolfe step. The base class applies the common stop
// rules (StopOptions), keeps the time, and stores every iteration record in the trace, so
// that the GUI worker, the CLI and the tests all drive the very same object.
//
// Contract for derived classes:
//   * the constructor validates options and problem; on failure it calls reject(message)
//     and leaves the object inert (step() then returns InvalidInput without calling doStep);
//   * doStep(record) does exactly one iteration, fills record.oracleCalls, upper, lower and
//     extra (and passes or pathParameter where they apply; the base fills iteration, seconds
//     and gap after it returns) and returns Running, Converged (by a family criterion of its
//     own), Stalled (no progress possible with the gap open), NumericalFailure with a message,
//     or — for a solver that wraps a foreign library with limits of its own — IterationLimit
//     or TimeLimit; a step cut short by the time limit inside a long pass (stepInterrupt())
//     returns TimeLimit with the bounds of its last complete state;
//   * whatever ends the run (a stop rule, the solver's own criterion, the user), the model it
//     reports and saves is the one whose bounds the final record holds: a solver that
//     evaluates its iterate only now and then (eval_every, errors spread over steps)
//     evaluates the final one in finishRecord();
//   * snapshot() builds, on demand, the data the family's views need.
#pragma once

#include <chrono>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "cancel_token.h"
#include "events.h"
#include "iteration_record.h"
#include "snapshot.h"
#include "status.h"
#include "stop_options.h"

namespace cplab {

// A family-specific result field for summaries (CLI JSON, GUI result table): a number, an
// integer, a text, a vector, a named map such as kernel → weight (a JSON object; the text
// summary keeps this order), or named series such as a regularisation path (λ and each
// kernel's weight along it: a JSON object of arrays).
using NamedValues = std::vector<std::pair<std::string, double>>;
using NamedSeries = std::vector<std::pair<std::string, std::vector<double>>>;
using SummaryValue =
    std::variant<double, long long, std::string, std::vector<double>, NamedValues, NamedSeries>;
using SummaryFields = std::vector<std::pair<std::string, SummaryValue>>;

class Solver {
  public:
    virtual ~Solver() = default;
    Solver(const Solver&) = delete;
    Solver& operator=(const Solver&) = delete;

    // One outer iteration, then the stop rules. Returns the status after the step; once the
    // status is finished, further calls do nothing and return it again.
    Status step();

    const Status& status() const { return status_; }
    int iteration() const { return lastRecord_.iteration; }
    // The latest record; iteration 0 (with the initial bounds) before the first step.
    const IterationRecord& lastRecord() const { return lastRecord_; }
    // Every record, one per completed iteration.
    const std::vector<IterationRecord>& trace() const { return trace_; }
    const StopOptions& stopOptions() const { return stop_; }
    // The gap at which this run converges, max(epsilon, tol_rel·|U|) with the newest U.
    double gapTolerance() const { return stop_.gapTolerance(lastRecord_.upper); }

    // Registry name ("kelley"), and the names of IterationRecord::extra's columns.
    virtual std::string name() const = 0;
    virtual std::vector<std::string> extraColumns() const { return {}; }
    // The solver's pseudocode, one line per entry, for the pseudocode panel.
    virtual std::vector<std::string> pseudocode() const { return {}; }
    // A path-following solver (a regularisation path) fills IterationRecord::pathParameter;
    // the gap rules do not end its run, since every corrected point of the path is exact.
    virtual bool followsPath() const { return false; }
    // Where a path run's parameter ends (its lambda_min): the progress shown for a path run is
    // how far pathParameter has come from the first record's toward it, on a log scale. NaN
    // for the other solvers.
    virtual double pathEnd() const { return std::numeric_limits<double>::quiet_NaN(); }
    // A solver that converges by a rule of its own rather than by the gap (an SVM by SMO's KKT
    // rule, LIBSVM's -e): its Converged status may come with a gap above gapTolerance().
    virtual bool convergesByOwnRule() const { return false; }

    // Family result fields for the run's summary, e.g. {"x", [1.0, 0.5]}, {"planes", 12}.
    virtual SummaryFields summary() const { return {}; }

    // What the last step did (or the step in progress, from doStep): the mask its record gets
    // and the texts its snapshots get.
    const StepEvents& lastStepEvents() const { return events_; }

    // Builds the family snapshot of the current state. Costs what the views need; call it
    // only when a view will draw it.
    virtual SnapshotPtr snapshot() const = 0;

    // Where long steps report their progress (see ProgressSink; none by default).
    void setProgressSink(ProgressSink sink) { progress_ = std::move(sink); }

    // Long inner loops poll this token; step() also checks it before doing anything.
    void setCancelToken(CancelToken token) { cancel_ = std::move(token); }
    const CancelToken& cancelToken() const { return cancel_; }

  protected:
    explicit Solver(StopOptions stop);

    virtual Status doStep(IterationRecord& record) = 0;
    // Called once, when the run has just ended with a usable status (converged, stalled, a
    // limit, cancelled), on the final record before it is stored (for a run cancelled between
    // steps, on a copy of the last record, which then replaces it). A solver whose last step
    // did not evaluate its iterate (eval_every, test errors computed every few steps)
    // evaluates it here and updates the record's bounds and columns, so that the reported and
    // saved model is the final record's. Returns a note for the status message ("" for none).
    // An exception ends the run with a numerical failure, as in doStep.
    // `status` is how the run ended (a solver may skip a costly evaluation after a time limit).
    virtual std::string finishRecord(IterationRecord& /*record*/, const Status& /*status*/) {
        return {};
    }
    // Called once when the run finishes, whatever ended it (a solver with threads or buffers
    // of its own releases them here).
    virtual void onFinished() {}

    // The cancel token and the run's deadline (what is left of max_seconds when the step in
    // progress began): what a long pass inside doStep polls, so that the time limit and the
    // user's cancel end a step part-way (the step then returns TimeLimit or Cancelled with
    // bounds that stay valid). Call it from doStep or finishRecord.
    Interrupt stepInterrupt() const;

    // Marks the solver as unusable because of invalid options or data.
    void reject(std::string message);
    bool rejected() const { return status_.code == StatusCode::InvalidInput; }
    // Rejects with the options' own message when they are invalid (Options::isValid(&why));
    // true when the solver has not been rejected and may go on.
    template <class Options>
    bool acceptOptions(const Options& options) {
        std::string why;
        if (!rejected() && !options.isValid(&why)) reject(why);
        return !rejected();
    }

    // Sets the iteration-0 record (initial bounds, oracle calls spent in the constructor).
    void setInitialRecord(const IterationRecord& record);

    // Notes what the step in progress did (call it from doStep): the base puts the mask in
    // the step's record and the texts in the snapshots of that step. Keep a text to one line
    // of about 80 characters, numbers at 4 significant digits (formatShort).
    void noteEvent(Event event, std::string text) { events_.add(event, std::move(text)); }
    // Notes events gathered elsewhere (a plane set's, an inner solver's).
    void noteEvents(const StepEvents& events) {
        events_.mask |= events.mask;
        events_.texts.insert(events_.texts.end(), events.texts.begin(), events.texts.end());
    }

    // Fills the Snapshot base fields (the last step's event texts too); executedLines is left
    // to the caller.
    void fillSnapshot(Snapshot& snapshot) const;

    // Measures work done outside step() (e.g. a first oracle call in the constructor) so
    // that it counts in the run's seconds.
    class SetupTimer {
      public:
        explicit SetupTimer(Solver& solver)
            : solver_(solver), start_(std::chrono::steady_clock::now()) {}
        ~SetupTimer() {
            solver_.setupSeconds_ +=
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        }
        SetupTimer(const SetupTimer&) = delete;
        SetupTimer& operator=(const SetupTimer&) = delete;

      private:
        Solver& solver_;
        std::chrono::steady_clock::time_point start_;
    };

  private:
    // Runs finishRecord() on the final record of a usable run, recomputes its gap and updates
    // the status message (the final gap, the solver's note). False when not usable.
    bool completeFinalRecord(IterationRecord& record, Status& result);

    StopOptions stop_;
    Status status_;
    IterationRecord lastRecord_;
    std::vector<IterationRecord> trace_;
    double setupSeconds_ = 0.0;
    double stepSeconds_ = 0.0;
    std::chrono::steady_clock::time_point stepStart_{};  // of the step in progress
    CancelToken cancel_;
    ProgressSink progress_;
    StepEvents events_;  // of the last step
};

// Runs `solver` until its status is finished, calling `onIteration` after every step.
Status solve(Solver& solver,
             const std::function<void(const Solver&, const IterationRecord&)>& onIteration = {});

}  // namespace cplab
