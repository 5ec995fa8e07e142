// SPDX-License-Identifier: GPL-3.0-or-later
// A small bounded binary writer and reader (little endian, doubles bit-exact) for the bytes of
// snapshots in session files (app/registry/snapshot_codec.h). The reader never trusts a count:
// before any allocation it checks the count against the bytes left, and its first failure sticks
// ("truncated at byte 1234"), so a decoder reads on and checks ok() once.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cplab {

class ByteWriter {
  public:
    void u8(std::uint8_t value) { bytes_.push_back(static_cast<char>(value)); }
    void boolean(bool value) { u8(value ? 1 : 0); }
    void u32(std::uint32_t value);
    void u64(std::uint64_t value);
    void i32(std::int32_t value) { u32(static_cast<std::uint32_t>(value)); }
    void i64(std::int64_t value) { u64(static_cast<std::uint64_t>(value)); }
    void f64(double value);  // the IEEE bits, NaN payloads and −0 included
    void count(std::size_t n) { u64(n); }
    void string(std::string_view text);
    void ints(const std::vector<int>& values);
    // Small non-negative ints (labels) in 1, 2 or 4 bytes each, by the largest of them.
    void packedInts(const std::vector<int>& values);
    void doubles(const std::vector<double>& values);
    void bytes(const std::vector<std::uint8_t>& values);
    void strings(const std::vector<std::string>& values);
    void vector(const Eigen::VectorXd& v);
    void matrix(const Eigen::MatrixXd& m);  // rows, columns, then column by column
    void vector2(const Eigen::Vector2d& v);
    void vectors(const std::vector<Eigen::VectorXd>& list);
    void points(const std::vector<Eigen::Vector2d>& list);

    const std::string& data() const { return bytes_; }
    std::string take() { return std::move(bytes_); }

  private:
    std::string bytes_;
};

class ByteReader {
  public:
    explicit ByteReader(std::string_view bytes) : bytes_(bytes) {}

    std::uint8_t u8();
    bool boolean();  // 0 or 1; any other byte fails
    std::uint32_t u32();
    std::uint64_t u64();
    std::int32_t i32() { return static_cast<std::int32_t>(u32()); }
    std::int64_t i64() { return static_cast<std::int64_t>(u64()); }
    double f64();
    // A count of items each at least `minItemBytes` long (≥ 1) that follow: fails, returning
    // 0, when the bytes left cannot hold that many (so a count of 2^40 allocates nothing).
    std::size_t count(std::size_t minItemBytes);
    std::string string();
    std::vector<int> ints();
    std::vector<int> packedInts();
    std::vector<double> doubles();
    std::vector<std::uint8_t> bytes();
    std::vector<std::string> strings();
    Eigen::VectorXd vector();
    Eigen::MatrixXd matrix();
    Eigen::Vector2d vector2();
    std::vector<Eigen::VectorXd> vectors();
    std::vector<Eigen::Vector2d> points();

    // Fails with "<what> at byte <offset>" unless `condition` (the first failure sticks).
    bool expect(bool condition, const std::string& what);
    void fail(const std::string& what);
    // Fails with "<what>: <size> entries, expected <expected>" unless they agree (or, with
    // `orEmpty`, size is 0).
    bool expectSize(std::size_t size, std::size_t expected, const char* what, bool orEmpty = false);

    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }
    std::size_t offset() const { return offset_; }
    std::size_t left() const { return bytes_.size() - offset_; }
    bool atEnd() const { return offset_ == bytes_.size(); }

  private:
    // The next n bytes, or null (and failed) when fewer are left.
    const unsigned char* take(std::size_t n);
    std::size_t matrixSize(std::size_t rows, std::size_t cols);

    std::string_view bytes_;
    std::size_t offset_ = 0;
    std::string error_;
};

}  // namespace cplab
