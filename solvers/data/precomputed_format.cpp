// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/precomputed_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <vector>

#include "data/data_error.h"
#include "data/text_io.h"

namespace cplab {

namespace {

constexpr const char* kExpected = "expected '<label> 0:<serial> 1:K(x,x1) ... m:K(x,xm)'";

std::string_view withoutComment(std::string_view line) {
    const std::size_t hash = line.find('#');
    return hash == std::string_view::npos ? line : line.substr(0, hash);
}

// "<index>:<value>" split at the colon; false when there is none.
bool splitPair(std::string_view token, std::string_view& index, std::string_view& value) {
    const std::size_t colon = token.find(':');
    if (colon == std::string_view::npos) return false;
    index = token.substr(0, colon);
    value = token.substr(colon + 1);
    return true;
}

bool parseIndex(std::string_view text, long long& out) {
    if (text.empty() || text.front() == '+' || text.front() == '-') return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
}

// What a kernel matrix K (m × m, row by row) must satisfy and costs O(m²) at most to check:
// K(i, i) = ‖φ(xᵢ)‖² ≥ 0, and |K(i, j)|² ≤ K(i, i)·K(j, j) (Cauchy–Schwarz in feature space;
// every 2 × 2 principal minor of a positive semidefinite matrix is ≥ 0). Symmetry is checked
// where the kernel is used (KernelSet). A violation is a DataError at the line of row i: a
// matrix that is not a kernel makes the SVM dual non-convex, and solvers would "converge" on
// nonsense. The bound allows a relative 1e-3, for values printed with as few as 4 digits.
void checkKernelEntries(const std::vector<double>& values, int m, const std::vector<int>& lines,
                        const std::string& path) {
    const auto at = [&](int i, int j) {
        return values[static_cast<std::size_t>(i) * static_cast<std::size_t>(m) +
                      static_cast<std::size_t>(j)];
    };
    const auto entry = [](int i, int j) {
        return "K(" + std::to_string(i + 1) + ", " + std::to_string(j + 1) + ")";
    };
    double largest = 0.0;  // the largest diagonal entry: the scale of rounding in the file
    for (int i = 0; i < m; ++i)
        largest = std::max(largest, at(i, i));
    std::vector<double> norms(static_cast<std::size_t>(m));  // sqrt(K(i, i))
    for (int i = 0; i < m; ++i) {
        if (at(i, i) < -1e-12 * largest) {
            throw DataError(path, lines[static_cast<std::size_t>(i)],
                            entry(i, i) + " = " + formatReal(at(i, i)) +
                                " is negative: not a kernel matrix (its diagonal holds "
                                "K(x, x) = ||phi(x)||^2 >= 0)");
        }
        norms[static_cast<std::size_t>(i)] = std::sqrt(std::max(at(i, i), 0.0));
    }
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < m; ++j) {
            const double bound =
                norms[static_cast<std::size_t>(i)] * norms[static_cast<std::size_t>(j)];
            const double kij = at(i, j);
            if (std::abs(kij) > bound * (1 + 1e-3) + 1e-12 * largest) {
                throw DataError(
                    path, lines[static_cast<std::size_t>(i)],
                    "|" + entry(i, j) + "| = " + formatReal(std::abs(kij)) + " exceeds sqrt(" +
                        entry(i, i) + " * " + entry(j, j) + ") = " + formatReal(bound) +
                        ": not a kernel matrix (a kernel has |K(i, j)|^2 <= K(i, i) K(j, j))");
            }
        }
    }
}

}  // namespace

