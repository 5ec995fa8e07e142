// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel family: kernel SVMs by SMO (step-wise, and LIBSVM as the reference) and multiple
// kernel learning by cutting planes (SILP) and by descent on the simplex (SimpleMKL), ALGORITHMS.md
// §4, on built-in or loaded datasets (LIBSVM/SVMlight, CSV, or LIBSVM's precomputed-kernel
// files) with an optional test set (families/dataset_family.h); model files for
// `cplab-cli run --model` and `predict`.
#pragma once

#include "families/dataset_family.h"

namespace cplab {

const Family& kernelFamily();

}  // namespace cplab
