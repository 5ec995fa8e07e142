// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/mat_format.h"

#include <matio.h>
#include <zlib.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "data/array_format.h"
#include "data/child_read.h"
#include "data/data_error.h"
#include "data/hdf5_format.h"

namespace cplab {

namespace {

struct MatCloser {
    void operator()(mat_t* mat) const { Mat_Close(mat); }
};
struct VarFree {
    void operator()(matvar_t* var) const { Mat_VarFree(var); }
};
using MatFile = std::unique_ptr<mat_t, MatCloser>;
using MatVar = std::unique_ptr<matvar_t, VarFree>;

// matio reports through a log function: its last message goes into the DataError.
thread_local std::string lastMatioMessage;

void keepMatioMessage(int, char* message) {
    lastMatioMessage = message ? message : "";
}

// matio's last message for a DataError: one line (an HDF5 error stack of a 7.3 file becomes its
// last "minor:" reason, "File has been truncated").
std::string matioSays() {
    std::string message = std::move(lastMatioMessage);
    lastMatioMessage.clear();
    if (const auto minor = message.rfind("minor:"); minor != std::string::npos)
        message = message.substr(minor + 6);
    message = message.substr(0, message.find('\n'));
    const auto first = message.find_first_not_of(' ');
    if (first == std::string::npos) return "";
    return " (matio: " + message.substr(first) + ")";
}

// matio's numeric classes, the storage type of each and the element it holds in memory
// (native byte order).
struct MatNumeric {
    matio_classes matClass;
    matio_types type;
    char kind;
    int bytes;
};
constexpr MatNumeric kMatNumerics[] = {
    {MAT_C_DOUBLE, MAT_T_DOUBLE, 'f', 8}, {MAT_C_SINGLE, MAT_T_SINGLE, 'f', 4},
    {MAT_C_INT8, MAT_T_INT8, 'i', 1},     {MAT_C_UINT8, MAT_T_UINT8, 'u', 1},
    {MAT_C_INT16, MAT_T_INT16, 'i', 2},   {MAT_C_UINT16, MAT_T_UINT16, 'u', 2},
    {MAT_C_INT32, MAT_T_INT32, 'i', 4},   {MAT_C_UINT32, MAT_T_UINT32, 'u', 4},
    {MAT_C_INT64, MAT_T_INT64, 'i', 8},   {MAT_C_UINT64, MAT_T_UINT64, 'u', 8}};

bool elementOfNumeric(const MatNumeric& numeric, Element* element) {
    return elementOf(numeric.kind, numeric.bytes, std::endian::native == std::endian::big, element);
}

// The element type of matio's storage type (what Mat_VarRead leaves in memory, native order).
bool elementOfMatType(matio_types type, Element* element) {
    for (const MatNumeric& numeric : kMatNumerics)
        if (numeric.type == type) return elementOfNumeric(numeric, element);
    return false;
}

// The element type matio hands out for a dense variable of class `matClass`.
bool elementOfClass(matio_classes matClass, Element* element) {
    for (const MatNumeric& numeric : kMatNumerics)
        if (numeric.matClass == matClass) return elementOfNumeric(numeric, element);
    return false;
}

std::string variableNames(mat_t* mat) {
    size_t count = 0;
    char** names = Mat_GetDir(mat, &count);
    std::string list;
    for (size_t k = 0; names && k < count && k < 20; ++k)
        list += (list.empty() ? "" : ", ") + std::string(names[k] ? names[k] : "?");
    if (count > 20) list += ", ...";
    return list.empty() ? "none" : list;
}

const char* className(matio_classes type) {
    switch (type) {
        case MAT_C_CELL:
            return "a cell array";
        case MAT_C_STRUCT:
            return "a struct";
        case MAT_C_OBJECT:
            return "an object";
        case MAT_C_CHAR:
            return "text (char)";
        case MAT_C_FUNCTION:
            return "a function handle";
        case MAT_C_OPAQUE:
            return "an opaque object";
        case MAT_C_EMPTY:
            return "empty";
        default:
            return "not numeric";
    }
}

// The header of the variable `name`, its shape, class and size checked.
MatVar variableInfo(mat_t* mat, const std::string& name, const std::string& path,
                    const char* option, unsigned long long fileBytes, bool vector) {
    const std::string what = "variable '" + name + "'";
    MatVar info(Mat_VarReadInfo(mat, name.c_str()));
    if (!info && !lastMatioMessage.empty())
        throw DataError(path, 0, "cannot read " + what + ": truncated or corrupt" + matioSays());
    if (const std::string names = info ? "" : variableNames(mat); names == "none")
        throw DataError(path, 0,
                        "no variable '" + name +
                            "': the file holds none (empty, or truncated or corrupt)" +
                            matioSays());
    else if (!info)
        throw DataError(path, 0,
                        "no variable '" + name + "' (it holds: " + names +
                            "); choose with --data-set " + option + "=NAME" + matioSays());
    if (info->class_type < MAT_C_SPARSE || info->class_type > MAT_C_UINT64)
        throw DataError(
            path, 0, what + " is " + className(info->class_type) + ": expected a numeric matrix");
    if (info->isComplex) throw DataError(path, 0, what + " is complex: expected real numbers");
    if (info->rank != 2)
        throw DataError(
            path, 0,
            what + " has " + std::to_string(info->rank) + " dimensions: expected a matrix");
    ArrayShape shape{static_cast<long long>(info->dims[0]), static_cast<long long>(info->dims[1]),
                     true};
    if (vector && shape.rows != 1 && shape.cols != 1)
        throw DataError(path, 0,
                        what + " is " + std::to_string(shape.rows) + " x " +
                            std::to_string(shape.cols) +
                            ": expected a vector of one label per example");
    if (vector && info->class_type == MAT_C_SPARSE)
        throw DataError(path, 0, what + " is sparse: expected a dense vector of labels");
    if (info->class_type != MAT_C_SPARSE) {
        const bool packed =
            info->compression != MAT_COMPRESSION_NONE || Mat_GetVersion(mat) == MAT_FT_MAT73;
        checkArrayFits(shape, info->data_size > 0 ? info->data_size : 1,
                       packed ? fileBytes * kMaxDeflateRatio : fileBytes, path, what);
    }
    return info;
}

// The variable `name` read whole (matio's copy of its data).
MatVar readVariable(mat_t* mat, const std::string& name, const std::string& path) {
    MatVar var(Mat_VarRead(mat, name.c_str()));
    if (!var || !var->data)
        throw DataError(path, 0,
                        "cannot read variable '" + name + "': truncated or corrupt" + matioSays());
    return var;
}

// A dense variable of a level 7.3 file (HDF5 inside: matio reads a block of columns as a
// hyperslab) is streamed a block of columns at a time into the sink: no copy of the whole matrix
// is made. False for level 5, which matio reads whole (a compressed variable would be inflated
// from its start for every block, and matio 1.5.23 reads the blocks of an uncompressed one from
// the wrong place).
bool streamDense(mat_t* mat, matvar_t* info, ArraySink& sink, const std::string& path) {
    Element element;
    if (info->class_type == MAT_C_SPARSE || !elementOfClass(info->class_type, &element) ||
        Mat_GetVersion(mat) != MAT_FT_MAT73)
        return false;
    const std::size_t rows = info->dims[0], cols = info->dims[1];
    // An empty variable has no block to read into (matio then passed libhdf5 a null buffer:
    // a segmentation fault), and matio counts in int.
    if (rows == 0 || cols == 0 || rows > INT_MAX || cols > INT_MAX)
        throw DataError(path, 0,
                        std::string("variable '") + info->name + "' is " + std::to_string(rows) +
                            " x " + std::to_string(cols) + ": expected examples as rows");
    const std::string file = Mat_GetFilename(mat);  // `path` names the variable too
    checkHdf5Storage(file, info->name, std::string("variable '") + info->name + "'",
                     arrayFileBytes(file));
    const std::size_t columnBytes = rows * static_cast<std::size_t>(element.bytes());
    const std::size_t perBlock = std::max<std::size_t>(1, (std::size_t{1} << 20) / columnBytes);
    std::vector<char> block(std::min(cols, perBlock) * columnBytes);
    for (std::size_t first = 0; first < cols; first += perBlock) {
        const std::size_t count = std::min(perBlock, cols - first);
        int start[2] = {0, static_cast<int>(first)};
        int stride[2] = {1, 1};
        int edge[2] = {static_cast<int>(rows), static_cast<int>(count)};
        if (Mat_VarReadData(mat, info, block.data(), start, stride, edge) != 0)
            throw DataError(path, 0,
                            std::string("cannot read variable '") + info->name +
                                "': truncated or corrupt" + matioSays());
        sink.putRaw(block.data(), rows * count, element);
    }
    return true;
}

// A dense numeric matrix into the sink (column-major).
void putDense(const matvar_t& var, ArraySink& sink, const std::string& path) {
    Element element;
    if (!elementOfMatType(var.data_type, &element))
        throw DataError(path, 0,
                        std::string("variable '") + var.name + "': unexpected storage type");
    const std::size_t count = var.dims[0] * var.dims[1];
    if (var.nbytes < count * static_cast<std::size_t>(element.bytes()))
        throw DataError(path, 0, std::string("variable '") + var.name + "' holds too few values");
    sink.putRaw(static_cast<const char*>(var.data), count, element);
    if (!sink.full())
        throw DataError(path, 0, std::string("variable '") + var.name + "' holds too few values");
}

// A sparse matrix (compressed columns) as the Dataset's row-major sparse matrix: nonzeros only.
void putSparse(const matvar_t& var, Dataset& data, const std::string& path) {
    const std::string what = std::string("sparse variable '") + var.name + "'";
    const auto* s = static_cast<const mat_sparse_t*>(var.data);
    const long long rows = static_cast<long long>(var.dims[0]);
    const long long cols = static_cast<long long>(var.dims[1]);
    if (rows < 1 || cols < 1 || rows > INT_MAX || cols > INT_MAX)
        throw DataError(path, 0,
                        what + " is " + std::to_string(rows) + " x " + std::to_string(cols) +
                            ": expected at least one row and column, fewer than 2^31");
    if (!s || !s->jc || s->njc != cols + 1 || s->jc[0] != 0 || s->jc[cols] > s->nir ||
        s->jc[cols] > s->ndata || (s->nir && !s->ir) || (s->jc[cols] > 0 && !s->data) ||
        (var.data_type != MAT_T_DOUBLE && var.data_type != MAT_T_UINT8))
        throw DataError(path, 0, what + ": inconsistent column starts or values");
    // Column starts that never decrease keep every index below within jc[cols] (checked
    // against the stored row indices and values above) before any is used.
    for (long long j = 0; j < cols; ++j)
        if (s->jc[j + 1] < s->jc[j])
            throw DataError(path, 0,
                            what + ": column starts decrease at column " + std::to_string(j + 1));
    // MATLAB's sparse matrices are double or logical.
    std::vector<double> values(s->jc[cols]);
    for (std::size_t k = 0; k < values.size(); ++k) {
        values[k] = var.data_type == MAT_T_DOUBLE ? static_cast<const double*>(s->data)[k]
                                                  : static_cast<const mat_uint8_t*>(s->data)[k];
        if (!std::isfinite(values[k]))
            throw DataError(path, 0,
                            what + ": value " + std::to_string(k + 1) +
                                " is not finite: expected finite numbers");
    }
    std::vector<int> starts(rows + 1, 0);
    for (long long j = 0; j < cols; ++j) {
        for (auto k = s->jc[j]; k < s->jc[j + 1]; ++k) {
            if (s->ir[k] >= rows || (k > s->jc[j] && s->ir[k] <= s->ir[k - 1]))
                throw DataError(path, 0,
                                what +
                                    ": row indices out of range or not increasing in "
                                    "column " +
                                    std::to_string(j + 1));
            if (values[k] != 0.0) ++starts[s->ir[k] + 1];
        }
    }
    for (long long i = 0; i < rows; ++i)
        starts[i + 1] += starts[i];
    Dataset::SparseMatrix matrix(rows, cols);
    matrix.resizeNonZeros(starts[rows]);
    std::copy(starts.begin(), starts.end(), matrix.outerIndexPtr());
    for (long long j = 0; j < cols; ++j)
        for (auto k = s->jc[j]; k < s->jc[j + 1]; ++k) {
            if (values[k] == 0.0) continue;
            const int at = starts[s->ir[k]]++;
            matrix.innerIndexPtr()[at] = static_cast<int>(j);
            matrix.valuePtr()[at] = values[k];
        }
    data.sparseStorage = true;
    data.sparse = std::move(matrix);
    data.dense = Dataset::DenseMatrix();
    data.labels = Eigen::VectorXd::Zero(rows);
}

Dataset readMat(mat_t* mat, const std::string& path, const NamedArrays& names,
                unsigned long long fileBytes) {
    Dataset data;
    const MatVar x = variableInfo(mat, names.x, path, "x", fileBytes, false);
    const std::string where = path + " (variable '" + names.x + "')";
    if (x->class_type == MAT_C_SPARSE) {
        if (names.labelsInX())
            throw DataError(path, 0,
                            "the labels cannot be a column of the sparse variable '" + names.x +
                                "': give them as y=NAME");
        // The labels' count first: a sparse x's rows take memory whatever its nonzeros (a
        // 360-byte file declared 67 million rows, 1.3 GB, for 3 labels), and y holds one each.
        const MatVar y = variableInfo(mat, names.y, path, "y", fileBytes, true);
        checkLabelCount(static_cast<long long>(y->dims[0] * y->dims[1]),
                        static_cast<long long>(x->dims[0]), path, "variable '" + names.y + "'");
        putSparse(*readVariable(mat, names.x, path), data, where);
    } else {
        const ArrayShape shape{static_cast<long long>(x->dims[0]),
                               static_cast<long long>(x->dims[1]), true};
        const int column =
            names.labelsInX() ? resolveLabelColumn(names.labelColumn, shape.cols, where) : -1;
        ArraySink sink(data, shape, column, where);
        if (!streamDense(mat, x.get(), sink, where))
            putDense(*readVariable(mat, names.x, path), sink, where);
    }
    if (!names.labelsInX()) {
        variableInfo(mat, names.y, path, "y", fileBytes, true);
        const MatVar y = readVariable(mat, names.y, path);
        const long long count = static_cast<long long>(y->dims[0] * y->dims[1]);
        checkLabelCount(count, data.sparseStorage ? data.sparse.rows() : data.dense.rows(), path,
                        "variable '" + names.y + "'");
        ArraySink sink(data.labels, {count, 1, true}, path + " (variable '" + names.y + "')");
        putDense(*y, sink, path);
    }
    return data;
}

// A level 5 file's layout, checked before matio reads it: matio allocates what a variable's
// tags declare (a dimensions subelement of 2^32 bytes in a 286-byte file made it ask for 8 GB,
// a fuzz_array_files finding). Every top-level element must fit in the file, and each
// variable's (inflated first, for a compressed one) array flags, dimensions (at most 32) and
// name must fit in the variable. A level 7.3 file (HDF5) is left to libhdf5.
std::string formatCount(double n) {
    char text[32];
    std::snprintf(text, sizeof text, "%.0f", n);
    return text;
}

class Level5Layout {
  public:
    Level5Layout(const std::string& path, std::uint64_t fileBytes)
        : in_(path, std::ios::binary), path_(path), fileBytes_(fileBytes) {}

