// SPDX-License-Identifier: GPL-3.0-or-later
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
    SummaryFields summary() const override;  // `header` as the linear family's
};

const Family& kernelFamily();

struct TestSetSpec;

// A kernel problem of `family` (kernel, or sparse, which reads the same data) from a data file
// or, when `path` is empty, from the built-in dataset or generated 2-D set `builtin` (its name
// without the family's prefix) as `known`; with its test set. Null and *why (file, line and
// what was expected) on failure.
ProblemPtr makeKernelProblem(const std::string& path, const std::string& builtin,
                             const ProblemInfo* known, const TestSetSpec& test, std::string* why,
                             const std::string& family = "kernel");

}  // namespace cplab
