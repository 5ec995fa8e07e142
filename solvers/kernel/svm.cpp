// SPDX-License-Identifier: GPL-3.0-or-later
#include "svm.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "core/number_text.h"

namespace cplab {

namespace {

constexpr const char* kOwner = "SvmOptions";

enum Line { kInput, kInit, kRepeat, kSelectI, kSelectJ, kUpdate, kGradient, kUntil, kReturn };

}  // namespace

void SvmOptions::visit(OptionVisitor& v) {
    stop.visit(v);
    kernel.visit(v, "kernel", "one kernel: linear, poly:d[,c], gaussian:gamma or precomputed");
    v.integer("smo_steps", smo_steps, "SMO pair updates per app iteration (>= 1)");
}

bool SvmOptions::isValid(std::string* why) const {
    return stop.isValid(kOwner, why) && kernel.isValid(kOwner, why) &&
           require(smo_steps >= 1, kOwner, "smo_steps", smo_steps, "must be >= 1", why);
}

SvmSolver::SvmSolver(const KernelProblem& problem, SvmOptions options)
    : KernelSvmSolver(problem, options.kernel, options.stop, kOwner, /*singleKernel=*/true),
      svmOptions_(std::move(options)) {
    if (!valid() || !acceptOptions(svmOptions_)) return;
    SetupTimer timer(*this);
    try {
        q_ = std::make_unique<KernelQ>(*kernels_, problem_.train->labels, Eigen::VectorXd::Ones(1),
                                       std::max(1.0, 0.5 * options_.cache_mb));
        smo_ = std::make_unique<Smo>(
            *q_, SmoOptions{options_.C, options_.kkt_tolerance, options_.shrinking});
    } catch (const std::exception& e) {
        smo_.reset();
        q_.reset();
        kernels_.reset();
        reject(std::string(kOwner) + ": " + e.what());
        return;
    }
    setStartRecord();
}

void SvmSolver::setStartRecord() {
    IterationRecord initial;
    initial.oracleCalls = q_->rowsComputed();
    initial.upper = smo_->primalObjective();  // α = 0: C Σ max(0, 1 − yᵢ b)
    initial.lower = smo_->dualObjective();    // D(0) = 0
    const Eigen::VectorXd scores = trainScores();
    initial.extra = commonExtras(initial.lower, smo_->maxViolation(), &scores);
    setInitialRecord(initial);
}

bool SvmSolver::warmStartFrom(const SvmSolver& previous, const std::vector<int>& previousIndex,
                              std::string* why) {
    if (!warmCompatible(previous, previousIndex, why)) return false;
    SetupTimer timer(*this);
    const Eigen::VectorXd alpha =
        carriedAlpha(previous.smo_->alpha(), previousIndex, problem_.train->labels, options_.C);
    try {
        startFromBestMultiple(*smo_, alpha);
    } catch (const std::exception& e) {
        if (why) *why = e.what();
        return false;
    }
    setStartRecord();
    if (why) {
        *why = "keeps alpha of " + std::to_string(smo_->supportVectors()) +
               " surviving support vectors";
    }
    return true;
}

SvmSolver::~SvmSolver() = default;

std::vector<std::string> SvmSolver::pseudocode() const {
    return {
        "input: kernel K, C, tolerance eps, labels y;  Q = Y K Y",
        "alpha <- 0;  G <- Q alpha - 1 = -1",
        "repeat  (smo_steps pair updates per iteration)",
        "  i <- argmax_{t in I_up} -y_t G_t                       (maximal violator)",
        "  j <- argmax second-order gain over I_low                (WSS 2, one row of Q)",
        "  update alpha_i, alpha_j within [0, C] keeping y^T alpha = 0",
        "  G <- G + Q_i d_alpha_i + Q_j d_alpha_j;  shrink variables stuck at a bound",
        "until max_{I_up} -y G - min_{I_low} -y G <= eps        (KKT rule)",
        "b <- average of -y_t G_t over free alpha_t;  return alpha, b",
    };
}

Status SvmSolver::doStep(IterationRecord& record) {
    const SmoProgress progress = smo_->run(svmOptions_.smo_steps, &cancelToken());
    svmCalls_ = 1;
    smoIterations_ = smo_->totalSteps();
    record.oracleCalls = q_->rowsComputed();
    record.upper = smo_->primalObjective();
    record.lower = smo_->dualObjective();
    const Eigen::VectorXd scores = trainScores();
    // The test error costs about nSV · m_test kernel values, an SMO step up to two rows of m:
    // it is recomputed once the steps since the last time have cost as much (and at the end),
    // so that it never dominates the run.
    stepsSinceTest_ += progress.steps;
    const double testCost =
        problem_.test ? double(smo_->supportVectors()) * problem_.test->size() : 0.0;
    const bool testDue =
        progress.converged || testCost <= 2.0 * double(stepsSinceTest_) * problem_.train->size();
    if (testDue) stepsSinceTest_ = 0;
    testStale_ = problem_.test && !testDue;
    record.extra = commonExtras(record.lower, progress.maxViolation, &scores, testDue);
    if (progress.converged) {
        return Status::make(StatusCode::Converged,
                            "maximal KKT violation " + formatReal(progress.maxViolation) +
                                " <= kkt_tolerance " + formatReal(options_.kkt_tolerance) +
                                " after " + std::to_string(smo_->totalSteps()) + " SMO steps");
    }
    return Status::running();
}

Eigen::VectorXd SvmSolver::trainScores() const {
    return smo_->trainScores();
}

std::string SvmSolver::finishRecord(IterationRecord& record, const Status& /*status*/) {
    // Whatever stopped the run (a gap rule, a limit, the user), the test error reported with
    // the final record is that of the classifier the run reports and saves.
    if (!valid() || !testStale_) return {};
    const Eigen::VectorXd scores = trainScores();
    record.extra = commonExtras(record.lower, smo_->maxViolation(), &scores, true);
    testStale_ = false;
    stepsSinceTest_ = 0;
    return {};
}

KernelClassifier SvmSolver::classifier() const {
    return makeClassifier(smo_->alpha(), smo_->bias(), Eigen::VectorXd::Ones(1));
}

SnapshotPtr SvmSolver::snapshot() const {
    auto snapshot = std::make_shared<KernelSnapshot>();
    fillKernelSnapshot(*snapshot);
    if (!valid()) return snapshot;
    if (iteration() == 0) {
        snapshot->executedLines = {kInput, kInit};
    } else {
        snapshot->executedLines = {kRepeat, kSelectI, kSelectJ, kUpdate, kGradient, kUntil};
        if (status().code == StatusCode::Converged) snapshot->executedLines.push_back(kReturn);
    }
    return snapshot;
}

}  // namespace cplab