    void check() {
        header_ = read(0, 128);
        // matio also reads level 4 files, which have no header: a 28-byte file read as one
        // asked for 1.9 GB. Only levels 5 and 7.3 are read.
        const bool marked =
            header_.size() == 128 && ((header_[126] == 'I' && header_[127] == 'M') || swapped());
        if (!marked || (version() != 0x0100 && version() != 0x0200))
            throw DataError(path_, 0,
                            "not a MATLAB level 5 or 7.3 .mat file (no 128-byte header ending "
                            "in version 0x0100 or 0x0200 and IM; save with -v7 or -v7.3)");
        if (version() != 0x0100) return;
        std::uint64_t at = 128;
        while (at + 8 <= fileBytes_) {
            const auto [type, size, small] = tag(read(at, 8), 0);
            if (small) {
                at += 8;
                continue;
            }
            if (size > fileBytes_ - at - 8)
                refuse("a variable at byte " + std::to_string(at) + " declares " +
                       std::to_string(size) +
                       " bytes, beyond the file's end (truncated or corrupt)");
            if (type == kMatrix) {
                checkMatrix(read(at, std::min<std::uint64_t>(8 + size, kHead)), at);
                checkParts(at, size);
            }
            if (type == kCompressed)
                checkMatrix(inflatedHead(read(at + 8, std::min<std::uint64_t>(size, 1u << 16))),
                            at);
            at += 8 + size;
            if (type != kCompressed) at = (at + 7) / 8 * 8;
        }
    }

