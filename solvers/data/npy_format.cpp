// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/npy_format.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <utility>

#include "data/data_error.h"

namespace cplab {

namespace {

constexpr std::string_view kMagic("\x93NUMPY", 6);
constexpr std::size_t kMaxHeaderBytes = std::size_t{1} << 20;
constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

// Reads exactly `count` bytes or throws "ended inside its header".
std::string readExactly(ArrayByteSource& in, std::size_t count, const std::string& where,
                        const char* what) {
    std::string bytes(count, '\0');
    if (in.read(bytes.data(), count) != count)
        throw DataError(where, 0, std::string("the file ends inside its ") + what);
    return bytes;
}

// A tiny reader of the header's Python literal: a dict of strings, booleans and int tuples.
class HeaderDict {
  public:
    HeaderDict(std::string_view text, const std::string& where) : text_(text), where_(where) {}

    void parse(NpyHeader& header, std::string& descr) {
        bool haveDescr = false, haveOrder = false, haveShape = false;
        expect('{');
        while (!peek('}')) {
            const std::string key = quoted();
            expect(':');
            if (key == "descr") {
                if (peek('[') || peek('('))
                    fail("a structured array (fields of several types): expected one number type");
                descr = quoted(), haveDescr = true;
            } else if (key == "fortran_order") {
                header.fortranOrder = boolean(), haveOrder = true;
            } else if (key == "shape") {
                header.shape = tuple(), haveShape = true;
            } else {
                fail("unknown header key '" + key + "'");
            }
            if (!peek('}')) expect(',');
        }
        expect('}');
        if (!haveDescr || !haveOrder || !haveShape)
            fail("the header lacks 'descr', 'fortran_order' or 'shape'");
    }

  private:
    [[noreturn]] void fail(const std::string& what) const {
        throw DataError(where_, 0, "npy header: " + what);
    }
    void skip() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
            ++pos_;
    }
    bool peek(char c) {
        skip();
        return pos_ < text_.size() && text_[pos_] == c;
    }
    void expect(char c) {
        if (!peek(c)) fail(std::string("expected '") + c + "' at byte " + std::to_string(pos_));
        ++pos_;
    }
    std::string quoted() {
        skip();
        if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"'))
            fail("expected a quoted string at byte " + std::to_string(pos_));
        const char quote = text_[pos_++];
        const std::size_t end = text_.find(quote, pos_);
        if (end == std::string_view::npos) fail("a string without its closing quote");
        std::string value(text_.substr(pos_, end - pos_));
        pos_ = end + 1;
        return value;
    }
    bool boolean() {
        skip();
        for (const auto& [word, value] : {std::pair{"True", true}, std::pair{"False", false}}) {
            if (text_.substr(pos_, std::strlen(word)) == word) {
                pos_ += std::strlen(word);
                return value;
            }
        }
        fail("fortran_order must be True or False");
    }
    std::vector<long long> tuple() {
        std::vector<long long> values;
        expect('(');
        while (!peek(')')) {
            skip();
            long long value = 0;
            bool digits = false;
            while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
                if (value > (1LL << 50)) fail("a dimension beyond 2^50");
                value = value * 10 + (text_[pos_++] - '0'), digits = true;
            }
            if (!digits)
                fail("shape: expected a non-negative integer at byte " + std::to_string(pos_));
            if (peek('L')) ++pos_;
            values.push_back(value);
            if (values.size() > 32) fail("shape: more than 32 dimensions");
            if (!peek(')')) expect(',');
        }
        expect(')');
        return values;
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    const std::string& where_;
};

// The element type of a descr such as '<f8', '>i4', '|u1'.
Element elementOfDescr(const std::string& descr, const std::string& where) {
    const auto refuse = [&](const std::string& what) -> Element {
        throw DataError(where, 0,
                        "dtype '" + descr + "' (" + what +
                            ") is not a number type cplab reads: expected float32/64 or "
                            "(u)int8-64");
    };
    if (descr.size() < 2) refuse("not a dtype");
    const char order = descr[0];
    const char kind = descr[1];
    if (kind == 'O')
        throw DataError(where, 0,
                        "an object array (dtype 'O': pickled Python objects) holds no numbers "
                        "cplab can read; save a numeric array, e.g. np.save(f, X.astype(float))");
    int bytes = 0;
    for (std::size_t k = 2; k < descr.size(); ++k) {
        if (!std::isdigit(static_cast<unsigned char>(descr[k])) || bytes > 1000) refuse("size");
        bytes = bytes * 10 + (descr[k] - '0');
    }
    if (order != '<' && order != '>' && order != '|' && order != '=') refuse("byte order");
    const char* names = kind == 'U' || kind == 'S'   ? "text"
                        : kind == 'c'                ? "complex"
                        : kind == 'b'                ? "bool"
                        : kind == 'f'                ? "float of this size"
                        : kind == 'M' || kind == 'm' ? "date or time"
                                                     : "not numeric";
    Element element;
    if (!elementOf(kind, bytes, order == '>', &element)) refuse(names);
    return element;
}

class FileReader : public ArrayByteSource {
  public:
    FileReader(const std::string& path) : path_(path), file_(std::fopen(path.c_str(), "rb")) {
        if (!file_) throw DataError(path, 0, "cannot open: " + std::string(std::strerror(errno)));
    }
    ~FileReader() override {
        if (file_) std::fclose(file_);
    }
    FileReader(const FileReader&) = delete;
    FileReader& operator=(const FileReader&) = delete;
    std::size_t read(char* out, std::size_t count) override {
        const std::size_t got = std::fread(out, 1, count, file_);
        if (got < count && std::ferror(file_)) throw DataError(path_, 0, "read error");
        return got;
    }