namespace {

// The sniffing rule of looksLikePrecomputedKernel on the first bytes of a file (`whole`: they
// are the whole file).
bool precomputedHead(std::string_view head, bool whole) {
    std::size_t start = 0;
    int lines = 0, kernelLines = 0;  // data lines, and those whose first feature is 0:...
    while (start < head.size()) {
        std::size_t end = head.find('\n', start);
        // The head may end inside a line (kernel rows are long): its tokens that a blank
        // follows are complete, the last one may not be.
        const bool complete = end != std::string::npos || whole;
        if (end == std::string::npos) end = head.size();
        std::string_view line = withoutComment(head.substr(start, end - start));
        if (!complete) line = line.substr(0, line.find_last_of(" \t") + 1);
        std::size_t pos = 0;
        if (!nextToken(line, pos).empty()) {
            const std::string_view first = nextToken(line, pos);
            if (first.empty() && !complete) break;
            const bool kernel = first.size() > 2 && first.substr(0, 2) == "0:";
            if (lines == 0 && !kernel) return false;
            ++lines;
            kernelLines += kernel ? 1 : 0;
        }
        start = end + 1;
    }
    return lines > 0 && 2 * kernelLines > lines;
}

}  // namespace

bool looksLikePrecomputedKernel(const std::string& path) {
    const std::string head = readInputHead(path, kPrefixBytes);
    return precomputedHead(head, head.size() < kPrefixBytes);
}

int sniffPrecomputedKernel(const FilePrefix& prefix) {
    return precomputedHead(prefix.head, prefix.whole) ? 3 : 0;
}

namespace {

// Reads the rows of a kernel file: "<label> 0:<serial> 1:K(x,x1) … w:K(x,xw)", every row as
// wide as the first (a training kernel) or as `columns` (test rows against the training set).
class KernelRowReader {
  public:
    KernelRowReader(const std::string& bytes, const std::string& path, int columns)
        : reader_(bytes, path), training_(columns <= 0), width_(training_ ? -1 : columns) {}

    // Reads every row; false when the text has none (`sawAnyLine`: it has lines).
    bool readRows(bool& sawAnyLine) {
        std::string_view line;
        while (reader_.next(line)) {
            sawAnyLine = true;
            line = withoutComment(line);
            std::size_t pos = 0;
            const std::string_view labelToken = nextToken(line, pos);
            if (labelToken.empty()) continue;
            const int example = static_cast<int>(labels_.size()) + 1;
            const double label = readLabel(labelToken);
            readSerial(nextToken(line, pos), example);
            checkWidth(readValues(line, pos, example));
            labels_.push_back(label);
            rowLines_.push_back(reader_.lineNumber());
        }
        return !labels_.empty();
    }

    bool training() const { return training_; }
    int width() const { return width_; }
    std::vector<double>& labels() { return labels_; }
    std::vector<double>& values() { return values_; }
    const std::vector<int>& rowLines() const { return rowLines_; }

  private:
    double readLabel(std::string_view labelToken) const {
        if (labelToken.find(':') != std::string_view::npos) {
            reader_.fail("missing label: the line starts with " + inQuotes(labelToken) + "; " +
                         kExpected);
        }
        double label = 0.0;
        if (const NumberError error = parseReal(labelToken, label); error != NumberError::None) {
            reader_.fail("label " + inQuotes(labelToken) + " " + describe(error) + "; " +
                         kExpected);
        }
        return label;
    }

    // 0:<serial>: the example's number in a training kernel, any number in a test row.
    void readSerial(std::string_view serialToken, int example) const {
        std::string_view indexText;
        std::string_view valueText;
        if (serialToken.empty() || !splitPair(serialToken, indexText, valueText) ||
            indexText != "0") {
            reader_.fail(
                "missing serial number: expected '0:" + std::to_string(example) +
                "' after the label, found " +
                (serialToken.empty() ? std::string("the end of the line") : inQuotes(serialToken)) +
                "; " + kExpected);
        }
        if (training_) {
            long long serial = 0;
            if (!parseIndex(valueText, serial) || serial != example) {
                reader_.fail("serial number " + inQuotes(valueText) + " in " +
                             inQuotes(serialToken) + " is wrong: example " +
                             std::to_string(example) +
                             " of a training kernel must have 0:" + std::to_string(example));
            }
        } else {
            double serial = 0.0;  // a test row's serial can be any number (LIBSVM's README)
            if (const NumberError error = parseReal(valueText, serial);
                error != NumberError::None) {
                reader_.fail("serial number " + inQuotes(valueText) + " " + describe(error));
            }
        }
    }

