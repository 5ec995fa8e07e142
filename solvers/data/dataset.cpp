// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/dataset.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>

#include "data/data_error.h"
#include "data/test_split.h"
#include "data/text_io.h"

namespace cplab {

Dataset::Dataset(Dataset&& other) noexcept {
    *this = std::move(other);
}

Dataset& Dataset::operator=(Dataset&& other) noexcept {
    if (this == &other) return *this;
    name = std::move(other.name);
    source = std::move(other.source);
    sparseStorage = other.sparseStorage;
    sparse.swap(other.sparse);          // no move in Eigen 3.4: swapped, and the old matrix
    SparseMatrix().swap(other.sparse);  // freed now, leaving `other` empty
    dense = std::move(other.dense);
    labels = std::move(other.labels);
    featureNames = std::move(other.featureNames);
    classNames = std::move(other.classNames);
    labelName = std::move(other.labelName);
    lines = std::move(other.lines);
    featureIds = std::move(other.featureIds);
    originalDimension = other.originalDimension;
    return *this;
}

int Dataset::size() const {
    return static_cast<int>(sparseStorage ? sparse.rows() : dense.rows());
}

int Dataset::dimension() const {
    return static_cast<int>(sparseStorage ? sparse.cols() : dense.cols());
}

long long Dataset::nonZeros() const {
    if (sparseStorage) return sparse.nonZeros();
    return static_cast<long long>((dense.array() != 0.0).count());
}

double Dataset::storedBytes() const {
    double bytes = static_cast<double>(labels.size()) * sizeof(double) +
                   static_cast<double>(lines.size()) * sizeof(int) +
                   static_cast<double>(dense.size()) * sizeof(double);
    if (sparseStorage) {
        bytes += static_cast<double>(sparse.nonZeros()) *
                     (sizeof(double) + sizeof(SparseMatrix::StorageIndex)) +
                 static_cast<double>(sparse.outerSize() + 1) * sizeof(SparseMatrix::StorageIndex);
    }
    return bytes;
}

double Dataset::dot(int i, const Eigen::VectorXd& w) const {
    eigen_assert(i >= 0 && i < size() && w.size() == dimension());
    if (!sparseStorage) return dense.row(i).dot(w);
    const int* outer = sparse.outerIndexPtr();
    const int* inner = sparse.innerIndexPtr();
    const double* values = sparse.valuePtr();
    double sum = 0.0;
    for (int k = outer[i]; k < outer[i + 1]; ++k)
        sum += values[k] * w[inner[k]];
    return sum;
}

void Dataset::addRowTo(int i, double scale, Eigen::VectorXd& w) const {
    eigen_assert(i >= 0 && i < size() && w.size() == dimension());
    if (!sparseStorage) {
        w += scale * dense.row(i).transpose();
        return;
    }
    const int* outer = sparse.outerIndexPtr();
    const int* inner = sparse.innerIndexPtr();
    const double* values = sparse.valuePtr();
    for (int k = outer[i]; k < outer[i + 1]; ++k)
        w[inner[k]] += scale * values[k];
}

double Dataset::rowSquaredNorm(int i) const {
    eigen_assert(i >= 0 && i < size());
    if (!sparseStorage) return dense.row(i).squaredNorm();
    const int* outer = sparse.outerIndexPtr();
    const double* values = sparse.valuePtr();
    double sum = 0.0;
    for (int k = outer[i]; k < outer[i + 1]; ++k)
        sum += values[k] * values[k];
    return sum;
}

Eigen::VectorXd Dataset::row(int i) const {
    eigen_assert(i >= 0 && i < size());
    if (!sparseStorage) return dense.row(i).transpose();
    Eigen::VectorXd x = Eigen::VectorXd::Zero(dimension());
    addRowTo(i, 1.0, x);
    return x;
}

std::vector<double> Dataset::classes() const {
    std::vector<double> values(labels.data(), labels.data() + labels.size());
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

double Dataset::classValue(int k) const {
    if (k < 0 || k >= static_cast<int>(classNames.size())) {
        throw std::out_of_range("Dataset::classValue: no class name " + std::to_string(k));
    }
    if (classNames.size() == 2) return k == 0 ? -1.0 : 1.0;
    return static_cast<double>(k);
}

std::string Dataset::labelText(double label) const {
    for (int k = 0; k < static_cast<int>(classNames.size()); ++k) {
        if (classValue(k) == label) return classNames[static_cast<std::size_t>(k)];
    }
    return formatReal(label);
}

std::string Dataset::labelInMessage(double label) const {
    constexpr std::size_t kMax = 40;
    std::string text = labelText(label);
    if (text.size() <= kMax) return text;
    std::size_t cut = kMax - 3;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;  // not inside a UTF-8 character
    return text.substr(0, cut) + "...";
}

void Dataset::makeBinaryLabels() {
    const std::vector<double> values = classes();
    if (values.size() != 2) {
        std::string found;
        for (std::size_t k = 0; k < values.size() && k < 5; ++k) {
            found += (k ? ", " : "") + labelInMessage(values[k]);
        }
        if (values.size() > 5) found += ", ...";
        throw DataError(source, 0,
                        "binary labels need exactly 2 distinct label values; found " +
                            std::to_string(values.size()) +
                            (values.empty() ? "" : " (" + found + ")"));
    }
    if (values[0] == -1.0 && values[1] == 1.0) return;
    // Name the classes by their old texts (text labels of a 3-class file of which a subset
    // holds two classes keep their words; numbers become "0", "1", ...).
    classNames = {labelText(values[0]), labelText(values[1])};
    for (Eigen::Index i = 0; i < labels.size(); ++i)
        labels[i] = labels[i] == values[0] ? -1.0 : 1.0;
}

void Dataset::useClassesOf(const Dataset& train) {
    if (classNames.empty() && train.classNames.empty()) return;
    const std::vector<double> trainValues = train.classes();
    std::vector<std::string> known;  // the training classes as written
    for (double value : trainValues)
        known.push_back(train.labelText(value));
    std::vector<std::string> shown;
    for (std::size_t k = 0; k < std::min<std::size_t>(trainValues.size(), 10); ++k)
        shown.push_back(train.labelInMessage(trainValues[k]));
    if (known.size() > shown.size()) shown.push_back("...");
    Eigen::VectorXd mapped(labels.size());
    for (Eigen::Index i = 0; i < labels.size(); ++i) {
        const std::string text = labelText(labels[i]);
        const auto it = std::find(known.begin(), known.end(), text);
        if (it == known.end()) {
            const auto line =
                static_cast<std::size_t>(i) < lines.size() ? lines[static_cast<std::size_t>(i)] : 0;
            throw DataError(source, line,
                            (line > 0 ? "" : where(static_cast<int>(i)) + ": ") + "label " +
                                labelInMessage(labels[i]) +
                                ", which the training set does not have (it has " +
                                joined(shown, ", ") + ")");
        }
        mapped[i] = trainValues[static_cast<std::size_t>(it - known.begin())];
    }
    labels = std::move(mapped);
    classNames = train.classNames;
}

void Dataset::setDimension(int d) {
    if (d < 0) throw std::invalid_argument("Dataset::setDimension: negative dimension");
    const int old = dimension();
    if (d < old) {
        // Refuse to drop information: every removed column must be zero.
        for (int i = 0; i < size(); ++i) {
            const Eigen::VectorXd x = row(i);
            for (int j = d; j < old; ++j) {
                if (x[j] != 0.0) {
                    throw DataError(source, 0,
                                    "cannot reduce the dimension from " + std::to_string(old) +
                                        " to " + std::to_string(d) + ": feature " +
                                        std::to_string(j + 1) + " of example " +
                                        std::to_string(i + 1) + " is nonzero");
                }
            }
        }
    }
    if (sparseStorage) {
        sparse.conservativeResize(sparse.rows(), d);
        sparse.makeCompressed();
    } else {
        const Eigen::Index m = dense.rows();
        dense.conservativeResize(m, d);
        if (d > old) dense.rightCols(d - old).setZero();
    }
    if (!featureNames.empty()) featureNames.resize(static_cast<std::size_t>(d));
}

void Dataset::setSparseStorage(bool wantSparse) {
    if (wantSparse == sparseStorage) return;
    if (wantSparse) {
        sparse = dense.sparseView(0.0, 0.0);  // keeps every nonzero, drops exact zeros
        sparse.makeCompressed();
        dense.resize(0, 0);
    } else {
        dense = DenseMatrix(sparse);
        sparse = SparseMatrix();
    }
    sparseStorage = wantSparse;
}

Dataset Dataset::subset(const std::vector<int>& rows) const {
    const int m = size();
    for (int r : rows) {
        if (r < 0 || r >= m) {
            throw std::out_of_range("Dataset::subset: row " + std::to_string(r) + " outside [0, " +
                                    std::to_string(m) + ")");
        }
    }
    Dataset out;
    out.name = name;
    out.source = source;
    out.sparseStorage = sparseStorage;
    out.featureNames = featureNames;
    out.featureIds = featureIds;
    out.originalDimension = originalDimension;
    out.classNames = classNames;
    out.labelName = labelName;
    const auto count = static_cast<Eigen::Index>(rows.size());
    out.labels.resize(count);
    for (Eigen::Index k = 0; k < count; ++k)
        out.labels[k] = labels[rows[static_cast<std::size_t>(k)]];
    if (!lines.empty()) {
        out.lines.reserve(rows.size());
        for (int r : rows)
            out.lines.push_back(lines[static_cast<std::size_t>(r)]);
    }
    if (!sparseStorage) {
        out.dense = dense(rows, Eigen::all);
        return out;
    }
    // Build the compressed row storage directly: rows stay sorted and zero-free.
    const int* outer = sparse.outerIndexPtr();
    std::vector<int> newOuter(rows.size() + 1, 0);
    for (std::size_t k = 0; k < rows.size(); ++k) {
        newOuter[k + 1] = newOuter[k] + (outer[rows[k] + 1] - outer[rows[k]]);
    }
    SparseMatrix result(count, sparse.cols());
    result.resizeNonZeros(newOuter.back());
    std::copy(newOuter.begin(), newOuter.end(), result.outerIndexPtr());
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const int begin = outer[rows[k]];
        const int end = outer[rows[k] + 1];
        std::copy(sparse.innerIndexPtr() + begin, sparse.innerIndexPtr() + end,
                  result.innerIndexPtr() + newOuter[k]);
        std::copy(sparse.valuePtr() + begin, sparse.valuePtr() + end,
                  result.valuePtr() + newOuter[k]);
    }
    out.sparse = std::move(result);
    return out;
}

std::pair<Dataset, Dataset> Dataset::split(double testFraction, std::uint64_t seed) const {
    if (!(testFraction >= 0.0 && testFraction <= 1.0)) {
        throw std::invalid_argument("Dataset::split: test fraction " + formatReal(testFraction) +
                                    " outside [0, 1]");
    }
    const HeldOut held = drawHoldout(size(), testFraction, seed);
    std::pair<Dataset, Dataset> parts{subset(held.train), subset(held.test)};
    parts.first.name = name + " (train)";
    parts.second.name = name + " (test)";
    return parts;
}

int Dataset::featureNumber(int j) const {
    return (featureIds.empty() ? j : featureIds[static_cast<std::size_t>(j)]) + 1;
}

std::vector<int> Dataset::usedColumns() const {
    std::vector<int> columns;
    if (sparseStorage) {
        // From the stored indices (O(nnz log nnz)), not a flag per column: d may be 10⁸.
        const int* inner = sparse.innerIndexPtr();
        columns.assign(inner, inner + sparse.nonZeros());
        std::sort(columns.begin(), columns.end());
        columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
        columns.shrink_to_fit();
    } else {
        for (int j = 0; j < dimension(); ++j)
            if ((dense.col(j).array() != 0.0).any()) columns.push_back(j);
    }
    return columns;
}

void Dataset::selectColumns(const std::vector<int>& columns) {
    const int d = dimension();
    for (std::size_t t = 0; t < columns.size(); ++t) {
        if (columns[t] < 0 || columns[t] >= d || (t > 0 && columns[t] <= columns[t - 1])) {
            throw std::invalid_argument(
                "Dataset::selectColumns: columns must be increasing and in [0, " +
                std::to_string(d) + ")");
        }
    }
    const auto k = static_cast<int>(columns.size());
    // New column of each old one (−1: dropped); a sorted search keeps this O(nnz log k)
    // rather than O(d) when d is huge and k small.
    auto newColumn = [&columns](int j) {
        const auto it = std::lower_bound(columns.begin(), columns.end(), j);
        return it != columns.end() && *it == j ? static_cast<int>(it - columns.begin()) : -1;
    };
    if (sparseStorage) {
        const int m = size();
        const int* outer = sparse.outerIndexPtr();
        const int* inner = sparse.innerIndexPtr();
        const double* values = sparse.valuePtr();
        SparseMatrix result(m, k);
        std::vector<int> newOuter(static_cast<std::size_t>(m) + 1, 0);
        std::vector<int> newInner;
        std::vector<double> newValues;
        newInner.reserve(static_cast<std::size_t>(sparse.nonZeros()));
        newValues.reserve(static_cast<std::size_t>(sparse.nonZeros()));
        for (int i = 0; i < m; ++i) {
            for (int p = outer[i]; p < outer[i + 1]; ++p) {
                const int c = newColumn(inner[p]);
                if (c < 0) continue;
                newInner.push_back(c);
                newValues.push_back(values[p]);
            }
            newOuter[static_cast<std::size_t>(i) + 1] = static_cast<int>(newInner.size());
        }
        result.resizeNonZeros(static_cast<Eigen::Index>(newInner.size()));
        std::copy(newOuter.begin(), newOuter.end(), result.outerIndexPtr());
        std::copy(newInner.begin(), newInner.end(), result.innerIndexPtr());
        std::copy(newValues.begin(), newValues.end(), result.valuePtr());
        sparse = std::move(result);
    } else {
        DenseMatrix selected = dense(Eigen::all, columns);
        dense = std::move(selected);
    }
    std::vector<int> ids(columns.size());
    for (std::size_t t = 0; t < columns.size(); ++t)
        ids[t] = featureIds.empty() ? columns[t] : featureIds[static_cast<std::size_t>(columns[t])];
    if (!featureNames.empty()) {
        std::vector<std::string> names(columns.size());
        for (std::size_t t = 0; t < columns.size(); ++t)
            names[t] = std::move(featureNames[static_cast<std::size_t>(columns[t])]);
        featureNames = std::move(names);
    }
    if (featureIds.empty()) originalDimension = d;
    featureIds = std::move(ids);
}

Dataset::SparseMatrix sparseFromTriplets(int rows, int cols,
                                         std::vector<Eigen::Triplet<double, int>> entries) {
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
        return a.row() != b.row() ? a.row() < b.row() : a.col() < b.col();
    });
    std::vector<int> outer(static_cast<std::size_t>(rows) + 1, 0);
    std::vector<int> inner;
    std::vector<double> values;
    for (std::size_t k = 0; k < entries.size();) {
        const int r = entries[k].row();
        const int c = entries[k].col();
        if (r < 0 || r >= rows || c < 0 || c >= cols)
            throw std::invalid_argument("sparseFromTriplets: entry outside the matrix");
        double sum = 0.0;
        for (; k < entries.size() && entries[k].row() == r && entries[k].col() == c; ++k)
            sum += entries[k].value();
        if (sum == 0.0) continue;
        inner.push_back(c);
        values.push_back(sum);
        ++outer[static_cast<std::size_t>(r) + 1];
    }
    for (int i = 0; i < rows; ++i)
        outer[static_cast<std::size_t>(i) + 1] += outer[static_cast<std::size_t>(i)];
    Dataset::SparseMatrix matrix(rows, cols);
    matrix.resizeNonZeros(static_cast<Eigen::Index>(values.size()));
    std::copy(outer.begin(), outer.end(), matrix.outerIndexPtr());
    std::copy(inner.begin(), inner.end(), matrix.innerIndexPtr());
    std::copy(values.begin(), values.end(), matrix.valuePtr());
    return matrix;
}

