// The kernel family: kernel SVMs by SMO (step-wise, and LIBSVM as the reference) and multiple
// kernel learning by cutting planes (SILP) and by reduced gradient (SimpleMKL), ALGORITHMS.md
// §4, on built-in or loaded datasets (LIBSVM/SVMlight, CSV, or LIBSVM's precomputed-kernel
// files) with an optional test set; model files for `cplab-cli run --model` and `predict`.
#pragma once

#include <string>

#include "family.h"
#include "kernel/kernel_solver.h"

namespace cplab {

struct KernelData final : ProblemData {
    KernelProblem kernel;      // training set and optional test set
    bool precomputed = false;  // the features are kernel values (precomputed.h)

    std::string details() const override;
};

const Family& kernelFamily();

}  // namespace cplab