  private:
    static constexpr std::uint32_t kInt32 = 5, kMatrix = 14, kCompressed = 15;
    static constexpr std::uint32_t kMaxDimensions = 32;
    // A matrix's tag, array flags, dimensions and a name of up to 64 bytes.
    static constexpr std::uint64_t kHead = 8 + 16 + 8 + 4 * kMaxDimensions + 8 + 64;

    struct Tag {
        std::uint32_t type;
        std::uint64_t size;
        bool small;  // type and size in the first 4 bytes, data in the next 4
    };

    std::string read(std::uint64_t at, std::uint64_t n) {
        std::string out(n, '\0');
        in_.clear();
        in_.seekg(static_cast<std::streamoff>(at));
        in_.read(out.data(), static_cast<std::streamsize>(n));
        out.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in_.gcount())));
        return out;
    }
    std::uint16_t version() const {
        std::uint16_t v;
        std::memcpy(&v, header_.data() + 124, 2);
        return swapped() ? static_cast<std::uint16_t>((v >> 8) | (v << 8)) : v;
    }
    bool swapped() const { return header_[126] == 'M' && header_[127] == 'I'; }
    std::uint32_t word(const std::string& b, std::uint64_t at) const {
        std::uint32_t w = 0;
        if (at + 4 <= b.size()) std::memcpy(&w, b.data() + at, 4);
        return swapped() ? __builtin_bswap32(w) : w;
    }
    Tag tag(const std::string& b, std::uint64_t at) const {
        const std::uint32_t first = word(b, at);
        if (first >> 16) return {first & 0xffff, first >> 16, true};
        return {first, word(b, at + 4), false};
    }
    // The first bytes of a compressed variable, inflated: its matrix tag, flags, dimensions and
    // name.
    static std::string inflatedHead(std::string compressed) {
        std::string out(kHead, '\0');
        z_stream z{};
        if (inflateInit(&z) != Z_OK) return {};
        z.next_in = reinterpret_cast<Bytef*>(compressed.data());
        z.avail_in = static_cast<uInt>(compressed.size());
        z.next_out = reinterpret_cast<Bytef*>(out.data());
        z.avail_out = static_cast<uInt>(out.size());
        const int status = inflate(&z, Z_SYNC_FLUSH);
        out.resize(out.size() - z.avail_out);
        inflateEnd(&z);
        if (status != Z_OK && status != Z_STREAM_END) return {};  // matio says what is wrong
        return out;
    }
    // Every part of the (uncompressed) matrix element at `at` of `size` bytes within it: matio
    // allocates what a part declares (its data, a sparse matrix's row and column indices).
    void checkParts(std::uint64_t at, std::uint64_t size) {
        const std::uint64_t end = at + 8 + size;
        for (std::uint64_t part = at + 8; part + 8 <= end;) {
            const auto [type, bytes, small] = tag(read(part, 8), 0);
            if (small) {
                part += 8;
                continue;
            }
            if (bytes > end - part - 8)
                refuse("a part of the variable at byte " + std::to_string(at) + " declares " +
                       std::to_string(bytes) + " bytes, beyond the variable's " +
                       std::to_string(size) + " (truncated or corrupt)");
            part += 8 + (bytes + 7) / 8 * 8;
        }
    }
    // A matrix element's head (tag included): flags, then dimensions and name within its size.
    void checkMatrix(const std::string& m, std::uint64_t at) const {
        if (m.size() < 8 + 16 + 8) return;  // too short to hold them: matio refuses it
        const auto [type, size, small] = tag(m, 0);
        if (type != kMatrix || small) return;
        const std::uint64_t dims = 8 + 16;
        const auto [dimsType, dimsSize, dimsSmall] = tag(m, dims);
        if (dimsSmall) return;
        const std::string where = "the variable at byte " + std::to_string(at);
        if (dimsType != kInt32 || dimsSize > 4 * kMaxDimensions || dimsSize > size)
            refuse(where + " declares " + std::to_string(dimsSize) +
                   " bytes of dimensions (at most " + std::to_string(kMaxDimensions) +
                   " 32-bit dimensions within its " + std::to_string(size) + " bytes)");
        // A cell array, struct or object holds a matrix of at least 8 bytes per element: matio
        // allocates a pointer for each element it declares (a 240-byte file declared 1.9
        // billion cells: 15 GB and 8 s).
        const std::uint32_t arrayClass = word(m, 16) & 0xff;
        if (arrayClass >= 1 && arrayClass <= 3 && 32 + dimsSize <= m.size()) {
            double elements = 1;
            for (std::uint64_t k = 0; k + 4 <= dimsSize; k += 4)
                elements *= word(m, 32 + k);
            if (elements > static_cast<double>(size) / 8)
                refuse(where + " declares " + formatCount(elements) + " cells or fields in its " +
                       std::to_string(size) + " bytes");
        }
        const std::uint64_t name = dims + 8 + (dimsSize + 7) / 8 * 8;
        if (name + 8 > m.size()) return;
        const auto [nameType, nameSize, nameSmall] = tag(m, name);
        if (!nameSmall && nameSize > size)
            refuse(where + " declares a name of " + std::to_string(nameSize) +
                   " bytes, beyond its " + std::to_string(size) + " bytes");
    }
    [[noreturn]] void refuse(const std::string& what) const {
        throw DataError(path_, 0, "not a readable MATLAB level 5 file: " + what);
    }

    std::ifstream in_;
    std::string path_;
    std::uint64_t fileBytes_;
    std::string header_;
};

}  // namespace

