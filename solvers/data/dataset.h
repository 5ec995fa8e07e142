// SPDX-License-Identifier: GPL-3.0-or-later
// Dataset: m labelled examples in d dimensions, stored dense or sparse (rows are examples).
//
// Contract (what every loader and generator produces, and what solvers may rely on):
//   * exactly one of `sparse` / `dense` holds the features, as `sparseStorage` says; the other
//     is empty (0 × 0); a sparse matrix is always compressed, its rows' column indices sorted,
//     and it stores no explicit zeros;
//   * labels.size() == size(); every label and feature value is finite;
//   * featureNames is empty or has dimension() entries;
//   * lines is empty (examples not read from a file) or has size() entries;
//   * featureIds is empty (column j is the file's feature j + 1) or, after compactFeatures,
//     has dimension() strictly increasing entries in [0, originalDimension): column j holds
//     the file's feature featureIds[j] + 1;
//   * classNames is empty (numeric labels) or names the classes of text labels. Mapping of
//     text labels (sorted in byte order, so it does not depend on row order):
//       - exactly two classes: classNames[0] ↔ label −1, classNames[1] ↔ label +1
//         (e.g. sonar "M","R" → M = −1, R = +1), so binary classifiers get ±1 directly;
//       - otherwise: classNames[k] ↔ label k (0, 1, ..., K−1).
//     classValue(k) and labelText(label) apply this mapping; subsets keep the full list.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cplab {

struct Dataset {
    using SparseMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;
    using DenseMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

    std::string name;    // display name (file name or built-in name)
    std::string source;  // path, "builtin:<name>", or "generator:<name>?m=<m>&seed=<seed>"
    bool sparseStorage = false;
    SparseMatrix sparse;                    // m × d when sparseStorage
    DenseMatrix dense;                      // m × d otherwise
    Eigen::VectorXd labels;                 // m; ±1 for binary, class values, or targets
    std::vector<std::string> featureNames;  // from a CSV header, else empty
    std::vector<std::string> classNames;    // text of text labels; mapping in the file comment
    std::string labelName;                  // header of a CSV label column, else empty
    std::vector<int> lines;                 // 1-based line of each example in `source`, or empty
    std::vector<int> featureIds;            // see the contract; empty unless compacted
    int originalDimension = 0;              // d before compaction (0 unless compacted)
    // (A new member must be added to the move operations in dataset.cpp too.)

    // Moves take the matrices' storage over. Eigen 3.4's SparseMatrix has no move
    // operations: a defaulted move of a Dataset copied its sparse matrix, so every dataset
    // handed on by value (a loader's result assigned, a problem's make_shared) existed twice.
    Dataset() = default;
    Dataset(const Dataset&) = default;
    Dataset& operator=(const Dataset&) = default;
    Dataset(Dataset&& other) noexcept;
    Dataset& operator=(Dataset&& other) noexcept;
    ~Dataset() = default;

    // Number of examples m.
    int size() const;
    // Number of features d.
    int dimension() const;
    // Stored entries (sparse) or nonzero entries (dense).
    long long nonZeros() const;
    // Bytes the examples take: the matrix (values, indices, row starts), labels and line
    // numbers; names and the feature map are not counted.
    double storedBytes() const;

    // Row access. Preconditions: 0 ≤ i < size(), w.size() == dimension() (checked by
    // eigen_assert in debug builds).
    double dot(int i, const Eigen::VectorXd& w) const;             // ⟨x_i, w⟩
    void addRowTo(int i, double scale, Eigen::VectorXd& w) const;  // w += scale·x_i
    double rowSquaredNorm(int i) const;                            // ‖x_i‖²
    Eigen::VectorXd row(int i) const;                              // dense copy of x_i

    // The file's 1-based number of the feature in column j (j + 1 unless compacted).
    int featureNumber(int j) const;
    // The columns holding at least one nonzero, ascending.
    std::vector<int> usedColumns() const;
    // Keeps the columns `columns` (ascending, each in [0, dimension())), renumbered 0..k−1;
    // values elsewhere are dropped. featureIds records which file feature each one is, and
    // originalDimension the feature count before (compositions of selections compose).
    // Throws std::invalid_argument for columns out of range or not increasing.
    void selectColumns(const std::vector<int>& columns);

