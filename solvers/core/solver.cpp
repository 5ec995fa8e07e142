// SPDX-License-Identifier: GPL-3.0-or-later
#include "solver.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <new>

#include "memory_budget.h"

namespace cplab {

Solver::Solver(StopOptions stop) : stop_(stop) {}

void Solver::reject(std::string message) {
    if (!rejected()) status_ = Status::make(StatusCode::InvalidInput, std::move(message));
}

void Solver::setInitialRecord(const IterationRecord& record) {
    lastRecord_ = record;
    lastRecord_.iteration = 0;
    lastRecord_.seconds = setupSeconds_;
    lastRecord_.gap = record.upper - record.lower;
    if (std::isnan(lastRecord_.gap)) lastRecord_.gap = std::numeric_limits<double>::infinity();
    if (std::isnan(lastRecord_.passes)) lastRecord_.passes = double(lastRecord_.oracleCalls);
}

void Solver::fillSnapshot(Snapshot& snapshot) const {
    snapshot.solver = name();
    snapshot.record = lastRecord_;
    snapshot.status = status_;
    snapshot.events = events_.texts;
}

Interrupt Solver::stepInterrupt() const {
    if (!(stop_.max_seconds > 0.0)) {
        return Interrupt(cancel_, Interrupt::Clock::time_point::max(), progress_);
    }
    const double left = std::max(0.0, stop_.max_seconds - setupSeconds_ - stepSeconds_);
    return Interrupt(cancel_,
                     stepStart_ + std::chrono::duration_cast<Interrupt::Clock::duration>(
                                      std::chrono::duration<double>(left)),
                     progress_);
}

namespace {

double gapOf(const IterationRecord& record) {
    const double gap = record.upper - record.lower;
    return std::isnan(gap) ? std::numeric_limits<double>::infinity() : gap;
}

// The record a step starts from: the next iteration, with the last one's counts and bounds.
IterationRecord nextRecord(const IterationRecord& last) {
    IterationRecord record;
    record.iteration = last.iteration + 1;
    record.oracleCalls = last.oracleCalls;
    record.upper = last.upper;
    record.lower = last.lower;
    record.pathParameter = last.pathParameter;
    return record;
}

// Runs the iteration `doStep`: an exception from it (a failed allocation, a library's error)
// ends the run with its message instead of escaping into the caller's thread.
template <class DoStep>
Status guardedStep(DoStep&& doStep) {
    try {
        return doStep();
    } catch (const MemoryLimitError& e) {
        // A memory limit is the input's size, not a numerical failure (exit status 1).
        return Status::make(StatusCode::InvalidInput, e.what());
    } catch (const std::bad_alloc&) {
        return Status::make(StatusCode::InvalidInput, outOfMemoryMessage());
    } catch (const std::exception& e) {
        return Status::make(StatusCode::NumericalFailure, e.what());
    } catch (...) {
        return Status::make(StatusCode::NumericalFailure, "unknown error in the iteration");
    }
}

// The stopping rules, in order, for a step that left the run running: bounds crossed,
// the absolute and the relative gap (unless the solver follows a path, where the gap does not
// rule), the iteration and time limits, the user's cancel. `result` is left as it is when
// none applies.
void applyStopRules(const StopOptions& stop, const IterationRecord& record, bool gapRules,
                    double seconds, bool cancelled, Status& result) {
    // Bounds may cross by rounding; by more, the lower bound is not one any more and a
    // "converged" would certify nothing.
    const double crossing = 1e-6 * std::max(1.0, std::abs(record.upper));
    if (gapRules && record.gap < -crossing) {
        result = Status::make(StatusCode::NumericalFailure,
                              "the lower bound " + formatReal(record.lower) +
                                  " exceeds the upper bound " + formatReal(record.upper) + " by " +
                                  formatReal(-record.gap) +
                                  ": the method has lost precision (badly scaled data?)");
    } else if (gapRules && stop.absoluteReached(record.gap)) {
        result = Status::make(StatusCode::Converged,
                              "gap " + formatReal(record.gap) + " within tolerance after " +
                                  std::to_string(record.iteration) + " iterations");
    } else if (gapRules && stop.relativeReached(record.gap, record.upper)) {
        result = Status::make(StatusCode::Converged,
                              "gap " + formatReal(record.gap) + " <= tol_rel * upper after " +
                                  std::to_string(record.iteration) + " iterations");
    } else if (record.iteration >= stop.max_iterations) {
        result = Status::make(StatusCode::IterationLimit,
                              "reached max_iterations = " + std::to_string(stop.max_iterations) +
                                  " with gap " + formatReal(record.gap));
    } else if (stop.max_seconds > 0.0 && seconds >= stop.max_seconds) {
        result = Status::make(StatusCode::TimeLimit,
                              "reached max_seconds = " + formatReal(stop.max_seconds) +
                                  " with gap " + formatReal(record.gap));
    } else if (cancelled) {
        result = Status::make(StatusCode::Cancelled, "stopped by the user");
    }
}

}  // namespace

bool Solver::completeFinalRecord(IterationRecord& record, Status& result) {
    if (!result.usable()) return false;
    std::string note;
    try {
        note = finishRecord(record, result);
    } catch (const std::exception& e) {
        result = Status::make(StatusCode::NumericalFailure,
                              std::string("evaluating the final iterate: ") + e.what());
        return true;
    } catch (...) {
        result = Status::make(StatusCode::NumericalFailure,
                              "evaluating the final iterate: unknown error");
        return true;
    }
    const double before = record.gap;
    record.gap = gapOf(record);
    // The limit messages quote the gap: quote the final one.
    if (record.gap != before &&
        (result.code == StatusCode::IterationLimit || result.code == StatusCode::TimeLimit)) {
        const std::string head = result.message.substr(0, result.message.rfind(" with gap "));
        result.message = head + " with gap " + formatReal(record.gap);
    }
    if (!note.empty()) result.message += "; " + note;
    return true;
}

Status Solver::step() {
    if (status_.finished()) return status_;
    // Derived solvers validate their options (stop rules included) in their constructors;
    // this is the safety net for one that does not.
    std::string why;
    if (!stop_.isValid("StopOptions", &why)) {
        reject(why);
        return status_;
    }
    if (cancel_.cancelled()) {
        Status result = Status::make(StatusCode::Cancelled, "stopped by the user");
        // The last step may not have evaluated its iterate: complete its record now.
        // (Its seconds stay those of the step: the user asked to stop, not to time this.)
        IterationRecord last = lastRecord_;
        stepStart_ = std::chrono::steady_clock::now();
        completeFinalRecord(last, result);
        lastRecord_ = last;
        if (!trace_.empty()) trace_.back() = last;
        status_ = std::move(result);
        onFinished();
        return status_;
    }

    IterationRecord record = nextRecord(lastRecord_);
    events_.clear();
    stepStart_ = std::chrono::steady_clock::now();
    Status result = guardedStep([&] { return doStep(record); });

    record.events = events_.mask;
    record.gap = gapOf(record);
    if (std::isnan(record.passes)) record.passes = double(record.oracleCalls);
    const double seconds =
        setupSeconds_ + stepSeconds_ +
        std::chrono::duration<double>(std::chrono::steady_clock::now() - stepStart_).count();
    if (result.code == StatusCode::Running)
        applyStopRules(stop_, record, !followsPath(), seconds, cancel_.cancelled(), result);
    if (result.finished()) completeFinalRecord(record, result);
    stepSeconds_ +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - stepStart_).count();
    record.seconds = setupSeconds_ + stepSeconds_;
    trace_.push_back(record);
    lastRecord_ = record;
    status_ = std::move(result);
    if (status_.finished()) onFinished();
    return status_;
}

Status solve(Solver& solver,
             const std::function<void(const Solver&, const IterationRecord&)>& onIteration) {
    while (!solver.status().finished()) {
        const std::size_t before = solver.trace().size();
        solver.step();
        if (onIteration && solver.trace().size() > before)
            onIteration(solver, solver.trace().back());
    }
    return solver.status();
}

}  // namespace cplab
