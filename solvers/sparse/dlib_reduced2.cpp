// SPDX-License-Identifier: GPL-3.0-or-later
#include "dlib_reduced2.h"

#include <dlib/svm.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "core/number_text.h"
#include "slmc_objective.h"
#include "xv_kernel.h"

namespace cplab {

namespace {

constexpr const char* kOwner = "DlibReduced2Options";

enum Line { kInput, kFull, kTrain, kSubset, kLbfgs, kRefit, kBias, kReturn };

// What reduced2 returns, in our sign convention: f(x) = Σ_u beta_u k(z_u, x) + bias.
struct Reduced2Result {
    Eigen::MatrixXd Z;
    Eigen::VectorXd beta;
    double bias = 0.0;
};

// svm_c_trainer (RBF γ, C, svm_eps) reduced by reduced2 to at most nz basis vectors.
// Throws whatever dlib throws.
Reduced2Result trainReduced2(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, double gamma,
                             double C, double svmEps, int nz, double eps) {
    using Sample = dlib::matrix<double, 0, 1>;
    using Kernel = dlib::radial_basis_kernel<Sample>;
    std::vector<Sample> samples(static_cast<std::size_t>(X.rows()));
    std::vector<double> labels(static_cast<std::size_t>(X.rows()));
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        Sample& s = samples[static_cast<std::size_t>(i)];
        s.set_size(X.cols());
        for (Eigen::Index j = 0; j < X.cols(); ++j)
            s(j) = X(i, j);
        labels[static_cast<std::size_t>(i)] = y[i] > 0 ? 1.0 : -1.0;
    }
    dlib::svm_c_trainer<Kernel> trainer;
    trainer.set_kernel(Kernel(gamma));
    trainer.set_c(C);
    trainer.set_epsilon(svmEps);
    const dlib::decision_function<Kernel> f =
        dlib::reduced2(trainer, nz, eps).train(samples, labels);

    Reduced2Result result;
    const long m = f.basis_vectors.size();
    result.Z.resize(m, X.cols());
    result.beta.resize(m);
    for (long u = 0; u < m; ++u) {
        const Sample& z = f.basis_vectors(u);
        if (z.size() != X.cols())
            throw std::runtime_error("dlib returned a basis vector of dimension " +
                                     std::to_string(z.size()) + ", expected " +
                                     std::to_string(X.cols()));
        for (Eigen::Index j = 0; j < X.cols(); ++j)
            result.Z(u, j) = z(j);
        result.beta[u] = f.alpha(u);
    }
    result.bias = -f.b;  // dlib: f(x) = Σ α_u k(b_u, x) − b
    return result;
}

}  // namespace

// ---- options ----

void DlibReduced2Options::visit(OptionVisitor& v) {
    stop.visit(v);
    v.text("kernel", kernel, "a Gaussian kernel gaussian:gamma, k = exp(-gamma |x - x'|^2)");
    v.real("C", C, "box constraint of dlib's svm_c_trainer, 0 <= alpha_i <= C (> 0)");
    v.integer("expansion_vectors", expansion_vectors,
              "number N_z of basis vectors asked of reduced2 (>= 1); 0: N_z from "
              "expansion_ratio");
    v.real("expansion_ratio", expansion_ratio,
           "N_z as a fraction of the support vectors of our full SVM (as rs counts them), in "
           "(0, 1] (given alone it replaces expansion_vectors; solves the full SVM first); 0: off");
    v.boolean("full_svm", full_svm,
              "solve our full SVM first: its dual is the lower bound, its SVs are shown");
    v.real("full_tolerance", full_tolerance, "KKT tolerance of our full SVM (> 0)");
    v.real("svm_eps", svm_eps, "stopping tolerance of dlib's svm_c_trainer (set_epsilon, > 0)");
    v.real("eps", eps,
           "reduced2's tolerance: its L-BFGS stops when |w - w_z|^2 falls by less than eps in "
           "one iteration (> 0)");
    v.real("cache_mb", cache_mb, "kernel cache of our full SVM in MB (>= 1)");
}

