// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/csv_format.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <vector>

#include "core/number_text.h"
#include "data/data_error.h"
#include "data/text_io.h"

namespace cplab {

namespace {

struct Field {
    std::string_view raw;  // the text between the quotes when quoted, "" still doubled
    bool quoted = false;
};

std::string fieldText(const Field& field) {
    if (!field.quoted) return std::string(field.raw);
    std::string text;
    for (std::size_t i = 0; i < field.raw.size(); ++i) {
        text += field.raw[i];
        if (field.raw[i] == '"') ++i;  // "" stands for one quote
    }
    return text;
}

bool isNumber(const Field& field) {
    double value = 0.0;
    return parseReal(field.raw, value) == NumberError::None;
}

// Reads a quoted field starting at line[pos] == '"'. Returns nullptr, or why it failed.
const char* readQuoted(std::string_view line, std::size_t& pos, Field& field) {
    const std::size_t begin = ++pos;
    for (;;) {
        const std::size_t quote = line.find('"', pos);
        if (quote == std::string_view::npos) {
            return "unterminated quoted field (a quoted field cannot span lines)";
        }
        if (quote + 1 < line.size() && line[quote + 1] == '"') {
            pos = quote + 2;
            continue;
        }
        field = {line.substr(begin, quote - begin), true};
        pos = quote + 1;
        return nullptr;
    }
}

// Splits `line` into `fields`. delimiter ' ' = runs of blanks. Returns nullptr, or why not.
const char* splitFields(std::string_view line, char delimiter, std::vector<Field>& fields) {
    fields.clear();
    const std::size_t n = line.size();
    std::size_t pos = 0;
    if (delimiter == ' ') {
        for (;;) {
            while (pos < n && isBlank(line[pos]))
                ++pos;
            if (pos == n) return nullptr;
            Field field;
            if (line[pos] == '"') {
                if (const char* why = readQuoted(line, pos, field)) return why;
                if (pos < n && !isBlank(line[pos])) return "unexpected text after a closing quote";
            } else {
                const std::size_t begin = pos;
                while (pos < n && !isBlank(line[pos]))
                    ++pos;
                field.raw = line.substr(begin, pos - begin);
            }
            fields.push_back(field);
        }
    }
    // Blanks around a field are trimmed, except the delimiter itself (tab-separated files).
    auto trimmable = [delimiter](char c) { return isBlank(c) && c != delimiter; };
    for (;;) {
        while (pos < n && trimmable(line[pos]))
            ++pos;
        Field field;
        if (pos < n && line[pos] == '"') {
            if (const char* why = readQuoted(line, pos, field)) return why;
            while (pos < n && trimmable(line[pos]))
                ++pos;
            if (pos < n && line[pos] != delimiter) return "unexpected text after a closing quote";
        } else {
            const std::size_t begin = pos;
            while (pos < n && line[pos] != delimiter)
                ++pos;
            std::size_t end = pos;
            while (end > begin && trimmable(line[end - 1]))
                --end;
            field.raw = line.substr(begin, end - begin);
        }
        fields.push_back(field);
        if (pos >= n) return nullptr;
        ++pos;  // the delimiter
    }
}

// A row kept as text: the first rows decide the delimiter and the header.
struct Row {
    int line = 0;
    std::string text;
};

// CsvOptions::delimiter = 0: ';' or '|' when the first row has some and most of the first rows
// (up to 10) have as many (a ';' file may use ',' as its decimal mark; one short row among them
// is then reported as such, not read as a file of one column), else ',' when the first row has
// one, else runs of blanks.
char detectDelimiter(const std::vector<Row>& rows) {
    const std::size_t sample = std::min<std::size_t>(rows.size(), 10);
    for (char candidate : {';', '|'}) {
        const auto first = std::count(rows[0].text.begin(), rows[0].text.end(), candidate);
        if (first == 0) continue;
        std::size_t agreeing = 0;
        for (std::size_t r = 0; r < sample; ++r) {
            if (std::count(rows[r].text.begin(), rows[r].text.end(), candidate) == first)
                ++agreeing;
        }
        if (2 * agreeing > sample) return candidate;
    }
    return rows[0].text.find(',') != std::string_view::npos ? ',' : ' ';
}

void checkOptions(const CsvOptions& csv) {
    const char d = csv.delimiter;
    if (d != 0 && d != ',' && d != ';' && d != '\t' && d != '|' && d != ' ') {
        throw std::invalid_argument(
            "CsvOptions::delimiter must be 0 (auto), ',', ';', tab, '|' "
            "or ' ' (whitespace)");
    }
    if (!csv.labelName.empty() && csv.header == CsvHeader::No) {
        throw std::invalid_argument("CsvOptions::labelName = '" + csv.labelName +
                                    "' needs a header, but header = No");
    }
    if (!csv.labelName.empty() && csv.unlabeled) {
        throw std::invalid_argument("CsvOptions::labelName is set but unlabeled = true");
    }
}

std::string joinNames(const std::vector<Field>& fields) {
    std::string out;
    for (std::size_t k = 0; k < fields.size(); ++k) {
        if (k == 12) return out + ", ... (" + std::to_string(fields.size()) + " columns)";
        out += (k ? ", " : "") + inQuotes(fieldText(fields[k]));
    }
    return out;
}

// The label of one row: a number, or (for text labels) the row's index into `labelNames`.
// Labels are numeric when every label field is a number; which of the two it is becomes known
// only at the last row, so rows before the first text label are read again for their text.
struct LabelColumn {
    bool text = false;
    int firstTextLine = 0;  // line of the first label that is not a number
    int errorLine = 0;      // first numeric label that failed (NotFinite, OutOfRange, Empty)
    std::string error;
};

// Calls visit(lineNumber, line) for every row of `pieces` (blank lines and comments skipped).
template <class Pieces, class Visit>
void forEachRow(Pieces& pieces, const std::string& sourceName, const CsvOptions& csv,
                bool* sawAnyLine, Visit&& visit) {
    int linesBefore = 0;
    for (std::string_view piece; pieces.next(piece);) {
        LineReader reader(piece, sourceName, linesBefore);
        std::string_view line;
        while (reader.next(line)) {
            if (sawAnyLine) *sawAnyLine = true;
            const std::size_t first = line.find_first_not_of(" \t");
            if (first == std::string_view::npos) continue;
            if (csv.comment != 0 && line[first] == csv.comment) continue;
            visit(reader.lineNumber(), line);
        }
        linesBefore = reader.lineNumber();
    }
    pieces.rewind();
}

// Decides CsvHeader::Auto for a labelled table (the default): the first row is a header when
// its label field is not a number and no other row of the file has that text as its label, and
// either another field of it is not a number either (a row of names) or the label fields of the
// next rows (up to nine) are numbers (a header over numeric feature names: "0,1,2,label").
// So sonar's first row (numbers and "R", which later rows use) is data, and so is a first row
// whose label is a number: a text in its features is reported at line 1 as on any other line,
// never silently dropped as a header. Set up once the first rows are known, it then watches
// every later row of the first pass for the label text (a substring search first, so a file
// of numbers costs nothing more).
struct HeaderProbe {
    bool candidate = false;  // the first row's label is text (NotANumber)
    bool namesInFeatures = false;
    bool nextLabelsNumeric = true;
    bool usedLater = false;  // another row has the first row's label text as its label
    char delimiter = ',';
    std::size_t columns = 0;
    std::size_t labelColumn = 0;
    std::string label;
    std::vector<Field> fields;

