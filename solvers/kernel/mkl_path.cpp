// SPDX-License-Identifier: GPL-3.0-or-later
#include "mkl_path.h"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "core/memory_budget.h"
#include "core/number_text.h"
#include "kernel_set.h"
#include "mkl_path_barrier.h"

namespace cplab {

namespace {

constexpr const char* kOwner = "MklPathOptions";
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Newton steps allowed for the first point (from β/(2λ₀), farther away than a predictor).
constexpr int kStartNewtonSteps = 200;
// The smallest step in σ before the path is declared stuck.
constexpr double kMinSigmaStep = 1e-10;
// After a correction of at most kEasyCorrection Newton steps (a good prediction: quadratic
// convergence from ~1e-3 to the tolerance) the next step in σ grows by kGrowth; after more than
// kHardCorrection it shrinks by kShrink.
constexpr int kEasyCorrection = 3;
constexpr int kHardCorrection = 6;
constexpr double kGrowth = 1.5;
constexpr double kShrink = 0.7;
// lambda_min = 0 means λ₀ times this.
constexpr double kDefaultLambdaRatio = 1e-4;

enum Line { kInput, kStart, kStartNewton, kRepeat, kTangent, kPredict, kCorrect, kAdapt, kUntil };

bool parseLoss(const std::string& text, PathLoss* out) {
    if (text == "squared") {
        *out = PathLoss::Squared;
    } else if (text == "logistic") {
        *out = PathLoss::Logistic;
    } else {
        return false;
    }
    return true;
}

// Mean 0 and variance 1 per feature with the training set's statistics (constant features are
// only centred); dense copies. The test set is transformed with the same statistics.
void standardize(std::shared_ptr<const Dataset>& train, std::shared_ptr<const Dataset>& test,
                 Eigen::RowVectorXd* meanOut, Eigen::RowVectorXd* scaleOut) {
    auto dense = [](const Dataset& data) {
        auto copy = std::make_shared<Dataset>(data);
        copy->setSparseStorage(false);
        return copy;
    };
    auto x = dense(*train);
    const Eigen::RowVectorXd mean = x->dense.colwise().mean();
    Eigen::RowVectorXd scale =
        ((x->dense.rowwise() - mean).array().square().colwise().sum() / x->size()).sqrt();
    for (Eigen::Index j = 0; j < scale.size(); ++j)
        scale[j] = scale[j] > 0 ? 1.0 / scale[j] : 1.0;
    x->dense = ((x->dense.rowwise() - mean).array().rowwise() * scale.array()).matrix();
    train = x;
    if (test) {
        auto t = dense(*test);
        t->dense = ((t->dense.rowwise() - mean).array().rowwise() * scale.array()).matrix();
        test = t;
    }
    *meanOut = mean;
    *scaleOut = scale;
}

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
        !requireText(parseLoss(loss, &parsedLoss), kOwner, "loss", loss,
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
    // The α themselves are shared with the solver: only the pointers count.
    return n + sizeof(std::shared_ptr<const Eigen::VectorXd>) * alphas.capacity();
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

// ---- the path ----

// The barrier problem (mkl_path_barrier.h) and the path followed so far.
struct MklPathSolver::State : MklPathBarrier {
    std::vector<KernelSpec> specs;
    std::vector<std::string> labels;
    double targetMean = 0.0;  // added back to predictions (squared)
    double targetVariance = 1.0;
    double lambda0 = 0.0, lambdaMin = 0.0;
    int startSteps = 0;  // Newton steps of the first point

    // The current corrected point.
    double sigma = 0.0;
    Eigen::VectorXd alpha;
    double step = 0.5;  // next trial step in σ

    std::vector<double> pathLambda;
    std::vector<Eigen::VectorXd> pathAlpha;
    std::vector<std::shared_ptr<const Eigen::VectorXd>> sharedAlpha;  // the same, for snapshots
    std::shared_ptr<MklPathModel> model;
    std::vector<Eigen::VectorXd> pathEta;
    std::vector<double> pathTestError;

    double lastTrainError = 0.0, lastTestError = kNaN;

    // The set-up, in steps: each returns "" or why the problem is refused.
    std::string setUp(const KernelProblem& problem, const MklPathOptions& options);
    std::string parseKernels(const Dataset& given, int nTest, const MklPathOptions& options);
    std::string prepareData(const KernelProblem& problem, const MklPathOptions& options,
                            std::shared_ptr<const Dataset>& train,
                            std::shared_ptr<const Dataset>& test);
    std::string buildKernels(const std::shared_ptr<const Dataset>& train, const Dataset* test,
                             const MklPathOptions& options, const std::string& dataName);
    void setTargets(const Dataset& train, const Dataset* test, bool standardize);
    void setPenaltyWeights(double gamma);
    std::string start(const MklPathOptions& options, const std::string& dataName);

    // One trial loop of a path step from the current point at λ along (v, curvature): the
    // predictor at t = −h, corrected; h halves until the correction succeeds.
    struct Trial {
        Eigen::VectorXd next;
        double h = 0.0;
        int trials = 0;
        int newtonSteps = 0;
    };
    // Status running on success, else why the step failed (cancelled, h too small).
    Status predictCorrect(const Eigen::VectorXd& v, const Eigen::VectorXd& curvature, double lambda,
                          const MklPathOptions& options, const CancelToken& cancel, Trial& trial);
    // Appends the corrected point (alpha, λ) to the path and fills `record` with its bounds and
    // columns (the step h in σ, its Newton steps and trials).
    void acceptPoint(double lambda, double h, int newtonSteps, int trials, double activeThreshold,
                     IterationRecord& record);
};

std::string MklPathSolver::State::setUp(const KernelProblem& problem,
                                        const MklPathOptions& options) {
    parseLoss(options.loss, &loss);
    mu = options.mu;
    std::shared_ptr<const Dataset> train = problem.train, test = problem.test;
    const Dataset& given = *train;
    n = given.size();
    std::string why = parseKernels(given, test ? test->size() : 0, options);
    if (why.empty()) why = prepareData(problem, options, train, test);
    if (why.empty()) why = buildKernels(train, test.get(), options, given.name);
    if (!why.empty()) return why;
    setTargets(*train, test.get(), options.standardize);
    setPenaltyWeights(options.gamma);
    return start(options, given.name);
}

std::string MklPathSolver::State::parseKernels(const Dataset& given, int nTest,
                                               const MklPathOptions& options) {
    std::string why;
    if (!parseKernelList(options.kernels, given.dimension(), &specs, &why)) {
        return std::string(kOwner) + ": kernel list " + quotedKernelText(options.kernels) +
               " on '" + given.name + "' (" + std::to_string(given.dimension()) +
               " features): " + why;
    }
    const int m = static_cast<int>(specs.size());
    const double megabytes = 8.0 * m * n * (static_cast<double>(n) + nTest) / (1024.0 * 1024.0);
    if (megabytes > options.memory_mb) {
        return std::string(kOwner) + ": " + std::to_string(m) + " dense kernel matrices over " +
               std::to_string(n) + " training" +
               (nTest ? " and " + std::to_string(nTest) + " test" : std::string()) +
               " examples take " + formatReal(std::round(megabytes)) +
               " MB, more than memory_mb = " + formatReal(options.memory_mb) +
               " (the path keeps every kernel matrix dense)";
    }
    if (const std::string shortfall = memoryShortfall(
            megabytes * 1024.0 * 1024.0, sizeProduct({{double(m), "kernels"},
                                                      {double(n), "training examples"},
                                                      {double(n) + nTest, "examples"}}) +
                                             " x 8 B (every kernel matrix dense)");
        !shortfall.empty()) {
        return std::string(kOwner) + ": " + shortfall;
    }
    return {};
}

std::string MklPathSolver::State::prepareData(const KernelProblem& problem,
                                              const MklPathOptions& options,
                                              std::shared_ptr<const Dataset>& train,
                                              std::shared_ptr<const Dataset>& test) {
    const Dataset& given = *problem.train;
    const bool precomputed = specs.front().type == KernelType::Precomputed;
    if (test) {
        const int need = precomputed ? n : given.dimension();
        const int have = test->dimension();
        if (precomputed ? have != need : have > need) {
            return std::string(kOwner) + ": the test set '" + test->name + "' has " +
                   std::to_string(have) + (precomputed ? " kernel columns" : " features") +
                   ", the training set " + std::to_string(need) +
                   (precomputed ? " examples" : " features (a test set may have fewer)");
        }
        if (!precomputed && have < need) {
            auto padded = std::make_shared<Dataset>(*test);
            padded->setDimension(need);
            test = padded;
        }
    }
    if (loss == PathLoss::Logistic) {
        const std::vector<double> classes = given.classes();
        if (classes.size() != 2) {
            return std::string(kOwner) + ": loss = logistic needs two label values, but '" +
                   given.name + "' has " + std::to_string(classes.size()) +
                   "; use loss = squared for regression";
        }
        train = withPlusMinusLabels(train, classes, kOwner);
        if (test) test = withPlusMinusLabels(test, classes, kOwner);
    }
    model = std::make_shared<MklPathModel>();
    model->train = problem.train;
    model->precomputed = precomputed;
    model->classification = loss == PathLoss::Logistic;
    if (options.standardize && !precomputed) {
        standardize(train, test, &model->featureMean, &model->featureScale);
        model->standardized = true;
    }
    return {};
}

std::string MklPathSolver::State::buildKernels(const std::shared_ptr<const Dataset>& train,
                                               const Dataset* test, const MklPathOptions& options,
                                               const std::string& dataName) {
    KernelNormalization normalization = KernelNormalization::None;
    parseNormalization(options.normalize, &normalization);
    auto kernelSet = std::make_shared<KernelSet>(train, specs, normalization, 1.0);
    KernelSet& kernels = *kernelSet;
    model->kernels = kernelSet;
    const int nTest = test ? test->size() : 0;
    for (int j = 0; j < static_cast<int>(specs.size()); ++j) {
        Eigen::MatrixXd Kj(n, n);
        for (int i = 0; i < n; ++i)
            Kj.row(i) = Eigen::Map<const Eigen::RowVectorXd>(kernels.row(j, i), n);
        Kj = 0.5 * (Kj + Kj.transpose()).eval();
        if (!Kj.allFinite()) {
            return std::string(kOwner) + ": kernel " + specs[j].label() +
                   " has values that are not finite on '" + dataName + "'";
        }
        K.push_back(std::move(Kj));
        if (test) {
            Eigen::MatrixXd C(nTest, n);
            for (int i = 0; i < nTest; ++i)
                for (int k = 0; k < n; ++k)
                    C(i, k) = kernels.cross(j, *test, i, k);
            cross.push_back(std::move(C));
        }
        labels.push_back(specs[j].label());
    }
    return {};
}

void MklPathSolver::State::setTargets(const Dataset& train, const Dataset* test,
                                      bool standardizeTargets) {
    // Centred for the squared loss (the model has no intercept) and, with `standardize`,
    // scaled to variance 1 (so that μ weighs the barrier against a loss of the same size on
    // every data set); ±1 for logistic.
    y = train.labels;
    if (loss == PathLoss::Squared) {
        targetMean = y.mean();
        y.array() -= targetMean;
        targetVariance = y.squaredNorm() / n;
        if (standardizeTargets && targetVariance > 0) targetScale = std::sqrt(targetVariance);
        y /= targetScale;
    }
    if (test) {
        testY = test->labels;
        if (loss == PathLoss::Squared) testY = (testY.array() - targetMean) / targetScale;
    }
    model->targetMean = targetMean;
    model->targetScale = targetScale;
}

void MklPathSolver::State::setPenaltyWeights(double gamma) {
    const int m = static_cast<int>(K.size());
    d = Eigen::VectorXd::Ones(m);
    if (gamma > 0) {
        for (int j = 0; j < m; ++j) {
            Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(K[j], Eigen::EigenvaluesOnly);
            const double threshold = K[j].trace() / (2.0 * n);
            const Eigen::Index count = (eigen.eigenvalues().array() >= threshold).count();
            d[j] = std::pow(static_cast<double>(std::max<Eigen::Index>(count, 1)), gamma);
        }
    }
    d2 = d.array().square();
}

std::string MklPathSolver::State::start(const MklPathOptions& options,
                                        const std::string& dataName) {
    // λ₀ = maxⱼ (βᵀKⱼβ)^{1/2} / dⱼ with β = argmin ψ.
    const Eigen::VectorXd beta =
        loss == PathLoss::Squared ? Eigen::VectorXd(-y) : Eigen::VectorXd(-0.5 * y);
    double largest = 0.0;
    for (std::size_t j = 0; j < K.size(); ++j)
        largest = std::max(largest, std::sqrt(std::max(0.0, beta.dot(K[j] * beta))) /
                                        d[static_cast<Eigen::Index>(j)]);
    if (!(largest > 0) || !std::isfinite(largest)) {
        return std::string(kOwner) + ": lambda_0 = max_j (beta' K_j beta)^(1/2) / d_j is " +
               formatReal(largest) + " on '" + dataName +
               "': the targets are constant or every kernel vanishes on them; there is no path";
    }
    lambda0 = largest;
    lambdaMin = options.lambda_min > 0 ? options.lambda_min : kDefaultLambdaRatio * lambda0;
    sigma = std::log(lambda0);
    step = options.sigma_step;
    // The first point: the interior-point method from β/(2λ₀).
    alpha = beta / (2 * lambda0);
    if (!interiorPoint(alpha, lambda0, options.mu, kStartNewtonSteps, options.kkt_tolerance,
                       &startSteps)) {
        return std::string(kOwner) +
               ": Newton's method found no barrier point at lambda_0 = " + formatReal(lambda0) +
               " within " + std::to_string(kStartNewtonSteps) +
               " steps per barrier weight (mu = " + formatReal(options.mu) + "; try a larger mu)";
    }
    return {};
}

Status MklPathSolver::State::predictCorrect(const Eigen::VectorXd& v,
                                            const Eigen::VectorXd& curvature, double lambda,
                                            const MklPathOptions& options,
                                            const CancelToken& cancel, Trial& trial) {
    while (true) {
        if (cancel.cancelled()) return Status::make(StatusCode::Cancelled, "stopped by the user");
        if (trial.h < kMinSigmaStep) {
            return Status::make(StatusCode::NumericalFailure,
                                "the step in log(lambda) fell below " + formatReal(kMinSigmaStep) +
                                    " at lambda = " + formatReal(lambda) +
                                    " (the corrector does not converge; try a larger mu)");
        }
        ++trial.trials;
        const double t = -trial.h;
        trial.next = alpha + t * v + 0.5 * t * t * curvature;
        const double target = std::exp(sigma - trial.h);
        if (correct(trial.next, target, options.max_newton, options.kkt_tolerance,
                    &trial.newtonSteps, &cancel)) {
            return Status::running();
        }
        trial.h *= 0.5;
    }
}

void MklPathSolver::State::acceptPoint(double lambda, double h, int newtonSteps, int trials,
                                       double activeThreshold, IterationRecord& record) {
    const Measures point = measure(alpha, lambda, activeThreshold);
    lastTrainError = point.trainError;
    lastTestError = point.testError;
    pathLambda.push_back(lambda);
    pathAlpha.push_back(alpha);
    sharedAlpha.push_back(std::make_shared<const Eigen::VectorXd>(alpha));
    pathEta.push_back(point.eta);
    pathTestError.push_back(point.testError);
    record.pathParameter = lambda;
    record.upper = point.primal;
    record.lower = point.dual;
    record.oracleCalls = factorizations;
    std::vector<double> extra = {lambda,
                                 std::log10(lambda),
                                 h,
                                 static_cast<double>(newtonSteps),
                                 static_cast<double>(trials),
                                 point.kkt,
                                 point.trainError,
                                 point.testError,
                                 static_cast<double>(point.active),
                                 point.dual,
                                 point.primal};
    for (Eigen::Index j = 0; j < point.eta.size(); ++j)
        extra.push_back(point.eta[j]);
    record.extra = std::move(extra);
}

// ---- the solver ----

MklPathSolver::MklPathSolver(const KernelProblem& problem, MklPathOptions options)
    : Solver(options.stop), options_(std::move(options)) {
    std::string why;
    if (!problem.train) {
        reject(std::string(kOwner) + ": no training set given");
        return;
    }
    if (problem.train->size() == 0) {
        reject(std::string(kOwner) + ": the training set '" + problem.train->name +
               "' has no examples");
        return;
    }
    if (!options_.isValid(&why)) {
        reject(why);
        return;
    }
    SetupTimer timer(*this);
    try {
        auto s = std::make_unique<State>();
        why = s->setUp(problem, options_);
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
    const double lambda = std::exp(s.sigma);
    Eigen::VectorXd v, curvature;
    if (!s.tangent(s.alpha, lambda, options_.order, &v, &curvature)) {
        record.extra = lastRecord().extra;
        return Status::make(
            StatusCode::NumericalFailure,
            "the Hessian of the barrier dual is singular at lambda = " + formatReal(lambda));
    }
    State::Trial trial;
    trial.h = std::min(s.step, s.sigma - sigmaMin);
    if (const Status failed =
            s.predictCorrect(v, curvature, lambda, options_, cancelToken(), trial);
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
