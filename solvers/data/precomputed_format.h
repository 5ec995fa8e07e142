// SPDX-License-Identifier: GPL-3.0-or-later
// LIBSVM's precomputed-kernel format (its README, "Precomputed kernels"):
//
//     <label> 0:<serial> 1:K(xᵢ,x₁) 2:K(xᵢ,x₂) … m:K(xᵢ,xₘ)
//
// one line per example, the serial number i (1-based) first. A training file is m × m; a test
// file holds K(z, xⱼ) against the m training examples. The loaded Dataset keeps the kernel
// values as dense features (feature j−1 = K(·, xⱼ)) and the serial numbers are checked.
#pragma once

#include <string>

#include "data/data_format.h"
#include "data/dataset.h"

namespace cplab {

// True when the first data line of `path` starts "<label> 0:" and so do most data lines in its
// first 4 KB (the sniffing rule: a LIBSVM file with one index 0 is not a kernel, and a kernel
// file with one serial missing is still reported as a kernel file).
bool looksLikePrecomputedKernel(const std::string& path);

// Reads a precomputed-kernel file. `columns` = the number of training examples the rows are
// against (0: a training file, which must then be square). Throws DataError (file, line, what
// was expected) for a missing or wrong serial, a missing or repeated column, a value that is
// not finite, a row of the wrong length, or a training matrix that is not square.
Dataset loadPrecomputedKernel(const std::string& path, int columns = 0);

// The format table's sniff (data_format.h): 3 when looksLikePrecomputedKernel says so of the
// prefix.
int sniffPrecomputedKernel(const FilePrefix& prefix);

}  // namespace cplab