bool DlibReduced2Options::isValid(std::string* why) const {
    if (!stop.isValid(kOwner, why)) return false;
    if (!validBudgetOptions(kOwner, kernel, C, expansion_vectors, expansion_ratio, why))
        return false;
    if (!requireGaussianKernel(
            kOwner, kernel,
            "dlib's reduced2 is run with its radial_basis_kernel, so the kernel must "
            "be Gaussian (gaussian:gamma)",
            why))
        return false;
    return require(std::isfinite(full_tolerance) && full_tolerance > 0, kOwner, "full_tolerance",
                   full_tolerance, "must be a finite number > 0", why) &&
           require(std::isfinite(svm_eps) && svm_eps > 0, kOwner, "svm_eps", svm_eps,
                   "must be a finite number > 0", why) &&
           require(std::isfinite(eps) && eps > 0, kOwner, "eps", eps, "must be a finite number > 0",
                   why) &&
           require(std::isfinite(cache_mb) && cache_mb >= 1, kOwner, "cache_mb", cache_mb,
                   "must be a finite number >= 1 (MB)", why);
}

// ---- DlibReduced2Solver ----

DlibReduced2Solver::DlibReduced2Solver(const KernelProblem& problem, DlibReduced2Options options)
    : SparseSolver(options.stop), options_(std::move(options)) {
    if (!acceptOptions(options_) || !acceptProblem(problem, options_.kernel, kOwner)) return;
    const Dataset& train = *data_.problem.train;
    SetupTimer timer(*this);
    // max_seconds counts the set-up: our full SVM (full_svm, expansion_ratio) polls its deadline;
    // cut short, dlib is not called and the run ends at its first step.
    target_ = fullSvmFirst(options_, kOwner, setUpInterrupt());
    if (target_ == 0) return;
    if (double(train.size()) * double(train.dimension()) > SlmcObjective::kMaxDenseEntries) {
        reject(std::string(kOwner) + ": the training set '" + train.name +
               "' is too large to hold dense (" + std::to_string(train.size()) + " x " +
               std::to_string(train.dimension()) + ")");
        return;
    }
    X_ = denseRows(train);
    Z_.resize(0, X_.cols());
    beta_.resize(0);
    // No basis vector yet: the SVM with a bias only, b = ±1 toward the larger class (as mrs).
    const auto positives = (train.labels.array() > 0).count();
    bias_ = 2 * positives >= train.labels.size() ? 1.0 : -1.0;
    IterationRecord initial;
    fillRecord(initial);
    setInitialRecord(initial);
}

DlibReduced2Solver::~DlibReduced2Solver() = default;

std::vector<std::string> DlibReduced2Solver::extraColumns() const {
    return {"expansion_vectors", "norm_term", "hinge_term", "train_error", "test_error"};
}

std::vector<std::string> DlibReduced2Solver::pseudocode() const {
    return {
        "input: data (x_i, y_i), Gaussian kernel k = exp(-gamma |x - x'|^2), C, N_z",
        "(full_svm or expansion_ratio: our full SVM, for N_z and the lower bound)",
        "dlib svm_c_trainer: w = sum_i c_i phi(x_i)   (dlib's own SMO, svm_eps)",
        "Z <- N_z linearly independent training points;  beta <- (K^z)^+ K^zx c",
        "(Z, beta) <- L-BFGS on |w - sum_u beta_u phi(z_u)|^2 until it falls by < eps",
        "beta <- (K^z)^+ K^zx c;  drop terms with beta_u ~ 0",
        "b <- shifted so that the mean decision over the training set is unchanged",
        "return f(x) = sum_u beta_u k(z_u, x) + b   (one step; dlib cannot be interrupted)",
    };
}

Status DlibReduced2Solver::doStep(IterationRecord& record) {
    if (!setUpCut().empty()) {
        return endCutSetUp(record,
                           "dlib's reduced2 was not called; the model is the bias-only SVM of "
                           "iteration 0");
    }
    // One-shot: dlib runs to the end once started (the cancel token was checked by step()).
    const Interrupt stop = stepInterrupt();
    // A call that would obviously outlast the time left is still made (dlib cannot be stopped,
    // and no model is better than its result), but the run's message says it was foreseen.
    const double estimate = options_.stop.max_seconds > 0 && !stop.allows(0.5 * estimatedSeconds())
                                ? estimatedSeconds()
                                : 0.0;
    Reduced2Result result;
    try {
        result = trainReduced2(X_, data_.problem.train->labels, data_.spec.gamma, options_.C,
                               options_.svm_eps, target_, options_.eps);
        if (result.Z.rows() == 0 || !result.Z.allFinite() || !result.beta.allFinite() ||
            !std::isfinite(result.bias))
            throw std::runtime_error("no finite basis vectors, weights and bias came back");
    } catch (const std::exception& e) {
        fillRecord(record);
        return Status::make(StatusCode::NumericalFailure,
                            std::string("dlib reduced2 failed: ") + e.what());
    } catch (...) {
        fillRecord(record);
        return Status::make(StatusCode::NumericalFailure,
                            "dlib reduced2 failed with an exception that is not a "
                            "std::exception");
    }
    Z_ = std::move(result.Z);
    beta_ = std::move(result.beta);
    bias_ = result.bias;
    fillRecord(record);
    std::string message = "dlib reduced2 returned " + std::to_string(Z_.rows()) +
                          " basis vectors; SVM primal of the result " + formatReal(record.upper);
    if (Z_.rows() < target_) {
        message += " (" + std::to_string(target_) +
                   " asked: dlib found fewer linearly independent training points or dropped "
                   "terms with zero weight)";
    }
    if (stop.timedOut()) message += "; " + overrunNote(estimate);
    return Status::make(StatusCode::Converged, message);
}

