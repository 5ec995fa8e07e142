// SPDX-License-Identifier: GPL-3.0-or-later
// Raw kernel values from the features, for KernelSet (kernel_set.h): the value of a kernel
// from an inner product and two squared norms, a precomputed kernel's entries, the value
// classes of a feature group (kernels held over them), and the checks and column copies a
// KernelSet's constructor makes. kernelValue itself is declared in kernel_set.h.
#pragma once

#include <cstddef>
#include <vector>

#include "data/dataset.h"
#include "kernel_spec.h"

namespace cplab {

// base^degree for a degree ≥ 0 by repeated squaring (the polynomial kernel's power).
double integerPower(double base, int degree);
// Feature j of example i (0 when a sparse row does not hold it).
double featureValue(const Dataset& data, int i, int j);
// The raw kernel value from the inner product and the two squared norms (Gaussian only reads
// the norms; not for Precomputed).
double fromInner(const KernelSpec& spec, double dot, double normA, double normB);
// The value classes of the rows of x (dense, one row per example): classOf[i] and one
// representative example per class, in order of first appearance; both empty when there are
// more than `limit` classes.
void valueClasses(const Dataset::DenseMatrix& x, int limit, std::vector<int>* classOf,
                  std::vector<int>* representatives);

// Throws std::invalid_argument when a precomputed kernel cannot be used: combined with other
// kernels (`kernels` > 1), not m × m, normalised by its diagonal, or not symmetric (1e-9).
void checkPrecomputed(const Dataset& data, std::size_t kernels, KernelNormalization normalization);
// Throws std::invalid_argument when one of spec's features is outside 0..dimension−1.
void checkFeatures(const KernelSpec& spec, int dimension);
// The columns `features` (sorted) of the training set, as a matrix of their own.
Dataset::SparseMatrix sparseColumns(const Dataset& data, const std::vector<int>& features);
Dataset::DenseMatrix denseColumns(const Dataset& data, const std::vector<int>& features);

}  // namespace cplab