Dataset loadMat(const std::string& path, const LoadOptions& options,
                const OptionValues& readerOptions) {
    const NamedArrays names = namedArrays(readerOptions, path);
    const unsigned long long fileBytes = arrayFileBytes(path);
    Dataset data;
    {
        const std::lock_guard<std::mutex> lock(hdf5Mutex());
        Level5Layout(path, fileBytes).check();
        // matio (and libhdf5 under it for level 7.3) is not hardened against corrupt files:
        // it reads them in a child process.
        data = readInChildProcess(path, fileBytes, "matio", [&] {
            static const int logging = Mat_LogInitFunc("cplab", &keepMatioMessage);
            (void)logging;
            lastMatioMessage.clear();
            MatFile mat(Mat_Open(path.c_str(), MAT_ACC_RDONLY));
            if (!mat)
                throw DataError(
                    path, 0,
                    "not a MATLAB .mat file matio can read (levels 5 and 7.3)" + matioSays());
            return readMat(mat.get(), path, names, fileBytes);
        });
    }
    finishArrayDataset(data, path, options, data.sparseStorage);
    return data;
}

int sniffMat(const FilePrefix& prefix) {
    if (prefix.hasExtension(".mat")) return 5;
    const std::string& head = prefix.head;
    return head.rfind("MATLAB 5.0 MAT-file", 0) == 0 || head.rfind("MATLAB 7.3 MAT-file", 0) == 0
               ? 5
               : 0;
}

}  // namespace cplab