    // `head` holds the first rows (up to 10); `labelColumnOption` is CsvOptions::labelColumn.
    void setUp(const std::vector<Row>& head, char delimiterUsed, int labelColumnOption) {
        delimiter = delimiterUsed;
        std::vector<Field> first;
        if (splitFields(head[0].text, delimiter, first)) return;  // reported by the parser
        columns = first.size();
        const int k = labelColumnOption < 0 ? static_cast<int>(columns) + labelColumnOption
                                            : labelColumnOption;
        if (k < 0 || k >= static_cast<int>(columns)) return;  // reported by the parser
        labelColumn = static_cast<std::size_t>(k);
        double value = 0.0;
        if (parseReal(first[labelColumn].raw, value) != NumberError::NotANumber) return;
        candidate = true;
        label = fieldText(first[labelColumn]);
        for (std::size_t j = 0; j < columns; ++j) {
            if (j != labelColumn && !isNumber(first[j])) namesInFeatures = true;
        }
        for (std::size_t r = 1; r < head.size(); ++r) {
            if (splitFields(head[r].text, delimiter, fields) || fields.size() != columns) continue;
            if (!isNumber(fields[labelColumn])) nextLabelsNumeric = false;
            look(head[r].text);
        }
    }
    // A row after the first.
    void look(std::string_view line) {
        if (!candidate || usedLater || line.find(label) == std::string_view::npos) return;
        if (splitFields(line, delimiter, fields) || fields.size() != columns) return;
        if (fieldText(fields[labelColumn]) == label) usedLater = true;
    }
    bool header() const {
        return candidate && !usedLater && (namesInFeatures || nextLabelsNumeric);
    }
};

bool isAutoHeader(const CsvOptions& csv) {
    return csv.header == CsvHeader::Auto && csv.labelName.empty() && !csv.unlabeled;
}

// Parses the table that `pieces` (TextPieces or OnePiece) hands out: a first pass counts the
// rows and keeps the first ten (delimiter and header), a second parses every row straight into
// the dense matrix, so the text is never held whole and the values never exist twice. Text
// labels take a third pass (LabelColumn).
template <class Pieces>
class CsvParser {
  public:
    CsvParser(Pieces& pieces, const std::string& sourceName, const CsvOptions& csv)
        : pieces_(pieces), sourceName_(sourceName), csv_(csv), autoHeader_(isAutoHeader(csv)) {}

