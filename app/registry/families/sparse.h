// SPDX-License-Identifier: GPL-3.0-or-later
// The sparse family: kernel classifiers with a fixed budget of expansion vectors (ALGORITHMS.md
// §7): SLMC, whose expansion vectors move by L-BFGS on W(Z) (Wu, Schölkopf, Bakır 2006). It
// reads the kernel family's data (LIBSVM/SVMlight or CSV, two classes, a test file or a
// held-out split: the problems are KernelData) and writes the kernel family's model files, so
// that `cplab-cli predict` applies a sparse machine like any kernel SVM.
#pragma once

#include "families/dataset_family.h"

namespace cplab {

const Family& sparseFamily();

}  // namespace cplab
