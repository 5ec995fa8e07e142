// SPDX-License-Identifier: GPL-3.0-or-later
#include "bmrm.h"

#include <algorithm>
#include <cmath>

#include "core/number_text.h"

namespace cplab {

namespace {

enum Line { kInput, kInit, kRepeat, kOracle, kUpper, kQp, kWeights, kPrune, kUntil, kReturn };

}  // namespace

bool BmrmOptions::isValid(std::string* why) const {
    const char* owner = "BmrmOptions";
    return stop.isValid(owner, why) && model.isValid(owner, why) && planes.isValid(owner, why);
}

BmrmSolver::BmrmSolver(const LinearProblem& problem, BmrmOptions options)
    : LinearSvmSolver(problem, options.model, options.stop, "BmrmOptions"), bmrmOptions_(options) {
    if (!acceptOptions(bmrmOptions_)) return;
    planes_ = std::make_unique<PlaneSet>(risk().dimension(), lambda(), bmrmOptions_.planes,
                                         linearPlaneBudget(trainingBytes()));
    // scores_ of doStep: one m × K score matrix.
    if (!acceptMemory(1, planes_->maxPlanes(), "BmrmSolver")) return;
    w_ = Eigen::VectorXd::Zero(risk().dimension());
    best_ = w_;
    previous_ = w_;
    // Every risk is ≥ 0, so 0 is a certified lower bound before the first plane.
    IterationRecord initial;
    initial.lower = 0.0;
    initial.extra = {double(planes_->size()), double(planes_->active()), 0.0, -1.0, 0.0};
    setInitialRecord(initial);
}

std::vector<std::string> BmrmSolver::extraColumns() const {
    std::vector<std::string> columns = commonColumns();
    columns.push_back("qp_iterations");
    return columns;
}

std::vector<std::string> BmrmSolver::pseudocode() const {
    return {
        "input: data, risk R, lambda, tolerance eps",
        "w_0 <- 0;  t <- 0;  U <- inf",
        "repeat   t <- t + 1",
        "  a_t <- R'(w_{t-1});  b_t <- R(w_{t-1}) - <a_t, w_{t-1}>     (oracle: one data pass)",
        "  U <- min(U, F(w_{t-1}))",
        "  alpha <- argmax_simplex <b, alpha> - |A alpha|^2 / (2 lambda)  (QP, warm start)",
        "  w_t <- -A alpha / lambda;  L <- dual value = F_t(w_t)",
        "  drop planes inactive for k iterations; aggregate beyond K planes",
        "until U - L <= eps  (or <= tol_rel U)",
        "return w_best with F(w_best) = U",
    };
}

bool addRiskPlanesAt(const Risk& risk, const std::vector<Eigen::VectorXd>& points,
                     PlaneSet& planes) {
    Eigen::VectorXd g;
    for (const Eigen::VectorXd& w : points) {
        const double r = risk.evaluate(w, &g);
        if (!std::isfinite(r) || !g.allFinite()) return false;
        planes.add(g, r - g.dot(w), w);
    }
    return true;
}

bool BmrmSolver::oracle(double* r, double* trainError) {
    // Scores, risk and subgradient in two passes over the data.
    previous_ = w_;
    risk_->scores(w_, scores_);
    // The training error of w, kept if it becomes w_best; then the loss's derivatives
    // overwrite the scores (one m × K matrix instead of two).
    *trainError = risk_->errorFromScores(scores_);
    *r = risk_->loss(scores_, &scores_);
    risk_->backProject(scores_, gradient_);
    if (!std::isfinite(*r) || !gradient_.allFinite()) return false;
    planes_->add(gradient_, *r - gradient_.dot(w_), w_);
    return true;
}

Status BmrmSolver::doStep(IterationRecord& record) {
    // Oracle at w_{t−1} (= w_).
    double r = 0.0, trainError = 0.0;
    ++record.oracleCalls;
    if (!oracle(&r, &trainError)) {
        return Status::make(StatusCode::NumericalFailure,
                            "the risk or its subgradient is not "
                            "finite at w");
    }
    const double f = 0.5 * lambda() * previous_.squaredNorm() + r;
    const bool improved = f < record.upper;
    if (improved) {
        record.upper = f;
        best_ = previous_;
    }

    const SimplexQpResult qp = planes_->solve();
    qpGap_ = qp.fwGap;
    qpIterations_ = qp.iterations;
    w_ = planes_->weights();
    record.lower = std::max(record.lower, planes_->dualValue());
    noteEvent(PlaneAdded, "plane added at w_{t-1}: R = " + formatShort(r) + ", F = " +
                              formatShort(f) + " (" + std::to_string(planes_->size()) + " stored)");
    noteEvents(planes_->lastSolveEvents());

    // The errors belong to w^b: recomputed only when it changed.
    record.extra = improved ? commonExtras(planes_->size(), planes_->active(), trainError, best_)
                            : commonExtras(planes_->size(), planes_->active());
    record.extra.push_back(qp.iterations);

    return progressStatus(record, kStallIterations,
                          std::max(kRoundingGap, 10.0 * bmrmOptions_.planes.qp_tolerance));
}

bool BmrmSolver::warmStartFrom(const BmrmSolver& previous, std::string* why) {
    if (!warmCompatible(previous, why)) return false;
    SetupTimer timer(*this);
    std::vector<Eigen::VectorXd> points = previous.planes_->cutPoints();
    std::erase_if(points, [&](const Eigen::VectorXd& p) { return p == previous.best_; });
    w_ = previous.best_;
    double r = 0.0, trainError = 0.0;
    if (!oracle(&r, &trainError) || !addRiskPlanesAt(*risk_, points, *planes_)) {
        if (why) *why = "the new risk is not finite at the previous run's points";
        planes_ = std::make_unique<PlaneSet>(risk().dimension(), lambda(), bmrmOptions_.planes,
                                             linearPlaneBudget(trainingBytes()));
        w_ = previous_ = Eigen::VectorXd::Zero(risk().dimension());
        return false;
    }
    best_ = previous_;
    const SimplexQpResult qp = planes_->solve();
    w_ = planes_->weights();
    IterationRecord initial;
    initial.oracleCalls = 1 + static_cast<long long>(points.size());
    initial.upper = 0.5 * lambda() * best_.squaredNorm() + r;
    initial.lower = std::clamp(planes_->dualValue(), 0.0, initial.upper);
    initial.extra = commonExtras(planes_->size(), planes_->active(), trainError, best_);
    initial.extra.push_back(qp.iterations);
    setInitialRecord(initial);
    if (why) {
        *why = "keeps w_best and takes " + std::to_string(points.size() + 1) +
               " planes of the edited data at the previous cut points" +
               (previous.planes_->keepsCutPoints() ? "" : " (the previous run kept none)");
    }
    return true;
}

SnapshotPtr BmrmSolver::snapshot() const {
    auto snap = std::make_shared<LinearSvmSnapshot>();
    fillLinearSnapshot(*snap);
    if (!valid()) return snap;
    snap->wModel = w_;
    snap->wCut = previous_;
    if (iteration() == 0) {
        snap->executedLines = {kInput, kInit};
    } else {
        snap->executedLines = {kRepeat, kOracle, kUpper, kQp, kWeights};
        if (lastRecord().events & (PlanesDropped | PlanesAggregated))
            snap->executedLines.push_back(kPrune);
        snap->executedLines.push_back(kUntil);
        if (status().code == StatusCode::Converged) snap->executedLines.push_back(kReturn);
    }
    return snap;
}

SummaryFields BmrmSolver::familySummary() const {
    return {{"active_planes", static_cast<double>(planes_->active())},
            {"dropped_planes", static_cast<double>(planes_->dropped())},
            {"aggregations", static_cast<double>(planes_->aggregations())}};
}

}  // namespace cplab
