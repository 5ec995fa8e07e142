// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured/frank_wolfe_ssvm.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/worker_team.h"
#include "structured/structured_snapshot.h"

namespace cplab {

namespace {

constexpr const char* kOwner = "FrankWolfeSsvmOptions";
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Pseudocode line numbers (see FrankWolfeSsvmSolver::pseudocode()).
enum Line {
    kInput,
    kInit,
    kFirstPass,
    kRepeat,
    kStep,
    kUpdate,
    kOracle,
    kCorner,
    kBounds,
    kUntil,
    kReturn
};

}  // namespace

void FrankWolfeSsvmOptions::visit(OptionVisitor& v) {
    stop.visit(v);
    visitLambda(v, lambda);
    visitBatchEvaluation(v, eval_every, threads);
}

bool FrankWolfeSsvmOptions::isValid(std::string* why) const {
    return stop.isValid(kOwner, why) &&
           validStructuredOptions(kOwner, lambda, eval_every, threads, why);
}

FrankWolfeSsvmSolver::FrankWolfeSsvmSolver(StructuredProblem problem, FrankWolfeSsvmOptions options)
    : StructuredSolver(std::move(problem), options.stop), options_(std::move(options)) {
    if (!startStructured(options_, "FrankWolfeSsvmSolver")) return;
    SetupTimer timer(*this);
    w_ = Eigen::VectorXd::Zero(model_->dimension());
    corner_.resize(model_->dimension());
    decodeAt(nullptr);  // nothing is polled in the constructor
    if (!std::isfinite(primal_) || !std::isfinite(gap_)) {
        reject(
            "FrankWolfeSsvmSolver: the primal objective is not finite at w = 0 (data values "
            "too large?)");
        return;
    }
    lastErrors_ = startErrors(problem_, team_.get(), &evalSeconds_);
    wBest_ = w_;
    setInitialRecord(batchStartRecord(primal_, gap_, 0.0, lastErrors_));
}

FrankWolfeSsvmSolver::~FrankWolfeSsvmSolver() = default;

std::vector<std::string> FrankWolfeSsvmSolver::extraColumns() const {
    return structuredColumns();
}

std::vector<std::string> FrankWolfeSsvmSolver::pseudocode() const {
    return {
        "input: words (x_i, y_i), i = 1..n, lambda; oracle: loss-augmented Viterbi",
        "w <- 0, l <- 0                                   (alpha on the truth corners)",
        "y*_i <- oracle(w) for all i; w_s, l_s, gap <- corner and FW gap; upper <- P(0)",
        "repeat                                           (one step = one pass)",
        "  gamma <- clip(gap / (lambda |w - w_s|^2), 0, 1)  (exact line search)",
        "  w <- (1 - gamma) w + gamma w_s;  l <- (1 - gamma) l + gamma l_s",
        "  y*_i <- argmax_y Delta(y_i, y) + <w, Psi(x_i, y)> for all i   (n oracle calls)",
        "  w_s <- sum_i psi_i(y*_i) / (lambda n);  l_s <- sum_i Delta(y_i, y*_i) / n;  "
        "gap <- lambda <w - w_s, w> - l + l_s",
        "  upper <- min(upper, P(w) = D + gap);  lower <- max(lower, D = -lambda/2 |w|^2 + l)",
        "until upper - lower <= eps",
        "return w_best with P(w_best) = upper",
    };
}

double FrankWolfeSsvmSolver::dualValue() const {
    return -0.5 * options_.lambda * w_.squaredNorm() + loss_;
}

bool FrankWolfeSsvmSolver::decodeAt(const Interrupt* stop) {
    if (!oraclePassAt(*model_, w_, team_.get(), stop, pass_)) return false;
    const double lambda = options_.lambda;
    const int n = model_->size();
    corner_.setZero();
    addPsiSum(*model_, pass_, 1.0 / (lambda * n), corner_);
    cornerLoss_ = pass_.meanLoss;
    primal_ = 0.5 * lambda * w_.squaredNorm() + pass_.meanHinge;
    gap_ = lambda * (w_ - corner_).dot(w_) - loss_ + cornerLoss_;
    return true;
}

Status FrankWolfeSsvmSolver::doStep(IterationRecord& record) {
    const double lambda = options_.lambda;
    // The move along the corner of the previous pass. D(w + γ(w_s − w)) is a concave quadratic
    // in γ with slope gap at 0 and curvature λ‖w − w_s‖²; with zero curvature only ℓ changes,
    // and the full step is taken when it raises D.
    const double squared = (w_ - corner_).squaredNorm();
    const double gamma =
        squared > 0.0 ? std::clamp(gap_ / (lambda * squared), 0.0, 1.0) : (gap_ > 0.0 ? 1.0 : 0.0);
    if (gamma > 0.0) {
        w_ += gamma * (corner_ - w_);
        loss_ += gamma * (cornerLoss_ - loss_);
    }
    lastStep_ = gamma;
    const double dual = dualValue();
    if (!std::isfinite(dual)) {
        return Status::make(
            StatusCode::NumericalFailure,
            "the dual objective is not finite after pass " + std::to_string(passes_ + 1));
    }
    record.lower = std::min(std::max(record.lower, dual), record.upper);

    const Interrupt stop = stepInterrupt();
    if (!decodeAt(&stop)) {
        primal_ = gap_ = kNaN;
        record.passes = passes_;
        record.extra = structuredColumnValues(kNaN, dual, kNaN, lastStep_, lastErrors_, false);
        evaluatedLast_ = false;
        return interruptedStatus(stop, stopOptions(),
                                 "the oracle pass " + std::to_string(passes_ + 1),
                                 " (the step of this iteration was taken, its P is unknown; the "
                                 "reported w is the best evaluated one, whose P is U)");
    }
    // D is certified by weak duality for every feasible α (see takePassPrimal).
    if (const Status failed = takePassPrimal(primal_, passes_, w_, wBest_, record);
        failed.finished())
        return failed;
    evaluatedLast_ =
        evaluateIfDue(w_, passes_, options_.eval_every, stop, evalSeconds_, lastErrors_);
    record.extra =
        structuredColumnValues(primal_, dual, gap_, lastStep_, lastErrors_, evaluatedLast_);
    return Status::running();
}

std::string FrankWolfeSsvmSolver::finishRecord(IterationRecord& record, const Status& status) {
    if (rejected()) return {};
    // P of every iterate is known (the oracle pass gives it); the errors may not be.
    if (!evaluatedLast_ && record.extra.size() >= 7 && std::isfinite(primal_)) {
        if (!finalEvaluationAffordable(status, evalSeconds_, stopOptions()))
            return skippedEvaluationNote(evalSeconds_);
        lastErrors_ = evaluateErrors(problem_, w_, team_.get());
        record.extra =
            structuredColumnValues(primal_, record.extra[1], gap_, lastStep_, lastErrors_, true);
        evaluatedLast_ = true;
    }
    return startWeightsNote(wBest_, passes_);
}

SummaryFields FrankWolfeSsvmSolver::summary() const {
    if (rejected()) return {};
    return batchSummary(options_.lambda, primal_, dualValue(), gap_, passes_, {}, wBest_);
}

SnapshotPtr FrankWolfeSsvmSolver::snapshot() const {
    auto snap = chainSnapshot(
        options_.lambda, w_,
        {primal_, dualValue(), gap_, static_cast<double>(passes_), lastStep_, lastErrors_});
    if (rejected()) return snap;
    if (iteration() == 0) {
        snap->executedLines = {kInput, kInit, kFirstPass};
        return snap;
    }
    snap->executedLines = {kRepeat, kStep, kUpdate, kOracle, kCorner, kBounds, kUntil};
    if (status().code == StatusCode::Converged) snap->executedLines.push_back(kReturn);
    return snap;
}

}  // namespace cplab
