// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/array_format.h"

#include <bit>
#include <climits>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <type_traits>

#include "core/output_file.h"
#include "data/data_error.h"

namespace cplab {

int Element::bytes() const {
    switch (type) {
        case ElementType::I8:
        case ElementType::U8:
            return 1;
        case ElementType::I16:
        case ElementType::U16:
            return 2;
        case ElementType::F32:
        case ElementType::I32:
        case ElementType::U32:
            return 4;
        default:
            return 8;
    }
}

const char* Element::name() const {
    static const char* const names[] = {"float32", "float64", "int8",   "int16",  "int32",
                                        "int64",   "uint8",   "uint16", "uint32", "uint64"};
    return names[static_cast<int>(type)];
}

bool elementOf(char kind, int bytes, bool bigEndian, Element* element) {
    using T = ElementType;
    T type;
    if (kind == 'f' && bytes == 4)
        type = T::F32;
    else if (kind == 'f' && bytes == 8)
        type = T::F64;
    else if (kind == 'i' || kind == 'u') {
        const bool s = kind == 'i';
        switch (bytes) {
            case 1:
                type = s ? T::I8 : T::U8;
                break;
            case 2:
                type = s ? T::I16 : T::U16;
                break;
            case 4:
                type = s ? T::I32 : T::U32;
                break;
            case 8:
                type = s ? T::I64 : T::U64;
                break;
            default:
                return false;
        }
    } else {
        return false;
    }
    *element = {type, bigEndian};
    return true;
}

void checkArrayFits(const ArrayShape& shape, int elementBytes, unsigned long long availableBytes,
                    const std::string& where, const std::string& what) {
    const std::string dims = std::to_string(shape.rows) + " x " + std::to_string(shape.cols);
    if (shape.rows < 1 || shape.cols < 1)
        throw DataError(where, 0, what + " is empty (" + dims + "): no examples");
    if (shape.rows > INT_MAX || shape.cols > INT_MAX)
        throw DataError(where, 0,
                        what + " of " + dims + " values: at most " + std::to_string(INT_MAX) +
                            " rows and columns");
    // rows, cols < 2^31: the product fits in 62 bits.
    const long long values = shape.rows * shape.cols;
    if (values > kMaxDenseEntries)
        throw DataError(where, 0,
                        what + " of " + dims + " values: at most " +
                            std::to_string(kMaxDenseEntries) + " values are read");
    const unsigned long long bytes = static_cast<unsigned long long>(values) * elementBytes;
    if (bytes > availableBytes)
        throw DataError(where, 0,
                        what + " declares " + dims + " values (" + std::to_string(bytes) +
                            " bytes) but the file holds " + std::to_string(availableBytes) +
                            " bytes for them: truncated or corrupt");
}

ArraySink::ArraySink(Dataset& data, const ArrayShape& shape, int labelColumn, std::string where)
    : rows_(shape.rows),
      cols_(shape.cols),
      width_(shape.cols - (labelColumn >= 0)),
      labelColumn_(labelColumn),
      columnMajor_(shape.columnMajor),
      where_(std::move(where)) {
    data.sparseStorage = false;
    data.sparse = Dataset::SparseMatrix();
    data.dense.resize(rows_, width_);
    data.labels = Eigen::VectorXd::Zero(rows_);
    features_ = data.dense.data();
    labels_ = data.labels.data();
}

ArraySink::ArraySink(Eigen::VectorXd& labels, const ArrayShape& shape, std::string where)
    : rows_(shape.rows * shape.cols),
      cols_(1),
      width_(0),
      labelColumn_(0),
      labelArray_(true),
      where_(std::move(where)) {
    labels.resize(rows_);
    labels_ = labels.data();
}

void ArraySink::refuseValue(double value) const {
    const std::string text = std::isnan(value) ? "NaN" : value > 0 ? "+inf" : "-inf";
    if (labelArray_)
        throw DataError(where_, 0,
                        "label of example " + std::to_string(r_ + 1) + " is " + text +
                            ": expected a finite number");
    if (c_ == labelColumn_)
        throw DataError(where_, 0,
                        "label of example " + std::to_string(r_ + 1) + " (column " +
                            std::to_string(c_ + 1) + ") is " + text + ": expected a finite number");
    throw DataError(where_, 0,
                    "example " + std::to_string(r_ + 1) + ", column " + std::to_string(c_ + 1) +
                        " is " + text + ": expected a finite number");
}

namespace {

template <class T>
T load(const char* p, bool swap) {
    using U = std::conditional_t<
        sizeof(T) == 1, std::uint8_t,
        std::conditional_t<sizeof(T) == 2, std::uint16_t,
                           std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
    U bits;
    std::memcpy(&bits, p, sizeof bits);
    if constexpr (sizeof(U) == 2)
        if (swap) bits = __builtin_bswap16(bits);
    if constexpr (sizeof(U) == 4)
        if (swap) bits = __builtin_bswap32(bits);
    if constexpr (sizeof(U) == 8)
        if (swap) bits = __builtin_bswap64(bits);
    T value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

template <class T>
void putAll(ArraySink& sink, const char* bytes, std::size_t count, bool swap) {
    for (std::size_t k = 0; k < count && !sink.full(); ++k)
        sink.put(static_cast<double>(load<T>(bytes + k * sizeof(T), swap)));
}

}  // namespace

void ArraySink::putRaw(const char* bytes, std::size_t count, const Element& element) {
    const bool swap = element.bigEndian != (std::endian::native == std::endian::big);
    switch (element.type) {
        case ElementType::F32:
            putAll<float>(*this, bytes, count, swap);
            break;
        case ElementType::F64:
            putAll<double>(*this, bytes, count, swap);
            break;
        case ElementType::I8:
            putAll<std::int8_t>(*this, bytes, count, swap);
            break;
        case ElementType::I16:
            putAll<std::int16_t>(*this, bytes, count, swap);
            break;
        case ElementType::I32:
            putAll<std::int32_t>(*this, bytes, count, swap);
            break;
        case ElementType::I64:
            putAll<std::int64_t>(*this, bytes, count, swap);
            break;
        case ElementType::U8:
            putAll<std::uint8_t>(*this, bytes, count, swap);
            break;
        case ElementType::U16:
            putAll<std::uint16_t>(*this, bytes, count, swap);
            break;
        case ElementType::U32:
            putAll<std::uint32_t>(*this, bytes, count, swap);
            break;
        case ElementType::U64:
            putAll<std::uint64_t>(*this, bytes, count, swap);
            break;
    }
}

int resolveLabelColumn(int labelColumn, long long cols, const std::string& where) {
    const long long column = labelColumn < 0 ? cols + labelColumn : labelColumn;
    if (column < 0 || column >= cols)
        throw DataError(where, 0,
                        "label_column " + std::to_string(labelColumn) + " lies outside the " +
                            std::to_string(cols) + " columns of the examples");
    if (cols < 2)
        throw DataError(where, 0,
                        "a single column cannot hold both features and labels; give the labels "
                        "in a second array");
    return static_cast<int>(column);
}

unsigned long long arrayFileBytes(const std::string& path) {
    std::error_code error;
    const unsigned long long bytes = std::filesystem::file_size(path, error);
    if (error) throw DataError(path, 0, "cannot read: " + error.message());
    noteInputFile(path);  // no output of the run may replace it (a .npy's labels= file too)
    return bytes;
}

void checkLabelCount(long long count, long long rows, const std::string& where,
                     const std::string& labelsWhat) {
    if (count != rows)
        throw DataError(where, 0,
                        labelsWhat + " holds " + std::to_string(count) + " labels for " +
                            std::to_string(rows) + " examples: expected one label per row");
}

void finishArrayDataset(Dataset& data, const std::string& path, const LoadOptions& options,
                        bool naturalSparse) {
    data.name = std::filesystem::path(path).filename().string();
    data.source = path;
    applyLoadOptions(data, options, naturalSparse);
}

namespace {

struct NamedArrayForm {
    std::string x = "X";
    std::string y = "y";
    int label_column = -1;

