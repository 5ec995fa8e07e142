// SPDX-License-Identifier: GPL-3.0-or-later
#include "simplemkl.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>

#include "core/number_text.h"
#include "math/simplex_qp.h"
#include "mkl_master.h"
#include "mkl_second_order.h"

namespace cplab {

namespace {

constexpr const char* kOwner = "SimpleMklOptions";
constexpr double kInf = std::numeric_limits<double>::infinity();
// 1/φ: the golden section keeps this fraction of the bracket per trial.
const double kGolden = (std::sqrt(5.0) - 1.0) / 2.0;
// Weights below this are set to 0 after a step (SimpleMKL's "numerical precision" cut).
constexpr double kZeroWeight = kZeroKernelWeight;
// The line search gives up improving on γ = 0 below this fraction of the maximal step.
constexpr double kTinyStep = 1e-10;
constexpr double kBacktrack = 0.1;
// Armijo's sufficient decrease, and its trials before backing off.
constexpr double kArmijo = 1e-4;
constexpr int kArmijoTrials = 8;
// The finest KKT tolerance a stalled step tightens the inner SVM to.
constexpr double kFinestKkt = 1e-8;
// direction=newton: the Levenberg term λ relative to H's largest diagonal entry (H has rank at
// most |F| < K: without it the model is flat along the rest), its start, range and factor.
constexpr double kLevenbergStart = 1e-3;
constexpr double kLevenbergMin = 1e-8;
constexpr double kLevenbergMax = 1e2;
constexpr double kLevenbergFactor = 4.0;

enum Line {
    kInput,
    kInit,
    kRepeat,
    kGradient,
    kDirection,
    kMaxStep,
    kLineSearch,
    kUpdate,
    kUntil,
    kReturn
};

Eigen::VectorXd onSimplex(Eigen::VectorXd beta) {
    for (Eigen::Index k = 0; k < beta.size(); ++k)
        if (!(beta[k] > kZeroWeight)) beta[k] = 0.0;
    const double sum = beta.sum();
    if (sum > 0) beta /= sum;
    return beta;
}

bool hasNegative(const Eigen::VectorXd& v) {
    return (v.array() < 0.0).any();
}

// One SVM solution: J(β) = D(β) and what the descent needs from it.
struct SimpleMklPoint {
    Eigen::VectorXd beta;
    Eigen::VectorXd alpha;
    Eigen::VectorXd S;       // S_k(α); ∂J/∂βₖ = S_k − Σα = −½ αᵀ Y Kₖ Y α
    Eigen::VectorXd scores;  // f(xᵢ) on the training set
    double J = kInf;
    double bias = 0.0;
    double violation = 0.0;
};

using Evaluate = std::function<bool(const Eigen::VectorXd&, SimpleMklPoint*)>;

// No trial beat γ = 0: the minimum lies below the search's resolution. Along a descent
// direction a small enough step improves (unless J's inner accuracy hides it): back off by
// factors of kBacktrack from `gamma` down to kTinyStep · γ_max. False when cancelled.
bool backOff(const Evaluate& evaluate, const SimpleMklPoint& base, double gamma, double gammaMax,
             const Eigen::VectorXd& direction, SimpleMklPoint& best) {
    while (!(best.J < base.J) && gamma > kTinyStep * gammaMax) {
        gamma *= kBacktrack;
        SimpleMklPoint p;
        if (!evaluate(onSimplex(base.beta + gamma * direction), &p)) return false;
        if (p.J < best.J) best = std::move(p);
    }
    return true;
}

// The paper's line search: golden section of J(base.β + γ D) on [0, γ_max] down to a bracket
// of width · γ_max. `best` ends as the least J seen (base's at least). False when cancelled.
bool goldenSection(const Evaluate& evaluate, const SimpleMklPoint& base, double gammaMax,
                   const Eigen::VectorXd& direction, double width, SimpleMklPoint& best) {
    const auto at = [&](double gamma) { return onSimplex(base.beta + gamma * direction); };
    double a = 0.0;
    double b = gammaMax;
    double x1 = b - kGolden * (b - a);
    double x2 = a + kGolden * (b - a);
    SimpleMklPoint p1, p2;
    if (!evaluate(at(x1), &p1) || !evaluate(at(x2), &p2)) return false;
    const auto keep = [&](const SimpleMklPoint& p) {
        if (p.J < best.J) best = p;
    };
    keep(p1);
    keep(p2);
    while (b - a > width * gammaMax) {
        if (p1.J < p2.J) {
            b = x2;
            x2 = x1;
            p2 = std::move(p1);
            x1 = b - kGolden * (b - a);
            if (!evaluate(at(x1), &p1)) return false;
            keep(p1);
        } else {
            a = x1;
            x1 = x2;
            p1 = std::move(p2);
            x2 = a + kGolden * (b - a);
            if (!evaluate(at(x2), &p2)) return false;
            keep(p2);
        }
    }
    return backOff(evaluate, base, std::min(x1, x2), gammaMax, direction, best);
}

// Armijo's rule with a quadratic first step: J along the line is known at γ = 0 (value and
// slope J′(0) = Σₖ Sₖ Dₖ, the Σα term of ∂J/∂β cancels as Σ D = 0) and at γ_max (no
// descent there); the trial is the minimiser of the parabola through them, kept within
// [γ/10, γ/2] of the last trial, until J(γ) ≤ J(0) + c γ J′(0). Each trial is one SVM.
bool armijoSearch(const Evaluate& evaluate, const SimpleMklPoint& base, const SimpleMklPoint& far,
                  double gammaMax, const Eigen::VectorXd& direction, double width,
                  SimpleMklPoint& best) {
    const double slope = base.S.dot(direction);
    if (!(slope < 0)) return goldenSection(evaluate, base, gammaMax, direction, width, best);
    double gamma = gammaMax;
    double value = far.J;
    for (int trial = 0; trial < kArmijoTrials; ++trial) {
        const double curvature = (value - base.J - slope * gamma) / (gamma * gamma);
        const double next = curvature > 0 ? -slope / (2.0 * curvature) : 0.5 * gamma;
        gamma = std::clamp(next, 0.1 * gamma, 0.5 * gamma);
        SimpleMklPoint p;
        if (!evaluate(onSimplex(base.beta + gamma * direction), &p)) return false;
        value = p.J;
        const bool accepted = p.J <= base.J + kArmijo * gamma * slope;
        if (p.J < best.J) best = std::move(p);
        if (accepted) return true;
    }
    return backOff(evaluate, base, gamma, gammaMax, direction, best);
}

}  // namespace

struct SimpleMklSolver::State {
    State(KernelSet& kernels, const Eigen::VectorXd& y, const Eigen::VectorXd& beta0,
          double cacheMb, const SmoOptions& smoOptions)
        : q(kernels, y, beta0, cacheMb), smo(q, smoOptions), lp(static_cast<int>(beta0.size())) {}

