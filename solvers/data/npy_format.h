// SPDX-License-Identifier: GPL-3.0-or-later
// NumPy .npy arrays (numpy.org/doc/stable/reference/generated/numpy.lib.format.html):
//
//   \x93NUMPY  major minor  header length (2 bytes little endian in version 1, 4 in 2 and 3)
//   header     a Python dict literal: {'descr': '<f8', 'fortran_order': False, 'shape': (m, d), }
//   data       m·d values of that type, in C (row-major) or Fortran (column-major) order
//
// The examples are a 2-D array (rows: examples, columns: features) of float32/64 or
// (u)int8–64, either byte order and either memory order. Labels: the reader option `labels`
// names a second .npy with one value per example (shape (m,), (m, 1) or (1, m)); without it
// they are the column `label_column` of the array (default −1, the last, as for CSV). Refused,
// as a DataError naming the file and what was expected: another shape, a structured, object
// (pickled), text, complex, bool or float16 array, a header that does not parse, data shorter
// or longer than the header declares (checked against the file's size before anything is
// allocated), a NaN or infinite value. The values go straight into the Dataset (array_format.h).
//
// The natural storage is dense (LoadOptions::storage = Auto).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "data/array_format.h"
#include "data/data_format.h"
#include "data/dataset.h"
#include "data/load_options.h"

namespace cplab {

// A stream of bytes an array is read from (a file, a zip entry, memory).
class ArrayByteSource {
  public:
    virtual ~ArrayByteSource() = default;
    // Up to `count` bytes into `out`; fewer only at the end. Throws DataError on a read error.
    virtual std::size_t read(char* out, std::size_t count) = 0;
};

// The header of a .npy array.
struct NpyHeader {
    Element element;
    bool fortranOrder = false;
    std::vector<long long> shape;
    std::size_t dataOffset = 0;  // bytes of magic, version and header before the data
    // rows × cols of a 2-D array, or n × 1 for a vector (`vectorOk`); DataError otherwise.
    ArrayShape matrixShape(const std::string& where, const std::string& what, bool vectorOk) const;
};

// Reads and checks the header (DataError naming `where` when it is not a numeric .npy).
NpyHeader readNpyHeader(ArrayByteSource& in, const std::string& where);
// Reads the rows·cols values of the array after its header into `sink`; DataError when the data
// end early.
void readNpyValues(ArrayByteSource& in, const NpyHeader& header, ArraySink& sink,
                   const std::string& where);

// The examples' array of a .npy stream of `available` bytes (all of it) into `data`: labels from
// its column `labelColumn` when `labelsInData`, else none yet. DataError for bytes after the data.
void readNpyExamples(ArrayByteSource& in, unsigned long long available, const std::string& where,
                     int labelColumn, bool labelsInData, Dataset& data);
// A label array of `rows` values (shape (m,), (m, 1) or (1, m)) into `labels`.
void readNpyLabels(ArrayByteSource& in, unsigned long long available, const std::string& where,
                   long long rows, Eigen::VectorXd& labels);

// Loads the .npy file at `path` (reader options: labels, label_column).
Dataset loadNpy(const std::string& path, const LoadOptions& options = {},
                const OptionValues& readerOptions = {});
// A .npy held in memory, labels in its column `labelColumn` (for fuzzing).
Dataset decodeNpy(std::string_view bytes, const std::string& sourceName, int labelColumn = -1,
                  const LoadOptions& options = {});

std::vector<OptionInfo> npyReaderOptions();
bool checkNpyReaderOptions(const OptionValues& options, std::string* why);

// The format table's sniff: 5 when the name ends in .npy or the content starts with \x93NUMPY.
int sniffNpy(const FilePrefix& prefix);

}  // namespace cplab
