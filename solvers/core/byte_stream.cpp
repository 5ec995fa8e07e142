// SPDX-License-Identifier: GPL-3.0-or-later
// The bounded binary writer and reader of byte_stream.h.
#include "byte_stream.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace cplab {

void ByteWriter::u32(std::uint32_t value) {
    for (int b = 0; b < 4; ++b)
        bytes_.push_back(static_cast<char>((value >> (8 * b)) & 0xffu));
}

void ByteWriter::u64(std::uint64_t value) {
    for (int b = 0; b < 8; ++b)
        bytes_.push_back(static_cast<char>((value >> (8 * b)) & 0xffu));
}

void ByteWriter::f64(double value) {
    u64(std::bit_cast<std::uint64_t>(value));
}

void ByteWriter::string(std::string_view text) {
    count(text.size());
    bytes_.append(text);
}

void ByteWriter::ints(const std::vector<int>& values) {
    count(values.size());
    for (int value : values)
        i32(value);
}

namespace {

// The bytes per value of packed ints whose least and largest values (with 0) are low and high.
int packedWidth(int low, int high) {
    return low < 0 || high > 0xffff ? 4 : high > 0xff ? 2 : 1;
}

}  // namespace

void ByteWriter::packedInts(const std::vector<int>& values) {
    int low = 0, high = 0;
    for (int value : values) {
        low = std::min(low, value);
        high = std::max(high, value);
    }
    const int width = packedWidth(low, high);
    u8(static_cast<std::uint8_t>(width));
    count(values.size());
    for (int value : values) {
        for (int b = 0; b < width; ++b)
            u8(static_cast<std::uint8_t>((static_cast<std::uint32_t>(value) >> (8 * b)) & 0xffu));
    }
}

void ByteWriter::doubles(const std::vector<double>& values) {
    count(values.size());
    for (double value : values)
        f64(value);
}

void ByteWriter::bytes(const std::vector<std::uint8_t>& values) {
    count(values.size());
    bytes_.append(reinterpret_cast<const char*>(values.data()), values.size());
}

void ByteWriter::strings(const std::vector<std::string>& values) {
    count(values.size());
    for (const std::string& value : values)
        string(value);
}

void ByteWriter::vector(const Eigen::VectorXd& v) {
    count(static_cast<std::size_t>(v.size()));
    for (Eigen::Index i = 0; i < v.size(); ++i)
        f64(v[i]);
}

void ByteWriter::matrix(const Eigen::MatrixXd& m) {
    count(static_cast<std::size_t>(m.rows()));
    count(static_cast<std::size_t>(m.cols()));
    for (Eigen::Index i = 0; i < m.size(); ++i)
        f64(m.data()[i]);
}

void ByteWriter::vector2(const Eigen::Vector2d& v) {
    f64(v.x());
    f64(v.y());
}

void ByteWriter::vectors(const std::vector<Eigen::VectorXd>& list) {
    count(list.size());
    for (const Eigen::VectorXd& v : list)
        vector(v);
}

void ByteWriter::points(const std::vector<Eigen::Vector2d>& list) {
    count(list.size());
    for (const Eigen::Vector2d& p : list)
        vector2(p);
}

// ---- reader ----

void ByteReader::fail(const std::string& what) {
    if (error_.empty()) error_ = what + " at byte " + std::to_string(offset_);
}

bool ByteReader::expect(bool condition, const std::string& what) {
    if (!condition) fail(what);
    return ok();
}

bool ByteReader::expectSize(std::size_t size, std::size_t expected, const char* what,
                            bool orEmpty) {
    if (size == expected || (orEmpty && size == 0)) return ok();
    fail(std::string(what) + ": " + std::to_string(size) + " entries, expected " +
         std::to_string(expected));
    return false;
}

const unsigned char* ByteReader::take(std::size_t n) {
    if (!ok()) return nullptr;
    if (n > left()) {
        error_ = "truncated at byte " + std::to_string(bytes_.size());
        offset_ = bytes_.size();
        return nullptr;
    }
    const auto* p = reinterpret_cast<const unsigned char*>(bytes_.data() + offset_);
    offset_ += n;
    return p;
}

std::uint8_t ByteReader::u8() {
    const unsigned char* p = take(1);
    return p ? *p : 0;
}

bool ByteReader::boolean() {
    const std::uint8_t value = u8();
    expect(value <= 1, "a flag of " + std::to_string(value) + " (expected 0 or 1)");
    return value == 1;
}

std::uint32_t ByteReader::u32() {
    const unsigned char* p = take(4);
    if (!p) return 0;
    std::uint32_t value = 0;
    for (int b = 3; b >= 0; --b)
        value = (value << 8) | p[b];
    return value;
}