    Dataset parse(std::string name) {
        scanRows();
        readLayout();
        Dataset data = allocate(std::move(name));
        readValues(data);
        if (header_) nameColumns(data);
        if (labelColumn_ >= 0 && !label_.text && !label_.error.empty()) {
            failAt(label_.errorLine, label_.error);
        }
        if (labelColumn_ >= 0 && label_.text) readTextLabels(data);
        return data;
    }

  private:
    [[noreturn]] void failAt(int line, const std::string& detail) const {
        throw DataError(sourceName_, line, detail);
    }
    char delimiterOf(const std::vector<Row>& rows) const {
        return csv_.delimiter != 0 ? csv_.delimiter : detectDelimiter(rows);
    }

    // The first pass: the number of rows and the first ten, which the header probe then
    // watches the later rows for.
    void scanRows() {
        bool sawAnyLine = false;
        forEachRow(pieces_, sourceName_, csv_, &sawAnyLine,
                   [&](int lineNumber, std::string_view line) {
                       ++rowCount_;
                       if (head_.size() < 10) {
                           head_.push_back({lineNumber, std::string(line)});
                           if (head_.size() == 10 && autoHeader_) {
                               probe_.setUp(head_, delimiterOf(head_), csv_.labelColumn);
                               probing_ = true;
                           }
                       } else if (probing_) {
                           probe_.look(line);
                       }
                   });
        if (head_.empty()) {
            throw DataError(sourceName_, 0,
                            sawAnyLine ? "no rows: only blank lines and comments"
                                       : "no rows: the file is empty");
        }
    }

    // What the first rows say: the delimiter, the columns, the header and the label column.
    void readLayout() {
        delimiter_ = delimiterOf(head_);
        if (const char* why = splitFields(head_[0].text, delimiter_, firstFields_)) {
            failAt(head_[0].line, why);
        }
        header_ = hasHeader();
        dataBegin_ = header_ ? 1 : 0;
        if (dataBegin_ >= rowCount_) {
            failAt(head_[0].line, "no data rows after the header");
        }
        columns_ = static_cast<int>(firstFields_.size());
        reference_ = std::string(header_ ? "the header" : "the first row") + " (line " +
                     std::to_string(head_[0].line) + ")";
        if (!csv_.unlabeled) labelColumn_ = findLabelColumn();
        labelWhat_ = labelColumn_ >= 0 ? "label (" + columnName(labelColumn_) + ")" : std::string();
    }

    bool hasHeader() {
        bool header = csv_.header == CsvHeader::Yes || !csv_.labelName.empty();
        if (csv_.header == CsvHeader::Auto && !header) {
            if (head_.size() == 1 || csv_.unlabeled) {
                // One row, or no label column: a header is a row of names, no field a number.
                header = std::none_of(firstFields_.begin(), firstFields_.end(), isNumber);
            } else {
                if (!probing_) probe_.setUp(head_, delimiter_, csv_.labelColumn);
                header = probe_.header();
            }
        }
        return header;
    }