  private:
    std::string path_;
    std::FILE* file_;
};

class MemoryReader : public ArrayByteSource {
  public:
    explicit MemoryReader(std::string_view bytes) : bytes_(bytes) {}
    std::size_t read(char* out, std::size_t count) override {
        const std::size_t n = std::min(count, bytes_.size() - pos_);
        std::memcpy(out, bytes_.data() + pos_, n);
        pos_ += n;
        return n;
    }

  private:
    std::string_view bytes_;
    std::size_t pos_ = 0;
};

}  // namespace

NpyHeader readNpyHeader(ArrayByteSource& in, const std::string& where) {
    const std::string start = readExactly(in, 8, where, "magic and version");
    if (start.compare(0, 2, "\x1f\x8b") == 0)
        throw DataError(where, 0,
                        "a gzip-compressed .npy: decompress it first, or save the arrays with "
                        "np.savez_compressed (.npz)");
    if (start.compare(0, kMagic.size(), kMagic) != 0)
        throw DataError(where, 0, "not a NumPy .npy file: expected the magic bytes \\x93NUMPY");
    const int major = static_cast<unsigned char>(start[6]);
    if (major < 1 || major > 3)
        throw DataError(where, 0,
                        "npy format version " + std::to_string(major) + ": expected 1, 2 or 3");
    const std::size_t lengthBytes = major == 1 ? 2 : 4;
    const std::string length = readExactly(in, lengthBytes, where, "header length");
    std::size_t headerBytes = 0;
    for (std::size_t k = lengthBytes; k-- > 0;)
        headerBytes = headerBytes * 256 + static_cast<unsigned char>(length[k]);
    if (headerBytes > kMaxHeaderBytes)
        throw DataError(
            where, 0,
            "npy header of " + std::to_string(headerBytes) + " bytes: at most 1 MiB expected");
    const std::string text = readExactly(in, headerBytes, where, "header");
    NpyHeader header;
    std::string descr;
    HeaderDict(text, where).parse(header, descr);
    header.element = elementOfDescr(descr, where);
    header.dataOffset = 8 + lengthBytes + headerBytes;
    return header;
}

ArrayShape NpyHeader::matrixShape(const std::string& where, const std::string& what,
                                  bool vectorOk) const {
    std::string dims = "(";
    for (std::size_t k = 0; k < shape.size(); ++k)
        dims += (k ? ", " : "") + std::to_string(shape[k]);
    dims += shape.size() == 1 ? ",)" : ")";
    if (vectorOk && shape.size() == 1) return {shape[0], 1, fortranOrder};
    if (vectorOk && shape.size() == 2 && (shape[0] == 1 || shape[1] == 1))
        return {shape[0] * shape[1], 1, fortranOrder};
    if (shape.size() != 2)
        throw DataError(
            where, 0,
            what + " has shape " + dims +
                (vectorOk ? ": expected a vector of one label per example"
                          : ": expected a 2-D array (examples x features)" +
                                std::string(shape.size() == 1 ? "; for one feature save "
                                                                "X.reshape(-1, 1)"
                                                              : "")));
    return {shape[0], shape[1], fortranOrder};
}

void readNpyValues(ArrayByteSource& in, const NpyHeader& header, ArraySink& sink,
                   const std::string& where) {
    const std::size_t size = static_cast<std::size_t>(header.element.bytes());
    std::vector<char> chunk(kChunkBytes - kChunkBytes % size);
    while (!sink.full()) {
        const std::size_t got = in.read(chunk.data(), chunk.size());
        if (got < size) throw DataError(where, 0, "the file ends inside the array's data");
        sink.putRaw(chunk.data(), got / size, header.element);
        if (got % size || (got < chunk.size() && !sink.full()))
            throw DataError(where, 0, "the file ends inside the array's data");
    }
}

