// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured/structured_solver.h"

#include <algorithm>
#include <cmath>

#include "core/worker_team.h"

namespace cplab {

StructuredSolver::StructuredSolver(StructuredProblem&& problem, const StopOptions& stop)
    : Solver(stop), problem_(std::move(problem)), model_(problem_.train) {}

StructuredSolver::~StructuredSolver() = default;

Status StructuredSolver::takePassPrimal(double primal, int& passes, const Eigen::VectorXd& w,
                                        Eigen::VectorXd& wBest, IterationRecord& record) const {
    ++passes;
    record.passes = passes;
    record.oracleCalls += model_->size();
    if (!std::isfinite(primal)) {
        return Status::make(
            StatusCode::NumericalFailure,
            "the primal objective is not finite after pass " + std::to_string(passes));
    }
    if (primal < record.upper) {
        record.upper = primal;
        wBest = w;
    }
    record.lower = std::min(record.lower, record.upper);
    return Status::running();
}

bool StructuredSolver::evaluateIfDue(const Eigen::VectorXd& w, int passes, int evalEvery,
                                     const Interrupt& stop, double& evalSeconds,
                                     StructuredErrors& errors) const {
    if (!evaluationDue(passes, evalEvery, stop, evalSeconds)) return false;
    evalSeconds = 0.0;
    errors = evaluateErrorsTimed(problem_, w, team_.get(), &evalSeconds);
    return true;
}

std::string StructuredSolver::finishWithErrors(const Eigen::VectorXd& w,
                                               const Eigen::VectorXd& wBest, int passes,
                                               const Status& status, double evalSeconds,
                                               StructuredErrors& errors, bool& evaluated,
                                               IterationRecord& record) const {
    const std::string skipped = evaluateFinalErrors(problem_, w, team_.get(), status, stopOptions(),
                                                    evalSeconds, errors, evaluated, record);
    return skipped.empty() ? startWeightsNote(wBest, passes) : skipped;
}

IterationRecord StructuredSolver::batchStartRecord(double primal, double gap, double meanStep,
                                                   const StructuredErrors& errors) const {
    IterationRecord initial;
    initial.oracleCalls = model_->size();
    initial.passes = 0.0;
    initial.upper = primal;
    initial.lower = 0.0;
    initial.extra = structuredColumnValues(primal, 0.0, gap, meanStep, errors, true);
    return initial;
}

std::shared_ptr<StructuredSnapshot> StructuredSolver::chainSnapshot(
    double lambda, const Eigen::VectorXd& w, const StructuredProgress& progress) const {
    auto snap = std::make_shared<StructuredSnapshot>();
    fillSnapshot(*snap);
    if (!rejected()) fillStructuredSnapshot(problem_, lambda, w, progress, *snap);
    return snap;
}

SummaryFields StructuredSolver::batchSummary(double lambda, double primal, double dual, double gap,
                                             int passes, const SummaryFields& own,
                                             const Eigen::VectorXd& wBest) const {
    SummaryFields fields = {{"lambda", lambda},
                            {"primal", primal},
                            {"dual", dual},
                            {"duality_gap", gap},
                            {"passes", static_cast<long long>(passes)}};
    fields.insert(fields.end(), own.begin(), own.end());
    addErrorFields(problem_, wBest, team_.get(), fields, status(), stopOptions());
    return fields;
}

void StructuredSolver::startTeam(int threads) {
    SetupTimer timer(*this);
    team_ = makeStructuredTeam(threads);
}

}  // namespace cplab