    // CsvOptions::labelName in the header, or CsvOptions::labelColumn (negative: from the end).
    int findLabelColumn() const {
        if (!csv_.labelName.empty()) {
            for (int k = 0; k < columns_; ++k) {
                if (fieldText(firstFields_[static_cast<std::size_t>(k)]) == csv_.labelName) {
                    return k;
                }
            }
            failAt(head_[0].line, "label column " + inQuotes(csv_.labelName) +
                                      " not found in the header; columns are " +
                                      joinNames(firstFields_));
        }
        const int labelColumn =
            csv_.labelColumn < 0 ? columns_ + csv_.labelColumn : csv_.labelColumn;
        if (labelColumn < 0 || labelColumn >= columns_) {
            failAt(head_[0].line, "label column " + std::to_string(csv_.labelColumn) +
                                      " is out of range: the rows have " +
                                      std::to_string(columns_) + " columns");
        }
        return labelColumn;
    }

    std::string columnName(int k) const {
        std::string out = "column " + std::to_string(k + 1);
        if (header_)
            out += " (" + inQuotes(fieldText(firstFields_[static_cast<std::size_t>(k)])) + ")";
        return out;
    }

    // The dataset, its dense matrix sized for the data rows (checked against the budget).
    Dataset allocate(std::string name) {
        const int dimension = columns_ - (labelColumn_ >= 0 ? 1 : 0);
        const std::size_t m = rowCount_ - dataBegin_;
        checkParsedSize(sourceName_, m, m * static_cast<std::size_t>(dimension),
                        m * (static_cast<std::size_t>(dimension) * sizeof(double) + sizeof(double) +
                             sizeof(int)));
        Dataset data;
        data.name = std::move(name);
        data.source = sourceName_;
        data.sparseStorage = false;
        data.dense.resize(static_cast<Eigen::Index>(m), dimension);
        data.labels = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(m));
        data.lines.reserve(m);
        return data;
    }

    // The second pass: every data row's features and numeric label.
    void readValues(Dataset& data) {
        std::size_t row = 0;  // counts every row, header included
        forEachRow(pieces_, sourceName_, csv_, nullptr, [&](int lineNumber, std::string_view line) {
            if (row++ < dataBegin_) return;
            readRow(data, static_cast<Eigen::Index>(row - 1 - dataBegin_), lineNumber, line);
        });
    }

    void readRow(Dataset& data, Eigen::Index i, int lineNumber, std::string_view line) {
        if (const char* why = splitFields(line, delimiter_, fields_)) failAt(lineNumber, why);
        if (static_cast<int>(fields_.size()) != columns_) {
            failAt(lineNumber, std::to_string(fields_.size()) + " fields, expected " +
                                   std::to_string(columns_) + " as in " + reference_);
        }
        data.lines.push_back(lineNumber);
        Eigen::Index j = 0;
        for (int k = 0; k < columns_; ++k) {
            const Field& field = fields_[static_cast<std::size_t>(k)];
            double value = 0.0;
            const NumberError error = parseReal(field.raw, value);
            if (k == labelColumn_) {
                readLabel(data, i, lineNumber, field, value, error);
                continue;
            }
            if (error != NumberError::None) failFeature(lineNumber, k, field, error);
            data.dense(i, j++) = value;
        }
    }

    // A numeric label is stored; a text one is noted (LabelColumn), as is the first label
    // that fails otherwise (reported only if the labels turn out to be numeric).
    void readLabel(Dataset& data, Eigen::Index i, int lineNumber, const Field& field, double value,
                   NumberError error) {
        if (error == NumberError::None) {
            data.labels[i] = value;
        } else if (error == NumberError::NotANumber) {
            if (!label_.text) label_.firstTextLine = lineNumber;
            label_.text = true;
        } else if (label_.error.empty()) {
            label_.errorLine = lineNumber;
            label_.error = labelWhat_ + " " + inQuotes(fieldText(field)) + " " + describe(error);
        }
    }