bool compactFeatures(Dataset& train, Dataset* test, bool keepTestFeatures) {
    const int d = train.dimension();
    if (d < kCompactFrom || !train.featureIds.empty()) return false;
    if (test && test->dimension() < d) test->setDimension(d);
    std::vector<int> columns = train.usedColumns();
    if (test && keepTestFeatures) {
        std::vector<int> more = test->usedColumns();
        std::vector<int> both;
        std::set_union(columns.begin(), columns.end(), more.begin(), more.end(),
                       std::back_inserter(both));
        columns = std::move(both);
    }
    if (2 * static_cast<long long>(columns.size()) > d) return false;
    if (columns.empty()) columns.push_back(0);  // all zero: one column keeps d ≥ 1
    train.selectColumns(columns);
    if (test) {
        // Test-only features beyond the training set's columns are dropped with the rest.
        test->selectColumns(columns);
        test->originalDimension = std::max(test->originalDimension, d);
    }
    return true;
}

std::string Dataset::where(int i) const {
    if (i >= 0 && static_cast<std::size_t>(i) < lines.size()) {
        return source + ":" + std::to_string(lines[static_cast<std::size_t>(i)]);
    }
    return "example " + std::to_string(i + 1) + " of '" + name + "'";
}

namespace {

[[noreturn]] void failMagnitude(const Dataset& data, int i, const std::string& what, double v) {
    const std::size_t row = static_cast<std::size_t>(i);
    const int line = row < data.lines.size() ? data.lines[row] : 0;
    throw DataError(data.source, line,
                    (line > 0 ? std::string() : data.where(i) + ": ") + what + " is " +
                        formatReal(v) + ", beyond +-" + formatReal(kMaxMagnitude) +
                        " (its square overflows in the solvers' sums); scale the data");
}

}  // namespace

