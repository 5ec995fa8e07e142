// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/sequence_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <unordered_map>

#include "data/data_error.h"
#include "data/text_io.h"

namespace cplab {

namespace {

// Tokens and their features as they are read: a compressed row-major matrix in the making.
struct TokenBuilder {
    std::vector<int> outer{0};
    std::vector<int> inner;
    std::vector<double> values;
    std::vector<int> labels;
    std::vector<int> lines;
    std::vector<int> sequenceStart{0};

    int tokens() const { return static_cast<int>(labels.size()); }

    void addFeature(int column, double value) {
        if (value == 0.0) return;  // the contract stores no zeros
        inner.push_back(column);
        values.push_back(value);
    }
    void endToken(int label, int line) {
        if (values.size() >= static_cast<std::size_t>(std::numeric_limits<int>::max() - 1))
            throw std::length_error("more than 2^31 nonzero features");
        labels.push_back(label);
        lines.push_back(line);
        outer.push_back(static_cast<int>(inner.size()));
    }
    // Closes the current sequence if it holds a token.
    void endSequence() {
        if (sequenceStart.back() < tokens()) sequenceStart.push_back(tokens());
    }

    void moveInto(SequenceData& data, int dimension) {
        const auto n = static_cast<Eigen::Index>(labels.size());
        data.features = Eigen::Map<const SequenceData::SparseMatrix>(
            n, dimension, static_cast<Eigen::Index>(inner.size()), outer.data(), inner.data(),
            values.data());
        data.labels = std::move(labels);
        data.lines = std::move(lines);
        data.sequenceStart = std::move(sequenceStart);
    }
};

std::string fileName(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

// --- letter.data ----------------------------------------------------------------------------

constexpr const char* kLetterLayout =
    "expected id, letter, next_id, word_id, position, fold and 128 pixel values "
    "(tab-separated, Taskar's letter.data)";

// Hands every line of a file read in pieces to parse(reader, line), the line numbers running on
// from piece to piece; false when the file has no line at all.
template <class Pieces, class Parse>
bool forEachLine(Pieces& pieces, const std::string& sourceName, Parse parse) {
    bool anyLine = false;
    int linesBefore = 0;
    for (std::string_view piece; pieces.next(piece);) {
        LineReader reader(piece, sourceName, linesBefore);
        for (std::string_view line; reader.next(line);) {
            anyLine = true;
            parse(reader, line);
        }
        linesBefore = reader.lineNumber();
    }
    return anyLine;
}

// Parser state that lives across lines (and across the pieces of a file).
struct LetterState {
    TokenBuilder tokens;
    std::vector<int> wordIds, folds;
    bool inWord = false;   // the previous line's next_id was not −1
    int expectedId = 0;    // that next_id
    int previousLine = 0;  // line of the previous letter
    int wordId = 0, fold = 0, position = 0, wordFirstLine = 0;
    bool anyWord = false;
    std::vector<double> pixels;
};

// The six fields before the pixels.
struct LetterFields {
    int id = 0;
    int label = 0;  // the letter, 0 for 'a'
    int nextId = 0;
    int wordId = 0;
    int position = 0;
    int fold = 0;
};

// Reads the six fields from `pos`; false for a blank line.
bool readLetterFields(const LineReader& reader, std::string_view line, std::size_t& pos,
                      LetterFields& letter) {
    std::string_view field[6];
    int fields = 0;
    for (; fields < 6; ++fields) {
        field[fields] = nextToken(line, pos);
        if (field[fields].empty()) break;
    }
    if (fields == 0) return false;  // blank line
    if (fields < 6) {
        reader.fail(std::to_string(fields) + (fields == 1 ? " field; " : " fields; ") +
                    kLetterLayout);
    }
    letter.id = reader.integer(field[0], "id", 0);
    if (field[1].size() != 1 || field[1][0] < 'a' || field[1][0] > 'z') {
        reader.fail("unknown letter " + inQuotes(field[1]) + "; expected one of a-z (lower case)");
    }
    letter.label = field[1][0] - 'a';
    letter.nextId = reader.integer(field[2], "next_id", -1);
    letter.wordId = reader.integer(field[3], "word_id", 0);
    letter.position = reader.integer(field[4], "position", 1);
    letter.fold = reader.integer(field[5], "fold", 0);
    return true;
}

// The 128 pixel values from `pos` to the end of the line.
void readPixels(const LineReader& reader, std::string_view line, std::size_t pos,
                std::vector<double>& pixels) {
    pixels.clear();
    for (std::string_view token = nextToken(line, pos); !token.empty();
         token = nextToken(line, pos)) {
        double value = 0.0;
        if (const NumberError error = parseReal(token, value); error != NumberError::None) {
            reader.fail("pixel p_" + std::to_string(pixels.size()) + " " + inQuotes(token) + " " +
                        describe(error) + "; expected 0 or 1");
        }
        pixels.push_back(value);
    }
    if (pixels.size() != static_cast<std::size_t>(kOcrPixels)) {
        reader.fail(std::to_string(pixels.size()) + " pixel values; expected 128 (a 16 x 8 " +
                    "image) after the 6 fields id, letter, next_id, word_id, position, fold");
    }
}

// The previous line said this line continues its word: it must be that word's next letter.
void checkContinuedWord(const LineReader& reader, const LetterFields& letter,
                        const LetterState& s) {
    const std::string& source = reader.sourceName();
    if (letter.wordId != s.wordId) {
        throw DataError(source, s.previousLine,
                        "next_id " + std::to_string(s.expectedId) + " continues word " +
                            std::to_string(s.wordId) + ", but the following line (" +
                            std::to_string(reader.lineNumber()) + ") belongs to word " +
                            std::to_string(letter.wordId) + "; expected -1 at the end of a word");
    }
    if (letter.id != s.expectedId) {
        throw DataError(source, s.previousLine,
                        "next_id " + std::to_string(s.expectedId) + " but the following line (" +
                            std::to_string(reader.lineNumber()) + ") has id " +
                            std::to_string(letter.id) +
                            "; expected the id of the next letter of word " +
                            std::to_string(s.wordId) + ", or -1 at its end");
    }
    if (letter.position != s.position + 1) {
        reader.fail("position " + std::to_string(letter.position) + " in word " +
                    std::to_string(letter.wordId) + "; expected " + std::to_string(s.position + 1));
    }
    if (letter.fold != s.fold) {
        reader.fail("fold " + std::to_string(letter.fold) + " in word " +
                    std::to_string(letter.wordId) + ", whose first letter (line " +
                    std::to_string(s.wordFirstLine) + ") has fold " + std::to_string(s.fold) +
                    "; a word lies in one fold");
    }
}

// The first letter of a new word, whose id must exceed the previous word's.
void startWord(const LineReader& reader, const LetterFields& letter, LetterState& s) {
    if (s.anyWord && letter.wordId == s.wordId) {
        reader.fail("word " + std::to_string(letter.wordId) +
                    " goes on after its last letter (line " + std::to_string(s.previousLine) +
                    " has next_id -1); expected a new word id greater than " +
                    std::to_string(s.wordId));
    }
    if (s.anyWord && letter.wordId < s.wordId) {
        reader.fail("word id " + std::to_string(letter.wordId) + " after word " +
                    std::to_string(s.wordId) + "; word ids must increase (words out of order)");
    }
    if (letter.position != 1) {
        reader.fail("position " + std::to_string(letter.position) + " at the start of word " +
                    std::to_string(letter.wordId) + "; expected 1");
    }
    s.tokens.endSequence();
    s.anyWord = true;
    s.wordId = letter.wordId;
    s.fold = letter.fold;
    s.wordFirstLine = reader.lineNumber();
    s.wordIds.push_back(letter.wordId);
    s.folds.push_back(letter.fold);
}

void parseLetterLine(LineReader& reader, std::string_view line, LetterState& s) {
    std::size_t pos = 0;
    LetterFields letter;
    if (!readLetterFields(reader, line, pos, letter)) return;
    readPixels(reader, line, pos, s.pixels);
    if (s.inWord) {
        checkContinuedWord(reader, letter, s);
    } else {
        startWord(reader, letter, s);
    }
    if (letter.nextId == letter.id) {
        reader.fail("next_id " + std::to_string(letter.nextId) + " is the line's own id");
    }
    s.position = letter.position;
    s.inWord = letter.nextId != -1;
    s.expectedId = letter.nextId;
    s.previousLine = reader.lineNumber();
    for (int j = 0; j < kOcrPixels; ++j)
        s.tokens.addFeature(j, s.pixels[static_cast<std::size_t>(j)]);
    s.tokens.endToken(letter.label, reader.lineNumber());
}

template <class Pieces>
SequenceData parseLetterPieces(Pieces& pieces, const std::string& sourceName, std::string name) {
    LetterState s;
    const bool sawAnyLine = forEachLine(
        pieces, sourceName,
        [&](LineReader& reader, std::string_view line) { parseLetterLine(reader, line, s); });
    if (s.tokens.tokens() == 0) {
        throw DataError(
            sourceName, 0,
            sawAnyLine ? "no letters: only blank lines" : "no letters: the file is empty");
    }
    if (s.inWord) {
        throw DataError(sourceName, s.previousLine,
                        "the file ends inside word " + std::to_string(s.wordId) +
                            ": its last line has next_id " + std::to_string(s.expectedId) +
                            " (expected -1 at the end of a word); truncated file?");
    }
    s.tokens.endSequence();
    SequenceData data;
    data.name = std::move(name);
    data.source = sourceName;
    s.tokens.moveInto(data, kOcrPixels);
    data.labelNames.reserve(kOcrLetters);
    for (int k = 0; k < kOcrLetters; ++k)
        data.labelNames.emplace_back(1, static_cast<char>('a' + k));
    data.sequenceIds = std::move(s.wordIds);
    data.folds = std::move(s.folds);
    return data;
}

// --- generic format -------------------------------------------------------------------------

constexpr const char* kTokenLayout = "expected '<label> <index>:<value> ...'";

// A name the generic format can hold as a label token.
bool writableLabel(const std::string& name) {
    // '#' anywhere would start a trailing comment when the token is read back.
    return !name.empty() && std::none_of(name.begin(), name.end(), [](char c) {
        return c == ':' || c == '#' || isBlank(c) || static_cast<unsigned char>(c) < 0x20 ||
               c == 0x7f;
    });
}

// "# labels: ..." / "# dimension: ..." → the header's key and the rest, else empty key.
std::pair<std::string_view, std::string_view> headerOf(std::string_view comment) {
    std::size_t pos = 1;  // after '#'
    while (pos < comment.size() && isBlank(comment[pos]))
        ++pos;
    for (const std::string_view key : {"labels:", "dimension:"}) {
        if (comment.substr(pos, key.size()) == key) return {key, comment.substr(pos + key.size())};
    }
    return {};
}

struct GenericState {
    TokenBuilder tokens;
    bool headerAllowed = true;
    bool declaredLabels = false;
    int labelsLine = 0;
    int declaredDimension = -1;
    int dimensionLine = 0;
    std::unordered_map<std::string, int> labelIds;  // name → id (declared, or as first seen)
    std::vector<std::string> names;                 // by id
    int dimension = 0;
};

void parseHeader(LineReader& reader, std::string_view key, std::string_view rest, GenericState& s) {
    if (!s.headerAllowed) {
        reader.fail("header '# " + std::string(key) +
                    "' after the first token; headers must come before the tokens");
    }
    std::size_t pos = 0;
    if (key == "labels:") {
        if (s.declaredLabels) {
            reader.fail("a second '# labels:' header (the first is on line " +
                        std::to_string(s.labelsLine) + ")");
        }
        for (std::string_view name = nextToken(rest, pos); !name.empty();
             name = nextToken(rest, pos)) {
            const std::string text(name);
            if (!writableLabel(text)) {
                reader.fail("label name " + inQuotes(name) +
                            " in the header; a label may not contain ':' or '#'");
            }
            if (!s.labelIds.emplace(text, static_cast<int>(s.names.size())).second) {
                reader.fail("label " + inQuotes(name) + " declared twice in the header");
            }
            s.names.push_back(text);
        }
        if (s.names.empty()) reader.fail("'# labels:' header without labels");
        s.declaredLabels = true;
        s.labelsLine = reader.lineNumber();
    } else {
        if (s.declaredDimension >= 0) {
            reader.fail("a second '# dimension:' header (the first is on line " +
                        std::to_string(s.dimensionLine) + ")");
        }
        const std::string_view value = nextToken(rest, pos);
        if (value.empty() || !nextToken(rest, pos).empty()) {
            reader.fail("'# dimension:' header needs exactly one number, the feature count");
        }
        s.declaredDimension = reader.integer(value, "dimension", 0);
        if (s.declaredDimension > kMaxSequenceFeatures)
            reader.fail("dimension " + std::to_string(s.declaredDimension) + " exceeds " +
                        std::to_string(kMaxSequenceFeatures) +
                        " features (the chain model keeps dense weights per label and feature)");
        s.dimensionLine = reader.lineNumber();
    }
}

void parseTokenLine(LineReader& reader, std::string_view line, GenericState& s) {
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) {
        line = line.substr(0, hash);
    }
    std::size_t pos = 0;
    const std::string_view labelToken = nextToken(line, pos);
    if (labelToken.find(':') != std::string_view::npos) {
        reader.fail("missing label: the line starts with " + inQuotes(labelToken) + "; " +
                    kTokenLayout);
    }
    s.headerAllowed = false;
    int label = 0;
    if (const auto found = s.labelIds.find(std::string(labelToken)); found != s.labelIds.end()) {
        label = found->second;
    } else if (s.declaredLabels) {
        std::vector<std::string> shown(s.names.begin(),
                                       s.names.begin() + std::min<std::size_t>(s.names.size(), 12));
        if (shown.size() < s.names.size()) shown.push_back("...");
        reader.fail("label " + inQuotes(labelToken) +
                    " is not among the labels of the header (line " + std::to_string(s.labelsLine) +
                    "): " + joined(shown, " "));
    } else {
        label = static_cast<int>(s.names.size());
        s.names.emplace_back(labelToken);
        s.labelIds.emplace(s.names.back(), label);
    }

    int previous = 0;
    for (std::string_view token = nextToken(line, pos); !token.empty();
         token = nextToken(line, pos)) {
        std::string_view indexText;
        std::string_view valueText;
        splitFeature(reader, token, indexText, valueText, kTokenLayout);
        const int index = featureIndex(reader, token, indexText, previous, kTokenLayout);
        if (index > kMaxSequenceFeatures) {
            reader.fail("feature index " + std::to_string(index) + " exceeds " +
                        std::to_string(kMaxSequenceFeatures) +
                        " (the chain model keeps dense weights per label and feature)");
        }
        if (s.declaredDimension >= 0 && index > s.declaredDimension) {
            reader.fail("feature index " + std::to_string(index) + " beyond the dimension " +
                        std::to_string(s.declaredDimension) + " of the header (line " +
                        std::to_string(s.dimensionLine) + ")");
        }
        const double value = featureValue(reader, valueText, index);
        previous = index;
        s.dimension = std::max(s.dimension, index);
        s.tokens.addFeature(index - 1, value);
    }
    s.tokens.endToken(label, reader.lineNumber());
}

void parseGenericLine(LineReader& reader, std::string_view line, GenericState& s) {
    std::size_t start = 0;
    while (start < line.size() && isBlank(line[start]))
        ++start;
    if (start == line.size()) {  // blank: ends a sequence
        s.tokens.endSequence();
        return;
    }
    if (line[start] == '#') {
        const auto [key, rest] = headerOf(line.substr(start));
        if (!key.empty()) parseHeader(reader, key, rest, s);
        return;  // headers and comments do not end a sequence
    }
    parseTokenLine(reader, line, s);
}

// Label ids in the order the format defines when no header declares them: numerically when
// every name is a number, else by bytes. Renumbers the tokens' labels.
void sortLabels(GenericState& s, std::vector<int>& labels) {
    const std::size_t count = s.names.size();
    std::vector<double> numbers(count);
    bool numeric = true;
    for (std::size_t k = 0; k < count && numeric; ++k)
        numeric = parseReal(s.names[k], numbers[k]) == NumberError::None;
    std::vector<int> order(count);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        if (numeric && numbers[a] != numbers[b]) return numbers[a] < numbers[b];
        return s.names[a] < s.names[b];
    });
    std::vector<int> newId(count);
    std::vector<std::string> sorted(count);
    for (std::size_t k = 0; k < count; ++k) {
        newId[order[k]] = static_cast<int>(k);
        sorted[k] = std::move(s.names[order[k]]);
    }
    s.names = std::move(sorted);
    for (int& label : labels)
        label = newId[label];
}