double DlibReduced2Solver::estimatedSeconds() const {
    // dlib's SMO (svm_c_trainer) dominates; measured on one core of the 2-core CI machine with
    // 20 features: 1.2 s for 5,000 examples, 4.3 s for 10,000, 28-41 s for 20,000 (kernel rows
    // beyond its cache then recomputed): at least about 2.2e-9 s x n^2 x d.
    return 2.2e-9 * double(X_.rows()) * double(X_.rows()) *
           double(std::max<Eigen::Index>(1, X_.cols()));
}

std::string DlibReduced2Solver::overrunNote(double estimate) const {
    std::string note = "max_seconds = " + formatReal(options_.stop.max_seconds) +
                       " passed during dlib's reduced2, one library call that cannot be "
                       "interrupted (its cost is one iteration's)";
    if (estimate > 0) {
        note += "; from the problem's size (" + std::to_string(X_.rows()) + " examples x " +
                std::to_string(X_.cols()) + " features) it was estimated at about " +
                formatShort(estimate) + " s or more before it began";
    }
    return note;
}

void DlibReduced2Solver::fillRecord(IterationRecord& record) {
    const Eigen::VectorXd& y = data_.problem.train->labels;
    const XvKernel kernel(data_.spec);
    Eigen::VectorXd scores = Eigen::VectorXd::Constant(X_.rows(), bias_);
    normTerm_ = 0.0;
    if (Z_.rows() > 0) {
        scores += kernel.values(X_, Z_) * beta_;
        // ½βᵀK^zβ = ½‖w_z‖² ≥ 0; clamped against rounding.
        normTerm_ = std::max(0.0, 0.5 * beta_.dot(kernel.values(Z_, Z_) * beta_));
    }
    hingeTerm_ = options_.C * (1.0 - y.array() * scores.array()).max(0.0).sum();
    trainError_ = signErrorRate(scores, y);
    if (data_.problem.test) {
        Eigen::VectorXd testScores = Eigen::VectorXd::Constant(data_.testX.rows(), bias_);
        if (Z_.rows() > 0) testScores += kernel.values(data_.testX, Z_) * beta_;
        testError_ = signErrorRate(testScores, data_.problem.test->labels);
    }
    record.oracleCalls = 0;
    record.upper = normTerm_ + hingeTerm_;
    record.lower = fullSolved_ ? full_.dualObjective : 0.0;
    record.extra = {static_cast<double>(Z_.rows()), normTerm_, hingeTerm_, trainError_, testError_};
}

KernelClassifier DlibReduced2Solver::classifier() const {
    if (!valid()) return {};
    return sparseClassifier(data_.spec, Z_, beta_, bias_, data_.classes);
}

SummaryFields DlibReduced2Solver::summary() const {
    if (!valid()) return {};
    SummaryFields fields = {{"objective", lastRecord().upper},
                            {"expansion_vectors", static_cast<long long>(Z_.rows())},
                            {"requested_expansion_vectors", static_cast<long long>(target_)},
                            {"train_error", trainError_}};
    if (data_.problem.test) fields.emplace_back("test_error", testError_);
    fields.emplace_back("norm_term", normTerm_);
    fields.emplace_back("hinge_term", hingeTerm_);
    addSummaryTail(fields, options_.C, options_.kernel);
    return fields;
}

SnapshotPtr DlibReduced2Solver::snapshot() const {
    auto snapshot = std::make_shared<SparseSnapshot>();
    fillSnapshot(*snapshot);
    if (!valid()) return snapshot;
    snapshot->executedLines =
        executedLines({kInput, kFull}, {kTrain, kSubset, kLbfgs, kRefit, kBias}, kReturn);
    fillModel(*snapshot,
              {Z_, beta_, bias_, trainError_, testError_, X_.cols() == 2 && Z_.rows() > 0});
    snapshot->trail = {Z_};
    snapshot->trailIterations = {iteration()};
    return snapshot;
}

}  // namespace cplab
