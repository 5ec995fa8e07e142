// SPDX-License-Identifier: GPL-3.0-or-later
// Raw kernel values from the features (kernel_values.h): inner products of dense and sparse
// rows over a kernel's features, the value classes of a feature group, and the checks of a
// precomputed kernel and the copy of a group's columns when a KernelSet is built.
#include "kernel_values.h"

#include <Eigen/SparseCore>
#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

#include "core/number_text.h"

namespace cplab {

namespace {

// One example's features, dense (values[0..dimension)) or sparse (nnz pairs, indices sorted).
struct RowView {
    const int* index = nullptr;  // null for a dense row
    const double* value = nullptr;
    int size = 0;  // nnz (sparse) or dimension (dense)
};

RowView rowView(const Dataset& data, int i) {
    RowView view;
    if (data.sparseStorage) {
        const auto& s = data.sparse;
        const int begin = s.outerIndexPtr()[i];
        const int end = s.outerIndexPtr()[i + 1];
        view.index = s.innerIndexPtr() + begin;
        view.value = s.valuePtr() + begin;
        view.size = end - begin;
    } else {
        view.value = data.dense.data() + static_cast<std::ptrdiff_t>(i) * data.dense.cols();
        view.size = static_cast<int>(data.dense.cols());
    }
    return view;
}

bool inScope(const std::vector<int>& features, int j) {
    return features.empty() || std::binary_search(features.begin(), features.end(), j);
}

double squaredNorm(const RowView& a, const std::vector<int>& features) {
    double sum = 0.0;
    if (a.index) {
        for (int t = 0; t < a.size; ++t)
            if (inScope(features, a.index[t])) sum += a.value[t] * a.value[t];
    } else if (features.empty()) {
        for (int t = 0; t < a.size; ++t)
            sum += a.value[t] * a.value[t];
    } else {
        for (const int j : features)
            if (j < a.size) sum += a.value[j] * a.value[j];
    }
    return sum;
}

double dotRows(const RowView& a, const RowView& b, const std::vector<int>& features) {
    double sum = 0.0;
    if (a.index && b.index) {
        int s = 0;
        int t = 0;
        while (s < a.size && t < b.size) {
            if (a.index[s] < b.index[t]) {
                ++s;
            } else if (a.index[s] > b.index[t]) {
                ++t;
            } else {
                if (inScope(features, a.index[s])) sum += a.value[s] * b.value[t];
                ++s;
                ++t;
            }
        }
    } else if (a.index || b.index) {
        const RowView& sp = a.index ? a : b;
        const RowView& de = a.index ? b : a;
        for (int t = 0; t < sp.size; ++t) {
            const int j = sp.index[t];
            if (j < de.size && inScope(features, j)) sum += sp.value[t] * de.value[j];
        }
    } else if (features.empty()) {
        const int n = std::min(a.size, b.size);
        for (int t = 0; t < n; ++t)
            sum += a.value[t] * b.value[t];
    } else {
        for (const int j : features)
            if (j < a.size && j < b.size) sum += a.value[j] * b.value[j];
    }
    return sum;
}

}  // namespace

double integerPower(double base, int degree) {
    double result = 1.0;
    while (degree > 0) {
        if (degree & 1) result *= base;
        base *= base;
        degree >>= 1;
    }
    return result;
}

double featureValue(const Dataset& data, int i, int j) {
    const RowView view = rowView(data, i);
    if (!view.index) return j < view.size ? view.value[j] : 0.0;
    const int* end = view.index + view.size;
    const int* at = std::lower_bound(view.index, end, j);
    return at != end && *at == j ? view.value[at - view.index] : 0.0;
}

double fromInner(const KernelSpec& spec, double dot, double normA, double normB) {
    switch (spec.type) {
        case KernelType::Linear:
            return dot;
        case KernelType::Polynomial:
            return integerPower(dot + spec.offset, spec.degree);
        case KernelType::Gaussian:
            return std::exp(-spec.gamma * std::max(0.0, normA + normB - 2.0 * dot));
        case KernelType::Precomputed:
            break;
    }
    return 0.0;
}

void valueClasses(const Dataset::DenseMatrix& x, int limit, std::vector<int>* classOf,
                  std::vector<int>* representatives) {
    const auto m = static_cast<int>(x.rows());
    std::map<std::vector<double>, int> classes;
    classOf->assign(static_cast<std::size_t>(m), 0);
    representatives->clear();
    std::vector<double> key(static_cast<std::size_t>(x.cols()));
    for (int i = 0; i < m; ++i) {
        for (Eigen::Index j = 0; j < x.cols(); ++j)
            key[static_cast<std::size_t>(j)] = x(i, j);
        const auto [at, fresh] = classes.emplace(key, static_cast<int>(representatives->size()));
        if (fresh) {
            representatives->push_back(i);
            if (static_cast<int>(representatives->size()) > limit) {
                classOf->clear();
                representatives->clear();
                return;
            }
        }
        (*classOf)[static_cast<std::size_t>(i)] = at->second;
    }
}

double kernelValue(const KernelSpec& spec, const Dataset& a, int i, const Dataset& b, int j) {
    if (spec.type == KernelType::Precomputed) return featureValue(a, i, j);
    const RowView ra = rowView(a, i);
    const RowView rb = rowView(b, j);
    const double dot = dotRows(ra, rb, spec.features);
    if (spec.type != KernelType::Gaussian) return fromInner(spec, dot, 0.0, 0.0);
    return fromInner(spec, dot, squaredNorm(ra, spec.features), squaredNorm(rb, spec.features));
}

void checkPrecomputed(const Dataset& data, std::size_t kernels, KernelNormalization normalization) {
    const int m = data.size();
    const int dimension = data.dimension();
    if (kernels > 1) {
        throw std::invalid_argument(
            "'precomputed' cannot be combined with other kernels (the file holds one kernel)");
    }
    if (dimension != m) {
        throw std::invalid_argument(
            "precomputed kernel '" + data.source + "' is " + std::to_string(m) + " × " +
            std::to_string(dimension) + "; expected a square matrix (" + std::to_string(m) +
            " training examples × " + std::to_string(m) + " kernel values)");
    }
    if (normalization == KernelNormalization::Diagonal) {
        throw std::invalid_argument(
            "precomputed kernel cannot be normalised by its diagonal (a new point's K(z, z) is "
            "not in the file); use normalize none or trace");
    }
    for (int i = 0; i < m; ++i) {
        for (int j = i + 1; j < m; ++j) {
            const double a = featureValue(data, i, j);
            const double b = featureValue(data, j, i);
            if (std::abs(a - b) > 1e-9 * std::max(std::abs(a), std::abs(b))) {
                throw std::invalid_argument("precomputed kernel '" + data.source +
                                            "' is not symmetric: K(" + std::to_string(i + 1) +
                                            ", " + std::to_string(j + 1) + ") = " + formatReal(a) +
                                            " but K(" + std::to_string(j + 1) + ", " +
                                            std::to_string(i + 1) + ") = " + formatReal(b));
            }
        }
    }
}

void checkFeatures(const KernelSpec& spec, int dimension) {
    for (const int f : spec.features) {
        if (f < 0 || f >= dimension) {
            throw std::invalid_argument("kernel '" + spec.label() + "': feature " +
                                        std::to_string(f + 1) + " is outside 1.." +
                                        std::to_string(dimension));
        }
    }
}

Dataset::SparseMatrix sparseColumns(const Dataset& data, const std::vector<int>& features) {
    // The group's column of a feature by a sorted search (features are sorted), not a table as
    // long as the largest index.
    std::vector<Eigen::Triplet<double, int>> entries;
    for (int i = 0; i < data.size(); ++i) {
        for (Dataset::SparseMatrix::InnerIterator it(data.sparse, i); it; ++it) {
            const auto at = std::lower_bound(features.begin(), features.end(), it.col());
            if (at != features.end() && *at == it.col())
                entries.emplace_back(i, static_cast<int>(at - features.begin()), it.value());
        }
    }
    return sparseFromTriplets(data.size(), static_cast<int>(features.size()), std::move(entries));
}

Dataset::DenseMatrix denseColumns(const Dataset& data, const std::vector<int>& features) {
    Dataset::DenseMatrix columns(data.size(), static_cast<int>(features.size()));
    for (std::size_t t = 0; t < features.size(); ++t)
        columns.col(static_cast<int>(t)) = data.dense.col(features[t]);
    return columns;
}

}  // namespace cplab