    [[noreturn]] void failFeature(int lineNumber, int k, const Field& field,
                                  NumberError error) const {
        const std::string shown = fieldText(field);
        std::string detail = columnName(k) + ": value " + inQuotes(shown) + " " + describe(error) +
                             "; expected a number in every feature column";
        if (error == NumberError::Empty || shown == "?" || shown == "NA") {
            detail += " (missing values are not supported)";
        } else if (autoHeader_ && dataBegin_ == 0 && lineNumber == head_[0].line) {
            detail +=
                " (the first row is data, not a header: its label field is a "
                "number or a label other rows use)";
        }
        failAt(lineNumber, detail);
    }

    // The header's names: the label's and the features'.
    void nameColumns(Dataset& data) const {
        for (int k = 0; k < columns_; ++k) {
            std::string fieldName = fieldText(firstFields_[static_cast<std::size_t>(k)]);
            if (k == labelColumn_) {
                data.labelName = std::move(fieldName);
            } else {
                data.featureNames.push_back(std::move(fieldName));
            }
        }
    }

    // Text labels: every label field is read again as text; the sorted distinct texts are the
    // class names. Each row keeps the index of its text among the distinct ones.
    void readTextLabels(Dataset& data) {
        const std::size_t m = rowCount_ - dataBegin_;
        std::map<std::string, int, std::less<>> codes;  // text → first-seen index
        std::vector<int> rowCodes;
        rowCodes.reserve(m);
        std::size_t row = 0;
        forEachRow(pieces_, sourceName_, csv_, nullptr, [&](int lineNumber, std::string_view line) {
            if (row++ < dataBegin_) return;
            splitFields(line, delimiter_, fields_);  // succeeded in the pass before
            std::string text = fieldText(fields_[static_cast<std::size_t>(labelColumn_)]);
            if (text.empty()) failAt(lineNumber, labelWhat_ + " is empty");
            const auto [it, added] = codes.try_emplace(std::move(text), 0);
            if (added) it->second = static_cast<int>(codes.size()) - 1;
            rowCodes.push_back(it->second);
        });
        std::vector<int> sortedIndex(codes.size());  // first-seen index → sorted position
        data.classNames.reserve(codes.size());
        for (const auto& [text, code] : codes) {
            sortedIndex[static_cast<std::size_t>(code)] = static_cast<int>(data.classNames.size());
            data.classNames.push_back(text);
        }
        for (std::size_t i = 0; i < m; ++i) {
            data.labels[static_cast<Eigen::Index>(i)] =
                data.classValue(sortedIndex[static_cast<std::size_t>(rowCodes[i])]);
        }
    }

    Pieces& pieces_;
    const std::string& sourceName_;
    const CsvOptions& csv_;
    const bool autoHeader_;

    // The first pass.
    std::vector<Row> head_;  // the first rows, up to 10
    std::size_t rowCount_ = 0;
    HeaderProbe probe_;
    bool probing_ = false;

    // The layout.
    char delimiter_ = ',';
    std::vector<Field> firstFields_;  // of head_[0]
    bool header_ = false;
    std::size_t dataBegin_ = 0;  // 1 after a header
    int columns_ = 0;
    std::string reference_;  // "the header (line 1)", for messages
    int labelColumn_ = -1;   // -1: unlabeled
    std::string labelWhat_;  // "label (column 5 ('class'))"

