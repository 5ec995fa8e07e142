// SPDX-License-Identifier: GPL-3.0-or-later
#include "reduced_set.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "core/number_text.h"
#include "data/portable_random.h"

namespace cplab {

namespace {

enum Line { kInput, kFull, kRepeat, kResidual, kFixedPoint, kRefit, kModified, kUntil, kReturn };

}  // namespace

// ---- options ----

void ReducedSetOptions::visit(OptionVisitor& v) {
    stop.visit(v);
    v.text("kernel", kernel, "a Gaussian kernel gaussian:gamma, k = exp(-gamma |x - x'|^2)");
    v.real("C", C, "box constraint of the full SVM's dual, 0 <= alpha_i <= C (> 0)");
    v.integer("expansion_vectors", expansion_vectors,
              "number N_z of reduced-set vectors (>= 1); 0: N_z from expansion_ratio");
    v.real("expansion_ratio", expansion_ratio,
           "N_z as a fraction of the full SVM's support vectors, in (0, 1] (given alone it "
           "replaces expansion_vectors); 0: off");
    v.seed("seed", seed, "seed of the random starts of the fixed-point iteration (>= 0)");
    v.integer("restarts", restarts,
              "random support vectors the fixed-point iteration starts from, besides the best "
              "one, per new vector, in [0, 1000]");
    v.integer("fixed_point_iterations", fixed_point_iterations,
              "fixed-point iterations per start, in [1, 100000]");
    v.real("fixed_point_tolerance", fixed_point_tolerance,
           "a start has converged when |z_new - z| <= this * (1 + |z|) (> 0)");
    v.real("full_tolerance", full_tolerance, "KKT tolerance of the full SVM (> 0)");
    v.real("eigen_floor", eigen_floor,
           "eigenvalues of K^z are floored at eigen_floor * largest eigenvalue, in (0, 0.01]");
    v.real("inner_tolerance", inner_tolerance,
           "mrs: KKT tolerance of the restricted SVM, times max(1, C) (> 0)");
    v.real("cache_mb", cache_mb, "kernel caches in MB (>= 1)");
}

bool ReducedSetOptions::validate(const char* owner, std::string* why) const {
    if (!stop.isValid(owner, why)) return false;
    if (!validBudgetOptions(owner, kernel, C, expansion_vectors, expansion_ratio, why))
        return false;
    if (!requireGaussianKernel(owner, kernel,
                               "the reduced-set fixed-point iteration needs a Gaussian kernel "
                               "(gaussian:gamma)",
                               why))
        return false;
    return require(seed >= 0, owner, "seed", static_cast<double>(seed), "must be >= 0", why) &&
           require(restarts >= 0 && restarts <= 1000, owner, "restarts", restarts,
                   "must lie in [0, 1000]", why) &&
           require(fixed_point_iterations >= 1 && fixed_point_iterations <= 100000, owner,
                   "fixed_point_iterations", fixed_point_iterations, "must lie in [1, 100000]",
                   why) &&
           require(std::isfinite(fixed_point_tolerance) && fixed_point_tolerance > 0, owner,
                   "fixed_point_tolerance", fixed_point_tolerance, "must be a finite number > 0",
                   why) &&
           require(std::isfinite(full_tolerance) && full_tolerance > 0, owner, "full_tolerance",
                   full_tolerance, "must be a finite number > 0", why) &&
           require(std::isfinite(eigen_floor) && eigen_floor > 0 && eigen_floor <= 0.01, owner,
                   "eigen_floor", eigen_floor, "must lie in (0, 0.01]", why) &&
           require(std::isfinite(inner_tolerance) && inner_tolerance > 0, owner, "inner_tolerance",
                   inner_tolerance, "must be a finite number > 0", why) &&
           require(std::isfinite(cache_mb) && cache_mb >= 1, owner, "cache_mb", cache_mb,
                   "must be a finite number >= 1 (MB)", why);
}

// ---- free functions ----

PreimageResult gaussianPreimage(const XvKernel& kernel, const Eigen::MatrixXd& points,
                                const Eigen::VectorXd& a, const Eigen::VectorXd& start,
                                int maxIterations, double tolerance) {
    PreimageResult result;
    result.z = start;
    const double scale = a.cwiseAbs().sum();
    Eigen::MatrixXd z = start.transpose();
    for (int it = 0; it < maxIterations; ++it) {
        const Eigen::VectorXd k = kernel.values(z, points).row(0).transpose();
        const Eigen::VectorXd weights = a.cwiseProduct(k);
        const double s = weights.sum();
        // The denominator vanishes where the residual is orthogonal to φ(z): no fixed point
        // in reach from here.
        if (!(std::abs(s) > 1e-14 * scale)) break;
        const Eigen::RowVectorXd next = (weights.transpose() * points) / s;
        const double step = (next - z).norm();
        z = next;
        ++result.iterations;
        if (!std::isfinite(step)) break;
        if (step <= tolerance * (1.0 + z.norm())) {
            result.converged = true;
            break;
        }
    }
    result.z = z.row(0).transpose();
    result.projection = a.dot(kernel.values(z, points).row(0).transpose());
    return result;
}

ReducedSetFit reducedSetCoefficients(const XvKernel& kernel, const Eigen::MatrixXd& Z,
                                     const Eigen::MatrixXd& Xs, const Eigen::VectorXd& c,
                                     double wNormSquared, double eigenFloor) {
    ReducedSetFit fit;
    const Eigen::MatrixXd Kz = kernel.values(Z, Z);
    const Eigen::MatrixXd B = whitening(Kz, eigenFloor, &fit.flooredEigenvalues);
    const Eigen::VectorXd a = kernel.values(Z, Xs) * c;  // K^{zx} c
    fit.beta = B * (B.transpose() * a);
    fit.error = std::max(0.0, wNormSquared - 2.0 * fit.beta.dot(a) + fit.beta.dot(Kz * fit.beta));
    return fit;
}

// ---- ReducedSetSolver ----

ReducedSetSolver::ReducedSetSolver(const KernelProblem& problem, const ReducedSetOptions& options,
                                   bool modified, const char* owner)
    : SparseSolver(options.stop), options_(options), modified_(modified) {
    std::string why;
    if (!options_.validate(owner, &why)) {
        reject(why);
        return;
    }
    if (!acceptProblem(problem, options_.kernel, owner)) return;
    SetupTimer timer(*this);
    const Dataset& train = *data_.problem.train;
    // max_seconds counts the set-up: the full SVM polls its deadline (cut short, the run ends
    // at its first step with the model of iteration 0, no vector placed).
    if (!solveFull(options_.C, options_.full_tolerance, options_.cache_mb, owner, setUpInterrupt()))
        return;
    const int nsv = static_cast<int>(full_.supportVectors.size());
    if (nsv == 0 && full_.complete) {
        reject(std::string(owner) + ": the full SVM has no support vectors; nothing to reduce");
        return;
    }
    target_ = options_.expansion_vectors > 0
                  ? options_.expansion_vectors
                  : std::max(1, static_cast<int>(std::lround(options_.expansion_ratio * nsv)));
    try {
        X_ = denseRows(train);
        if (double(X_.size()) > SlmcObjective::kMaxDenseEntries)
            throw std::invalid_argument("the training set is too large to hold dense");
        kernel_ = std::make_unique<XvKernel>(data_.spec);
        Xs_.resize(nsv, X_.cols());
        c_.resize(nsv);
        for (int k = 0; k < nsv; ++k) {
            const int i = full_.supportVectors[static_cast<std::size_t>(k)];
            Xs_.row(k) = X_.row(i);
            c_[k] = full_.alpha[i] * train.labels[i];
        }
        wNorm2_ = c_.dot(kernel_->values(Xs_, Xs_) * c_);
        if (modified_) {
            restricted_ = std::make_unique<SlmcObjective>(
                data_.problem.train, data_.spec,
                SlmcObjectiveOptions{options_.C,
                                     options_.inner_tolerance * std::max(1.0, options_.C),
                                     options_.eigen_floor, options_.cache_mb});
        }
    } catch (const std::exception& e) {
        kernel_.reset();
        restricted_.reset();
        reject(std::string(owner) + ": " + e.what());
        return;
    }
    Z_.resize(0, X_.cols());
    rsBeta_.resize(0);
    beta_.resize(0);
    psiTrain_.resize(0, X_.rows());
    psiTest_.resize(0, data_.testX.rows());
    error_ = wNorm2_;
    if (modified_) {
        // No expansion vector: the SVM with a bias only, b = ±1 toward the larger class,
        // whose optimum is C · 2 · min(n₊, n₋) (every example of the smaller class at loss 2).
        const auto positives = (train.labels.array() > 0).count();
        const auto negatives = train.labels.size() - positives;
        bias_ = positives >= negatives ? 1.0 : -1.0;
        emptyPrimal_ = options_.C * 2.0 * static_cast<double>(std::min(positives, negatives));
    } else {
        bias_ = full_.bias;
    }
    IterationRecord initial;
    fillRecord(initial);
    setInitialRecord(initial);
}

ReducedSetSolver::~ReducedSetSolver() = default;

std::vector<std::string> ReducedSetSolver::extraColumns() const {
    std::vector<std::string> columns = {"approximation_error",    "relative_approximation_error",
                                        "expansion_vectors",      "projection",
                                        "fixed_point_iterations", "floored_eigenvalues"};
    if (modified_) columns.push_back("inner_dual");
    columns.push_back("train_error");
    columns.push_back("test_error");
    return columns;
}

std::vector<std::string> ReducedSetSolver::pseudocode() const {
    return {
        "input: data (x_i, y_i), Gaussian kernel k, C, N_z",
        "full SVM: w = sum_i c_i phi(x_i), c_i = alpha_i y_i;  Z <- {}",
        "repeat  (one new vector per step)",
        "  residual Psi = w - sum_j beta_j phi(z_j) = sum_p a_p phi(p_p)",
        "  z <- sum_p a_p k(p_p, z) p_p / sum_p a_p k(p_p, z)  until fixed (best of the starts)",
        "  Z <- Z + {z};  beta <- (K^z)^-1 K^zx c   (eq. 47: least squares |w - sum beta "
        "phi(z)|^2)",
        modified_ ? "  mrs: beta, b <- the SVM restricted to span phi(Z)   (eq. 45)"
                  : "  rs: keep the full SVM's bias b",
        "until N_z vectors",
        "return f(x) = sum_u beta_u k(z_u, x) + b",
    };
}

Eigen::VectorXd ReducedSetSolver::nextVector(int* iterations, double* projection) {
    const Eigen::Index nsv = Xs_.rows();
    const Eigen::Index m = Z_.rows();
    Eigen::MatrixXd P(nsv + m, X_.cols());
    P.topRows(nsv) = Xs_;
    if (m > 0) P.bottomRows(m) = Z_;
    Eigen::VectorXd a(nsv + m);
    a.head(nsv) = c_;
    if (m > 0) a.tail(m) = -rsBeta_;
    // The residual at every support vector: the best data point is a start and a candidate.
    const Eigen::VectorXd atSvs = kernel_->values(Xs_, P) * a;
    Eigen::Index best = 0;
    atSvs.cwiseAbs().maxCoeff(&best);
    std::vector<Eigen::Index> starts = {best};
    PortableRandom random(static_cast<std::uint64_t>(options_.seed) * 1000003u +
                          static_cast<std::uint64_t>(m));
    for (int r = 0; r < options_.restarts; ++r)
        starts.push_back(static_cast<Eigen::Index>(random.below(static_cast<std::uint64_t>(nsv))));

    Eigen::VectorXd chosen = Xs_.row(best).transpose();
    double score = atSvs[best] * atSvs[best];
    *projection = atSvs[best];
    *iterations = 0;
    for (Eigen::Index start : starts) {
        const PreimageResult r =
            gaussianPreimage(*kernel_, P, a, Xs_.row(start).transpose(),
                             options_.fixed_point_iterations, options_.fixed_point_tolerance);
        *iterations += r.iterations;
        if (r.z.allFinite() && std::isfinite(r.projection) && r.projection * r.projection > score) {
            score = r.projection * r.projection;
            chosen = r.z;
            *projection = r.projection;
        }
    }
    return chosen;
}

Status ReducedSetSolver::doStep(IterationRecord& record) {
    if (!setUpCut().empty()) {
        return endCutSetUp(record, modified_ ? "the model is the bias-only SVM of iteration 0 "
                                               "(no reduced-set vector placed)"
                                             : "the model is the bias of that SVM (no "
                                               "reduced-set vector placed)");
    }
    int iterations = 0;
    const Eigen::VectorXd z = nextVector(&iterations, &projection_);
    fixedPointIterations_ += iterations;
    const Eigen::Index m = Z_.rows();
    Z_.conservativeResize(m + 1, Eigen::NoChange);
    Z_.row(m) = z.transpose();
    try {
        const ReducedSetFit fit =
            reducedSetCoefficients(*kernel_, Z_, Xs_, c_, wNorm2_, options_.eigen_floor);
        rsBeta_ = fit.beta;
        error_ = fit.error;
        floored_ = fit.flooredEigenvalues;
    } catch (const std::exception& e) {
        Z_.conservativeResize(m, Eigen::NoChange);
        fillRecord(record);
        return Status::make(StatusCode::NumericalFailure, e.what());
    }
    const Eigen::MatrixXd zRow = z.transpose();
    psiTrain_.conservativeResize(m + 1, Eigen::NoChange);
    psiTrain_.row(m) = kernel_->values(zRow, X_).row(0);
    if (data_.testX.rows() > 0) {
        psiTest_.conservativeResize(m + 1, Eigen::NoChange);
        psiTest_.row(m) = kernel_->values(zRow, data_.testX).row(0);
    }
    if (modified_) {
        const Eigen::VectorXd* warm = inner_.alpha.size() == X_.rows() ? &inner_.alpha : nullptr;
        const Interrupt stop = stepInterrupt();
        SlmcEvaluation e = restricted_->evaluate(Z_, warm, &stop);
        if (!e.converged) {
            if (stop.requested()) {
                // Stay at the previous Z; the base class ends the run as cancelled, or by its
                // time limit (the step's seconds are past it).
                Z_.conservativeResize(m, Eigen::NoChange);
                psiTrain_.conservativeResize(m, Eigen::NoChange);
                if (data_.testX.rows() > 0) psiTest_.conservativeResize(m, Eigen::NoChange);
                fillRecord(record);
                return Status::running();
            }
            fillRecord(record);
            return Status::make(StatusCode::NumericalFailure,
                                "the restricted SVM stopped after " + std::to_string(e.smoSteps) +
                                    " SMO steps with KKT violation " + formatReal(e.kktViolation) +
                                    " (inner_tolerance too small for double precision?)");
        }
        inner_ = std::move(e);
        beta_ = inner_.beta;
        bias_ = inner_.bias;
    } else {
        beta_ = rsBeta_;
    }
    fillRecord(record);
    std::vector<std::string> coordinates;
    for (Eigen::Index j = 0; j < z.size() && j < 3; ++j)
        coordinates.push_back(formatShort(z[j]));
    if (z.size() > 3) coordinates.emplace_back("...");
    noteEvent(ExpansionVectorAdded,
              "expansion vector " + std::to_string(Z_.rows()) + " of " + std::to_string(target_) +
                  " added at (" + joined(coordinates) + "): |w - w_z|^2 = " + formatShort(error_));
    if (Z_.rows() >= target_) {
        return Status::make(StatusCode::Converged,
                            std::to_string(target_) +
                                " reduced-set vectors placed; |w - w_z|^2 = " + formatReal(error_) +
                                " (" + formatReal(error_ / wNorm2_) + " of |w|^2)");
    }
    return Status::running();
}

void ReducedSetSolver::fillRecord(IterationRecord& record) {
    const Dataset& train = *data_.problem.train;
    const Eigen::VectorXd scores = (Z_.rows() > 0 ? Eigen::VectorXd(psiTrain_.transpose() * beta_)
                                                  : Eigen::VectorXd::Zero(X_.rows()))
                                       .array() +
                                   bias_;
    trainError_ = signErrorRate(scores, train.labels);
    if (data_.problem.test) {
        const Eigen::VectorXd testScores =
            (Z_.rows() > 0 ? Eigen::VectorXd(psiTest_.transpose() * beta_)
                           : Eigen::VectorXd::Zero(data_.testX.rows()))
                .array() +
            bias_;
        testError_ = signErrorRate(testScores, data_.problem.test->labels);
    }
    record.oracleCalls = fixedPointIterations_;
    if (modified_) {
        record.upper = Z_.rows() > 0 ? inner_.primal : emptyPrimal_;
        record.lower = full_.dualObjective;
    } else {
        record.upper = error_;
        record.lower = 0.0;
    }
    record.extra = {
        error_,      wNorm2_ > 0 ? error_ / wNorm2_ : 0.0,       static_cast<double>(Z_.rows()),
        projection_, static_cast<double>(fixedPointIterations_), static_cast<double>(floored_)};
    if (modified_) record.extra.push_back(Z_.rows() > 0 ? inner_.value : emptyPrimal_);
    record.extra.push_back(trainError_);
    record.extra.push_back(testError_);
}

KernelClassifier ReducedSetSolver::classifier() const {
    if (!valid()) return {};
    return sparseClassifier(data_.spec, Z_, beta_, bias_, data_.classes);
}

SummaryFields ReducedSetSolver::summary() const {
    if (!valid()) return {};
    SummaryFields fields = {{"objective", lastRecord().upper},
                            {"approximation_error", error_},
                            {"relative_approximation_error", wNorm2_ > 0 ? error_ / wNorm2_ : 0.0},
                            {"expansion_vectors", static_cast<long long>(Z_.rows())},
                            {"train_error", trainError_}};
    if (data_.problem.test) fields.emplace_back("test_error", testError_);
    if (modified_ && Z_.rows() > 0) fields.emplace_back("inner_dual", inner_.value);
    fields.emplace_back("fixed_point_iterations", fixedPointIterations_);
    addSummaryTail(fields, options_.C, options_.kernel);
    return fields;
}

SnapshotPtr ReducedSetSolver::snapshot() const {
    auto snapshot = std::make_shared<SparseSnapshot>();
    fillSnapshot(*snapshot);
    if (!valid()) return snapshot;
    snapshot->executedLines = executedLines(
        {kInput, kFull}, {kRepeat, kResidual, kFixedPoint, kRefit, kModified, kUntil}, kReturn);
    fillModel(*snapshot,
              {Z_, beta_, bias_, trainError_, testError_, X_.cols() == 2 && Z_.rows() > 0});
    snapshot->trail = {Z_};
    snapshot->trailIterations = {iteration()};
    return snapshot;
}

}  // namespace cplab