void checkMagnitudes(const Dataset& data) {
    for (int i = 0; i < data.size(); ++i) {
        if (std::abs(data.labels[i]) > kMaxMagnitude)
            failMagnitude(data, i, "the label", data.labels[i]);
    }
    if (data.sparseStorage) {
        for (int i = 0; i < data.sparse.outerSize(); ++i) {
            for (Dataset::SparseMatrix::InnerIterator it(data.sparse, i); it; ++it) {
                if (std::abs(it.value()) > kMaxMagnitude) {
                    failMagnitude(data, i,
                                  "feature " + std::to_string(data.featureNumber(it.col())),
                                  it.value());
                }
            }
        }
    } else {
        for (int i = 0; i < data.size(); ++i) {
            for (int j = 0; j < data.dimension(); ++j) {
                if (std::abs(data.dense(i, j)) > kMaxMagnitude) {
                    failMagnitude(data, i, "feature " + std::to_string(data.featureNumber(j)),
                                  data.dense(i, j));
                }
            }
        }
    }
}

std::string Dataset::contractViolation() const {
    const int m = size();
    const int d = dimension();
    if (labels.size() != m) {
        return std::to_string(labels.size()) + " labels for " + std::to_string(m) + " examples";
    }
    if (!lines.empty() && lines.size() != static_cast<std::size_t>(m)) {
        return std::to_string(lines.size()) + " line numbers for " + std::to_string(m) +
               " examples";
    }
    if (sparseStorage && dense.size() != 0)
        return "sparse storage but the dense matrix is not empty";
    if (!sparseStorage && sparse.nonZeros() != 0) {
        return "dense storage but the sparse matrix is not empty";
    }
    if (sparseStorage) {
        if (!sparse.isCompressed()) return "sparse matrix is not compressed";
        const int* outer = sparse.outerIndexPtr();
        for (int i = 0; i < m; ++i) {
            for (int k = outer[i]; k < outer[i + 1]; ++k) {
                const int j = sparse.innerIndexPtr()[k];
                const double v = sparse.valuePtr()[k];
                if (j < 0 || j >= d) return "column index out of range in row " + std::to_string(i);
                if (k > outer[i] && j <= sparse.innerIndexPtr()[k - 1]) {
                    return "column indices not increasing in row " + std::to_string(i);
                }
                if (v == 0.0) return "explicit zero stored in row " + std::to_string(i);
                if (!std::isfinite(v)) return "non-finite value in row " + std::to_string(i);
            }
        }
    } else if (!dense.allFinite()) {
        return "non-finite feature value";
    }
    if (!labels.allFinite()) return "non-finite label";
    if (!featureIds.empty()) {
        if (static_cast<int>(featureIds.size()) != d) {
            return std::to_string(featureIds.size()) + " feature ids for " + std::to_string(d) +
                   " features";
        }
        for (std::size_t t = 0; t < featureIds.size(); ++t) {
            if (featureIds[t] < 0 || featureIds[t] >= originalDimension ||
                (t > 0 && featureIds[t] <= featureIds[t - 1])) {
                return "feature ids not increasing within the original dimension";
            }
        }
    }
    if (!featureNames.empty() && static_cast<int>(featureNames.size()) != d) {
        return std::to_string(featureNames.size()) + " feature names for " + std::to_string(d) +
               " features";
    }
    return {};
}

}  // namespace cplab
