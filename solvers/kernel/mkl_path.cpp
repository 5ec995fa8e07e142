// SPDX-License-Identifier: GPL-3.0-or-later
#include "mkl_path.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "core/number_text.h"
#include "kernel_set.h"
#include "mkl_path_state.h"

namespace cplab {

namespace {

constexpr const char* kOwner = kMklPathOwner;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// After a correction of at most kEasyCorrection Newton steps (a good prediction: quadratic
// convergence from ~1e-3 to the tolerance) the next step in σ grows by kGrowth; after more than
// kHardCorrection it shrinks by kShrink.
constexpr int kEasyCorrection = 3;
constexpr int kHardCorrection = 6;
constexpr double kGrowth = 1.5;
constexpr double kShrink = 0.7;

enum Line { kInput, kStart, kStartNewton, kRepeat, kTangent, kPredict, kCorrect, kAdapt, kUntil };

}  // namespace

// ---- options ----

void MklPathOptions::visit(OptionVisitor& v) {
    stop.visit(v);
    v.text("kernels", kernels,
           "kernel list, e.g. gaussian:0.1,1,10;poly:2;linear or gaussian:1@each_feature");
    v.choice("normalize", normalize, {"none", "diagonal", "trace"},
             "scaling of each base kernel: none, unit diagonal, or mean diagonal 1 (trace)");
    v.boolean("standardize", standardize,
              "scale every feature, and the targets of the squared loss, to mean 0 and variance "
              "1 (training statistics) first");
    v.choice("loss", loss, {"squared", "logistic"},
             "squared (regression on the targets) or logistic (two classes)");
    v.real("gamma", gamma,
           "penalty weights d_j = (number of eigenvalues of K_j >= tr K_j / (2n))^gamma, "
           "in [0, 1]");
    v.real("mu", mu, "weight of the log-barrier, fixed along the path, in (0, 1000]");
    v.real("lambda_min", lambda_min, "the path stops at this lambda (>= 0; 0: lambda_0 * 1e-4)");
    v.integer("order", order, "order of the predictor, 1 (tangent) or 2 (with curvature)");
    v.real("sigma_step", sigma_step, "first step in sigma = log(lambda), > 0 (then adaptive)");
    v.integer("max_newton", max_newton,
              "corrector Newton steps per trial before the step in sigma is halved (>= 1)");
    v.real("kkt_tolerance", kkt_tolerance,
           "corrector stops when max_i |R_i| / (1 + |psi'_i| + sum_j eta_j (|K_j| |alpha|)_i) "
           "<= this, R = psi'(lambda alpha) + sum_j eta_j K_j alpha (> 0)");
    v.real("active_threshold", active_threshold,
           "kernel j counts as active when eta_j tr K_j is at least this share of "
           "sum_k eta_k tr K_k, in (0, 1)");
    v.real("memory_mb", memory_mb, "budget in MB for the dense kernel matrices (>= 1)");
}

bool MklPathOptions::isValid(std::string* why) const {
    PathLoss parsedLoss;
    KernelNormalization normalization;
    if (!stop.isValid(kOwner, why) ||
        !requireText(parseNormalization(normalize, &normalization), kOwner, "normalize", normalize,
                     "must be one of none, diagonal, trace", why) ||
        !requireText(parsePathLoss(loss, &parsedLoss), kOwner, "loss", loss,
                     "must be one of squared, logistic", why) ||
        !require(std::isfinite(gamma) && gamma >= 0 && gamma <= 1, kOwner, "gamma", gamma,
                 "must be in [0, 1]", why) ||
        !require(std::isfinite(mu) && mu > 0 && mu <= 1e3, kOwner, "mu", mu,
                 "must be a finite number in (0, 1000]", why) ||
        !require(std::isfinite(lambda_min) && lambda_min >= 0, kOwner, "lambda_min", lambda_min,
                 "must be a finite number >= 0 (0: lambda_0 * 1e-4)", why) ||
        !require(order == 1 || order == 2, kOwner, "order", order, "must be 1 or 2", why) ||
        !require(std::isfinite(sigma_step) && sigma_step > 0 && sigma_step <= 10, kOwner,
                 "sigma_step", sigma_step, "must be in (0, 10]", why) ||
        !require(max_newton >= 1 && max_newton <= 1000, kOwner, "max_newton", max_newton,
                 "must be in [1, 1000]", why) ||
        !require(std::isfinite(kkt_tolerance) && kkt_tolerance > 0, kOwner, "kkt_tolerance",
                 kkt_tolerance, "must be a finite number > 0", why) ||
        !require(std::isfinite(active_threshold) && active_threshold > 0 && active_threshold < 1,
                 kOwner, "active_threshold", active_threshold, "must be in (0, 1)", why) ||
        !require(std::isfinite(memory_mb) && memory_mb >= 1, kOwner, "memory_mb", memory_mb,
                 "must be a finite number >= 1 (MB)", why)) {
        return false;
    }
    // The grammar only (the data's dimension is checked at construction): a dimension large
    // enough for any '@' index the text names.
    std::vector<KernelSpec> specs;
    std::string reason;
    if (!parseKernelList(kernels, 1 << 20, &specs, &reason)) {
        if (why)
            *why =
                std::string(kOwner) + ": kernel list " + quotedKernelText(kernels) + ": " + reason;
        return false;
    }
    return true;
}

// ---- snapshot ----

std::size_t MklPathSnapshot::bytes() const {
    std::size_t n = Snapshot::bytes() + sizeof(*this) - sizeof(Snapshot);
    for (const std::string& label : kernelLabels)
        n += sizeof(std::string) + label.capacity();
    n += sizeof(double) * static_cast<std::size_t>(d.size() + eta.size() + eta0.size());
    // The α and the pictures are shared with the solver: only the pointers count.
    return n + sizeof(std::shared_ptr<const Eigen::VectorXd>) * alphas.capacity() +
           sizeof(std::shared_ptr<const MklPathPicture>) * pictures.capacity();
}

Eigen::VectorXd MklPathModel::predict(const Eigen::MatrixXd& points, const Eigen::VectorXd& alpha,
                                      const Eigen::VectorXd& eta) const {
    if (precomputed || !kernels || !train) return {};
    Dataset z;
    z.dense = points;
    if (z.dense.cols() < train->dimension())
        z.dense.conservativeResize(Eigen::NoChange, train->dimension());
    z.labels = Eigen::VectorXd::Zero(z.dense.rows());
    if (standardized)
        z.dense =
            ((z.dense.rowwise() - featureMean).array().rowwise() * featureScale.array()).matrix();
    const int n = static_cast<int>(alpha.size());
    const int rows = static_cast<int>(z.dense.rows());
    Eigen::VectorXd f = Eigen::VectorXd::Zero(rows);
    for (int j = 0; j < kernels->kernels() && j < eta.size(); ++j) {
        for (int r = 0; r < rows; ++r) {
            double sum = 0.0;
            for (int i = 0; i < n; ++i)
                sum += alpha[i] * kernels->cross(j, z, r, i);
            f[r] -= eta[j] * sum;
        }
    }
    if (!classification) f = (targetMean + targetScale * f.array()).matrix();
    return f;
}

namespace {

// The path view's pictures: f at this many points of a line (1-D), on a grid of this many
// points per side (2-D).
constexpr int kCurvePoints = 200;
constexpr int kGridCells = 48;

// The smallest and largest value of feature c over `data`.
std::pair<double, double> featureRange(const Dataset& data, int c) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (int i = 0; i < data.size(); ++i) {
        const double v = data.row(i)(c);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    return {lo, hi};
}

}  // namespace

MklPathPicture MklPathModel::picture(const Eigen::VectorXd& alpha,
                                     const Eigen::VectorXd& eta) const {
    MklPathPicture picture;
    const int dimension = train ? train->dimension() : 0;
    if (precomputed || !kernels || (dimension != 1 && dimension != 2)) return picture;
    picture.dimension = dimension;
    if (dimension == 1) {
        const auto [lo, hi] = featureRange(*train, 0);
        const double pad = std::max(0.05 * (hi - lo), 1e-9);
        Eigen::MatrixXd points(kCurvePoints, 1);
        for (int t = 0; t < kCurvePoints; ++t)
            points(t, 0) = lo - pad + (hi - lo + 2 * pad) * t / (kCurvePoints - 1);
        const Eigen::VectorXd f = predict(points, alpha, eta);
        picture.n = kCurvePoints;
        picture.x0 = points(0, 0);
        picture.dx = (hi - lo + 2 * pad) / (kCurvePoints - 1);
        picture.values.assign(f.data(), f.data() + f.size());
        return picture;
    }
    // 2-D: the data's box padded by 5 %.
    auto [x0, x1] = featureRange(*train, 0);
    auto [y0, y1] = featureRange(*train, 1);
    const double px = std::max(0.05 * (x1 - x0), 1e-9), py = std::max(0.05 * (y1 - y0), 1e-9);
    x0 -= px;
    x1 += px;
    y0 -= py;
    y1 += py;
    const int n = kGridCells;
    Eigen::MatrixXd points(n * n, 2);
    for (int iy = 0; iy < n; ++iy) {
        for (int ix = 0; ix < n; ++ix) {
            points(iy * n + ix, 0) = x0 + (x1 - x0) * ix / (n - 1);
            points(iy * n + ix, 1) = y0 + (y1 - y0) * iy / (n - 1);
        }
    }
    const Eigen::VectorXd f = predict(points, alpha, eta);
    picture.n = n;
    picture.x0 = x0;
    picture.y0 = y0;
    picture.x1 = x1;
    picture.y1 = y1;
    picture.dx = (x1 - x0) / (n - 1);
    picture.dy = (y1 - y0) / (n - 1);
    picture.values.assign(f.data(), f.data() + f.size());
    if (classification) {
        GridSamples samples;
        samples.x0 = x0;
        samples.y0 = y0;
        samples.dx = picture.dx;
        samples.dy = picture.dy;
        samples.nx = samples.ny = n;
        samples.values = picture.values;
        picture.zero = contourLevel(samples, 0.0);
    }
    return picture;
}

// ---- the solver ----

MklPathSolver::MklPathSolver(const KernelProblem& problem, MklPathOptions options)
    : Solver(options.stop), options_(std::move(options)) {
    if (!problem.train) {
        reject(std::string(kOwner) + ": no training set given");
        return;
    }
    if (problem.train->size() == 0) {
        reject(std::string(kOwner) + ": the training set '" + problem.train->name +
               "' has no examples");
        return;
    }
    if (!acceptOptions(options_)) return;
    SetupTimer timer(*this);
    try {
        auto s = std::make_unique<State>();
        // max_seconds counts the set-up: the first point's Newton steps stop at it.
        Interrupt stop;
        if (options_.stop.max_seconds > 0) {
            stop = Interrupt(cancelToken(),
                             Interrupt::Clock::now() +
                                 std::chrono::duration_cast<Interrupt::Clock::duration>(
                                     std::chrono::duration<double>(options_.stop.max_seconds)));
        }
        const std::string why = s->setUp(problem, options_, stop);
        if (!why.empty()) {
            reject(why);
            return;
        }
        state_ = std::move(s);
        // Record 0: the first point, filled as a step fills its record (no predictor).
        IterationRecord initial;
        state_->acceptPoint(state_->lambda0, 0.0, state_->startSteps, 0, options_.active_threshold,
                            initial);
        setInitialRecord(initial);
    } catch (const std::exception& e) {
        // A failed allocation (the budget check bounds the kernels, not everything) or an
        // error of Eigen's: the solver is refused instead of throwing into the caller.
        state_.reset();
        reject(std::string(kOwner) + ": " + e.what());
    }
}

MklPathSolver::~MklPathSolver() = default;

std::vector<std::string> MklPathSolver::extraColumns() const {
    std::vector<std::string> columns = {"lambda",         "log10_lambda",    "sigma_step",
                                        "newton_steps",   "trials",          "kkt_residual",
                                        "train_error",    "test_error",      "active_kernels",
                                        "dual_objective", "primal_objective"};
    if (state_) {
        for (const std::string& label : state_->labels)
            columns.push_back("eta:" + label);
    }
    return columns;
}

std::vector<std::string> MklPathSolver::pseudocode() const {
    return {
        "input: kernels K_1..K_m, targets y, loss psi, mu, gamma, lambda_min",
        "d_j <- (#eig(K_j) >= tr K_j / 2n)^gamma;  beta <- argmin psi;  "
        "lambda_0 <- max_j sqrt(beta' K_j beta) / d_j",
        "alpha <- Newton on G(., lambda_0) from beta / (2 lambda_0)",
        "repeat  (sigma = log lambda, step h)",
        "  alpha' <- -(dF/dalpha)^-1 dF/dsigma;  alpha'' from F's second derivative (order 2)",
        "  predict alpha(sigma - h) ~ alpha - h alpha' + h^2/2 alpha''",
        "  correct: Newton on G until R = psi'(lambda alpha) + sum_j eta_j K_j alpha ~ 0 "
        "(relative <= tol); else h <- h/2 and predict again",
        "  eta_j <- 2 mu / (lambda (d_j^2 - alpha' K_j alpha));  h <- 1.5 h after an easy "
        "correction, 0.7 h after a hard one",
        "until lambda <= lambda_min, training error 0, or the step budget",
    };
}

Status MklPathSolver::doStep(IterationRecord& record) {
    State& s = *state_;
    const double sigmaMin = std::log(s.lambdaMin);
    if (s.sigma <= sigmaMin) {
        record.extra = lastRecord().extra;
        return Status::make(StatusCode::Converged,
                            "lambda_0 = " + formatReal(s.lambda0) +
                                " is already <= lambda_min = " + formatReal(s.lambdaMin));
    }
    if (s.startCut) {
        record.extra = lastRecord().extra;
        return Status::make(StatusCode::TimeLimit,
                            "reached max_seconds = " + formatReal(options_.stop.max_seconds) +
                                " during the set-up: the first point at lambda_0 is the last of " +
                                std::to_string(s.startSteps) +
                                " Newton steps, not corrected (kkt_residual " +
                                formatReal(s.kktMeasure(s.alpha, s.lambda0)) + ")");
    }
    const double lambda = std::exp(s.sigma);
    Eigen::VectorXd v, curvature;
    const Interrupt stop = stepInterrupt();
    if (!s.tangent(s.alpha, lambda, options_.order, &v, &curvature, &stop)) {
        record.extra = lastRecord().extra;
        if (stop.requested()) {
            if (stop.cancelled() || !stop.timedOut())
                return Status::make(StatusCode::Cancelled, "stopped by the user");
            return Status::make(StatusCode::TimeLimit,
                                "reached max_seconds = " + formatReal(options_.stop.max_seconds) +
                                    " during the tangent at lambda = " + formatReal(lambda) +
                                    " (the last corrected point stays)");
        }
        return Status::make(
            StatusCode::NumericalFailure,
            "the Hessian of the barrier dual is singular at lambda = " + formatReal(lambda));
    }
    State::Trial trial;
    trial.h = std::min(s.step, s.sigma - sigmaMin);
    if (const Status failed = s.predictCorrect(v, curvature, lambda, options_, stop, trial);
        failed.code != StatusCode::Running) {
        record.extra = lastRecord().extra;
        return failed;
    }
    const double h = trial.h;
    const bool clamped = s.sigma - h <= sigmaMin + 1e-12;
    s.sigma = clamped ? sigmaMin : s.sigma - h;
    const double newLambda = clamped ? s.lambdaMin : std::exp(s.sigma);
    s.alpha = std::move(trial.next);
    if (!clamped || trial.trials > 1) {
        s.step = trial.newtonSteps <= kEasyCorrection  ? kGrowth * h
                 : trial.newtonSteps > kHardCorrection ? kShrink * h
                                                       : h;
    }
    s.acceptPoint(newLambda, h, trial.newtonSteps, trial.trials, options_.active_threshold, record);
    const Eigen::VectorXd& eta = s.pathEta.back();
    noteEvents(activeSetEvents(
        s.activeSet(s.pathEta[s.pathEta.size() - 2], options_.active_threshold),
        s.activeSet(eta, options_.active_threshold),
        std::vector<double>(eta.data(), eta.data() + eta.size()), s.labels, "kernel", "eta"));
    if (clamped) {
        return Status::make(StatusCode::Converged,
                            "reached lambda_min = " + formatReal(s.lambdaMin) + " after " +
                                std::to_string(s.pathLambda.size() - 1) + " path steps");
    }
    const bool perfect = s.loss == PathLoss::Logistic
                             ? s.lastTrainError == 0.0
                             : s.lastTrainError <= 1e-12 * s.targetVariance;
    if (perfect) {
        return Status::make(StatusCode::Converged,
                            "training error 0 at lambda = " + formatReal(newLambda));
    }
    return Status::running();
}

SummaryFields MklPathSolver::summary() const {
    if (!state_) return {};
    const State& s = *state_;
    const int m = static_cast<int>(s.K.size());
    NamedSeries path;
    path.emplace_back("lambda", s.pathLambda);
    for (int j = 0; j < m; ++j) {
        std::vector<double> series;
        for (const Eigen::VectorXd& eta : s.pathEta)
            series.push_back(eta[j]);
        path.emplace_back(s.labels[static_cast<std::size_t>(j)], std::move(series));
    }
    NamedValues weights, penalties;
    const Eigen::VectorXd eta = s.pathEta.back();
    for (int j = 0; j < m; ++j) {
        weights.emplace_back(s.labels[static_cast<std::size_t>(j)], eta[j]);
        penalties.emplace_back(s.labels[static_cast<std::size_t>(j)], s.d[j]);
    }
    const IterationRecord& r = lastRecord();
    SummaryFields fields = {{"weights", weights},
                            {"lambda", lambda()},
                            {"lambda_0", s.lambda0},
                            {"lambda_min", s.lambdaMin},
                            {"path_points", static_cast<long long>(s.pathLambda.size())},
                            {"newton_steps", s.newtonTotal},
                            {"factorizations", s.factorizations},
                            {"penalty_weights", penalties},
                            {"train_error", s.lastTrainError}};
    if (s.testY.size()) fields.emplace_back("test_error", s.lastTestError);
    if (r.extra.size() > 8) fields.emplace_back("active_kernels", r.extra[8]);
    fields.emplace_back(
        "error_measure",
        std::string(s.loss == PathLoss::Squared ? "mean squared error" : "misclassification rate"));
    if (s.testY.size() && !s.pathTestError.empty()) {
        const auto best = std::min_element(s.pathTestError.begin(), s.pathTestError.end());
        const auto index = static_cast<std::size_t>(best - s.pathTestError.begin());
        fields.emplace_back("best_lambda", s.pathLambda[index]);
        fields.emplace_back("best_test_error", *best);
    }
    fields.emplace_back("loss", options_.loss);
    fields.emplace_back("kernels", options_.kernels);
    fields.emplace_back("path", std::move(path));
    return fields;
}

SnapshotPtr MklPathSolver::snapshot() const {
    auto snapshot = std::make_shared<MklPathSnapshot>();
    fillSnapshot(*snapshot);
    if (!state_) return snapshot;
    const State& s = *state_;
    snapshot->kernelLabels = s.labels;
    snapshot->d = s.d;
    snapshot->eta = s.pathEta.back();
    snapshot->eta0 = s.pathEta.front();
    snapshot->lambda = lambda();
    snapshot->lambda0 = s.lambda0;
    snapshot->lambdaMin = s.lambdaMin;
    snapshot->classification = s.loss == PathLoss::Logistic;
    snapshot->alphas = s.sharedAlpha;
    snapshot->model = s.model;
    // The pictures of the points accepted since the last snapshot: made once, then shared.
    State& cache = *state_;
    while (s.model && cache.pictures.size() < s.sharedAlpha.size() &&
           cache.pictures.size() < s.pathEta.size()) {
        const std::size_t p = cache.pictures.size();
        cache.pictures.push_back(std::make_shared<const MklPathPicture>(
            s.model->picture(*s.sharedAlpha[p], s.pathEta[p])));
    }
    snapshot->pictures = cache.pictures;
    if (iteration() == 0) {
        snapshot->executedLines = {kInput, kStart, kStartNewton};
    } else {
        snapshot->executedLines = {kRepeat, kTangent, kPredict, kCorrect, kAdapt, kUntil};
    }
    return snapshot;
}

double MklPathSolver::lambda() const {
    return state_ ? state_->pathLambda.back() : kNaN;
}
double MklPathSolver::lambda0() const {
    return state_ ? state_->lambda0 : kNaN;
}
double MklPathSolver::lambdaMin() const {
    return state_ ? state_->lambdaMin : kNaN;
}
const Eigen::VectorXd& MklPathSolver::alpha() const {
    static const Eigen::VectorXd none;
    return state_ ? state_->alpha : none;
}
Eigen::VectorXd MklPathSolver::eta() const {
    return state_ ? state_->pathEta.back() : Eigen::VectorXd();
}
const Eigen::VectorXd& MklPathSolver::penaltyWeights() const {
    static const Eigen::VectorXd none;
    return state_ ? state_->d : none;
}
double MklPathSolver::kktResidual() const {
    if (!state_) return kNaN;
    const double l = lambda();
    return state_->kktMeasure(state_->alpha, l);
}
const Eigen::VectorXd& MklPathSolver::targets() const {
    static const Eigen::VectorXd none;
    return state_ ? state_->y : none;
}
const std::vector<Eigen::MatrixXd>& MklPathSolver::kernelMatrices() const {
    static const std::vector<Eigen::MatrixXd> none;
    return state_ ? state_->K : none;
}
const std::vector<KernelSpec>& MklPathSolver::specs() const {
    static const std::vector<KernelSpec> none;
    return state_ ? state_->specs : none;
}
PathLoss MklPathSolver::loss() const {
    return state_ ? state_->loss : PathLoss::Squared;
}
const std::vector<double>& MklPathSolver::pathLambdas() const {
    static const std::vector<double> none;
    return state_ ? state_->pathLambda : none;
}
const std::vector<Eigen::VectorXd>& MklPathSolver::pathAlphas() const {
    static const std::vector<Eigen::VectorXd> none;
    return state_ ? state_->pathAlpha : none;
}

MklPathSolver::ColdSolve MklPathSolver::solveFromScratch(double lambda, int maxStepsPerStage) {
    ColdSolve out;
    if (!state_ || !(lambda > 0) || !(lambda <= state_->lambda0) || maxStepsPerStage < 1)
        return out;
    State& s = *state_;
    const long long factorizations = s.factorizations, newtonTotal = s.newtonTotal;
    const Eigen::VectorXd beta =
        s.loss == PathLoss::Squared ? Eigen::VectorXd(-s.y) : Eigen::VectorXd(-0.5 * s.y);
    out.alpha = beta / (2 * s.lambda0);
    int steps = 0;
    out.ok = s.interiorPoint(out.alpha, lambda, options_.mu, maxStepsPerStage,
                             options_.kkt_tolerance, &steps);
    out.newtonSteps = s.newtonTotal - newtonTotal;
    out.factorizations = s.factorizations - factorizations;
    s.factorizations = factorizations;
    s.newtonTotal = newtonTotal;
    return out;
}

}  // namespace cplab