template <class Pieces>
SequenceData parseGenericPieces(Pieces& pieces, const std::string& sourceName, std::string name) {
    GenericState s;
    const bool sawAnyLine = forEachLine(
        pieces, sourceName,
        [&](LineReader& reader, std::string_view line) { parseGenericLine(reader, line, s); });
    if (s.tokens.tokens() == 0) {
        throw DataError(sourceName, 0,
                        sawAnyLine ? "no sequences: only blank lines and comments"
                                   : "no sequences: the file is empty");
    }
    s.tokens.endSequence();
    SequenceData data;
    data.name = std::move(name);
    data.source = sourceName;
    s.tokens.moveInto(data, s.declaredDimension >= 0 ? s.declaredDimension : s.dimension);
    if (!s.declaredLabels) sortLabels(s, data.labels);
    data.labelNames = std::move(s.names);
    return data;
}

}  // namespace

// --- SequenceData ---------------------------------------------------------------------------

int SequenceData::maxLength() const {
    int longest = 0;
    for (int i = 0; i < size(); ++i)
        longest = std::max(longest, length(i));
    return longest;
}

SequenceData SequenceData::subset(const std::vector<int>& indices) const {
    TokenBuilder b;
    SequenceData out;
    for (const int i : indices) {
        if (i < 0 || i >= size()) {
            throw std::out_of_range("SequenceData::subset: sequence " + std::to_string(i) +
                                    " outside [0, " + std::to_string(size()) + ")");
        }
        for (int k = first(i); k < first(i + 1); ++k) {
            for (SparseMatrix::InnerIterator it(features, k); it; ++it)
                b.addFeature(static_cast<int>(it.col()), it.value());
            b.endToken(labels[static_cast<std::size_t>(k)],
                       lines.empty() ? 0 : lines[static_cast<std::size_t>(k)]);
        }
        b.endSequence();
        if (!sequenceIds.empty()) out.sequenceIds.push_back(sequenceIds[i]);
        if (!folds.empty()) out.folds.push_back(folds[i]);
    }
    b.moveInto(out, dimension());
    if (lines.empty()) out.lines.clear();
    out.name = name;
    out.source = source;
    out.labelNames = labelNames;
    return out;
}

