// SPDX-License-Identifier: GPL-3.0-or-later
#include "reduced_svm.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/number_text.h"
#include "slmc_objective.h"
#include "xv_init.h"
#include "xv_kernel.h"

namespace cplab {

namespace {

enum Line { kInput, kDraw, kFeatures, kRepeat, kSmo, kUntil, kReturn };

}  // namespace

// ---- options ----

void RsvmOptions::visit(OptionVisitor& v) {
    stop.visit(v);
    v.text("kernel", kernel, "one kernel: linear, poly:d[,c] or gaussian:gamma");
    v.real("C", C, "box constraint of the SVM dual, 0 <= alpha_i <= C (> 0)");
    v.integer("expansion_vectors", expansion_vectors,
              "number N_z of random expansion vectors (>= 1); 0: N_z from expansion_ratio");
    v.real("expansion_ratio", expansion_ratio,
           "N_z as a fraction of the full SVM's support vectors, in (0, 1] (given alone it "
           "replaces expansion_vectors; solves the full SVM first); 0: off");
    v.seed("seed", seed, "seed of the random expansion vectors (>= 0)");
    v.boolean("full_svm", full_svm, "solve the full SVM first: its objective and SVs are shown");
    v.real("full_tolerance", full_tolerance, "KKT tolerance of the full SVM (> 0)");
    v.real("kkt_tolerance", kkt_tolerance,
           "SMO stops when the maximal KKT violation is <= this (LIBSVM -e, > 0)");
    v.integer("smo_steps", smo_steps, "SMO pair updates per app iteration (>= 1)");
    v.real("cache_mb", cache_mb, "kernel caches in MB (>= 1)");
}

bool RsvmOptions::validate(const char* owner, std::string* why) const {
    if (!stop.isValid(owner, why)) return false;
    return validBudgetOptions(owner, kernel, C, expansion_vectors, expansion_ratio, why) &&
           require(seed >= 0, owner, "seed", static_cast<double>(seed), "must be >= 0", why) &&
           require(std::isfinite(full_tolerance) && full_tolerance > 0, owner, "full_tolerance",
                   full_tolerance, "must be a finite number > 0", why) &&
           require(std::isfinite(kkt_tolerance) && kkt_tolerance > 0, owner, "kkt_tolerance",
                   kkt_tolerance, "must be a finite number > 0", why) &&
           require(smo_steps >= 1, owner, "smo_steps", smo_steps, "must be >= 1", why) &&
           require(std::isfinite(cache_mb) && cache_mb >= 1, owner, "cache_mb", cache_mb,
                   "must be a finite number >= 1 (MB)", why);
}

void MrsvmOptions::visit(OptionVisitor& v) {
    RsvmOptions::visit(v);
    v.real("eigen_floor", eigen_floor,
           "eigenvalues of K^z are floored at eigen_floor * largest eigenvalue, in (0, 0.01]");
}

bool MrsvmOptions::isValid(std::string* why) const {
    return validate("MrsvmOptions", why) &&
           require(std::isfinite(eigen_floor) && eigen_floor > 0 && eigen_floor <= 0.01,
                   "MrsvmOptions", "eigen_floor", eigen_floor, "must lie in (0, 0.01]", why);
}

// ---- ReducedSvmSolver ----

ReducedSvmSolver::ReducedSvmSolver(const KernelProblem& problem, const RsvmOptions& options,
                                   bool whiten, double eigenFloor, const char* owner)
    : SparseSolver(options.stop), options_(options), whiten_(whiten) {
    std::string why;
    if (!options_.validate(owner, &why) ||
        (whiten && !require(std::isfinite(eigenFloor) && eigenFloor > 0 && eigenFloor <= 0.01,
                            owner, "eigen_floor", eigenFloor, "must lie in (0, 0.01]", &why))) {
        reject(why);
        return;
    }
    if (!acceptProblem(problem, options_.kernel, owner)) return;
    const Dataset& train = *data_.problem.train;
    SetupTimer timer(*this);
    // max_seconds counts the set-up: the full SVM (full_svm, expansion_ratio) polls its deadline.
    const int nz = fullSvmFirst(options_, owner, setUpInterrupt());
    if (nz == 0) return;
    Eigen::MatrixXd X(train.size(), train.dimension());
    for (int i = 0; i < train.size(); ++i)
        X.row(i) = train.row(i).transpose();
    const std::vector<int> candidates = distinctRows(X);
    if (!acceptExpansionCount(nz, candidates.size(), owner)) return;
    Z_ = randomExpansionVectors(X, candidates, nz, static_cast<std::uint64_t>(options_.seed));
    const XvKernel kernel(data_.spec);
    const Eigen::MatrixXd Psi = kernel.values(Z_, X);  // N_z × n
    try {
        B_ = whiten ? whitening(kernel.values(Z_, Z_), eigenFloor, &floored_)
                    : Eigen::MatrixXd::Identity(nz, nz);
        auto features = std::make_shared<Dataset>();
        features->name = whiten ? "whitened empirical kernel map" : "empirical kernel map";
        features->source = whiten ? "generator:mrsvm" : "generator:rsvm";
        features->dense = Psi.transpose() * B_;
        features->labels = train.labels;
        features_ = std::move(features);
        KernelSpec linear;
        linear.type = KernelType::Linear;
        const double half = std::max(1.0, 0.5 * options_.cache_mb);
        kernels_ = std::make_unique<KernelSet>(features_, std::vector<KernelSpec>{linear},
                                               KernelNormalization::None, half);
        q_ = std::make_unique<KernelQ>(*kernels_, train.labels, Eigen::VectorXd::Ones(1), half);
        smo_ = std::make_unique<Smo>(*q_, SmoOptions{options_.C, options_.kkt_tolerance, true});
    } catch (const std::exception& e) {
        smo_.reset();
        q_.reset();
        kernels_.reset();
        reject(std::string(owner) + ": " + e.what());
        return;
    }
    if (data_.problem.test) psiTest_ = kernel.values(Z_, data_.testX);

    IterationRecord initial;
    initial.oracleCalls = q_->rowsComputed();
    initial.upper = smo_->primalObjective();  // α = 0: C Σ max(0, 1 − yᵢ b)
    initial.lower = 0.0;                      // D(0) = 0
    initial.extra = extras(smo_->maxViolation());
    setInitialRecord(initial);
}

ReducedSvmSolver::~ReducedSvmSolver() = default;

std::vector<std::string> ReducedSvmSolver::extraColumns() const {
    return {"dual_objective",    "kkt_violation",       "smo_iterations", "support_vectors",
            "expansion_vectors", "floored_eigenvalues", "train_error",    "test_error"};
}

std::vector<std::string> ReducedSvmSolver::pseudocode() const {
    return {
        "input: data (x_i, y_i), kernel k, C, N_z",
        "Z <- N_z distinct training points drawn at random (kept fixed)",
        whiten_ ? "features phi(x) = L^-1/2 V^T psi_z(x)  (K^z = V L V^T, whitened)"
                : "features psi_z(x) = [k(z_1, x) .. k(z_Nz, x)]  (empirical kernel map)",
        "repeat  (smo_steps pair updates per iteration)",
        "  SMO pair update of the linear SVM on the features (WSS 2, shrinking)",
        "until maximal KKT violation <= eps",
        "return beta = B w, b:  f(x) = sum_u beta_u k(z_u, x) + b",
    };
}

Eigen::VectorXd ReducedSvmSolver::beta() const {
    // w = Σᵢ αᵢ yᵢ Φᵢ, β = B w.
    const Eigen::VectorXd c = data_.problem.train->labels.cwiseProduct(smo_->alpha());
    return B_ * (features_->dense.transpose() * c);
}

double ReducedSvmSolver::bias() const {
    return smo_->bias();
}

std::vector<double> ReducedSvmSolver::extras(double kktViolation) {
    // f(xᵢ) off SMO's gradient, as svm.cpp: (Qα)ᵢ = yᵢ (f(xᵢ) − b).
    const Eigen::VectorXd& y = data_.problem.train->labels;
    const Eigen::VectorXd scores =
        (y.array() * (smo_->gradient().array() + 1.0) + smo_->bias()).matrix();
    lastTrainError_ = signErrorRate(scores, y);
    if (data_.problem.test) {
        const Eigen::VectorXd testScores = (psiTest_.transpose() * beta()).array() + bias();
        lastTestError_ = signErrorRate(testScores, data_.problem.test->labels);
    }
    return {smo_->dualObjective(),
            kktViolation,
            static_cast<double>(smo_->totalSteps()),
            static_cast<double>(smo_->supportVectors()),
            static_cast<double>(Z_.rows()),
            static_cast<double>(floored_),
            lastTrainError_,
            lastTestError_};
}

Status ReducedSvmSolver::doStep(IterationRecord& record) {
    if (!setUpCut().empty())
        return endCutSetUp(record, "the model is iteration 0's (alpha = 0: beta = 0 and b)");
    const SmoProgress progress = smo_->run(options_.smo_steps, &cancelToken());
    record.oracleCalls = q_->rowsComputed();
    record.upper = smo_->primalObjective();
    record.lower = smo_->dualObjective();
    record.extra = extras(progress.maxViolation);
    if (progress.converged) {
        return Status::make(StatusCode::Converged,
                            "maximal KKT violation " + formatReal(progress.maxViolation) +
                                " <= kkt_tolerance " + formatReal(options_.kkt_tolerance) +
                                " after " + std::to_string(smo_->totalSteps()) + " SMO steps");
    }
    return Status::running();
}

KernelClassifier ReducedSvmSolver::classifier() const {
    if (!valid()) return {};
    return sparseClassifier(data_.spec, Z_, beta(), bias(), data_.classes);
}

SummaryFields ReducedSvmSolver::summary() const {
    if (!valid()) return {};
    SummaryFields fields = {{"objective", lastRecord().upper},
                            {"dual_objective", smo_->dualObjective()},
                            {"expansion_vectors", static_cast<long long>(Z_.rows())},
                            {"train_error", lastTrainError_}};
    if (data_.problem.test) fields.emplace_back("test_error", lastTestError_);
    fields.emplace_back("support_vectors", static_cast<long long>(smo_->supportVectors()));
    fields.emplace_back("smo_iterations", smo_->totalSteps());
    addSummaryTail(fields, options_.C, options_.kernel);
    return fields;
}

SnapshotPtr ReducedSvmSolver::snapshot() const {
    auto snapshot = std::make_shared<SparseSnapshot>();
    fillSnapshot(*snapshot);
    if (!valid()) return snapshot;
    snapshot->executedLines =
        executedLines({kInput, kDraw, kFeatures}, {kRepeat, kSmo, kUntil}, kReturn);
    fillModel(*snapshot, {Z_, beta(), bias(), lastTrainError_, lastTestError_, Z_.cols() == 2});
    snapshot->trail = {Z_};
    snapshot->trailIterations = {0};
    return snapshot;
}

}  // namespace cplab
