// SPDX-License-Identifier: GPL-3.0-or-later
#include "bundle.h"

#include <cmath>

#include "box_prox.h"
#include "core/number_text.h"

namespace cplab {

namespace {

enum Line {
    kInput,
    kInit,
    kRepeat,
    kProx,
    kPredicted,
    kOracle,
    kSerious,
    kNull,
    kAdapt,
    kBounds,
    kUntil,
    kReturn
};

}  // namespace

bool BundleOptions::isValid(std::string* why) const {
    const char* owner = "BundleOptions";
    return stop.isValid(owner, why) &&
           require(std::isfinite(nu) && nu > 0, owner, "nu", nu, "must be a finite number > 0",
                   why) &&
           require(std::isfinite(nu_min) && nu_min > 0, owner, "nu_min", nu_min,
                   "must be a finite number > 0", why) &&
           require(std::isfinite(nu_max) && nu_max >= nu_min, owner, "nu_max", nu_max,
                   "must be finite and >= nu_min", why) &&
           require(nu_rule != "adaptive" || (nu >= nu_min && nu <= nu_max), owner, "nu", nu,
                   "must lie in [nu_min, nu_max] for the adaptive rule", why) &&
           requireText(nu_rule == "fixed" || nu_rule == "adaptive", owner, "nu_rule", nu_rule,
                       "must be 'fixed' or 'adaptive'", why) &&
           require(std::isfinite(m) && m > 0 && m < 1, owner, "m", m, "must lie in (0, 1)", why) &&
           require(std::isfinite(decrease_tolerance) && decrease_tolerance >= 0, owner,
                   "decrease_tolerance", decrease_tolerance, "must be a finite number >= 0", why);
}

BundleSolver::BundleSolver(std::shared_ptr<const ConvexFunction> function, BundleOptions options)
    : Solver(options.stop), function_(std::move(function)), options_(options), nu_(options.nu) {
    if (std::string why = cuttingPlaneProblemError(function_.get(), "BundleSolver"); !why.empty()) {
        reject(why);
        return;
    }
    if (!acceptOptions(options_)) return;
    const Box box = function_->box();
    SetupTimer timer(*this);
    model_ = std::make_unique<CuttingPlaneModel>(box);
    center_ = function_->start().cwiseMax(box.lower).cwiseMin(box.upper);
    Eigen::VectorXd g;
    std::string error;
    centerValue_ = function_->evaluateChecked(center_, &g, &error);
    if (!std::isfinite(centerValue_) || !g.allFinite()) {
        reject("BundleSolver: " +
               (error.empty() ? "f or its subgradient is not finite at the start point" : error));
        return;
    }
    model_->addPlane({center_, centerValue_, g});
    alpha_ = Eigen::VectorXd::Ones(1);
    iterates_.push_back(center_);
    serious_.push_back(true);
    best_ = candidate_ = center_;
    candidateModel_ = centerValue_;

    IterationRecord initial;
    initial.oracleCalls = 1;
    initial.upper = centerValue_;
    const CuttingPlaneModel::Minimum minimum = model_->minimize();
    if (minimum.ok) {
        initial.lower = minimum.lowerBound;
        modelMinimizer_ = minimum.x;
    } else {
        modelMinimizer_ = center_;
    }
    initial.extra = {1.0, nu_, 0.0, 1.0};
    setInitialRecord(initial);
}

void BundleSolver::adaptNu(double decrease, double linearisationError,
                           const IterationRecord& record) {
    // The prox term can hold every step so close to x̂ that the model's dips elsewhere in the
    // box, which keep L low, are never explored: δ_t tiny against the gap U − L. Loosen ν
    // then, whatever the step was; otherwise the usual rule (Kiwiel-style): an accurate
    // serious step loosens, a null step whose plane cut deep at x̂ tightens.
    const double gap = record.upper - record.lower;
    if (predicted_ < kStallFraction * gap) {
        nu_ = std::max(options_.nu_min, nu_ / 2);
    } else if (lastSerious_ && predicted_ > 0 && decrease >= 0.9 * predicted_) {
        nu_ = std::max(options_.nu_min, nu_ / 2);
    } else if (!lastSerious_ && linearisationError > predicted_) {
        nu_ = std::min(options_.nu_max, nu_ * 2);
    }
}

std::vector<std::string> BundleSolver::extraColumns() const {
    return {"planes", "nu", "predicted_decrease", "serious"};
}

std::vector<std::string> BundleSolver::pseudocode() const {
    return {
        "input: oracle x -> (f(x), g in df(x)), box X, x0, nu > 0, m in (0,1), tolerance eps",
        "evaluate f(x0), g0;  prox-centre xc <- x0",
        "repeat",
        "  x_t <- argmin_{x in X}  nu/2 |x - xc|^2 + f_t(x)     (dual QP over the simplex)",
        "  delta_t <- f(xc) - (f_t(x_t) + nu/2 |x_t - xc|^2)     (predicted decrease)",
        "  evaluate f(x_t), g_t;  add the plane at x_t to f_t     (oracle call)",
        "  if f(xc) - f(x_t) >= m delta_t:  xc <- x_t              (serious step)",
        "  else keep xc                                            (null step)",
        "  adapt nu                                                (adaptive rule only)",
        "  L <- min over X of f_t (master LP);  U <- min_i f(x_i)",
        "until U - L <= eps",
        "return xc",
    };
}

Status BundleSolver::doStep(IterationRecord& record) {
    const BoxProxResult prox =
        solveBoxProx(model_->planes(), center_, nu_, function_->box(), alpha_);
    alpha_ = prox.alpha;
    candidate_ = prox.x;
    candidateModel_ = prox.model;
    predicted_ = std::max(0.0, centerValue_ - prox.primal);

    Eigen::VectorXd g;
    std::string error;
    const double f = function_->evaluateChecked(candidate_, &g, &error);
    ++record.oracleCalls;
    if (!std::isfinite(f) || !g.allFinite()) {
        return Status::make(
            StatusCode::NumericalFailure,
            error.empty() ? "f or its subgradient is not finite at the prox point" : error);
    }
    if (f < record.upper) {
        record.upper = f;
        best_ = candidate_;
    }
    // How far the new plane lies below f(x̂) at the centre: large when the model was poor.
    const double linearisationError = centerValue_ - (f + g.dot(center_ - candidate_));

    const double decrease = centerValue_ - f;
    lastSerious_ = decrease >= options_.m * predicted_;
    model_->addPlane({candidate_, f, g});
    iterates_.push_back(candidate_);
    serious_.push_back(lastSerious_);
    // The bound L is only valid for a convex f: stop at the first plane that shows it is not.
    if (const auto above = lastPlaneAboveF(model_->planes())) {
        planeAboveF_ = above;
        noteEvent(PlaneAdded, planeAddedText(model_->planes().size(), candidate_, f));
        return Status::make(StatusCode::NumericalFailure,
                            planeAboveFText(model_->planes(), *above));
    }

    const CuttingPlaneModel::Minimum minimum = model_->minimize();
    if (!minimum.ok) return Status::make(StatusCode::NumericalFailure, minimum.message);
    record.lower = std::max(record.lower, minimum.lowerBound);
    modelMinimizer_ = minimum.x;

    noteEvent(PlaneAdded, planeAddedText(model_->planes().size(), candidate_, f));
    const double nuBefore = nu_;
    if (options_.nu_rule == "adaptive") adaptNu(decrease, linearisationError, record);
    if (lastSerious_) {
        center_ = candidate_;
        centerValue_ = f;
        ++seriousCount_;
        noteEvent(SeriousStep, "serious step: the prox-centre moves to " + pointText(center_) +
                                   ", f = " + formatShort(f));
    } else {
        noteEvent(NullStep, "null step: the prox-centre stays at f = " + formatShort(centerValue_) +
                                " (f(x_t) = " + formatShort(f) + ")");
    }
    if (nu_ != nuBefore) {
        noteEvent(ProxWeightChanged, std::string(nu_ < nuBefore ? "nu lowered" : "nu raised") +
                                         " to " + formatShort(nu_));
    }

    record.extra = {static_cast<double>(model_->planes().size()), nu_, predicted_,
                    lastSerious_ ? 1.0 : 0.0};
    if (options_.decrease_tolerance > 0 && predicted_ <= options_.decrease_tolerance) {
        return Status::make(StatusCode::Converged, "predicted decrease " + formatReal(predicted_) +
                                                       " <= decrease_tolerance after " +
                                                       std::to_string(record.iteration) +
                                                       " iterations");
    }
    return Status::running();
}

SnapshotPtr BundleSolver::snapshot() const {
    auto snap = std::make_shared<CuttingPlaneSnapshot>();
    fillSnapshot(*snap);
    if (rejected()) return snap;
    if (!view_) view_ = makeFunctionView(*function_);
    snap->function = view_;
    snap->planes = model_->planes();
    snap->iterates = iterates_;
    snap->candidate = candidate_;
    snap->candidateModel = candidateModel_;
    snap->modelMinimizer = modelMinimizer_;
    snap->modelMinimum = lastRecord().lower;
    snap->best = best_;
    snap->bestValue = lastRecord().upper;
    snap->planeAboveF = planeAboveF_;
    snap->bundle = true;
    snap->proxCenter = center_;
    snap->nu = nu_;
    snap->predictedDecrease = predicted_;
    snap->serious = serious_;
    if (view_->dimension == 1) {
        snap->modelCurve = modelCurve(snap->planes, view_->xs);
        snap->proxCurve.reserve(view_->xs.size());
        for (std::size_t i = 0; i < view_->xs.size(); ++i) {
            const double d = view_->xs[i] - center_(0);
            snap->proxCurve.push_back(snap->modelCurve[i] + 0.5 * nu_ * d * d);
        }
    }
    if (view_->dimension == 2) snap->modelCells = modelCells(snap->planes, view_->box);
    if (iteration() == 0) {
        snap->executedLines = {kInput, kInit};
    } else {
        snap->executedLines = {kRepeat, kProx, kPredicted, kOracle,
                               lastSerious_ ? kSerious : kNull};
        if (options_.nu_rule == "adaptive") snap->executedLines.push_back(kAdapt);
        snap->executedLines.push_back(kBounds);
        snap->executedLines.push_back(kUntil);
        if (status().code == StatusCode::Converged) snap->executedLines.push_back(kReturn);
    }
    return snap;
}

SummaryFields BundleSolver::summary() const {
    if (rejected()) return {};
    return {{"x", std::vector<double>(best_.data(), best_.data() + best_.size())},
            {"prox_center", std::vector<double>(center_.data(), center_.data() + center_.size())},
            {"planes", static_cast<double>(model_->planes().size())},
            {"serious_steps", static_cast<double>(seriousCount_)},
            {"nu", nu_}};
}

}  // namespace cplab