    // J(β) by the persistent SMO, warm-started from its last α; records the plane. False when
    // `stop` (the user's cancel, the run's deadline) ended it: before the SVM or inside SMO.
    bool evaluate(const Eigen::VectorXd& beta, KernelSet& kernels, const Interrupt& stop,
                  long long& svmCalls, long long& smoIterations, SimpleMklPoint* point) {
        if (stop.requested()) return false;
        q.setWeights(beta);
        smo.refreshGradient();
        const SmoProgress progress = smo.run(0, stop);
        ++svmCalls;
        smoIterations += progress.steps;
        if (!progress.converged || stop.requested()) return false;
        point->beta = beta;
        point->alpha = smo.alpha();
        point->J = smo.dualObjective();
        point->bias = smo.bias();
        point->violation = progress.maxViolation;
        point->scores = smo.trainScores();
        point->S = mklPlane(kernels, point->alpha);
        // Every SVM solution is a plane of D (a lower bound on the simplex), like SILP's.
        planes.push_back(point->S);
        betaIterates.push_back(beta);
        dValues.push_back(point->J);
        lp.addPlane(point->S);
        return true;
    }

    // L: the cutting-plane bound of every SVM solved so far (SILP's LP; at least
    // min_k S_k(α_t), the bound of α_t's plane alone).
    double lowerBound() {
        double lower = current.S.minCoeff();
        if (lp.solve()) lower = std::max(lower, lp.theta());
        return lower;
    }