std::vector<int> SequenceData::sequencesOfFold(int fold, bool inFold) const {
    if (folds.empty()) {
        throw std::logic_error("SequenceData '" + name +
                               "' has no folds (only letter.data records them)");
    }
    std::vector<int> chosen;
    for (int i = 0; i < size(); ++i) {
        if ((folds[static_cast<std::size_t>(i)] == fold) == inFold) chosen.push_back(i);
    }
    return chosen;
}

std::pair<SequenceData, SequenceData> SequenceData::splitByFold(int trainFold) const {
    std::pair<SequenceData, SequenceData> parts{subset(sequencesOfFold(trainFold, true)),
                                                subset(sequencesOfFold(trainFold, false))};
    parts.first.name = name + " (train)";
    parts.second.name = name + " (test)";
    return parts;
}

std::string SequenceData::where(int token) const {
    if (!lines.empty())
        return source + ":" + std::to_string(lines[static_cast<std::size_t>(token)]);
    return "token " + std::to_string(token + 1) + " of '" + name + "'";
}

std::string SequenceData::contractViolation() const {
    const int n = size();
    const int tokens = tokenCount();
    if (sequenceStart.empty() || sequenceStart.front() != 0)
        return "sequenceStart must start with 0";
    if (sequenceStart.back() != tokens) return "sequenceStart must end at the token count";
    for (int i = 0; i < n; ++i) {
        if (length(i) < 1) return "sequence " + std::to_string(i) + " is empty";
    }
    if (features.rows() != tokens) return "features must have one row per token";
    if (!features.isCompressed()) return "features must be compressed";
    for (int k = 0; k < tokens; ++k) {
        int previous = -1;
        for (SparseMatrix::InnerIterator it(features, k); it; ++it) {
            if (it.col() <= previous) return "features of token " + std::to_string(k) + " unsorted";
            if (it.value() == 0.0 || !std::isfinite(it.value()))
                return "token " + std::to_string(k) + " stores a zero or non-finite feature";
            previous = static_cast<int>(it.col());
        }
    }
    if (labelNames.empty()) return "no label names";
    std::vector<std::string> sorted = labelNames;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
        return "label names are not distinct";
    for (int k = 0; k < tokens; ++k) {
        const int y = labels[static_cast<std::size_t>(k)];
        if (y < 0 || y >= labelCount())
            return "label " + std::to_string(y) + " of token " + std::to_string(k) +
                   " out of range";
    }
    if (!lines.empty() && static_cast<int>(lines.size()) != tokens)
        return "lines must be empty or have one entry per token";
    if (!sequenceIds.empty() && static_cast<int>(sequenceIds.size()) != n)
        return "sequenceIds must be empty or have one entry per sequence";
    if (!folds.empty() && static_cast<int>(folds.size()) != n)
        return "folds must be empty or have one entry per sequence";
    return {};
}

