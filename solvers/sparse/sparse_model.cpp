// SPDX-License-Identifier: GPL-3.0-or-later
#include "sparse_model.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernel/kernel_set.h"
#include "kernel/smo.h"
#include "xv_kernel.h"

namespace cplab {

Eigen::MatrixXd denseRows(const Dataset& data, int dimension) {
    Eigen::MatrixXd X = Eigen::MatrixXd::Zero(data.size(), std::max(dimension, data.dimension()));
    for (int i = 0; i < data.size(); ++i)
        X.row(i).head(data.dimension()) = data.row(i).transpose();
    return X;
}

bool prepareSparseProblem(const KernelProblem& problem, const std::string& kernel,
                          const char* owner, SparseProblem* out, std::string* why) {
    const auto fail = [&](const std::string& message) {
        if (why) *why = std::string(owner) + ": " + message;
        return false;
    };
    if (!problem.train) return fail("no training set given");
    const Dataset& train = *problem.train;
    if (train.size() == 0) return fail("the training set '" + train.name + "' has no examples");
    out->classes = train.classes();
    if (out->classes.size() < 2) {
        return fail("the training set '" + train.name +
                    "' has only one class; an SVM needs examples of two classes");
    }
    if (out->classes.size() > 2) {
        return fail("the training set '" + train.name + "' has " +
                    std::to_string(out->classes.size()) +
                    " classes; the sparse kernel machines are binary classifiers and need "
                    "exactly two label values (OneVsRestSolver, one_vs_rest.h, trains one per "
                    "class; the app and cplab-cli do so for data of more than two classes)");
    }
    std::vector<KernelSpec> specs;
    std::string reason;
    if (!parseKernelList(kernel, train.dimension(), &specs, &reason)) {
        return fail("kernel '" + kernel + "' on '" + train.name + "' (" +
                    std::to_string(train.dimension()) + " features): " + reason);
    }
    if (specs.size() != 1)
        return fail("kernel '" + kernel + "' is " + std::to_string(specs.size()) +
                    " kernels; this solver takes one kernel");
    if (!XvKernel::supports(specs.front(), &reason))
        return fail("kernel '" + kernel + "': " + reason);
    out->spec = specs.front();
    if (problem.test && problem.test->dimension() > train.dimension()) {
        return fail("the test set '" + problem.test->name + "' has " +
                    std::to_string(problem.test->dimension()) + " features, the training set " +
                    std::to_string(train.dimension()) + " (a test set may have fewer, not more)");
    }
    try {
        out->problem.train = withPlusMinusLabels(problem.train, out->classes, owner);
        out->problem.test.reset();
        out->testX.resize(0, 0);
        if (problem.test) {
            auto test = withPlusMinusLabels(problem.test, out->classes, owner);
            out->testX = denseRows(*test, train.dimension());
            out->problem.test = std::move(test);
        }
    } catch (const std::exception& e) {
        if (why) *why = e.what();
        return false;
    }
    return true;
}

bool solveFullSvm(const SparseProblem& problem, double C, double tolerance, double cacheMb,
                  const char* owner, const Interrupt& stop, FullSvm* out, std::string* why) {
    // As SvmSolver (solver `svm`, smo_steps = 10^6 per step, no iteration limit) runs it, step
    // for step: the same kernel set, Q, SMO options and chunks of 10^6 pair updates, so that
    // unlimited runs give the numbers they gave through SvmSolver; only the deadline is new.
    const double half = std::max(1.0, 0.5 * cacheMb);
    try {
        KernelSet kernels(problem.problem.train, {problem.spec}, KernelNormalization::None, half);
        KernelQ q(kernels, problem.problem.train->labels, Eigen::VectorXd::Ones(1), half);
        Smo smo(q, SmoOptions{C, tolerance, true});
        SmoProgress progress;
        while (!progress.converged && !stop.requested())
            progress = smo.run(1000000, stop);
        out->complete = progress.converged;
        out->smoSteps = smo.totalSteps();
        out->kktViolation = smo.maxViolation();
        out->dualObjective = smo.dualObjective();
        out->alpha = smo.alpha();
        out->bias = smo.bias();
    } catch (const std::exception& e) {
        if (why) *why = std::string(owner) + ": the full SVM: " + e.what();
        return false;
    }
    out->supportVectors.clear();
    for (Eigen::Index i = 0; i < out->alpha.size(); ++i)
        if (out->alpha[i] > 0) out->supportVectors.push_back(static_cast<int>(i));
    return true;
}

std::size_t SparseSnapshot::bytes() const {
    std::size_t n = Snapshot::bytes() + sizeof(*this) - sizeof(Snapshot) + kernelLabel.capacity();
    n += sizeof(double) * static_cast<std::size_t>(xvs.size() + beta.size());
    for (const Eigen::MatrixXd& z : trail)
        n += sizeof(Eigen::MatrixXd) + sizeof(double) * static_cast<std::size_t>(z.size());
    n += sizeof(int) * (trailIterations.capacity() + fullSupportVectors.capacity());
    n += grid.heapBytes();
    if (classifier) {
        // The snapshot owns its classifier (built for it alone).
        n += sizeof(KernelClassifier) +
             sizeof(double) * static_cast<std::size_t>(classifier->coefficients.size() +
                                                       classifier->supportVectors.dense.size());
    }
    return n;
}

void XvTrail::add(int iteration, const Eigen::MatrixXd& Z) {
    // An entry off the stride is kept only while it is the newest.
    if (!iterations_.empty() && iterations_.back() % stride_ != 0) {
        entries_.pop_back();
        iterations_.pop_back();
    }
    entries_.push_back(Z);
    iterations_.push_back(iteration);
    if (entries_.size() <= capacity_) return;
    stride_ *= 2;
    std::vector<Eigen::MatrixXd> kept;
    std::vector<int> keptIterations;
    for (std::size_t k = 0; k < entries_.size(); ++k) {
        if (iterations_[k] % stride_ == 0 || k + 1 == entries_.size()) {
            kept.push_back(std::move(entries_[k]));
            keptIterations.push_back(iterations_[k]);
        }
    }
    entries_ = std::move(kept);
    iterations_ = std::move(keptIterations);
}

KernelClassifier sparseClassifier(const KernelSpec& spec, const Eigen::MatrixXd& Z,
                                  const Eigen::VectorXd& beta, double bias,
                                  const std::vector<double>& classes) {
    KernelClassifier model;
    model.specs = {spec};
    model.normalization = KernelNormalization::None;
    model.scales = {1.0};
    model.beta = Eigen::VectorXd::Ones(1);
    model.bias = bias;
    model.classes = classes;
    model.features = static_cast<int>(Z.cols());
    model.coefficients = beta;
    Dataset& xv = model.supportVectors;
    xv.name = "expansion vectors";
    xv.source = "generator:expansion_vectors";
    xv.dense = Z;
    xv.labels = Eigen::VectorXd::Zero(Z.rows());
    return model;
}

double signErrorRate(const Eigen::VectorXd& scores, const Eigen::VectorXd& labels) {
    if (labels.size() == 0) return 0.0;
    long long wrong = 0;
    for (Eigen::Index i = 0; i < labels.size(); ++i)
        wrong += (scores[i] > 0) != (labels[i] > 0);
    return static_cast<double>(wrong) / static_cast<double>(labels.size());
}

bool requireGaussianKernel(const char* owner, const std::string& kernel, const char* needs,
                           std::string* why) {
    std::vector<KernelSpec> specs;
    std::string reason;
    if (parseKernelList(kernel, 1, &specs, &reason) && specs.size() == 1 &&
        specs.front().type == KernelType::Gaussian)
        return true;
    if (why) *why = std::string(owner) + "::kernel = '" + kernel + "': " + needs;
    return false;
}

bool validBudgetOptions(const char* owner, const std::string& kernel, double C,
                        int expansionVectors, double expansionRatio, std::string* why) {
    const auto fail = [&](const std::string& reason) {
        if (why) *why = std::string(owner) + "::kernel = '" + kernel + "': " + reason;
        return false;
    };
    // Feature scopes are refused before parsing (a scope names features by index, and a range
    // such as @1-1000000000 would be expanded).
    if (kernel.find('@') != std::string::npos)
        return fail(
            "expansion vectors are points of the whole input space, so the kernel must "
            "use every feature (drop the '@' scope)");
    std::vector<KernelSpec> specs;
    std::string reason;
    if (!parseKernelList(kernel, 1, &specs, &reason)) return fail(reason);
    if (specs.size() != 1)
        return fail(std::to_string(specs.size()) + " kernels; one kernel is needed");
    if (!XvKernel::supports(specs.front(), &reason)) return fail(reason);
    return require(std::isfinite(C) && C > 0, owner, "C", C, "must be a finite number > 0", why) &&
           require(C <= 1e15, owner, "C", C, "must be <= 1e15", why) &&
           require(expansionVectors >= 0, owner, "expansion_vectors", expansionVectors,
                   "must be >= 1 (or 0 to take N_z from expansion_ratio)", why) &&
           require(std::isfinite(expansionRatio) && expansionRatio >= 0 && expansionRatio <= 1,
                   owner, "expansion_ratio", expansionRatio, "must lie in (0, 1] (or be 0: off)",
                   why) &&
           require(!(expansionVectors > 0 && expansionRatio > 0), owner, "expansion_ratio",
                   expansionRatio,
                   "set either expansion_vectors or expansion_ratio, not both "
                   "(give expansion_ratio alone, or expansion_vectors = 0, to use the ratio)",
                   why) &&
           require(expansionVectors > 0 || expansionRatio > 0, owner, "expansion_vectors",
                   expansionVectors, "is 0 and expansion_ratio is 0: one of them must be > 0", why);
}

}  // namespace cplab