    std::vector<Field> fields_;  // of the row being read
    LabelColumn label_;
};

template <class Pieces>
Dataset parseText(Pieces& pieces, const std::string& sourceName, std::string name,
                  const CsvOptions& csv, const LoadOptions& options) {
    checkOptions(csv);
    Dataset data = CsvParser<Pieces>(pieces, sourceName, csv).parse(std::move(name));
    applyLoadOptions(data, options, /*naturalSparse=*/false);
    return data;
}

std::string fileName(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

// `text` as one field: quoted when it could be misread (delimiter, quote, blanks at the ends
// or anywhere in whitespace mode, a leading comment character, or empty).
void appendText(std::string& out, const std::string& text, char delimiter) {
    // A field starting with a byte-order mark would lose it when it opens the file.
    const bool needsQuotes = text.empty() || text.find_first_of("\"\r\n") != std::string::npos ||
                             text.find(delimiter) != std::string::npos || text.front() == '#' ||
                             text.rfind("\xEF\xBB\xBF", 0) == 0 || isBlank(text.front()) ||
                             isBlank(text.back()) ||
                             (delimiter == ' ' && text.find('\t') != std::string::npos);
    if (!needsQuotes) {
        out += text;
        return;
    }
    out += '"';
    for (char c : text) {
        out += c;
        if (c == '"') out += '"';
    }
    out += '"';
}

}  // namespace

Dataset loadCsv(const std::string& path, const CsvOptions& csv, const LoadOptions& options) {
    TextPieces pieces(path);
    return parseText(pieces, path, fileName(path), csv, options);
}

Dataset parseCsv(std::string_view bytes, const std::string& sourceName, const CsvOptions& csv,
                 const LoadOptions& options) {
    std::string storage;
    OnePiece text{inputText(bytes, sourceName, storage)};
    return parseText(text, sourceName, sourceName, csv, options);
}

Dataset combineFeaturesAndLabels(Dataset features, const Dataset& labelTable,
                                 const LoadOptions& options) {
    if (labelTable.dimension() != 0) {
        throw DataError(labelTable.source, 0,
                        "a label table needs exactly one column; found " +
                            std::to_string(labelTable.dimension() + 1));
    }
    if (labelTable.size() != features.size()) {
        throw DataError(labelTable.source, 0,
                        std::to_string(labelTable.size()) + " labels for " +
                            std::to_string(features.size()) + " examples in " + features.source +
                            "; expected one label per example");
    }
    features.labels = labelTable.labels;
    features.classNames = labelTable.classNames;
    features.labelName = labelTable.labelName;
    applyLoadOptions(features, options, features.sparseStorage);
    return features;
}

Dataset loadTableWithLabels(const std::string& featuresPath, const std::string& labelsPath,
                            const CsvOptions& csv, const LoadOptions& options) {
    CsvOptions featureCsv = csv;
    featureCsv.unlabeled = true;
    featureCsv.labelName.clear();
    CsvOptions labelCsv = csv;
    labelCsv.unlabeled = false;
    labelCsv.labelName.clear();
    labelCsv.labelColumn = -1;
    LoadOptions featureOptions;
    featureOptions.storage = options.storage;
    Dataset features = loadCsv(featuresPath, featureCsv, featureOptions);
    const Dataset labels = loadCsv(labelsPath, labelCsv);
    return combineFeaturesAndLabels(std::move(features), labels, options);
}

std::string formatCsv(const Dataset& data, const CsvWriteOptions& options) {
    const char d = options.delimiter;
    if (d != ',' && d != ';' && d != '\t' && d != '|' && d != ' ') {
        throw std::invalid_argument("CsvWriteOptions::delimiter must be ',', ';', tab, '|' or ' '");
    }
    if (const std::string why = data.contractViolation(); !why.empty()) {
        throw std::invalid_argument("formatCsv: invalid dataset: " + why);
    }
    const int dimension = data.dimension();
    const bool names = options.textLabels && !data.classNames.empty();
    std::string out;
    out.reserve(static_cast<std::size_t>(data.size()) * static_cast<std::size_t>(dimension + 1) *
                8);
    auto appendRow = [&](auto&& feature, auto&& label) {
        if (options.labelFirst) {
            label();
            if (dimension > 0) out += d;
        }
        for (int j = 0; j < dimension; ++j) {
            if (j > 0) out += d;
            feature(j);
        }
        if (!options.labelFirst) {
            if (dimension > 0) out += d;
            label();
        }
        out += '\n';
    };
    if (options.header) {
        appendRow(
            [&](int j) {
                const bool named = static_cast<int>(data.featureNames.size()) > j &&
                                   !data.featureNames[static_cast<std::size_t>(j)].empty();
                appendText(out,
                           named ? data.featureNames[static_cast<std::size_t>(j)]
                                 : "x" + std::to_string(j + 1),
                           d);
            },
            [&] { appendText(out, data.labelName.empty() ? "label" : data.labelName, d); });
    }
    Eigen::VectorXd x;
    for (int i = 0; i < data.size(); ++i) {
        if (data.sparseStorage) x = data.row(i);
        appendRow([&](int j) { appendReal(out, data.sparseStorage ? x[j] : data.dense(i, j)); },
                  [&] {
                      if (names) {
                          appendText(out, data.labelText(data.labels[i]), d);
                      } else {
                          appendReal(out, data.labels[i]);
                      }
                  });
    }
    return out;
}

void writeCsv(const std::string& path, const Dataset& data, const CsvWriteOptions& options) {
    writeOutputFile(path, formatCsv(data, options), options.gzip);
}

namespace {

// The reader options, as text the option visitor reads and checks.
struct CsvReadForm {
    int label_column = -1;
    std::string label_name;
    std::string header = "auto";
    std::string delimiter = "auto";

