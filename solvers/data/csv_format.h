// SPDX-License-Identifier: GPL-3.0-or-later
// Delimited text tables (CSV, whitespace tables), read and written; and a helper that joins a
// feature table with a separate label file (ripley's .asc pairs).
//
// One example per line; every row has the same number of fields; every field except the
// label column is a finite number. Blank lines and lines starting with the comment character
// are skipped; LF or CRLF; a UTF-8 BOM is ignored; gzip is detected by magic bytes. Fields may
// be "quoted" (with "" for a quote inside), but a quoted field cannot span lines.
//
// Labels: numeric when every label field is a number; otherwise every label is text and the
// sorted distinct texts become classNames, mapped as documented in dataset.h (two classes:
// −1/+1; otherwise 0..K−1).
//
// The natural storage is dense (LoadOptions::storage = Auto).
#pragma once

#include <string>
#include <string_view>

#include "data/data_format.h"
#include "data/dataset.h"
#include "data/load_options.h"

namespace cplab {

enum class CsvHeader {
    // The first row is a header iff its label field is not a number, no other row of the file
    // has that text as its label, and either another of its fields is not a number (a row of
    // names) or the label fields of the next rows (up to nine) are numbers. Without a label
    // column (unlabeled), or with a single row: iff none of its fields is a number. This tells
    // bupa's header from sonar's first row (numbers and "R", a label later rows use), and a
    // first row whose label is a number is data: a text among its features is an error at
    // line 1, as on any other line, never a header that silently drops an example.
    Auto,
    Yes,
    No,
};

struct CsvOptions {
    // Field separator: ',' ';' '\t' or '|' split at that character (blanks around fields are
    // trimmed); ' ' splits at runs of spaces and tabs (whitespace tables such as housing.data
    // or ripley's .asc files); 0 = auto: ';' or '|' when each of the first rows (up to 10) has
    // the same nonzero number of them, else ',' when the first row contains a comma, else ' '.
    char delimiter = 0;
    CsvHeader header = CsvHeader::Auto;
    // Label column, 0-based; negative counts from the end. Default −1, the last column: the
    // UCI convention (sonar, ionosphere, bupa's selector, housing's MEDV). Use 0 for tables
    // that put the label first.
    int labelColumn = -1;
    // Label column by its header name; when set it wins over labelColumn and the first row is
    // taken as a header (CsvHeader::No with a name is an std::invalid_argument).
    std::string labelName;
    // No label column: every column is a feature and all labels are 0 (feature tables; see
    // loadTableWithLabels).
    bool unlabeled = false;
    // Rows whose first non-blank character is this are skipped; 0 = none.
    char comment = '#';
};

// Loads the table at `path`. name = the file name, source = `path`.
Dataset loadCsv(const std::string& path, const CsvOptions& csv = {},
                const LoadOptions& options = {});

// Parses a table (or its gzip) held in memory; `sourceName` is used in messages and becomes
// name and source.
Dataset parseCsv(std::string_view bytes, const std::string& sourceName, const CsvOptions& csv = {},
                 const LoadOptions& options = {});

// Gives `features` the labels of `labelTable`, a table with a single (label) column and one row
// per example, e.g. ripley_train_labels.asc. Throws DataError when labelTable has more than
// one column or a different number of rows; then applies `options` (e.g. minClasses = 2 or
// binaryLabels = true for ripley's 0/1).
Dataset combineFeaturesAndLabels(Dataset features, const Dataset& labelTable,
                                 const LoadOptions& options = {});

// Loads a feature table (all columns are features) and a label table with `csv`'s delimiter,
// header and comment settings, and combines them. name = the feature file's name,
// source = featuresPath.
Dataset loadTableWithLabels(const std::string& featuresPath, const std::string& labelsPath,
                            const CsvOptions& csv = {}, const LoadOptions& options = {});

struct CsvWriteOptions {
    // ',' ';' '\t' '|' or ' ' (one space between fields).
    char delimiter = ',';
    // A first row with featureNames (or x1..xd where a name is empty) and the label column's
    // name (labelName, or "label").
    bool header = true;
    // Label as the first column; default last, which is where loadCsv looks by default.
    bool labelFirst = false;
    // Write the classNames text of text-labelled datasets (else the label numbers).
    bool textLabels = true;
    // Gzip-compress the file (writeCsv only).
    bool gzip = false;
};

// Table text of `data`, numbers in shortest round-trip form, so that parseCsv(formatCsv(x))
// reproduces x exactly (features, labels, names; classNames as long as every class occurs).
// Throws std::invalid_argument when `data` breaks the Dataset contract or the delimiter is not
// one of the above.
std::string formatCsv(const Dataset& data, const CsvWriteOptions& options = {});

// Writes formatCsv(data, options) to `path`. Throws DataError.
void writeCsv(const std::string& path, const Dataset& data, const CsvWriteOptions& options = {});

// The CSV reader's options as the format table offers them (DataSource::options, `cplab-cli
// run --data-set`): label_column (0-based, negative from the end; default -1, the last),
// label_name (the label column by its header name), header (auto, yes, no) and delimiter
// (auto, comma, semicolon, tab, space, bar).
std::vector<OptionInfo> csvReaderOptions();
bool checkCsvReaderOptions(const OptionValues& options, std::string* why);
// loadCsv with those options.
Dataset readCsvSource(const std::string& path, const LoadOptions& options,
                      const OptionValues& readerOptions);

// The format table's sniff (data_format.h): 2 when the name ends in .csv, or the lines that are
// neither empty nor comments in the prefix say CSV: the first has a ',' or ';' and no LIBSVM
// "index:value" token (UCI files such as sonar.all-data are CSV without the extension); or no
// line has a ':', every line has the same number (two or more) of blank-separated fields and one
// at least holds numbers only (a whitespace table such as housing.data; a LIBSVM line holds ':'
// in every token after its label, so a file with one bad line stays LIBSVM and is reported as
// such). Else 0.
int sniffCsv(const FilePrefix& prefix);

}  // namespace cplab
