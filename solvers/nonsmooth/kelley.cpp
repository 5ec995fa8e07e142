// SPDX-License-Identifier: GPL-3.0-or-later
#include "kelley.h"

#include <cmath>

namespace cplab {

namespace {

// Pseudocode line numbers (see KelleySolver::pseudocode()).
enum Line { kInput, kInit, kRepeat, kMaster, kOracle, kBounds, kAddPlane, kUntil, kReturn };

}  // namespace

KelleySolver::KelleySolver(std::shared_ptr<const ConvexFunction> function, KelleyOptions options)
    : Solver(options.stop), function_(std::move(function)), options_(options) {
    if (std::string why = cuttingPlaneProblemError(function_.get(), "KelleySolver"); !why.empty()) {
        reject(why);
        return;
    }
    if (!acceptOptions(options_)) return;
    const Box box = function_->box();
    SetupTimer timer(*this);
    model_ = std::make_unique<CuttingPlaneModel>(box);
    const Eigen::VectorXd x0 = function_->start().cwiseMax(box.lower).cwiseMin(box.upper);
    Eigen::VectorXd g;
    std::string error;
    const double f0 = function_->evaluateChecked(x0, &g, &error);
    if (!std::isfinite(f0) || !g.allFinite()) {
        reject("KelleySolver: " +
               (error.empty() ? "f or its subgradient is not finite at the start point" : error));
        return;
    }
    model_->addPlane({x0, f0, g});
    iterates_.push_back(x0);
    best_ = x0;
    candidate_ = x0;
    candidateModel_ = f0;

    IterationRecord initial;
    initial.oracleCalls = 1;
    initial.upper = f0;
    initial.extra = {1.0, f0};
    setInitialRecord(initial);
}

std::vector<std::string> KelleySolver::extraColumns() const {
    return {"planes", "f_x"};
}

std::vector<std::string> KelleySolver::pseudocode() const {
    return {
        "input: oracle x -> (f(x), g in df(x)), box X, start x0, tolerance eps",
        "evaluate f(x0), g0;  U <- f(x0);  t <- 1",
        "repeat",
        "  (x_t, L_t) <- argmin { y : y >= f(x_i) + <g_i, x - x_i> for i < t,  x in X }",
        "  evaluate f(x_t), g_t                                   (oracle call)",
        "  U <- min(U, f(x_t));  gap <- U - L_t",
        "  add the plane f(x_t) + <g_t, x - x_t>;  t <- t + 1",
        "until gap <= eps",
        "return x_best with f(x_best) = U",
    };
}

Status KelleySolver::doStep(IterationRecord& record) {
    const CuttingPlaneModel::Minimum minimum = model_->minimize();
    if (!minimum.ok) return Status::make(StatusCode::NumericalFailure, minimum.message);
    candidate_ = minimum.x;
    candidateModel_ = minimum.lpValue;

    Eigen::VectorXd g;
    std::string error;
    const double f = function_->evaluateChecked(candidate_, &g, &error);
    ++record.oracleCalls;
    if (!std::isfinite(f) || !g.allFinite()) {
        return Status::make(
            StatusCode::NumericalFailure,
            error.empty() ? "f or its subgradient is not finite at the master's solution" : error);
    }
    if (f < record.upper) {
        record.upper = f;
        best_ = candidate_;
    }
    // Adding planes only raises the model, so the bound is monotone in exact arithmetic; keep
    // it monotone under rounding too.
    record.lower = std::max(record.lower, minimum.lowerBound);

    model_->addPlane({candidate_, f, g});
    iterates_.push_back(candidate_);
    noteEvent(PlaneAdded, planeAddedText(model_->planes().size(), candidate_, f));
    record.extra = {static_cast<double>(model_->planes().size()), f};
    // The bound L is only valid for a convex f: stop at the first plane that shows it is not.
    if (const auto above = lastPlaneAboveF(model_->planes())) {
        planeAboveF_ = above;
        return Status::make(StatusCode::NumericalFailure,
                            planeAboveFText(model_->planes(), *above));
    }
    return Status::running();
}

SnapshotPtr KelleySolver::snapshot() const {
    auto snap = std::make_shared<CuttingPlaneSnapshot>();
    fillSnapshot(*snap);
    if (rejected()) return snap;
    if (!view_) view_ = makeFunctionView(*function_);
    snap->function = view_;
    snap->planes = model_->planes();
    snap->iterates = iterates_;
    snap->candidate = candidate_;
    snap->candidateModel = candidateModel_;
    snap->modelMinimizer = candidate_;
    snap->modelMinimum = lastRecord().lower;
    snap->best = best_;
    snap->bestValue = lastRecord().upper;
    snap->planeAboveF = planeAboveF_;
    if (view_->dimension == 1) snap->modelCurve = modelCurve(snap->planes, view_->xs);
    if (view_->dimension == 2) snap->modelCells = modelCells(snap->planes, view_->box);
    if (iteration() == 0) {
        snap->executedLines = {kInput, kInit};
    } else {
        snap->executedLines = {kRepeat, kMaster, kOracle, kBounds, kAddPlane, kUntil};
        if (status().code == StatusCode::Converged) snap->executedLines.push_back(kReturn);
    }
    return snap;
}

SummaryFields KelleySolver::summary() const {
    if (rejected()) return {};
    return {{"x", std::vector<double>(best_.data(), best_.data() + best_.size())},
            {"planes", static_cast<double>(model_->planes().size())}};
}

}  // namespace cplab
