// SPDX-License-Identifier: GPL-3.0-or-later
#include "frank_wolfe.h"

#include <cmath>

#include "core/number_text.h"
#include "nonsmooth/cutting_plane_model.h"

namespace cplab {

namespace {

enum Line { kInput, kInit, kRepeat, kOracle, kGap, kBounds, kAway, kStep, kMove, kUntil, kReturn };

// A vertex's weight above this counts it as active (the active_vertices column's rule).
constexpr double kActiveWeight = 1e-15;

std::string vertexText(const Eigen::Vector2d& v) {
    return "vertex (" + formatShort(v.x()) + ", " + formatShort(v.y()) + ")";
}

std::string at(const Eigen::Vector2d& x) {
    return "(x, y) = " + pointText(x);
}

}  // namespace

bool FrankWolfeOptions::isValid(std::string* why) const {
    const char* owner = "FrankWolfeOptions";
    return stop.isValid(owner, why) &&
           requireText(step == "standard" || step == "line_search", owner, "step", step,
                       "must be 'standard' or 'line_search'", why) &&
           requireText(variant == "plain" || variant == "away", owner, "variant", variant,
                       "must be 'plain' or 'away'", why) &&
           requireText(variant != "away" || step == "line_search", owner, "variant", variant,
                       "away steps need step=line_search", why);
}

FrankWolfeSolver::FrankWolfeSolver(std::shared_ptr<const PolytopeProblem> problem,
                                   FrankWolfeOptions options)
    : Solver(options.stop), problem_(std::move(problem)), options_(options) {
    if (!problem_) {
        reject("FrankWolfeSolver: no problem given");
        return;
    }
    if (!acceptOptions(options_)) return;
    if (std::string why; !problem_->isValid(&why)) {
        reject(why);
        return;
    }
    SetupTimer timer(*this);
    const auto& vertices = problem_->vertices;
    x_ = vertices[static_cast<std::size_t>(problem_->startVertex)];
    weights_.assign(vertices.size(), 0.0);
    weights_[static_cast<std::size_t>(problem_->startVertex)] = 1.0;
    iterates_.push_back(x_);
    std::string error;
    const double f0 = problem_->evaluate(x_, &lastGradient_, &error);
    if (!std::isfinite(f0) || !lastGradient_.allFinite()) {
        reject("FrankWolfeSolver: at the start vertex: " +
               (error.empty() ? "f or its gradient is not finite at " + at(x_) : error));
        return;
    }
    if (!problem_->isQuadratic()) planes_.push_back({x_, f0, lastGradient_});
    const int s = linearOracle(lastGradient_);
    fwGap_ = (x_ - vertices[static_cast<std::size_t>(s)]).dot(lastGradient_);

    IterationRecord initial;
    initial.oracleCalls = 1;
    initial.upper = f0;
    initial.lower = initial.upper - fwGap_;
    initial.extra = {fwGap_, 0.0, 0.0, 1.0};
    setInitialRecord(initial);
}

int FrankWolfeSolver::linearOracle(const Eigen::Vector2d& gradient) const {
    const auto& vertices = problem_->vertices;
    int best = 0;
    for (int v = 1; v < static_cast<int>(vertices.size()); ++v) {
        if (vertices[static_cast<std::size_t>(v)].dot(gradient) <
            vertices[static_cast<std::size_t>(best)].dot(gradient)) {
            best = v;
        }
    }
    return best;
}

std::vector<std::string> FrankWolfeSolver::extraColumns() const {
    return {"fw_gap", "step_size", "away_step", "active_vertices"};
}

std::vector<std::string> FrankWolfeSolver::pseudocode() const {
    return {
        "input: f smooth convex, polytope M = conv(V), start vertex x0, tolerance eps",
        "U <- f(x0);  L <- -inf;  t <- 0",
        "repeat",
        "  s_t <- argmin_{v in V} <v, grad f(x_t)>                 (linear oracle)",
        "  g_t <- <x_t - s_t, grad f(x_t)>                         (FW gap >= f(x_t) - f*)",
        "  L <- max(L, f(x_t) - g_t)",
        "  [away] a_t <- argmax over active v of <v, grad f(x_t)>; step away if better",
        "  gamma_t <- 2/(t+2)  or  argmin_{gamma in [0, gamma_max]} f(x_t + gamma d_t)",
        "  x_{t+1} <- x_t + gamma_t d_t;  U <- min(U, f(x_{t+1}));  t <- t + 1",
        "until U - L <= eps",
        "return x_t",
    };
}

// The away direction x_t − a_t and its largest step λ_a/(1 − λ_a) when it beats the
// Frank-Wolfe direction (awayStep_, awayVertex_ set); false otherwise.
bool FrankWolfeSolver::chooseAway(const Eigen::Vector2d& gradient, Eigen::Vector2d* direction,
                                  double* maxStep) {
    const auto& vertices = problem_->vertices;
    int a = -1;
    for (int v = 0; v < static_cast<int>(vertices.size()); ++v) {
        if (weights_[static_cast<std::size_t>(v)] <= 0) continue;
        if (a < 0 || vertices[static_cast<std::size_t>(v)].dot(gradient) >
                         vertices[static_cast<std::size_t>(a)].dot(gradient)) {
            a = v;
        }
    }
    const Eigen::Vector2d awayDirection = x_ - vertices[static_cast<std::size_t>(a)];
    const double awayGap = -awayDirection.dot(gradient);
    const double lambda = weights_[static_cast<std::size_t>(a)];
    if (!(awayGap > fwGap_ && lambda < 1.0)) return false;
    awayStep_ = true;
    awayVertex_ = a;
    *direction = awayDirection;
    *maxStep = lambda / (1.0 - lambda);
    return true;
}

// γ in [0, maxStep] minimising φ(γ) = f(x_t + γ d) for a typed f: bisection on the slope
// φ'(γ) = ⟨∇f(x_t + γ d), d⟩, which a convex f makes non-decreasing, to the last bit of γ; a
// slope that falls is negative curvature along the step, and f is not convex. An error or
// nullopt with *gamma.
std::optional<std::string> FrankWolfeSolver::searchLine(const Eigen::Vector2d& d, double slope,
                                                        double maxStep, double* gamma) const {
    *gamma = 0.0;
    if (!(slope < 0)) return std::nullopt;
    std::string error;
    const auto slopeAt = [&](double t, double* value) {
        Eigen::Vector2d g;
        const double f = problem_->evaluate(x_ + t * d, &g, &error);
        *value = g.dot(d);
        return std::isfinite(f) && std::isfinite(*value);
    };
    double lo = 0.0, hi = maxStep, slopeLo = slope, slopeHi = 0.0;
    if (!slopeAt(hi, &slopeHi)) return error;
    const double slack = 1e-9 * (std::abs(slope) + std::abs(slopeHi));
    const auto falls = [&](double a, double sa, double b, double sb) -> std::optional<std::string> {
        if (sb >= sa - slack) return std::nullopt;
        return "f is not convex: along the step from " + at(x_) + " its slope falls from " +
               formatShort(sa, 6) + " at " + at(x_ + a * d) + " to " + formatShort(sb, 6) + " at " +
               at(x_ + b * d) + " (negative curvature)";
    };
    if (auto e = falls(0.0, slope, hi, slopeHi)) return e;
    if (slopeHi <= 0) {
        *gamma = hi;
        return std::nullopt;
    }
    for (int k = 0; k < 200; ++k) {
        const double mid = 0.5 * (lo + hi);
        if (!(mid > lo && mid < hi)) break;
        double slopeMid = 0.0;
        if (!slopeAt(mid, &slopeMid)) return error;
        if (auto e = falls(lo, slopeLo, mid, slopeMid)) return e;
        if (auto e = falls(mid, slopeMid, hi, slopeHi)) return e;
        if (slopeMid < 0) {
            lo = mid;
            slopeLo = slopeMid;
        } else {
            hi = mid;
            slopeHi = slopeMid;
        }
    }
    *gamma = 0.5 * (lo + hi);
    return std::nullopt;
}

Status FrankWolfeSolver::doStep(IterationRecord& record) {
    // f was seen not to be convex before the run: no bound it would give certifies anything.
    if (!problem_->notConvex.empty())
        return Status::make(StatusCode::NumericalFailure, problem_->notConvex);
    const auto& vertices = problem_->vertices;
    Eigen::Vector2d gradient;
    std::string error;
    const double fx = problem_->evaluate(x_, &gradient, &error);
    lastGradient_ = gradient;
    ++record.oracleCalls;
    if (!std::isfinite(fx) || !gradient.allFinite())
        return Status::make(StatusCode::NumericalFailure,
                            error.empty() ? "f or its gradient is not finite at " + at(x_) : error);
    const int s = linearOracle(gradient);
    const Eigen::Vector2d& vs = vertices[static_cast<std::size_t>(s)];
    fwGap_ = (x_ - vs).dot(gradient);
    record.lower = std::max(record.lower, fx - fwGap_);
    fwVertex_ = s;
    awayVertex_ = -1;
    awayStep_ = dropStep_ = false;

    Eigen::Vector2d direction = vs - x_;
    double maxStep = 1.0;
    if (options_.variant == "away") chooseAway(gradient, &direction, &maxStep);

    double gamma = 0.0;
    if (options_.step == "standard") {
        gamma = 2.0 / (record.iteration - 1 + 2.0);  // t = iteration − 1 starts at 0
    } else if (problem_->isQuadratic()) {
        const double curvature = direction.dot(problem_->Q * direction);
        const double slope = direction.dot(gradient);
        gamma = curvature > 0 ? std::clamp(-slope / curvature, 0.0, maxStep)
                              : (slope < 0 ? maxStep : 0.0);
    } else if (auto failed = searchLine(direction, direction.dot(gradient), maxStep, &gamma)) {
        return Status::make(StatusCode::NumericalFailure, *failed);
    }
    stepSize_ = gamma;
    x_ += gamma * direction;
    updateWeights(s, gamma, maxStep);
    iterates_.push_back(x_);
    Eigen::Vector2d next;
    const double fNext = problem_->evaluate(x_, &next, &error);
    if (!std::isfinite(fNext) || !next.allFinite())
        return Status::make(StatusCode::NumericalFailure,
                            error.empty() ? "f or its gradient is not finite at " + at(x_) : error);
    record.upper = std::min(record.upper, fNext);

    int active = 0;
    for (double w : weights_)
        active += w > kActiveWeight ? 1 : 0;
    if (options_.variant != "away") active = 0;
    record.extra = {fwGap_, gamma, awayStep_ ? 1.0 : 0.0, static_cast<double>(active)};
    return checkConvex(next, fNext);
}

// The active-set weights after the step of size gamma (toward s, or away from awayVertex_),
// and the step's events.
void FrankWolfeSolver::updateWeights(int s, double gamma, double maxStep) {
    // The weights are kept for both variants (the plain one's tell when a vertex is first used).
    const bool wasActive = weights_[static_cast<std::size_t>(s)] > kActiveWeight;
    if (awayStep_) {
        for (double& w : weights_)
            w *= (1.0 + gamma);
        auto& wa = weights_[static_cast<std::size_t>(awayVertex_)];
        wa -= gamma;
        if (gamma >= maxStep) {
            wa = 0.0;  // drop step: a leaves the active set
            dropStep_ = true;
        }
    } else {
        for (double& w : weights_)
            w *= (1.0 - gamma);
        weights_[static_cast<std::size_t>(s)] += gamma;
    }
    noteStepEvents(wasActive);
}

// A typed f: the plane at the new iterate against f at the earlier ones and theirs against f
// there (nonsmooth/cutting_plane_model.h); a plane above f stops the run, as Kelley's does,
// since the lower bound f(x_t) − g_t then certifies nothing.
Status FrankWolfeSolver::checkConvex(const Eigen::Vector2d& gradient, double f) {
    if (problem_->isQuadratic()) return Status::running();
    planes_.push_back({x_, f, gradient});
    if (const auto above = lastPlaneAboveF(planes_))
        return Status::make(StatusCode::NumericalFailure, planeAboveFText(planes_, *above));
    return Status::running();
}

void FrankWolfeSolver::noteStepEvents(bool fwVertexWasActive) {
    const auto& vertices = problem_->vertices;
    if (awayStep_) {
        const std::string away = vertexText(vertices[static_cast<std::size_t>(awayVertex_)]);
        noteEvent(AwayStep, "away step from " + away + ", gamma = " + formatShort(stepSize_));
        if (dropStep_) noteEvent(DropStep, "drop step: " + away + " left the active set");
    } else if (!fwVertexWasActive &&
               weights_[static_cast<std::size_t>(fwVertex_)] > kActiveWeight) {
        noteEvent(VertexAdded, vertexText(vertices[static_cast<std::size_t>(fwVertex_)]) +
                                   " joined the active set, gamma = " + formatShort(stepSize_));
    }
}

SnapshotPtr FrankWolfeSolver::snapshot() const {
    auto snap = std::make_shared<FrankWolfeSnapshot>();
    fillSnapshot(*snap);
    if (rejected()) return snap;
    if (!view_) view_ = makePolytopeView(problem_);
    snap->view = view_;
    snap->iterates = iterates_;
    snap->gradient = lastGradient_;
    snap->fwVertex = fwVertex_;
    snap->awayVertex = awayVertex_;
    snap->awayStep = awayStep_;
    snap->dropStep = dropStep_;
    snap->stepSize = stepSize_;
    snap->fwGap = fwGap_;
    if (options_.variant == "away") snap->weights = weights_;
    if (iteration() == 0) {
        snap->executedLines = {kInput, kInit};
    } else {
        snap->executedLines = {kRepeat, kOracle, kGap, kBounds};
        if (options_.variant == "away") snap->executedLines.push_back(kAway);
        snap->executedLines.insert(snap->executedLines.end(), {kStep, kMove, kUntil});
        if (status().code == StatusCode::Converged) snap->executedLines.push_back(kReturn);
    }
    return snap;
}

SummaryFields FrankWolfeSolver::summary() const {
    if (rejected()) return {};
    return {{"x", std::vector<double>{x_.x(), x_.y()}}, {"fw_gap", fwGap_}};
}

}  // namespace cplab