// --- readers and writer ---------------------------------------------------------------------

SequenceData loadLetterData(const std::string& path) {
    TextPieces pieces(path);
    return parseLetterPieces(pieces, path, fileName(path));
}

SequenceData parseLetterData(std::string_view bytes, const std::string& sourceName) {
    std::string storage;
    OnePiece text{inputText(bytes, sourceName, storage)};
    return parseLetterPieces(text, sourceName, sourceName);
}

SequenceData loadSequences(const std::string& path) {
    TextPieces pieces(path);
    return parseGenericPieces(pieces, path, fileName(path));
}

SequenceData parseSequences(std::string_view bytes, const std::string& sourceName) {
    std::string storage;
    OnePiece text{inputText(bytes, sourceName, storage)};
    return parseGenericPieces(text, sourceName, sourceName);
}

std::string formatSequences(const SequenceData& data) {
    if (const std::string why = data.contractViolation(); !why.empty()) {
        throw std::invalid_argument("formatSequences: invalid data: " + why);
    }
    for (const std::string& name : data.labelNames) {
        if (!writableLabel(name)) {
            throw std::invalid_argument("formatSequences: label name " + inQuotes(name) +
                                        " cannot be written (empty, blanks, ':' or '#')");
        }
    }
    std::string out = "# labels: " + joined(data.labelNames, " ") +
                      "\n# dimension: " + std::to_string(data.dimension()) + "\n";
    out.reserve(out.size() + static_cast<std::size_t>(data.tokenCount()) * 8 +
                static_cast<std::size_t>(data.features.nonZeros()) * 8);
    for (int i = 0; i < data.size(); ++i) {
        if (i > 0) out += '\n';
        for (int k = data.first(i); k < data.first(i + 1); ++k) {
            out +=
                data.labelNames[static_cast<std::size_t>(data.labels[static_cast<std::size_t>(k)])];
            for (SequenceData::SparseMatrix::InnerIterator it(data.features, k); it; ++it) {
                out += ' ';
                char buffer[16];
                out.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, it.col() + 1).ptr);
                out += ':';
                appendReal(out, it.value());
            }
            out += '\n';
        }
    }
    return out;
}

void writeSequences(const std::string& path, const SequenceData& data, bool gzip) {
    writeOutputFile(path, formatSequences(data), gzip);
}

int sniffLetterData(const FilePrefix& prefix) {
    const std::string& head = prefix.head;
    std::size_t start = 0;
    while (start < head.size()) {
        const std::size_t end = std::min(head.find('\n', start), head.size());
        const std::string_view line(head.data() + start, end - start);
        start = end + 1;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos || line[0] == '#') continue;
        return std::count(line.begin(), line.end(), '\t') >= 100 &&
                       line.find(':') == std::string_view::npos
                   ? 3
                   : 0;
    }
    return 0;
}

int sniffSequences(const FilePrefix& prefix) {
    return prefix.hasExtension(".seq") ? 3 : 1;
}

}  // namespace cplab