    // Where example i came from, for messages: "heart_scale:41" (source and line) when lines
    // are known, else "example 42 of 'two_blobs'" (1-based).
    std::string where(int i) const;

    // Sorted distinct label values.
    std::vector<double> classes() const;
    // The label value of class name k (see the mapping above); k in [0, classNames.size()).
    double classValue(int k) const;
    // classNames' text for `label` when it names one, else the shortest number text ("-1").
    std::string labelText(double label) const;
    // labelText for messages: a text label longer than 40 characters is cut, with "..."
    // (a 20 KB label must not make a 20 KB message).
    std::string labelInMessage(double label) const;

    // Makes the labels binary: two distinct values a < b become −1 and +1, and classNames
    // records their old texts (labelText: e.g. ripley's "0","1", or the words of text labels).
    // Labels that are already {−1, +1} are left alone. Throws DataError (file = source) when
    // the labels do not have exactly two distinct values.
    void makeBinaryLabels();

    // Gives a test (or prediction) set the label values of `train`: a label is matched by its
    // text (classNames, or the number as written) against train's classes, so that "R" means
    // what it means in the training file whatever other classes this file holds. Afterwards
    // classNames = train.classNames. Throws DataError (source, line of the example) for a
    // label train does not have. Nothing changes when neither set has text labels.
    void useClassesOf(const Dataset& train);

    // Changes d. Growing pads with zero features (e.g. a test set that lacks the training
    // set's last features); shrinking is allowed only over all-zero columns, else throws
    // DataError naming the first example with a nonzero there. featureNames, if present, are
    // padded with empty names or truncated.
    void setDimension(int d);
    // Converts between storages (no-op when already in the requested one); dense → sparse
    // drops zeros.
    void setSparseStorage(bool sparse);

    // The examples `rows` (in that order; repeats allowed), same storage and names.
    // Throws std::out_of_range for an index outside [0, size()).
    Dataset subset(const std::vector<int>& rows) const;
    // Hold-out split: round(testFraction·m) examples chosen uniformly at random (PortableRandom
    // with `seed`, so the same on every platform) form the test part, the rest the training
    // part; both keep the original order. Returns {train, test}, named "<name> (train)" and
    // "<name> (test)". Throws std::invalid_argument
    // unless 0 ≤ testFraction ≤ 1.
    std::pair<Dataset, Dataset> split(double testFraction, std::uint64_t seed) const;

    // Empty when the contract above holds, else a sentence saying what is wrong. For tests and
    // for checking hand-built datasets before a solver takes them.
    std::string contractViolation() const;
};

// A compressed sparse matrix from (row, column, value) entries in any order: duplicates are
// summed and zero results dropped, as the Dataset contract wants. O(nnz log nnz) time and
// O(nnz + rows) memory (Eigen's setFromTriplets takes O(cols), 1.2 GB for one feature 10⁸).
Dataset::SparseMatrix sparseFromTriplets(int rows, int cols,
                                         std::vector<Eigen::Triplet<double, int>> entries);

// Memory that grows with the features present, not with the largest index: when `train`'s
// largest feature index is at least kCompactFrom and at least twice the number of features
// it uses, its columns (and `test`'s, given in the same numbering with at least as many
// columns) are compacted to the used ones (selectColumns). `keepTestFeatures` also keeps the
// features only `test` uses: needed where they change the answer (a Gaussian kernel's
// distances), not for linear models, whose weights on features absent from training are 0.
// Returns whether it compacted. A two-line file with index 10⁸ then takes a 2-column problem.
inline constexpr int kCompactFrom = 1024;
bool compactFeatures(Dataset& train, Dataset* test, bool keepTestFeatures);

// Feature values and labels beyond ±kMaxMagnitude cannot be given to a solver: solvers square
// and sum them (‖x‖², kernels, risks), and 1e155² is already infinite in double precision. The
// loaders read any finite double (formats round-trip exactly); a family checks its data with
// checkMagnitudes before making a problem of it.
inline constexpr double kMaxMagnitude = 1e100;
// Throws DataError (source, the example's line, the feature and the value) for the first value
// beyond ±kMaxMagnitude; "scale the data".
void checkMagnitudes(const Dataset& data);

}  // namespace cplab
