// SPDX-License-Identifier: GPL-3.0-or-later
// The linear family: linear SVMs and other regularised risks (ALGORITHMS.md §3) by BMRM, OCAS,
// dual coordinate descent and Pegasos SGD, raced against libocas, on built-in or loaded
// datasets with an optional test set (families/dataset_family.h); model files for
// `cplab-cli run --model` and `predict`.
#pragma once

#include "families/dataset_family.h"

namespace cplab {

const Family& linearFamily();

}  // namespace cplab
