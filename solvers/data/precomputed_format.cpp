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

Dataset loadPrecomputedKernel(const std::string& path, int columns) {
    const std::string bytes = readInputFile(path);
    LineReader reader(bytes, path);
    const bool training = columns <= 0;
    int width = training ? -1 : columns;
    int widthLine = 0;
    std::vector<double> labels;
    std::vector<double> values;  // row by row
    std::vector<int> rowLines;   // the line of each row
    bool sawAnyLine = false;

    std::string_view line;
    while (reader.next(line)) {
        sawAnyLine = true;
        line = withoutComment(line);
        std::size_t pos = 0;
        const std::string_view labelToken = nextToken(line, pos);
        if (labelToken.empty()) continue;
        const int example = static_cast<int>(labels.size()) + 1;

        if (labelToken.find(':') != std::string_view::npos) {
            reader.fail("missing label: the line starts with " + inQuotes(labelToken) + "; " +
                        kExpected);
        }
        double label = 0.0;
        if (const NumberError error = parseReal(labelToken, label); error != NumberError::None) {
            reader.fail("label " + inQuotes(labelToken) + " " + describe(error) + "; " + kExpected);
        }

        // 0:<serial>
        const std::string_view serialToken = nextToken(line, pos);
        std::string_view indexText;
        std::string_view valueText;
        if (serialToken.empty() || !splitPair(serialToken, indexText, valueText) ||
            indexText != "0") {
            reader.fail(
                "missing serial number: expected '0:" + std::to_string(example) +
                "' after the label, found " +
                (serialToken.empty() ? std::string("the end of the line") : inQuotes(serialToken)) +
                "; " + kExpected);
        }
        if (training) {
            long long serial = 0;
            if (!parseIndex(valueText, serial) || serial != example) {
                reader.fail("serial number " + inQuotes(valueText) + " in " +
                            inQuotes(serialToken) + " is wrong: example " +
                            std::to_string(example) +
                            " of a training kernel must have 0:" + std::to_string(example));
            }
        } else {
            double serial = 0.0;  // a test row's serial can be any number (LIBSVM's README)
            if (const NumberError error = parseReal(valueText, serial);
                error != NumberError::None) {
                reader.fail("serial number " + inQuotes(valueText) + " " + describe(error));
            }
        }

        // 1:K(x, x1) … w:K(x, xw), every column once, in order.
        int count = 0;
        for (std::string_view token = nextToken(line, pos); !token.empty();
             token = nextToken(line, pos)) {
            if (!splitPair(token, indexText, valueText)) {
                reader.fail("token " + inQuotes(token) +
                            " is not '<column>:<value>' (missing ':'); " + kExpected);
            }
            long long column = 0;
            if (!parseIndex(indexText, column)) {
                reader.fail("column " + inQuotes(indexText) + " in " + inQuotes(token) +
                            " is not a positive integer; " + kExpected);
            }
            if (column == 0) reader.fail("serial number 0:… appears twice");
            if (column <= count) {
                reader.fail(column == count
                                ? "column " + std::to_string(column) + " appears twice"
                                : "column " + std::to_string(column) + " after column " +
                                      std::to_string(count) + "; columns must increase");
            }
            if (column != count + 1) {
                reader.fail("column " + std::to_string(count + 1) + " is missing (found " +
                            inQuotes(token) + "); every K(x, xj) must be given");
            }
            if (width > 0 && column > width) {
                reader.fail("row has more than " + std::to_string(width) + " values; expected " +
                            std::to_string(width) +
                            (training ? " like line " + std::to_string(widthLine)
                                      : std::string(" (one per training example)")));
            }
            double value = 0.0;
            if (const NumberError error = parseReal(valueText, value); error != NumberError::None) {
                reader.fail("value " + inQuotes(valueText) + " of K(" + std::to_string(example) +
                            ", " + std::to_string(column) + ") " + describe(error));
            }
            values.push_back(value);
            count = static_cast<int>(column);
        }
        if (width < 0) {
            if (count == 0) reader.fail("row has no kernel values; " + std::string(kExpected));
            width = count;
            widthLine = reader.lineNumber();
        } else if (count != width) {
            reader.fail("row has " + std::to_string(count) + " values; expected " +
                        std::to_string(width) +
                        (training ? " like line " + std::to_string(widthLine)
                                  : std::string(" (one per training example)")));
        }
        labels.push_back(label);
        rowLines.push_back(reader.lineNumber());
    }
    if (labels.empty()) {
        throw DataError(path, 0,
                        sawAnyLine ? "no examples: only blank lines and comments"
                                   : "no examples: the file is empty");
    }
    const int m = static_cast<int>(labels.size());
    if (training && m != width) {
        throw DataError(path, 0,
                        "the kernel matrix is " + std::to_string(m) + " rows × " +
                            std::to_string(width) +
                            " columns; a training kernel must be square (one row and one "
                            "column per example)");
    }
    if (training) checkKernelEntries(values, m, rowLines, path);

    Dataset data;
    data.name = std::filesystem::path(path).filename().string();
    data.source = path;
    data.sparseStorage = false;
    data.labels = Eigen::Map<const Eigen::VectorXd>(labels.data(), m);
    data.dense = Eigen::Map<const Dataset::DenseMatrix>(values.data(), m, width);
    return data;
}

}  // namespace cplab