    // 1:K(x, x1) … w:K(x, xw), every column once, in order; returns w.
    int readValues(std::string_view line, std::size_t pos, int example) {
        std::string_view indexText;
        std::string_view valueText;
        int count = 0;
        for (std::string_view token = nextToken(line, pos); !token.empty();
             token = nextToken(line, pos)) {
            if (!splitPair(token, indexText, valueText)) {
                reader_.fail("token " + inQuotes(token) +
                             " is not '<column>:<value>' (missing ':'); " + kExpected);
            }
            long long column = 0;
            if (!parseIndex(indexText, column)) {
                reader_.fail("column " + inQuotes(indexText) + " in " + inQuotes(token) +
                             " is not a positive integer; " + kExpected);
            }
            checkColumn(column, count, token);
            double value = 0.0;
            if (const NumberError error = parseReal(valueText, value); error != NumberError::None) {
                reader_.fail("value " + inQuotes(valueText) + " of K(" + std::to_string(example) +
                             ", " + std::to_string(column) + ") " + describe(error));
            }
            values_.push_back(value);
            count = static_cast<int>(column);
        }
        return count;
    }

    // `column` must come right after `count`, within the width.
    void checkColumn(long long column, int count, std::string_view token) const {
        if (column == 0) reader_.fail("serial number 0:… appears twice");
        if (column <= count) {
            reader_.fail(column == count ? "column " + std::to_string(column) + " appears twice"
                                         : "column " + std::to_string(column) + " after column " +
                                               std::to_string(count) + "; columns must increase");
        }
        if (column != count + 1) {
            reader_.fail("column " + std::to_string(count + 1) + " is missing (found " +
                         inQuotes(token) + "); every K(x, xj) must be given");
        }
        if (width_ > 0 && column > width_) {
            reader_.fail("row has more than " + std::to_string(width_) + " values; expected " +
                         std::to_string(width_) + widthSource());
        }
    }

    // The first row of a training kernel sets the width; every other row must have it.
    void checkWidth(int count) {
        if (width_ < 0) {
            if (count == 0) reader_.fail("row has no kernel values; " + std::string(kExpected));
            width_ = count;
            widthLine_ = reader_.lineNumber();
        } else if (count != width_) {
            reader_.fail("row has " + std::to_string(count) + " values; expected " +
                         std::to_string(width_) + widthSource());
        }
    }

    std::string widthSource() const {
        return training_ ? " like line " + std::to_string(widthLine_)
                         : std::string(" (one per training example)");
    }

    LineReader reader_;
    const bool training_;
    int width_;
    int widthLine_ = 0;
    std::vector<double> labels_;
    std::vector<double> values_;  // row by row
    std::vector<int> rowLines_;   // the line of each row
};

}  // namespace

Dataset loadPrecomputedKernel(const std::string& path, int columns) {
    const std::string bytes = readInputFile(path);
    KernelRowReader rows(bytes, path, columns);
    bool sawAnyLine = false;
    if (!rows.readRows(sawAnyLine)) {
        throw DataError(path, 0,
                        sawAnyLine ? "no examples: only blank lines and comments"
                                   : "no examples: the file is empty");
    }
    const int m = static_cast<int>(rows.labels().size());
    const int width = rows.width();
    if (rows.training() && m != width) {
        throw DataError(path, 0,
                        "the kernel matrix is " + std::to_string(m) + " rows × " +
                            std::to_string(width) +
                            " columns; a training kernel must be square (one row and one "
                            "column per example)");
    }
    if (rows.training()) checkKernelEntries(rows.values(), m, rows.rowLines(), path);

    Dataset data;
    data.name = std::filesystem::path(path).filename().string();
    data.source = path;
    data.sparseStorage = false;
    data.labels = Eigen::Map<const Eigen::VectorXd>(rows.labels().data(), m);
    data.dense = Eigen::Map<const Dataset::DenseMatrix>(rows.values().data(), m, width);
    return data;
}

}  // namespace cplab
