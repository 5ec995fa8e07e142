// SPDX-License-Identifier: GPL-3.0-or-later
// The format table: every data file format cplab reads, in one place. Each format declares its
// name, what it yields (its kind), its file-name extensions, a sniff over the first bytes of a
// file, and its reader. A file is opened and its first bytes read once (readFilePrefix); every
// format's sniff looks at that one buffer, and the answer is a DataSource — a plain value (path
// and format name) that a session can store and reopen, and that the readers below take.
//
// Adding a format: its file pair in solvers/data (the reader and `int sniff<Format>(const
// FilePrefix&)`) and one line in the table of data_format.cpp. Which families read a format is
// said by the families (Family::dataKinds in app/registry/family.h: the kinds of data they read),
// not here.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/options.h"

namespace cplab {

struct Dataset;
struct Image;
struct LoadOptions;
struct SequenceData;
struct UaiTables;

// What a format's reader yields.
enum class DataKind {
    Examples,    // a Dataset of feature vectors and labels
    KernelRows,  // a Dataset whose features are kernel values K(x_i, x_j)
    Sequences,   // labelled sequences (SequenceData)
    Model,       // a graphical model (UaiTables)
    Image,       // a raster image
};

// The first bytes of a file, read once, with its name: what every sniff looks at.
struct FilePrefix {
    std::string path;
    // The file name in lower case, without a trailing ".gz" ("Grids_26.uai.gz" → "grids_26.uai").
    std::string name;
    // At most the first kPrefixBytes of the content (inflated when it is gzip); empty when the
    // file could not be read or is empty.
    std::string head;
    bool whole = false;  // `head` is the whole content (the file is shorter than kPrefixBytes)

    bool hasExtension(std::string_view extension) const;  // ".csv": name ends with it
};

inline constexpr std::size_t kPrefixBytes = 4096;

// The reader of a format: exactly one member is set, the one of its kind. Readers throw
// DataError naming the file, the line and what was expected.
struct DataReader {
    // Examples and kernel rows, with the source's reader options (DataSource::options, already
    // checked). For kernel rows `options.dimension` is the number of training examples the
    // rows are against (0: a training file, which must be square).
    Dataset (*examples)(const std::string& path, const LoadOptions& options,
                        const OptionValues& readerOptions) = nullptr;
    SequenceData (*sequences)(const std::string& path) = nullptr;
    UaiTables (*model)(const std::string& path) = nullptr;
    Image (*image)(const std::string& path) = nullptr;
};

struct DataFormat {
    std::string_view name;   // "libsvm": stored in sessions, printed by the CLI
    std::string_view title;  // "LIBSVM/SVMlight", for messages and file dialogs
    DataKind kind;
    std::vector<std::string_view> extensions;  // in lower case, without ".gz": {".csv"}
    // 0: not this format; higher: a better match. By convention 1 = "any text could be it" (the
    // fallback), 2 = the content says so, 3 = the content says so and rules out the fallback,
    // 5 = the name or a magic number says so.
    int (*sniff)(const FilePrefix& prefix);
    DataReader read;
    // The reader's options (CSV: label_column, delimiter, header) with their defaults and
    // help, and their check; null: the format takes none.
    std::vector<OptionInfo> (*readerOptions)() = nullptr;
    bool (*checkReaderOptions)(const OptionValues& options, std::string* why) = nullptr;
};

// The table, in order of precedence on equal sniff scores.
const std::vector<DataFormat>& dataFormats();
// The format of that name, or null.
const DataFormat* findDataFormat(std::string_view name);

// A data file as cplab reads it: where, and in which format (a name of the table). A plain
// value: the GUI, the CLI and sessions pass it around; reading it again gives the same data.
struct DataSource {
    DataSource() = default;
    DataSource(std::string path_, std::string format_, OptionValues options_ = {})
        : path(std::move(path_)), format(std::move(format_)), options(std::move(options_)) {}

    std::string path;
    std::string format;
    // Options of its format's reader (`cplab-cli run --data-set label_column=0`); empty: the
    // format's defaults.
    OptionValues options;

    const DataFormat& dataFormat() const;  // std::invalid_argument for an unknown name
    bool operator==(const DataSource&) const = default;
};

// False and *why (naming the format and the options it takes) when `source.options` has an
// option its format's reader does not take, or a value it refuses.
bool checkReaderOptions(const DataSource& source, std::string* why);

// Reads the first bytes of `path` once (a stream is kept whole for its loader, text_io.h).
// Throws DataError when the file cannot be read (missing, a directory, no permission).
FilePrefix readFilePrefix(const std::string& path);

// The formats that could read the file, best first (ties in table order), with their scores.
struct FormatMatch {
    const DataFormat* format = nullptr;
    int score = 0;
};
std::vector<FormatMatch> sniffFormats(const FilePrefix& prefix);

// A file that must be of `kind` (a test file, data to predict) as a data source: its best
// format of that kind (none matching: the kind's first, whose reader then says what is wrong).
// DataError when the file cannot be read.
DataSource sourceOfKind(const std::string& path, DataKind kind);

// Reads the source with its format's reader; std::invalid_argument when the format yields
// another kind (e.g. readSequences of a UAI model) or the reader options are refused
// (checkReaderOptions). `options` apply to examples and kernel rows.
Dataset readExamples(const DataSource& source, const LoadOptions& options);
SequenceData readSequences(const DataSource& source);
UaiTables readModel(const DataSource& source);
Image readImage(const DataSource& source);

}  // namespace cplab