namespace {

struct NpyReadForm {
    std::string labels;
    int label_column = -1;

    void visit(OptionVisitor& v) {
        v.path("labels", labels,
               "a second .npy holding one label per example (shape (m,)); empty: the labels are "
               "the column label_column of the data");
        v.integer("label_column", label_column,
                  "without labels: the labels' column, 0-based; negative counts from the end "
                  "(-1: the last)");
    }
    bool isValid(std::string* why) const {
        return require(label_column >= -100000 && label_column <= 100000, "npy reader",
                       "label_column", label_column, "must lie in [-100000, 100000]", why);
    }
};

bool oneLabelSource(const OptionValues& options, std::string* why) {
    const auto labels = options.find("labels");
    if (!options.count("label_column") || labels == options.end() || labels->second.empty())
        return true;
    if (why) *why = "npy reader: labels and label_column both say where the labels are; give one";
    return false;
}

// An .npz entry may declare fewer bytes than the header it holds (the sizes below subtract).
void checkHeaderWithin(const NpyHeader& header, unsigned long long available,
                       const std::string& where) {
    if (available < header.dataOffset)
        throw DataError(where, 0,
                        "the array's " + std::to_string(available) + " bytes end inside its " +
                            std::to_string(header.dataOffset) + "-byte header");
}

}  // namespace

void readNpyExamples(ArrayByteSource& in, unsigned long long available, const std::string& where,
                     int labelColumn, bool labelsInData, Dataset& data) {
    const NpyHeader header = readNpyHeader(in, where);
    checkHeaderWithin(header, available, where);
    const ArrayShape shape = header.matrixShape(where, "the array", false);
    checkArrayFits(shape, header.element.bytes(), available - header.dataOffset, where,
                   "the array");
    const unsigned long long payload =
        static_cast<unsigned long long>(shape.rows) * shape.cols * header.element.bytes();
    if (available - header.dataOffset > payload)
        throw DataError(where, 0,
                        std::to_string(available - header.dataOffset - payload) +
                            " bytes after the array's data: not one .npy array");
    const int column = labelsInData ? resolveLabelColumn(labelColumn, shape.cols, where) : -1;
    ArraySink sink(data, shape, column, where);
    readNpyValues(in, header, sink, where);
}

void readNpyLabels(ArrayByteSource& in, unsigned long long available, const std::string& path,
                   long long rows, Eigen::VectorXd& labels) {
    const NpyHeader header = readNpyHeader(in, path);
    checkHeaderWithin(header, available, path);
    const ArrayShape shape = header.matrixShape(path, "the labels' array", true);
    checkLabelCount(shape.rows, rows, path, "the labels' array");
    checkArrayFits(shape, header.element.bytes(), available - header.dataOffset, path,
                   "the labels' array");
    ArraySink sink(labels, shape, path);
    readNpyValues(in, header, sink, path);
}

std::vector<OptionInfo> npyReaderOptions() {
    return describeOptions<NpyReadForm>();
}

bool checkNpyReaderOptions(const OptionValues& options, std::string* why) {
    NpyReadForm form;
    return oneLabelSource(options, why) && assignOptions(form, options, why) && form.isValid(why);
}

Dataset loadNpy(const std::string& path, const LoadOptions& options,
                const OptionValues& readerOptions) {
    NpyReadForm form;
    std::string why;
    if (!checkNpyReaderOptions(readerOptions, &why) || !assignOptions(form, readerOptions, &why))
        throw std::invalid_argument(path + ": " + why);
    const unsigned long long available = arrayFileBytes(path);
    FileReader in(path);
    Dataset data;
    readNpyExamples(in, available, path, form.label_column, form.labels.empty(), data);
    if (!form.labels.empty()) {
        std::error_code error;
        if (!std::filesystem::is_regular_file(form.labels, error))
            throw DataError(form.labels, 0, "the labels' file (reader option labels) is missing");
        FileReader labels(form.labels);
        readNpyLabels(labels, arrayFileBytes(form.labels), form.labels, data.dense.rows(),
                      data.labels);
    }
    finishArrayDataset(data, path, options, false);
    return data;
}

Dataset decodeNpy(std::string_view bytes, const std::string& sourceName, int labelColumn,
                  const LoadOptions& options) {
    MemoryReader in(bytes);
    Dataset data;
    readNpyExamples(in, bytes.size(), sourceName, labelColumn, true, data);
    finishArrayDataset(data, sourceName, options, false);
    return data;
}

int sniffNpy(const FilePrefix& prefix) {
    if (prefix.hasExtension(".npy")) return 5;
    return prefix.head.compare(0, kMagic.size(), kMagic) == 0 ? 5 : 0;
}

}  // namespace cplab
