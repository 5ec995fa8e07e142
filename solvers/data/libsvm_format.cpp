// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/libsvm_format.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <vector>

#include "data/data_error.h"
#include "data/text_io.h"

namespace cplab {

namespace {

constexpr const char* kExpected = "expected '<label> <index>:<value> ...'";

// Upper bounds of the examples (lines) and the values (':') of a text, counted before parsing.
struct TextBounds {
    std::size_t maxExamples = 1;
    std::size_t maxValues = 0;
};

template <class Pieces>
TextBounds countBounds(Pieces& pieces) {
    TextBounds bounds;
    for (std::string_view piece; pieces.next(piece);) {
        bounds.maxExamples +=
            static_cast<std::size_t>(std::count(piece.begin(), piece.end(), '\n'));
        bounds.maxValues += static_cast<std::size_t>(std::count(piece.begin(), piece.end(), ':'));
    }
    pieces.rewind();
    return bounds;
}

// What a parse has read: the values and indices go straight into the matrix's arrays, sized
// for maxValues (the number of ':'), and the row starts into its outer array, so the parsed
// data never exist twice. Labels and lines are parsed into vectors, the labels then copied.
struct ParsedRows {
    ParsedRows(Dataset::SparseMatrix& X, std::size_t maxExamples)
        : outer(X.outerIndexPtr()), inner(X.innerIndexPtr()), values(X.valuePtr()) {
        labels.reserve(maxExamples);
        lines.reserve(maxExamples);
    }

    int* const outer;  // maxExamples + 1 entries, all 0
    int* const inner;
    double* const values;
    std::size_t stored = 0;
    std::vector<double> labels;
    std::vector<int> lines;  // of each example
    int dimension = 0;
};

double readLabel(const LineReader& reader, std::string_view labelToken) {
    if (labelToken.find(':') != std::string_view::npos) {
        reader.fail("missing label: the line starts with " + inQuotes(labelToken) + "; " +
                    kExpected);
    }
    double label = 0.0;
    if (const NumberError error = parseReal(labelToken, label); error != NumberError::None) {
        std::string detail = "label " + inQuotes(labelToken) + " " + describe(error);
        if (labelToken.find(',') != std::string_view::npos) {
            detail += " (commas: a multi-label line or a CSV file? LIBSVM lines are not)";
        }
        reader.fail(detail + "; " + kExpected);
    }
    return label;
}

// SVMlight's query id ("qid:<integer>"): checked, then ignored.
void checkQueryId(const LineReader& reader, std::string_view token, std::string_view valueText) {
    long long qid = 0;
    const auto [end, ec] =
        std::from_chars(valueText.data(), valueText.data() + valueText.size(), qid);
    if (ec != std::errc() || end != valueText.data() + valueText.size()) {
        reader.fail("query id in " + inQuotes(token) + " is not an integer");
    }
}

// The features of one example, from `pos` in `line` to its end, stored in `rows`.
void readFeatures(const LineReader& reader, std::string_view line, std::size_t pos,
                  ParsedRows& rows) {
    int previous = 0;
    for (std::string_view token = nextToken(line, pos); !token.empty();
         token = nextToken(line, pos)) {
        std::string_view indexText;
        std::string_view valueText;
        splitFeature(reader, token, indexText, valueText, kExpected);
        if (indexText == "qid") {
            checkQueryId(reader, token, valueText);
            continue;
        }
        const int index = featureIndex(reader, token, indexText, previous, kExpected);
        const double value = featureValue(reader, valueText, index);
        previous = index;
        if (index > rows.dimension) rows.dimension = index;
        if (value != 0.0) {
            if (rows.stored >= static_cast<std::size_t>(std::numeric_limits<int>::max() - 1)) {
                reader.fail("too many nonzero features for one dataset (more than 2^31)");
            }
            rows.inner[rows.stored] = index - 1;
            rows.values[rows.stored] = value;
            ++rows.stored;
        }
    }
}

// The dataset around the parsed arrays, trimmed to what was stored.
void finishDataset(Dataset& data, ParsedRows& rows, std::size_t maxValues) {
    const auto m = static_cast<int>(rows.labels.size());
    data.labels = Eigen::Map<const Eigen::VectorXd>(rows.labels.data(), m);
    std::vector<double>().swap(rows.labels);
    rows.lines.shrink_to_fit();
    data.lines = std::move(rows.lines);
    // The arrays keep their contents: fewer nonzeros shrink the count, not the storage;
    // conservativeResize trims the outer array to m + 1 and sets the width.
    Dataset::SparseMatrix& X = data.sparse;
    X.resizeNonZeros(static_cast<Eigen::Index>(rows.stored));
    X.conservativeResize(m, rows.dimension);
    // Explicit zeros, comments or query ids reserved more than was stored: give it back.
    if (rows.stored + rows.stored / 8 < maxValues) X.data().squeeze();
}

// Parses the text that `pieces` (TextPieces or OnePiece) hands out, in two passes.
// `linesBefore`: lines of the file before the text (a share of it), so that messages and
// Dataset::lines give the file's line numbers.
template <class Pieces>
Dataset parseText(Pieces& pieces, const std::string& sourceName, std::string name,
                  const LoadOptions& options, int linesBefore = 0) {
    // The bounds are counted first: the arrays are reserved once (no doubling, which had a
    // 1 GB text of short lines peak at 8.7 GB) and a text whose data cannot fit the memory
    // available is refused before parsing.
    const TextBounds bounds = countBounds(pieces);
    checkParsedSize(sourceName, bounds.maxExamples, bounds.maxValues,
                    bounds.maxExamples * (2 * sizeof(double) + 2 * sizeof(int)) +
                        bounds.maxValues * (sizeof(int) + sizeof(double)));
    Dataset data;
    data.sparse.resize(static_cast<Eigen::Index>(bounds.maxExamples), 0);
    data.sparse.resizeNonZeros(static_cast<Eigen::Index>(bounds.maxValues));
    ParsedRows rows(data.sparse, bounds.maxExamples);
    bool sawAnyLine = false;

    for (std::string_view piece; pieces.next(piece);) {
        LineReader reader(piece, sourceName, linesBefore);
        std::string_view line;
        while (reader.next(line)) {
            sawAnyLine = true;
            if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) {
                line = line.substr(0, hash);
            }
            std::size_t pos = 0;
            const std::string_view labelToken = nextToken(line, pos);
            if (labelToken.empty()) continue;  // blank or comment line
            const double label = readLabel(reader, labelToken);
            readFeatures(reader, line, pos, rows);
            rows.labels.push_back(label);
            rows.lines.push_back(reader.lineNumber());
            rows.outer[rows.labels.size()] = static_cast<int>(rows.stored);
        }
        linesBefore = reader.lineNumber();
    }
    if (rows.labels.empty()) {
        throw DataError(sourceName, 0,
                        sawAnyLine ? "no examples: only blank lines and comments"
                                   : "no examples: the file is empty");
    }