    void visit(OptionVisitor& v) {
        v.text("x", x, "name of the examples' array (rows: examples, columns: features)");
        v.text("y", y,
               "name of the labels' array (one per example); none: the labels are the column "
               "label_column of x");
        v.integer("label_column", label_column,
                  "with y=none: the labels' column of x, 0-based; negative counts from the end");
    }
    bool isValid(std::string* why) const {
        return requireText(!x.empty(), "array reader", "x", x, "must name an array", why) &&
               require(label_column >= -100000 && label_column <= 100000, "array reader",
                       "label_column", label_column, "must lie in [-100000, 100000]", why);
    }
};

bool labelColumnWithY(const OptionValues& options, std::string* why) {
    const auto y = options.find("y");
    const std::string labels = y == options.end() ? "y" : y->second;
    if (!options.count("label_column") || labels.empty() || labels == "none") return true;
    if (why)
        *why = "array reader: label_column picks the labels out of x; it needs y=none (y = '" +
               labels + "' names the labels' array)";
    return false;
}

}  // namespace

std::vector<OptionInfo> namedArrayOptions() {
    return describeOptions<NamedArrayForm>();
}

bool checkNamedArrayOptions(const OptionValues& options, std::string* why) {
    NamedArrayForm form;
    return labelColumnWithY(options, why) && assignOptions(form, options, why) && form.isValid(why);
}

NamedArrays namedArrays(const OptionValues& options, const std::string& path) {
    std::string why;
    if (!checkNamedArrayOptions(options, &why)) throw std::invalid_argument(path + ": " + why);
    NamedArrayForm form;
    assignOptions(form, options, &why);
    return {form.x, form.y, form.label_column};
}

}  // namespace cplab