    // direction=newton: the step of the second-order model at `start` (q's weights set to
    // start.β if a rejected trial left others).
    Eigen::VectorXd newtonDirectionAt(const SimpleMklPoint& start);
    // One step's descent from `start` (β_t): the Newton step, or the paper's when
    // direction=gradient or the model gives no descent; `best` becomes the point reached.
    // False when an SVM call was cancelled.
    template <class EvaluateFn>
    bool descendFrom(const EvaluateFn& evaluate, const SimpleMklOptions& options,
                     const SimpleMklPoint& start, SimpleMklPoint& best);

    KernelQ q;
    Smo smo;
    MklMasterLp lp;       // every plane so far: its value is the lower bound L
    bool solved = false;  // current holds J(β_t)
    // What the last step ran: the search for the maximal step (a direction with a negative
    // component) and the golden-section line search on it.
    bool maxStepRan = false, lineSearchRan = false;
    SimpleMklPoint current;  // β_t and its SVM solution
    // direction=newton: λ of the model's H + λ·max diag(H)·I, adapted step by step (smaller
    // after a full step, larger after a cut one), and whether the last step was Newton's.
    double levenberg = kLevenbergStart;
    bool newtonRan = false;
    std::vector<Eigen::VectorXd> planes, betaIterates;
    std::vector<double> dValues;
};

namespace {

// The reduced gradient against μ = argmax β (Rakotomamonjy et al. 2008, eq. 14, with the
// zero-sum D_μ of their code so that β stays on the simplex).
Eigen::VectorXd reducedGradientDirection(const SimpleMklPoint& start, int& mu) {
    const int K = static_cast<int>(start.beta.size());
    const Eigen::VectorXd g = start.S.array() - start.alpha.sum();
    mu = 0;
    start.beta.maxCoeff(&mu);
    Eigen::VectorXd direction = Eigen::VectorXd::Zero(K);
    for (int k = 0; k < K; ++k) {
        if (k == mu) continue;
        direction[k] = g[mu] - g[k];
        if (start.beta[k] == 0.0 && direction[k] < 0) direction[k] = 0.0;
    }
    direction[mu] = -direction.sum();
    return direction;
}

// Where the paper's inner while loop ends: the last point that decreased J, the point at the
// maximal step γ_max beyond it, and whether a line search on [0, γ_max] is still due.
struct MaxStep {
    SimpleMklPoint base;
    SimpleMklPoint far;
    double gammaMax = 0.0;
    bool lineSearch = true;
};

// Moves to each βₖ that reaches 0 while J decreases (the paper's inner while loop), from
// step.base; false when an SVM call was cancelled.
template <class EvaluateFn>
bool moveToMaxStep(const EvaluateFn& evaluate, int mu, Eigen::VectorXd& direction, MaxStep& step) {
    const auto K = direction.size();
    for (;;) {
        int nu = -1;
        step.gammaMax = kInf;
        for (int k = 0; k < K; ++k) {
            if (direction[k] < 0) {
                const double gamma = -step.base.beta[k] / direction[k];
                if (gamma < step.gammaMax) {
                    step.gammaMax = gamma;
                    nu = k;
                }
            }
        }
        Eigen::VectorXd betaFar = step.base.beta + step.gammaMax * direction;
        betaFar[nu] = 0.0;
        if (!evaluate(onSimplex(betaFar), &step.far)) return false;
        if (!(step.far.J < step.base.J)) return true;
        // β_ν stays at 0 from here: μ gives up what ν no longer takes, D_μ + D_ν, so that
        // Σ D stays 0 (β on the simplex).
        step.base = step.far;
        direction[mu] += direction[nu];
        direction[nu] = 0.0;
        if (!hasNegative(direction)) {
            step.lineSearch = false;
            return true;
        }
    }
}

// The descent from `best` along `direction`: the maximal steps while J decreases, then the
// line search on [0, γ_max] that options.line_search names; `best` becomes the point reached.
// False when an SVM call was cancelled.
template <class EvaluateFn>
bool descend(const EvaluateFn& evaluate, const SimpleMklOptions& options, int mu,
             Eigen::VectorXd& direction, SimpleMklPoint& best, bool& lineSearchRan) {
    MaxStep step{best, {}, 0.0, true};
    if (!moveToMaxStep(evaluate, mu, direction, step)) return false;
    best = step.base;
    if (!step.lineSearch || !(step.gammaMax > 0)) return true;
    lineSearchRan = true;
    return options.line_search == "golden"
               ? goldenSection(evaluate, step.base, step.gammaMax, direction,
                               options.line_search_tol, best)
               : armijoSearch(evaluate, step.base, step.far, step.gammaMax, direction,
                              options.line_search_tol, best);
}

// The step to the minimiser over the simplex of J's second-order model at β,
// gᵀ(β′ − β) + ½ (β′ − β)ᵀ (H + λ h I)(β′ − β), h = max diag H (the QP over the simplex of
// math/simplex_qp.h in the form ½ β′ᵀ H̃ β′ − (H̃ β − g)ᵀ β′).
Eigen::VectorXd newtonDirection(const MklSecondOrder& model, const Eigen::VectorXd& beta,
                                double levenberg) {
    Eigen::MatrixXd H = model.hessian;
    const double scale =
        std::max(H.diagonal().maxCoeff(), 1e-12 * model.gradient.cwiseAbs().maxCoeff());
    H.diagonal().array() += levenberg * std::max(scale, 1e-300);
    const Eigen::VectorXd b = H * beta - model.gradient;
    Eigen::VectorXd x = beta;
    SimplexQpOptions options;
    options.tolerance = 1e-12;
    solveSimplexQp(H, b, x, options);
    return onSimplex(x) - beta;
}

// Armijo's rule from the full step γ = 1 along the Newton direction (β + D on the simplex),
// then as armijoSearch from there. `fullStep` tells whether the full step was taken.
template <class EvaluateFn>
bool newtonSearch(const EvaluateFn& evaluate, const SimpleMklPoint& base,
                  const Eigen::VectorXd& direction, double width, SimpleMklPoint& best,
                  bool& fullStep) {
    const double slope = base.S.dot(direction);
    SimpleMklPoint full;
    if (!evaluate(onSimplex(base.beta + direction), &full)) return false;
    fullStep = full.J <= base.J + kArmijo * slope;
    if (fullStep) {
        best = std::move(full);
        return true;
    }
    if (full.J < best.J) best = full;
    return armijoSearch(evaluate, base, full, 1.0, direction, width, best);
}

bool lineSearchValid(const std::string& lineSearch, std::string* why) {
    if (lineSearch == "armijo" || lineSearch == "golden") return true;
    if (why) {
        *why =
            std::string(kOwner) + ": line_search = '" + lineSearch + "' must be armijo or golden";
    }
    return false;
}

bool directionValid(const std::string& direction, std::string* why) {
    if (direction == "newton" || direction == "gradient") return true;
    if (why)
        *why = std::string(kOwner) + ": direction = '" + direction + "' must be newton or gradient";
    return false;
}

}  // namespace

Eigen::VectorXd SimpleMklSolver::State::newtonDirectionAt(const SimpleMklPoint& start) {
    if (q.weights() != start.beta) q.setWeights(start.beta);
    const MklSecondOrder model = mklSecondOrder(q, start.alpha, smo.options().C);
    return newtonDirection(model, start.beta, levenberg);
}

template <class EvaluateFn>
bool SimpleMklSolver::State::descendFrom(const EvaluateFn& evaluate,
                                         const SimpleMklOptions& options,
                                         const SimpleMklPoint& start, SimpleMklPoint& best) {
    maxStepRan = lineSearchRan = newtonRan = false;
    if (options.direction == "newton") {
        const Eigen::VectorXd direction = newtonDirectionAt(start);
        if (start.S.dot(direction) < 0.0) {
            newtonRan = lineSearchRan = true;
            bool fullStep = false;
            if (!newtonSearch(evaluate, start, direction, options.line_search_tol, best,
                              fullStep)) {
                return false;
            }
            levenberg =
                std::clamp(fullStep ? levenberg / kLevenbergFactor : levenberg * kLevenbergFactor,
                           kLevenbergMin, kLevenbergMax);
        }
    }
    if (!newtonRan) {
        // The paper's step (direction=gradient, or no descent in the model's step).
        int mu = 0;
        Eigen::VectorXd direction = reducedGradientDirection(start, mu);
        maxStepRan = hasNegative(direction);
        if (maxStepRan && !descend(evaluate, options, mu, direction, best, lineSearchRan)) {
            return false;
        }
    }
    return true;
}

void SimpleMklOptions::visit(OptionVisitor& v) {
    stop.visit(v);
    kernel.visit(v, "kernels",
                 "kernel list, e.g. gaussian:0.1,1,10;poly:2;linear or gaussian:1@each_feature");
    v.real("line_search_tol", line_search_tol,
           "golden-section line search stops when its bracket is below this fraction of the "
           "maximal step, in (0, 1)");
    v.choice("line_search", line_search, {"armijo", "golden"},
             "line search along the reduced gradient: armijo (sufficient decrease, first trial "
             "at the minimiser of a parabola through J(0), J'(0) and J(gamma_max)) or golden "
             "(golden section down to line_search_tol, as the paper)");
    v.choice("direction", direction, {"newton", "gradient"},
             "descent direction: newton (to the minimiser over the simplex of J's second-order "
             "model from the SVM's free support vectors, Armijo from the full step) or gradient "
             "(the paper's reduced gradient, maximal step and line_search)");
}

bool SimpleMklOptions::isValid(std::string* why) const {
    return stop.isValid(kOwner, why) && kernel.isValid(kOwner, why) &&
           require(std::isfinite(line_search_tol) && line_search_tol > 0 && line_search_tol < 1,
                   kOwner, "line_search_tol", line_search_tol, "must lie in (0, 1)", why) &&
           lineSearchValid(line_search, why) && directionValid(direction, why);
}

SimpleMklSolver::SimpleMklSolver(const KernelProblem& problem, SimpleMklOptions options)
    : KernelSvmSolver(problem, options.kernel, options.stop, kOwner, /*singleKernel=*/false),
      simpleOptions_(std::move(options)) {
    if (!valid() || !acceptOptions(simpleOptions_)) return;
    SetupTimer timer(*this);
    const int K = kernels_->kernels();
    const Eigen::VectorXd beta0 = Eigen::VectorXd::Constant(K, 1.0 / K);
    try {
        state_ = std::make_unique<State>(
            *kernels_, problem_.train->labels, beta0,
            mklQCacheMb(options_.cache_mb, kernels_->examples()),
            SmoOptions{options_.C, options_.kkt_tolerance, options_.shrinking});
    } catch (const std::exception& e) {
        state_.reset();
        kernels_.reset();
        reject(std::string(kOwner) + ": " + e.what());
        return;
    }
    state_->current.beta = beta0;
    state_->current.alpha = Eigen::VectorXd::Zero(problem_.train->size());
    IterationRecord initial;
    initial.upper = kInf;  // J(β_0) is the first step's SVM
    initial.lower = 0.0;   // J ≥ D(α = 0) = 0
    initial.extra = commonExtras(0.0, std::numeric_limits<double>::quiet_NaN());
    setInitialRecord(initial);
}

SimpleMklSolver::~SimpleMklSolver() = default;

std::vector<std::string> SimpleMklSolver::pseudocode() const {
    return {
        "input: kernels K_1..K_K, C, labels y, tol_rel, direction (newton | gradient), "
        "line_search (armijo | golden, line_search_tol)",
        "beta <- (1/K, ..., 1/K);  alpha <- SVM(sum_k beta_k K_k);  J <- D(alpha)",
        "repeat",
        "  g_k <- -1/2 alpha' Y K_k Y alpha  (dJ/dbeta_k);  mu <- argmax_k beta_k",
        "  newton: D <- argmin over the simplex of g'(b - beta) + 1/2 (b - beta)' (H + lambda I) "
        "(b - beta), minus beta (H from alpha's free SVs)  |  gradient: D_k <- g_mu - g_k  (0 if "
        "beta_k = 0 and D_k < 0);  D_mu <- -sum_{k != mu} D_k",
        "  (gradient) while J decreases: gamma_max <- min_{D_k < 0} -beta_k / D_k;  J+ <- J(beta + "
        "gamma_max D) (SVM);  if J+ < J: beta <- beta + gamma_max D, D_mu <- D_mu + D_nu, "
        "D_nu <- 0",
        "  gamma <- line search of J(beta + gamma D) on [0, gamma_max]: Armijo from gamma = 1 "
        "(newton) or from the parabola's minimiser (or golden section)  (an SVM per trial, warm)",
        "  beta <- beta + gamma D;  U <- J(beta);  L <- min theta over beta in the simplex, theta "
        ">= every SVM's plane (LP; >= min_k S_k(alpha))",
        "until U - L <= tol_rel U",
        "return beta, alpha, b",
    };
}

Status SimpleMklSolver::doStep(IterationRecord& record) {
    State& s = *state_;
    const Interrupt stop = stepInterrupt();
    const auto evaluate = [&](const Eigen::VectorXd& beta, SimpleMklPoint* point) {
        return s.evaluate(beta, *kernels_, stop, svmCalls_, smoIterations_, point);
    };
    const auto report = [&] {
        record.oracleCalls = svmCalls_;
        record.upper = s.current.J;
        record.lower = std::min(std::max(record.lower, s.lowerBound()), record.upper);
        record.extra = commonExtras(s.current.J, s.current.violation, &s.current.scores);
    };
    // β_t's SVM solved in this step (the first): what a step cut short reports and keeps.
    bool solvedNow = false;
    // Cut short by the user or the time limit (polled inside SMO and before every SVM): β_t
    // and its solution stay, with the bounds of the last complete step (of β_t's SVM when it
    // was solved in this step: the model kept is that SVM's, and so must be the numbers).
    const auto cancelled = [&] {
        if (solvedNow) {
            report();
        } else {
            record.oracleCalls = svmCalls_;
            record.extra = previousExtrasWithCounts();
        }
        const std::string call = " during SVM call " + std::to_string(svmCalls_);
        if (stop.cancelled() || !stop.timedOut())
            return Status::make(StatusCode::Cancelled, "stopped by the user" + call);
        return Status::make(StatusCode::TimeLimit,
                            "reached max_seconds = " + formatReal(stopOptions().max_seconds) +
                                call + " (the last complete step's beta and SVM are kept)");
    };
    if (!s.solved) {
        // β_0's SVM (before it there is no classifier to save and no bound to report) is the
        // run's first iteration, which a time limit lets end, as SILP's first SVM; the user's
        // cancel still cuts it.
        const Interrupt first(cancelToken());
        if (!s.evaluate(s.current.beta, *kernels_, first, svmCalls_, smoIterations_, &s.current))
            return cancelled();
        s.solved = true;
        solvedNow = true;
    }
    const SimpleMklPoint start = s.current;
    SimpleMklPoint best = start;
    if (!s.descendFrom(evaluate, simpleOptions_, start, best)) return cancelled();
    const bool moved = best.J < start.J;
    s.current = std::move(best);
    noteKernelChanges(start.beta, s.current.beta);

    report();
    if (!moved && !stopOptions().gapReached(record.upper - record.lower, record.upper)) {
        // No descent: J is known to the inner SVM's accuracy only. Before calling it a stall,
        // the SVM is solved more accurately (a tenth of its tolerance, down to kFinestKkt):
        // the default kkt_tolerance must not keep a run from the tol_rel its user asked for.
        const double tolerance = s.smo.options().tolerance;
        if (tolerance > kFinestKkt) {
            const double finer = std::max(kFinestKkt, tolerance * 0.1);
            s.smo.setTolerance(finer);
            if (!evaluate(s.current.beta, &s.current)) return cancelled();
            report();
            noteEvent(PlaneAdded,
                      "no descent at the SVM's accuracy: re-solved with KKT tolerance " +
                          formatReal(finer) + ", J = " + formatShort(s.current.J));
            return Status::running();
        }
        return Status::make(StatusCode::Stalled,
                            "no descent along the reduced gradient with the gap " +
                                formatReal(record.upper - record.lower) +
                                " open, with the inner SVM solved to KKT tolerance " +
                                formatReal(tolerance));
    }
    return Status::running();
}

KernelClassifier SimpleMklSolver::classifier() const {
    const SimpleMklPoint& p = state_->current;
    return makeClassifier(p.alpha, p.bias, p.beta);
}

Eigen::VectorXd SimpleMklSolver::weights() const {
    return state_ ? state_->current.beta : Eigen::VectorXd();
}

bool SimpleMklSolver::warmStartFrom(const SimpleMklSolver& previous,
                                    const std::vector<int>& previousIndex, std::string* why) {
    if (!warmCompatible(previous, previousIndex, why)) return false;
    SetupTimer timer(*this);
    State& s = *state_;
    const SimpleMklPoint& p = previous.state_->current;
    const Eigen::VectorXd alpha =
        carriedAlpha(p.alpha, previousIndex, problem_.train->labels, options_.C);
    try {
        s.q.setWeights(p.beta);
        startFromBestMultiple(s.smo, alpha);
    } catch (const std::exception& e) {
        if (why) *why = e.what();
        s.q.setWeights(s.current.beta);
        return false;
    }
    s.current.beta = p.beta;
    s.current.alpha = s.smo.alpha();
    if (why) *why = "keeps beta and alpha of the surviving examples";
    return true;
}

SnapshotPtr SimpleMklSolver::snapshot() const {
    auto snapshot = std::make_shared<KernelSnapshot>();
    fillKernelSnapshot(*snapshot);
    if (!valid()) return snapshot;
    const State& s = *state_;
    snapshot->alpha = s.current.alpha;
    snapshot->planes = s.planes;
    snapshot->betaIterates = s.betaIterates;
    snapshot->dValues = s.dValues;
    if (iteration() == 0) {
        snapshot->executedLines = {kInput};
    } else {
        snapshot->executedLines = {kGradient, kDirection};
        if (s.maxStepRan) snapshot->executedLines.push_back(kMaxStep);
        if (s.lineSearchRan) snapshot->executedLines.push_back(kLineSearch);
        snapshot->executedLines.insert(snapshot->executedLines.end(), {kUpdate, kUntil});
        if (iteration() == 1)
            snapshot->executedLines.insert(snapshot->executedLines.begin(), {kInit, kRepeat});
        else
            snapshot->executedLines.insert(snapshot->executedLines.begin(), kRepeat);
        if (status().code == StatusCode::Converged) snapshot->executedLines.push_back(kReturn);
    }
    return snapshot;
}

}  // namespace cplab
