// SPDX-License-Identifier: GPL-3.0-or-later
// The MKL path's state: set-up steps, the predictor–corrector trials, accepted points.
#include "kernel/mkl_path_state.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <utility>

#include "core/memory_budget.h"
#include "core/number_text.h"
#include "kernel/kernel_set.h"

namespace cplab {

namespace {

constexpr const char* kOwner = kMklPathOwner;
// Newton steps allowed for the first point (from β/(2λ₀), farther away than a predictor).
constexpr int kStartNewtonSteps = 200;
// The smallest step in σ before the path is declared stuck.
constexpr double kMinSigmaStep = 1e-10;
// lambda_min = 0 means λ₀ times this.
constexpr double kDefaultLambdaRatio = 1e-4;

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

// K <- 0.5 (K + Kᵀ) in place, by tiles (cache-friendly); each entry as the expression
// 0.5 * (K(i, j) + K(j, i)) gives it (a + b = b + a in floating point: the same bits).
void symmetrize(Eigen::MatrixXd& K) {
    constexpr Eigen::Index kTile = 64;
    const Eigen::Index n = K.rows();
    for (Eigen::Index c0 = 0; c0 < n; c0 += kTile) {
        for (Eigen::Index r0 = c0; r0 < n; r0 += kTile) {
            for (Eigen::Index c = c0; c < std::min(n, c0 + kTile); ++c) {
                for (Eigen::Index r = std::max(r0, c); r < std::min(n, r0 + kTile); ++r) {
                    const double v = 0.5 * (K(r, c) + K(c, r));
                    K(r, c) = v;
                    K(c, r) = v;
                }
            }
        }
    }
}

}  // namespace

bool parsePathLoss(const std::string& text, PathLoss* out) {
    if (text == "squared") {
        *out = PathLoss::Squared;
    } else if (text == "logistic") {
        *out = PathLoss::Logistic;
    } else {
        return false;
    }
    return true;
}

std::string MklPathSolver::State::setUp(const KernelProblem& problem, const MklPathOptions& options,
                                        const Interrupt& stop) {
    parsePathLoss(options.loss, &loss);
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
    return start(options, given.name, stop);
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
        // Row i into column i (contiguous: the matrix is column-major), then the symmetric
        // part 0.5 (K + Kᵀ) in place, entry by entry as the expression would (the same bits,
        // without a second n × n temporary and strided writes: 1.9 s -> 0.9 s of set-up for
        // five kernels over 4,000 examples).
        Eigen::MatrixXd Kj(n, n);
        for (int i = 0; i < n; ++i)
            Kj.col(i) = Eigen::Map<const Eigen::VectorXd>(kernels.row(j, i), n);
        symmetrize(Kj);
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

std::string MklPathSolver::State::start(const MklPathOptions& options, const std::string& dataName,
                                        const Interrupt& stop) {
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
                       &startSteps, &stop)) {
        if (stop.requested()) {
            startCut = true;  // α is the last feasible Newton iterate
            return {};
        }
        return std::string(kOwner) +
               ": Newton's method found no barrier point at lambda_0 = " + formatReal(lambda0) +
               " within " + std::to_string(kStartNewtonSteps) +
               " steps per barrier weight (mu = " + formatReal(options.mu) + "; try a larger mu)";
    }
    return {};
}

Status MklPathSolver::State::predictCorrect(const Eigen::VectorXd& v,
                                            const Eigen::VectorXd& curvature, double lambda,
                                            const MklPathOptions& options, const Interrupt& stop,
                                            Trial& trial) {
    const auto interrupted = [&] {
        if (stop.cancelled() || !stop.timedOut())
            return Status::make(StatusCode::Cancelled, "stopped by the user");
        return Status::make(
            StatusCode::TimeLimit,
            "reached max_seconds = " + formatReal(options.stop.max_seconds) +
                " during the corrector at lambda = " + formatReal(std::exp(sigma - trial.h)) +
                " (the last corrected point stays)");
    };
    while (true) {
        if (stop.requested()) return interrupted();
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
                    &trial.newtonSteps, &stop)) {
            return Status::running();
        }
        if (stop.requested()) return interrupted();
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

}  // namespace cplab
