// SPDX-License-Identifier: GPL-3.0-or-later
// LIBSVM (libsvm-dev, its C API) as a reference and as a solver raced in the app (`libsvm`):
// the same kernel, C, tolerance (-e), shrinking and cache size as `svm`. LIBSVM has no
// step-wise interface: the run is one iteration, the whole svm_train, whose dual objective,
// α, b and support vectors are read back.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <optional>

#include "kernel_solver.h"

namespace cplab {

// One LIBSVM solve on the KernelSet's training data and single kernel (linear, poly,
// gaussian, or precomputed; `normalize` must be none except for Gaussian kernels, where every
// normalisation is the identity). α is returned over all m examples (αᵢ ≥ 0), b such that
// f(x) = Σ αᵢ yᵢ K(xᵢ, x) + b, and the dual objective D(α) (LIBSVM's −obj).
struct LibsvmResult {
    Eigen::VectorXd alpha;
    double bias = 0.0;
    double dualObjective = 0.0;
    long long iterations = 0;  // LIBSVM's #iter, read from its solver
    int supportVectors = 0;
    double trainSeconds = 0.0;  // svm_train alone (without building rows or reading back)
};
// Throws std::invalid_argument when LIBSVM cannot take the setup (say why).
LibsvmResult solveWithLibsvm(const Dataset& train, const KernelSpec& spec,
                             KernelNormalization normalization, double C, double tolerance,
                             bool shrinking, double cacheMb);

struct LibsvmOptions {
    StopOptions stop{0.0, 0.0, 1, 0.0};
    KernelOptions kernel;

    void visit(OptionVisitor& v);
    bool isValid(std::string* why) const;
};

class LibsvmSolver final : public KernelSvmSolver {
  public:
    LibsvmSolver(const KernelProblem& problem, LibsvmOptions options = {});

    std::string name() const override { return "libsvm"; }
    std::vector<std::string> pseudocode() const override;
    bool convergesByOwnRule() const override { return true; }  // the KKT rule
    SnapshotPtr snapshot() const override;
    KernelClassifier classifier() const override;
    Eigen::VectorXd weights() const override { return Eigen::VectorXd::Ones(1); }

  protected:
    Status doStep(IterationRecord& record) override;

  private:
    LibsvmOptions libsvmOptions_;
    std::optional<LibsvmResult> result_;
};

}  // namespace cplab
