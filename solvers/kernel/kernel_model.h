// SPDX-License-Identifier: GPL-3.0-or-later
// A trained kernel classifier (one kernel or a learnt combination) and its model file:
//
//     f(z) = Σᵢ cᵢ Σₖ βₖ Kₖ(xᵢ, z) + b,   cᵢ = αᵢ yᵢ over the support vectors xᵢ,
//
// predicting the training file's larger class value where f(z) > 0 (labels: two values
// a < b ↔ −1/+1, as the linear family).
//
// File format ("# cplab kernel model", text, one key per line, then the support vectors):
//     kernels <list as kernel_spec.h parses it>       normalize none|diagonal|trace
//     scales s₁ … s_K (trace factors)                  beta β₁ … β_K
//     bias b        classes a b        features d      support_vectors n
//     then n lines "cᵢ j:v j:v …" (LIBSVM-style 1-based feature indices; for a precomputed
//     kernel a single "0:serial" naming the training example).
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "kernel_spec.h"
#include "math/contours.h"

namespace cplab {

struct KernelClassifier {
    std::vector<KernelSpec> specs;
    KernelNormalization normalization = KernelNormalization::None;
    std::vector<double> scales;    // K trace factors (1 when not trace)
    Eigen::VectorXd beta;          // K weights
    Dataset supportVectors;        // n rows (precomputed: unused, see serials)
    std::vector<int> serials;      // 0-based training indices of the support vectors
    Eigen::VectorXd coefficients;  // n values αᵢ yᵢ
    double bias = 0.0;
    std::vector<double> classes;  // the training labels' two values, smaller first
    int features = 0;             // training dimension d (precomputed: m)

    // f(z) for example i of `data` (same dimension as training, or precomputed rows).
    double decision(const Dataset& data, int i) const;
    Eigen::VectorXd decisions(const Dataset& data) const;
    // Fraction of examples of `data` whose label (in the training file's values) f gets
    // wrong. Throws DataError naming data.source when a label is not one of `classes`.
    double error(const Dataset& data) const;
};

// f on an n × n grid over the bounding box of 2-D `data` padded by 5 % on every side
// (row-major: values[iy·n + ix] at x = x0 + ix (x1 − x0)/(n − 1), y likewise), with its level
// sets f = 0 (the decision boundary) and f = ±1 (the margins), computed with the grid so that
// views only draw them.
struct DecisionGrid {
    double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    int n = 0;
    std::vector<double> values;
    ContourLevel zero;                  // f = 0
    std::vector<ContourLevel> margins;  // f = +1, then f = −1

    std::size_t heapBytes() const;  // the values and the contours' segments
};
DecisionGrid decisionGrid(const KernelClassifier& model, const Dataset& data, int n);

std::string formatKernelModel(const KernelClassifier& model);
// The model as LIBSVM's own model file (svm_save_model's format, read by `svm-predict` and
// svm_load_model), with the same predictions: a C-SVC of two classes whose labels are the
// training values (label classes[1] classes[0], so that LIBSVM's f > 0 ↔ ours), one kernel
// (linear; poly:d,c as polynomial with gamma 1, coef0 c; gaussian:γ as rbf; precomputed), its
// weight β and trace scale folded into the coefficients, rho = −b. Throws
// std::invalid_argument saying why when LIBSVM cannot express the model: more than one kernel
// with β > 0 (a learnt combination), kernels on a subset of the features, the diagonal
// normalisation of a non-Gaussian kernel, class values that are not integers (LIBSVM's labels
// are).
std::string formatLibsvmModel(const KernelClassifier& model);

// Throws DataError (sourceName, line, what was expected).
KernelClassifier parseKernelModel(const std::string& text, const std::string& sourceName);

}  // namespace cplab