    data.name = std::move(name);
    data.source = sourceName;
    data.sparseStorage = true;
    finishDataset(data, rows, bounds.maxValues);
    applyLoadOptions(data, options, /*naturalSparse=*/true);
    return data;
}

// The lines [first, last) (0-based) of what `pieces` hands out, as pieces of whole lines:
// a gzip file's share, found by streaming the whole text and skipping the other lines.
class LineRange {
  public:
    LineRange(TextPieces& pieces, long long first, long long last)
        : pieces_(pieces), first_(first), last_(last) {}

    bool next(std::string_view& piece) {
        for (std::string_view p; line_ < last_ && pieces_.next(p);) {
            const std::size_t begin = skipLines(p, first_ - line_);
            const std::size_t end = begin + skipLines(p.substr(begin), last_ - line_);
            if (end > begin) {
                piece = p.substr(begin, end - begin);
                return true;
            }
        }
        return false;
    }
    void rewind() {
        pieces_.rewind();
        line_ = 0;
    }

  private:
    // Passes up to `count` lines of `text` (counted in line_); returns the bytes passed.
    std::size_t skipLines(std::string_view text, long long count) {
        std::size_t at = 0;
        for (; count > 0 && at < text.size(); --count, ++line_) {
            const std::size_t nl = text.find('\n', at);
            at = nl == std::string_view::npos ? text.size() : nl + 1;
        }
        return at;
    }

    TextPieces& pieces_;
    long long first_, last_;
    long long line_ = 0;  // lines passed so far
};

// Lines of the text `pieces` hands out (a last line without '\n' counts).
long long linesOf(TextPieces& pieces) {
    long long lines = 0;
    for (std::string_view p; pieces.next(p);)
        lines += std::count(p.begin(), p.end(), '\n') + (!p.empty() && p.back() != '\n' ? 1 : 0);
    pieces.rewind();
    return lines;
}

// A gzip file's share: the lines [L·rank/ranks, L·(rank + 1)/ranks) of its L lines, found by
// decompressing the whole stream (once to count, then to parse) and keeping only those.
Dataset loadGzipShare(const std::string& path, int rank, int ranks, const LoadOptions& options) {
    TextPieces pieces(path);
    const long long lines = linesOf(pieces);
    const long long first = lines * rank / ranks;
    const long long last = lines * (rank + 1) / ranks;
    if (first >= last) {
        throw DataError(path, 0,
                        "no examples for process " + std::to_string(rank) + " of " +
                            std::to_string(ranks) + ": the file has " + std::to_string(lines) +
                            " lines, fewer than processes; use fewer processes");
    }
    LineRange share(pieces, first, last);
    return parseText(share, path, std::filesystem::path(path).filename().string(), options,
                     static_cast<int>(first));
}

// The first line start at or after `at` (a line starts at 0 and after each '\n'), or `size`.
std::size_t lineStartFrom(std::ifstream& in, std::size_t at, std::size_t size) {
    if (at == 0) return 0;
    std::vector<char> buffer(std::size_t{1} << 16);
    in.clear();
    in.seekg(static_cast<std::streamoff>(at - 1));
    for (std::size_t pos = at - 1; pos < size;) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        if (got == 0) break;
        const auto* nl = static_cast<const char*>(std::memchr(buffer.data(), '\n', got));
        if (nl) return pos + static_cast<std::size_t>(nl - buffer.data()) + 1;
        pos += got;
    }
    return size;
}