    void visit(OptionVisitor& v) {
        v.integer("label_column", label_column,
                  "label column, 0-based; negative counts from the end (-1: the last)");
        v.text("label_name", label_name,
               "label column by its header name (not with label_column; the first row is then "
               "the header)");
        v.choice("header", header, {"auto", "yes", "no"},
                 "is the first row a header (auto: when its label is not a number and so on, "
                 "docs/formats.md)");
        v.choice("delimiter", delimiter, {"auto", "comma", "semicolon", "tab", "space", "bar"},
                 "field separator (space: runs of blanks; auto: from the first rows)");
    }
    bool isValid(std::string* why) const {
        return require(label_column >= -100000 && label_column <= 100000, "CSV reader",
                       "label_column", label_column, "must lie in [-100000, 100000]", why) &&
               requireText(label_name.empty() || header != "no", "CSV reader", "label_name",
                           label_name, "names a header column: header cannot be 'no'", why);
    }
    CsvOptions csv() const {
        CsvOptions o;
        o.labelColumn = label_column;
        o.labelName = label_name;
        o.header = header == "yes"  ? CsvHeader::Yes
                   : header == "no" ? CsvHeader::No
                                    : CsvHeader::Auto;
        o.delimiter = delimiter == "comma"       ? ','
                      : delimiter == "semicolon" ? ';'
                      : delimiter == "tab"       ? '\t'
                      : delimiter == "space"     ? ' '
                      : delimiter == "bar"       ? '|'
                                                 : 0;
        return o;
    }
};

// label_name and label_column both choose the label column: given together, one would be
// ignored silently, so both are refused.
bool oneLabelChoice(const OptionValues& options, std::string* why) {
    if (!options.count("label_name") || !options.count("label_column")) return true;
    *why = "CSV reader: label_name and label_column both choose the label column; give one";
    return false;
}

}  // namespace

std::vector<OptionInfo> csvReaderOptions() {
    return describeOptions<CsvReadForm>();
}

bool checkCsvReaderOptions(const OptionValues& options, std::string* why) {
    CsvReadForm form;
    return oneLabelChoice(options, why) && assignOptions(form, options, why) && form.isValid(why);
}

Dataset readCsvSource(const std::string& path, const LoadOptions& options,
                      const OptionValues& readerOptions) {
    CsvReadForm form;
    std::string why;
    if (!oneLabelChoice(readerOptions, &why) || !assignOptions(form, readerOptions, &why) ||
        !form.isValid(&why))
        throw std::invalid_argument(path + ": " + why);
    return loadCsv(path, form.csv(), options);
}

int sniffCsv(const FilePrefix& prefix) {
    if (prefix.hasExtension(".csv")) return 2;
    const std::string& head = prefix.head;
    std::size_t start = 0;
    int lines = 0;
    std::size_t fields = 0;
    bool numericRow = false;  // a line of numbers only (the others may be a header)
    while (start < head.size()) {
        std::size_t end = head.find('\n', start);
        if (end == std::string::npos) {
            if (!prefix.whole) break;  // a line cut by the prefix window
            end = head.size();
        }
        const std::string_view line(head.data() + start, end - start);
        start = end + 1;
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string_view::npos || line[first] == '#') continue;
        if (lines == 0 && line.find_first_of(",;") != std::string_view::npos)
            return line.find(':') == std::string_view::npos ? 2 : 0;
        if (line.find(':') != std::string_view::npos) return 0;
        std::size_t count = 0;
        bool numbers = true;
        for (std::size_t pos = 0;;) {
            const std::string_view token = nextToken(line, pos);
            if (token.empty()) break;
            double value = 0.0;
            numbers = numbers && parseReal(token, value) == NumberError::None;
            ++count;
        }
        numericRow = numericRow || numbers;
        if (lines > 0 && count != fields) return 0;
        fields = count;
        ++lines;
    }
    return numericRow && fields >= 2 ? 2 : 0;
}

}  // namespace cplab
