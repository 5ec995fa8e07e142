// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/data_format.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <stdexcept>

#include "data/csv_format.h"
#include "data/data_error.h"
#include "data/dataset.h"
#include "data/hdf5_format.h"
#include "data/image_format.h"
#include "data/libsvm_format.h"
#include "data/mat_format.h"
#include "data/netpbm_format.h"
#include "data/npy_format.h"
#include "data/npz_format.h"
#include "data/precomputed_format.h"
#include "data/sequence_format.h"
#include "data/text_io.h"
#include "data/uai_format.h"

namespace cplab {

namespace {

Dataset readLibsvm(const std::string& path, const LoadOptions& options, const OptionValues&) {
    return loadLibsvm(path, options);
}

Dataset readPrecomputedRows(const std::string& path, const LoadOptions& options,
                            const OptionValues&) {
    return loadPrecomputedKernel(path, options.dimension);
}

UaiTables readFactorGraph(const std::string& path) {
    return loadLibdaiFactorGraph(path);
}

}  // namespace

const std::vector<DataFormat>& dataFormats() {
    // One line per format. Equal scores go to the earlier line.
    // clang-format off
    static const std::vector<DataFormat> table = {
        {"libsvm", "LIBSVM/SVMlight", DataKind::Examples, {".libsvm", ".svm"}, &sniffLibsvm, {.examples = &readLibsvm}},
        {"csv", "CSV", DataKind::Examples, {".csv"}, &sniffCsv, {.examples = &readCsvSource}, &csvReaderOptions, &checkCsvReaderOptions},
        {"npy", "NumPy .npy", DataKind::Examples, {".npy"}, &sniffNpy, {.examples = &loadNpy}, &npyReaderOptions, &checkNpyReaderOptions},
        {"npz", "NumPy .npz", DataKind::Examples, {".npz"}, &sniffNpz, {.examples = &loadNpz}, &namedArrayOptions, &checkNamedArrayOptions},
        {"mat", "MATLAB .mat", DataKind::Examples, {".mat"}, &sniffMat, {.examples = &loadMat}, &namedArrayOptions, &checkNamedArrayOptions},
        {"hdf5", "HDF5", DataKind::Examples, {".h5", ".hdf5"}, &sniffHdf5, {.examples = &loadHdf5}, &namedArrayOptions, &checkNamedArrayOptions},
        {"precomputed", "LIBSVM precomputed kernel", DataKind::KernelRows, {}, &sniffPrecomputedKernel, {.examples = &readPrecomputedRows}},
        {"letter", "Taskar's letter.data", DataKind::Sequences, {}, &sniffLetterData, {.sequences = &loadLetterData}},
        {"seq", "labelled sequences", DataKind::Sequences, {".seq"}, &sniffSequences, {.sequences = &loadSequences}},
        {"uai", "UAI MARKOV model", DataKind::Model, {".uai"}, &sniffUai, {.model = &loadUai}},
        {"fg", "libDAI factor graph", DataKind::Model, {".fg"}, &sniffFactorGraph, {.model = &readFactorGraph}},
        {"png", "PNG image", DataKind::Image, {".png"}, &sniffPng, {.image = &loadPng}},
        {"netpbm", "PBM/PGM/PPM image", DataKind::Image, {".pbm", ".pgm", ".ppm", ".pnm"}, &sniffNetpbm, {.image = &loadNetpbm}},
    };
    // clang-format on
    return table;
}

const DataFormat* findDataFormat(std::string_view name) {
    for (const auto& format : dataFormats())
        if (format.name == name) return &format;
    return nullptr;
}

bool FilePrefix::hasExtension(std::string_view extension) const {
    return name.size() >= extension.size() &&
           name.compare(name.size() - extension.size(), extension.size(), extension) == 0;
}

const DataFormat& DataSource::dataFormat() const {
    if (const DataFormat* known = findDataFormat(format)) return *known;
    std::string names;
    for (const auto& f : dataFormats())
        names += (names.empty() ? "" : ", ") + std::string(f.name);
    throw std::invalid_argument(path + ": unknown data format '" + format + "' (formats: " + names +
                                ")");
}

bool checkReaderOptions(const DataSource& source, std::string* why) {
    const DataFormat& format = source.dataFormat();
    if (source.options.empty()) return true;
    if (!format.checkReaderOptions) {
        if (why)
            *why = source.path + ": a " + std::string(format.title) +
                   " file, whose reader takes no options (got '" + source.options.begin()->first +
                   "')";
        return false;
    }
    if (format.checkReaderOptions(source.options, why)) return true;
    if (why) *why = source.path + ": " + *why;
    return false;
}

FilePrefix readFilePrefix(const std::string& path) {
    FilePrefix prefix;
    prefix.path = path;
    std::string name = std::filesystem::path(path).filename().string();
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (name.size() > 3 && name.compare(name.size() - 3, 3, ".gz") == 0)
        name.resize(name.size() - 3);
    prefix.name = std::move(name);
    prefix.head = readInputHead(path, kPrefixBytes);
    // An empty head is an empty file or one that cannot be read: the reader says which.
    if (prefix.head.empty()) (void)readInputFile(path);
    prefix.whole = prefix.head.size() < kPrefixBytes;
    return prefix;
}

std::vector<FormatMatch> sniffFormats(const FilePrefix& prefix) {
    std::vector<FormatMatch> matches;
    for (const auto& format : dataFormats()) {
        if (const int score = format.sniff(prefix); score > 0) matches.push_back({&format, score});
    }
    std::stable_sort(matches.begin(), matches.end(),
                     [](const FormatMatch& a, const FormatMatch& b) { return a.score > b.score; });
    return matches;
}

DataSource sourceOfKind(const std::string& path, DataKind kind) {
    for (const FormatMatch& match : sniffFormats(readFilePrefix(path))) {
        if (match.format->kind == kind) return {path, std::string(match.format->name)};
    }
    // None looks right: the kind's first format reads it and says what is wrong, line by line.
    for (const DataFormat& format : dataFormats())
        if (format.kind == kind) return {path, std::string(format.name)};
    throw std::logic_error("no data format reads this kind of data");
}

namespace {

[[noreturn]] void wrongKind(const DataSource& source, const char* wanted) {
    throw std::invalid_argument(source.path + ": a " + std::string(source.dataFormat().title) +
                                " file, not " + wanted);
}

}  // namespace

// The reader options checked; std::invalid_argument with the reason.
void requireReaderOptions(const DataSource& source) {
    std::string why;
    if (!checkReaderOptions(source, &why)) throw std::invalid_argument(why);
}

Dataset readExamples(const DataSource& source, const LoadOptions& options) {
    const DataFormat& format = source.dataFormat();
    if (!format.read.examples) wrongKind(source, "a dataset");
    requireReaderOptions(source);
    return format.read.examples(source.path, options, source.options);
}

SequenceData readSequences(const DataSource& source) {
    const DataFormat& format = source.dataFormat();
    if (!format.read.sequences) wrongKind(source, "labelled sequences");
    requireReaderOptions(source);
    return format.read.sequences(source.path);
}

UaiTables readModel(const DataSource& source) {
    const DataFormat& format = source.dataFormat();
    if (!format.read.model) wrongKind(source, "a graphical model");
    requireReaderOptions(source);
    return format.read.model(source.path);
}

Image readImage(const DataSource& source) {
    const DataFormat& format = source.dataFormat();
    if (!format.read.image) wrongKind(source, "an image");
    requireReaderOptions(source);
    return format.read.image(source.path);
}

}  // namespace cplab