// Lines ('\n') in the first `bytes` bytes.
int linesIn(std::ifstream& in, std::size_t bytes) {
    std::vector<char> buffer(std::size_t{1} << 20);
    in.clear();
    in.seekg(0);
    long long lines = 0;
    for (std::size_t left = bytes; left > 0;) {
        const std::size_t want = std::min(left, buffer.size());
        in.read(buffer.data(), static_cast<std::streamsize>(want));
        const auto got = static_cast<std::size_t>(in.gcount());
        if (got == 0) break;
        lines += std::count(buffer.data(), buffer.data() + got, '\n');
        left -= got;
    }
    return static_cast<int>(std::min<long long>(lines, std::numeric_limits<int>::max()));
}

}  // namespace

Dataset loadLibsvmShare(const std::string& path, int rank, int ranks, const LoadOptions& options) {
    if (ranks < 1 || rank < 0 || rank >= ranks) {
        throw std::invalid_argument("loadLibsvmShare: rank " + std::to_string(rank) + " of " +
                                    std::to_string(ranks));
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw DataError(path, 0, "cannot open the file");
    char magic[2] = {0, 0};
    in.read(magic, 2);
    if (in.gcount() == 2 && static_cast<unsigned char>(magic[0]) == 0x1f &&
        static_cast<unsigned char>(magic[1]) == 0x8b) {
        return loadGzipShare(path, rank, ranks, options);
    }
    in.clear();
    in.seekg(0, std::ios::end);
    const auto size = static_cast<std::size_t>(in.tellg());
    // ⌊size·r/ranks⌋ without overflow.
    const auto share = [&](int r) {
        const auto n = static_cast<std::size_t>(ranks), k = static_cast<std::size_t>(r);
        return size / n * k + size % n * k / n;
    };
    const std::size_t begin = lineStartFrom(in, share(rank), size);
    const std::size_t end = lineStartFrom(in, share(rank + 1), size);
    const int linesBefore = linesIn(in, begin);
    if (begin >= end) {
        throw DataError(path, linesBefore,
                        "no examples for process " + std::to_string(rank) + " of " +
                            std::to_string(ranks) + ": the file's " + std::to_string(size) +
                            " bytes have fewer lines than processes; use fewer processes");
    }
    std::string text(end - begin, '\0');
    in.clear();
    in.seekg(static_cast<std::streamoff>(begin));
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (static_cast<std::size_t>(in.gcount()) != text.size())
        throw DataError(path, linesBefore, "the file changed while it was read");
    OnePiece piece{text};
    return parseText(piece, path, std::filesystem::path(path).filename().string(), options,
                     linesBefore);
}

Dataset loadLibsvm(const std::string& path, const LoadOptions& options) {
    // Piece by piece: the whole text is never held (usps's 6.9 MB of text for 8.8 MB of data).
    TextPieces pieces(path);
    return parseText(pieces, path, std::filesystem::path(path).filename().string(), options);
}

Dataset parseLibsvm(std::string_view bytes, const std::string& sourceName,
                    const LoadOptions& options) {
    std::string storage;
    OnePiece text{inputText(bytes, sourceName, storage)};
    return parseText(text, sourceName, sourceName, options);
}

std::string formatLibsvm(const Dataset& data) {
    if (const std::string why = data.contractViolation(); !why.empty()) {
        throw std::invalid_argument("formatLibsvm: invalid dataset: " + why);
    }
    std::string out;
    out.reserve(static_cast<std::size_t>(data.size()) * 8 +
                static_cast<std::size_t>(data.nonZeros()) * 16);
    for (int i = 0; i < data.size(); ++i) {
        appendReal(out, data.labels[i]);
        auto appendFeature = [&out](int j, double v) {
            out += ' ';
            char buffer[16];
            out.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, j + 1).ptr);
            out += ':';
            appendReal(out, v);
        };
        if (data.sparseStorage) {
            for (Dataset::SparseMatrix::InnerIterator it(data.sparse, i); it; ++it) {
                appendFeature(static_cast<int>(it.col()), it.value());
            }
        } else {
            for (int j = 0; j < data.dimension(); ++j) {
                if (data.dense(i, j) != 0.0) appendFeature(j, data.dense(i, j));
            }
        }
        out += '\n';
    }
    return out;
}

void writeLibsvm(const std::string& path, const Dataset& data, bool gzip) {
    writeOutputFile(path, formatLibsvm(data), gzip);
}

int sniffLibsvm(const FilePrefix& /*prefix*/) {
    return 1;
}

}  // namespace cplab
