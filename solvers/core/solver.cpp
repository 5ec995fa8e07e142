#include "solver.h"

#include <cmath>
#include <exception>
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
        status_ = Status::make(StatusCode::Cancelled, "stopped by the user");
        onFinished();
        return status_;
    }

    IterationRecord record;
    record.iteration = lastRecord_.iteration + 1;
    record.oracleCalls = lastRecord_.oracleCalls;
    record.upper = lastRecord_.upper;
    record.lower = lastRecord_.lower;
    record.pathParameter = lastRecord_.pathParameter;

    const auto start = std::chrono::steady_clock::now();
    // An exception from the iteration (a failed allocation, a library's error) ends the run
    // with its message instead of escaping into the caller's thread.
    Status result;
    try {
        result = doStep(record);
    } catch (const MemoryLimitError& e) {
        // A memory limit is the input's size, not a numerical failure (exit status 1).
        result = Status::make(StatusCode::InvalidInput, e.what());
    } catch (const std::bad_alloc&) {
        result = Status::make(StatusCode::InvalidInput, outOfMemoryMessage());
    } catch (const std::exception& e) {
        result = Status::make(StatusCode::NumericalFailure, e.what());
    } catch (...) {
        result = Status::make(StatusCode::NumericalFailure, "unknown error in the iteration");
    }
    stepSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    record.seconds = setupSeconds_ + stepSeconds_;
    record.gap = record.upper - record.lower;
    if (std::isnan(record.gap)) record.gap = std::numeric_limits<double>::infinity();
    if (std::isnan(record.passes)) record.passes = double(record.oracleCalls);
    trace_.push_back(record);
    lastRecord_ = record;

    if (result.code == StatusCode::Running) {
        const bool gapRules = !followsPath();
        // Bounds may cross by rounding; by more, the lower bound is not one any more and a
        // "converged" would certify nothing.
        const double crossing = 1e-6 * std::max(1.0, std::abs(record.upper));
        if (gapRules && record.gap < -crossing) {
            result = Status::make(StatusCode::NumericalFailure,
                                  "the lower bound " + formatReal(record.lower) +
                                      " exceeds the upper bound " + formatReal(record.upper) +
                                      " by " + formatReal(-record.gap) +
                                      ": the method has lost precision (badly scaled data?)");
        } else if (gapRules && stop_.absoluteReached(record.gap)) {
            result = Status::make(StatusCode::Converged,
                                  "gap " + formatReal(record.gap) + " within tolerance after " +
                                      std::to_string(record.iteration) + " iterations");
        } else if (gapRules && stop_.relativeReached(record.gap, record.upper)) {
            result = Status::make(StatusCode::Converged,
                                  "gap " + formatReal(record.gap) + " <= tol_rel * upper after " +
                                      std::to_string(record.iteration) + " iterations");
        } else if (record.iteration >= stop_.max_iterations) {
            result =
                Status::make(StatusCode::IterationLimit,
                             "reached max_iterations = " + std::to_string(stop_.max_iterations) +
                                 " with gap " + formatReal(record.gap));
        } else if (stop_.max_seconds > 0.0 && record.seconds >= stop_.max_seconds) {
            result = Status::make(StatusCode::TimeLimit,
                                  "reached max_seconds = " + formatReal(stop_.max_seconds) +
                                      " with gap " + formatReal(record.gap));
        } else if (cancel_.cancelled()) {
            result = Status::make(StatusCode::Cancelled, "stopped by the user");
        }
    }
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
