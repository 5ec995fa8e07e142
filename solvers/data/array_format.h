// SPDX-License-Identifier: GPL-3.0-or-later
// Numeric arrays as examples: what the binary array formats share (NumPy .npy and .npz, MATLAB
// .mat, HDF5). Each of those readers finds a 2-D array of examples (rows) × features (columns)
// and a vector of labels, checks their declared sizes against the bytes the file holds before
// anything is allocated, and streams the values, in the order they are stored, straight into
// the Dataset: no second copy of the array is ever made (a float32 array of 1 GB becomes the
// Dataset's 2 GB of doubles and nothing more).
//
// Labels come from a second array (the reader options `y`, or `labels` for a single .npy) or
// from a column of the examples' array (`label_column`, 0-based, negative from the end).
// Every feature and label must be finite: a NaN or an infinity is a DataError naming the
// example (1-based row) and the feature (1-based column).
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/options.h"
#include "data/dataset.h"
#include "data/load_options.h"

namespace cplab {

// The element types the readers take: IEEE floats and two's complement integers.
enum class ElementType { F32, F64, I8, I16, I32, I64, U8, U16, U32, U64 };

struct Element {
    ElementType type = ElementType::F64;
    bool bigEndian = false;
    int bytes() const;
    const char* name() const;  // "float32", "int16", ...
};

// Shape of a stored array: rows × cols (a vector is n × 1), in row-major (C) or column-major
// (Fortran, MATLAB) order.
struct ArrayShape {
    long long rows = 0;
    long long cols = 0;
    bool columnMajor = false;
};

// Deflate expands at most 1032:1: compressed bytes (a .npz entry, a compressed .mat variable,
// an HDF5 dataset's stored chunks) that declare more than this many times their size lie.
inline constexpr unsigned long long kMaxDeflateRatio = 1032;

// Throws DataError(where, 0, ...) unless the array fits: at least one row and column, each
// below 2^31, at most kMaxDenseEntries values, and rows·cols·elementBytes ≤ availableBytes
// ("declares 270 x 14 float64 values (30240 bytes) but holds 1000: truncated or corrupt").
// `what` names the array in messages ("array 'X'").
void checkArrayFits(const ArrayShape& shape, int elementBytes, unsigned long long availableBytes,
                    const std::string& where, const std::string& what);

// Receives an array's values one by one in storage order and puts each where it belongs.
class ArraySink {
  public:
    // The examples' array: features into data.dense (allocated here: rows × (cols − 1 when a
    // label column is given)), the label column (0-based, in [0, cols); −1: none) into
    // data.labels.
    ArraySink(Dataset& data, const ArrayShape& shape, int labelColumn, std::string where);
    // A label array: its rows·cols values, in order, into `labels` (allocated here).
    ArraySink(Eigen::VectorXd& labels, const ArrayShape& shape, std::string where);

    // The next value in storage order; DataError for a NaN or an infinity.
    void put(double value) {
        if (!std::isfinite(value)) [[unlikely]]
            refuseValue(value);
        if (c_ == labelColumn_)
            labels_[r_] = value;
        else
            features_[r_ * width_ + (c_ - (labelColumn_ >= 0 && c_ > labelColumn_))] = value;
        advance();
    }
    // Decodes `count` raw elements of `element` and puts them.
    void putRaw(const char* bytes, std::size_t count, const Element& element);
    bool full() const { return done_; }

  private:
    void advance() {
        if (columnMajor_) {
            if (++r_ == rows_) r_ = 0, done_ = ++c_ == cols_;
        } else if (++c_ == cols_) {
            c_ = 0, done_ = ++r_ == rows_;
        }
    }
    [[noreturn]] void refuseValue(double value) const;

    double* features_ = nullptr;
    double* labels_ = nullptr;
    long long rows_ = 0, cols_ = 0, width_ = 0, r_ = 0, c_ = 0;
    long long labelColumn_ = -1;
    bool columnMajor_ = false;
    bool done_ = false;
    bool labelArray_ = false;
    std::string where_;
};

// The label column `labelColumn` (negative from the end) of an array of `cols` columns as an
// index in [0, cols); DataError when it lies outside or the array has no feature left.
int resolveLabelColumn(int labelColumn, long long cols, const std::string& where);

// The size of the array file at `path` in bytes, which every array reader checks declared sizes
// against before allocating, noted as an input of the run (core/output_file.h); DataError
// naming the file when it cannot be read.
unsigned long long arrayFileBytes(const std::string& path);

// Checks that a label array of `count` values matches `rows` examples (DataError naming both).
void checkLabelCount(long long count, long long rows, const std::string& where,
                     const std::string& labelsWhat);

// Finishes a Dataset read from an array file: name (the file name), source (`path`), then
// applyLoadOptions with `naturalSparse`.
void finishArrayDataset(Dataset& data, const std::string& path, const LoadOptions& options,
                        bool naturalSparse);

// The reader options of the formats holding named arrays (.npz, .mat, HDF5): `x` and `y`, the
// names (HDF5: paths) of the examples and the labels (defaults "X" and "y"; y=none: the labels
// are the column `label_column` of x, default −1, the last).
struct NamedArrays {
    std::string x = "X";
    std::string y = "y";
    int labelColumn = -1;
    bool labelsInX() const { return y.empty() || y == "none"; }
};
std::vector<OptionInfo> namedArrayOptions();
bool checkNamedArrayOptions(const OptionValues& options, std::string* why);
// The options parsed; std::invalid_argument (naming `path`) when refused.
NamedArrays namedArrays(const OptionValues& options, const std::string& path);

// The element type of a stored number of `bytes` bytes: floats of 4 or 8, signed or unsigned
// integers of 1, 2, 4 or 8; false otherwise.
bool elementOf(char kind, int bytes, bool bigEndian, Element* element);

}  // namespace cplab