std::uint64_t ByteReader::u64() {
    const unsigned char* p = take(8);
    if (!p) return 0;
    std::uint64_t value = 0;
    for (int b = 7; b >= 0; --b)
        value = (value << 8) | p[b];
    return value;
}

double ByteReader::f64() {
    return std::bit_cast<double>(u64());
}

std::size_t ByteReader::count(std::size_t minItemBytes) {
    const std::uint64_t n = u64();
    if (!ok()) return 0;
    if (minItemBytes == 0) minItemBytes = 1;
    if (n > left() / minItemBytes) {
        fail("a count of " + std::to_string(n) + " items of at least " +
             std::to_string(minItemBytes) + " bytes with only " + std::to_string(left()) +
             " bytes left");
        return 0;
    }
    return static_cast<std::size_t>(n);
}

std::string ByteReader::string() {
    const std::size_t n = count(1);
    const unsigned char* p = take(n);
    return p ? std::string(reinterpret_cast<const char*>(p), n) : std::string();
}

std::vector<int> ByteReader::ints() {
    std::vector<int> values(count(4));
    for (int& value : values)
        value = i32();
    return ok() ? values : std::vector<int>();
}

std::vector<int> ByteReader::packedInts() {
    const std::uint8_t width = u8();
    if (!expect(width == 1 || width == 2 || width == 4,
                "packed ints of width " + std::to_string(width)))
        return {};
    std::vector<int> values(count(width));
    int low = 0, high = 0;
    for (int& value : values) {
        std::uint32_t bits = 0;
        for (int b = 0; b < width; ++b)
            bits |= static_cast<std::uint32_t>(u8()) << (8 * b);
        value = static_cast<std::int32_t>(bits);
        low = std::min(low, value);
        high = std::max(high, value);
    }
    // One encoding per list: the writer's, the smallest width that holds the values.
    const int smallest = packedWidth(low, high);
    if (ok())
        expect(width == smallest, "packed ints of width " + std::to_string(width) + " where " +
                                      std::to_string(smallest) + " holds them");
    return ok() ? values : std::vector<int>();
}

std::vector<double> ByteReader::doubles() {
    std::vector<double> values(count(8));
    for (double& value : values)
        value = f64();
    return ok() ? values : std::vector<double>();
}

std::vector<std::uint8_t> ByteReader::bytes() {
    const std::size_t n = count(1);
    const unsigned char* p = take(n);
    return p ? std::vector<std::uint8_t>(p, p + n) : std::vector<std::uint8_t>();
}

std::vector<std::string> ByteReader::strings() {
    std::vector<std::string> values(count(8));
    for (std::string& value : values)
        value = string();
    return ok() ? values : std::vector<std::string>();
}

Eigen::VectorXd ByteReader::vector() {
    Eigen::VectorXd v(static_cast<Eigen::Index>(count(8)));
    for (Eigen::Index i = 0; i < v.size(); ++i)
        v[i] = f64();
    return ok() ? v : Eigen::VectorXd();
}

std::size_t ByteReader::matrixSize(std::size_t rows, std::size_t cols) {
    if (!ok()) return 0;
    const std::size_t cells = left() / 8;
    if (rows != 0 && cols > cells / rows) {
        fail("a " + std::to_string(rows) + " × " + std::to_string(cols) + " matrix with only " +
             std::to_string(left()) + " bytes left");
        return 0;
    }
    return rows * cols;
}

Eigen::MatrixXd ByteReader::matrix() {
    const std::size_t rows = count(1);
    const std::size_t cols = count(1);
    if (matrixSize(rows, cols) == 0 && !ok()) return {};
    Eigen::MatrixXd m(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
    for (Eigen::Index i = 0; i < m.size(); ++i)
        m.data()[i] = f64();
    return ok() ? m : Eigen::MatrixXd();
}

Eigen::Vector2d ByteReader::vector2() {
    const double x = f64();
    const double y = f64();
    return {x, y};
}

std::vector<Eigen::VectorXd> ByteReader::vectors() {
    std::vector<Eigen::VectorXd> list(count(8));
    for (Eigen::VectorXd& v : list)
        v = vector();
    return ok() ? list : std::vector<Eigen::VectorXd>();
}

std::vector<Eigen::Vector2d> ByteReader::points() {
    std::vector<Eigen::Vector2d> list(count(16));
    for (Eigen::Vector2d& p : list)
        p = vector2();
    return ok() ? list : std::vector<Eigen::Vector2d>();
}

}  // namespace cplab
