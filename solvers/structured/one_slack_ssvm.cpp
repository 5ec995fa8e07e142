// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured/one_slack_ssvm.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/number_text.h"
#include "core/worker_team.h"
#include "structured/structured_snapshot.h"

namespace cplab {

namespace {

constexpr const char* kOwner = "OneSlackOptions";
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Pseudocode line numbers (see OneSlackSolver::pseudocode()).
enum Line { kInput, kInit, kFirstPass, kRepeat, kQp, kOracle, kPlane, kBounds, kUntil, kReturn };

}  // namespace

void OneSlackOptions::visit(OptionVisitor& v) {
    stop.visit(v);
    visitLambda(v, lambda);
    planes.visit(v);
    visitBatchEvaluation(v, eval_every, threads);
}

bool OneSlackOptions::isValid(std::string* why) const {
    return stop.isValid(kOwner, why) &&
           validStructuredOptions(kOwner, lambda, eval_every, threads, why) &&
           planes.isValid(kOwner, why);
}

OneSlackSolver::OneSlackSolver(StructuredProblem problem, OneSlackOptions options)
    : StructuredSolver(std::move(problem), options.stop), options_(std::move(options)) {
    if (!startStructured(options_, "OneSlackSolver")) return;
    SetupTimer timer(*this);
    const int D = model_->dimension();
    planes_ = std::make_unique<PlaneSet>(D, options_.lambda, options_.planes);
    w_ = Eigen::VectorXd::Zero(D);
    a_.resize(D);
    decodeAndCut(nullptr);  // nothing is polled in the constructor
    if (!std::isfinite(primal_)) {
        reject(
            "OneSlackSolver: the primal objective is not finite at w = 0 (data values too "
            "large?)");
        return;
    }
    lastErrors_ = startErrors(problem_, team_.get(), &evalSeconds_);
    wBest_ = w_;
    IterationRecord initial = batchStartRecord(primal_, primal_, kNaN, lastErrors_);
    initial.extra.insert(initial.extra.end(), {static_cast<double>(planes_->size()), 0.0});
    setInitialRecord(initial);
}

OneSlackSolver::~OneSlackSolver() = default;

std::vector<std::string> OneSlackSolver::extraColumns() const {
    std::vector<std::string> columns = structuredColumns();
    columns.insert(columns.end(), {"planes", "active_planes"});
    return columns;
}

std::vector<std::string> OneSlackSolver::pseudocode() const {
    return {
        "input: words (x_i, y_i), i = 1..n, lambda; oracle: loss-augmented Viterbi",
        "w <- 0;  working set W <- {(a = 0, b = 0)}                (xi >= 0)",
        "y*_i <- oracle(w) for all i;  add plane (a, b);  upper <- P(0)",
        "repeat                                            (one step = one QP + one pass)",
        "  alpha <- argmax_{alpha in simplex} <b, alpha> - |A alpha|^2 / (2 lambda);  "
        "w <- -A alpha / lambda;  lower <- that dual value",
        "  y*_i <- argmax_y Delta(y_i, y) + <w, Psi(x_i, y)> for all i   (n oracle calls)",
        "  a <- -(1/n) sum_i psi_i(y*_i);  b <- (1/n) sum_i Delta(y_i, y*_i);  add (a, b) to W",
        "  upper <- min(upper, P(w) = lambda/2 |w|^2 + <a, w> + b)",
        "until upper - lower <= eps                 (gap = violation of the new constraint)",
        "return w_best with P(w_best) = upper",
    };
}

bool OneSlackSolver::decodeAndCut(const Interrupt* stop) {
    if (!oraclePassAt(*model_, w_, team_.get(), stop, pass_, problem_.communicator.get()))
        return false;
    const int n = model_->size();
    a_.setZero();
    addPsiSum(*model_, pass_, -1.0 / n, a_);
    primal_ = 0.5 * options_.lambda * w_.squaredNorm() + pass_.meanHinge;
    if (std::isfinite(primal_)) planes_->add(a_, pass_.meanLoss);
    return true;
}

Status OneSlackSolver::doStep(IterationRecord& record) {
    planes_->solve();
    noteEvents(planes_->lastSolveEvents());
    w_ = planes_->weights();
    dual_ = planes_->dualValue();
    if (!std::isfinite(dual_) || !w_.allFinite()) {
        return Status::make(
            StatusCode::NumericalFailure,
            "the reduced QP has no finite solution after " + std::to_string(passes_) + " planes");
    }
    // A valid bound whatever the planes dropped or aggregated: keep the best one.
    record.lower = std::min(std::max(record.lower, dual_), record.upper);
    const double planes = planes_->size(), active = planes_->active();
    const Interrupt stop = stepInterrupt();
    if (!decodeAndCut(&stop)) {
        record.passes = passes_;
        record.extra = structuredColumnValues(kNaN, dual_, kNaN, kNaN, lastErrors_, false);
        record.extra.insert(record.extra.end(), {planes, active});
        evaluatedLast_ = false;
        return interruptedStatus(stop, stopOptions(),
                                 "the oracle pass " + std::to_string(passes_ + 1),
                                 " (the reported w is the best evaluated one, whose P is U)");
    }
    if (const Status failed = takePassPrimal(primal_, passes_, w_, wBest_, record);
        failed.finished())
        return failed;
    noteEvent(PlaneAdded, "plane added: mean loss " + formatShort(pass_.meanLoss) +
                              ", P(w) = " + formatShort(primal_) + " (" +
                              std::to_string(planes_->size()) + " stored)");
    evaluatedLast_ =
        evaluateIfDue(w_, passes_, options_.eval_every, stop, evalSeconds_, lastErrors_);
    record.extra =
        structuredColumnValues(primal_, dual_, primal_ - dual_, kNaN, lastErrors_, evaluatedLast_);
    record.extra.insert(record.extra.end(), {planes, active});
    return Status::running();
}

std::string OneSlackSolver::finishRecord(IterationRecord& record, const Status& status) {
    if (rejected()) return {};
    return finishWithErrors(w_, wBest_, passes_, status, evalSeconds_, lastErrors_, evaluatedLast_,
                            record);
}

SummaryFields OneSlackSolver::summary() const {
    if (rejected()) return {};
    return batchSummary(options_.lambda, primal_, dual_, primal_ - dual_, passes_,
                        {{"planes", static_cast<long long>(planes_->size())},
                         {"active_planes", static_cast<long long>(planes_->active())},
                         {"dropped_planes", static_cast<long long>(planes_->dropped())}},
                        wBest_);
}

SnapshotPtr OneSlackSolver::snapshot() const {
    auto snap = chainSnapshot(
        options_.lambda, w_,
        {primal_, dual_, primal_ - dual_, static_cast<double>(passes_), kNaN, lastErrors_});
    if (rejected()) return snap;
    if (iteration() == 0) {
        snap->executedLines = {kInput, kInit, kFirstPass};
        return snap;
    }
    snap->executedLines = {kRepeat, kQp, kOracle, kPlane, kBounds, kUntil};
    if (status().code == StatusCode::Converged) snap->executedLines.push_back(kReturn);
    return snap;
}

}  // namespace cplab
