// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/npz_format.h"

#include <zip.h>

#include <memory>
#include <stdexcept>

#include "data/array_format.h"
#include "data/data_error.h"
#include "data/npy_format.h"

namespace cplab {

namespace {

struct ArchiveCloser {
    void operator()(zip_t* archive) const { zip_discard(archive); }
};
using Archive = std::unique_ptr<zip_t, ArchiveCloser>;

class EntryReader : public ArrayByteSource {
  public:
    EntryReader(zip_t* archive, zip_uint64_t index, std::string where)
        : file_(zip_fopen_index(archive, index, 0)), where_(std::move(where)) {
        if (!file_)
            throw DataError(where_, 0,
                            std::string("cannot read the entry: ") + zip_strerror(archive));
    }
    ~EntryReader() override { zip_fclose(file_); }
    EntryReader(const EntryReader&) = delete;
    EntryReader& operator=(const EntryReader&) = delete;
    std::size_t read(char* out, std::size_t count) override {
        std::size_t total = 0;
        while (total < count) {
            const zip_int64_t got = zip_fread(file_, out + total, count - total);
            if (got < 0)
                throw DataError(where_, 0,
                                std::string("corrupt entry: ") + zip_file_strerror(file_));
            if (got == 0) break;
            total += static_cast<std::size_t>(got);
        }
        return total;
    }

  private:
    zip_file_t* file_;
    std::string where_;
};

Archive openArchive(zip_source_t* source, const std::string& where) {
    zip_error_t error;
    zip_error_init(&error);
    zip_t* archive = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error);
    if (!archive) {
        const std::string why = zip_error_strerror(&error);
        zip_error_fini(&error);
        zip_source_free(source);
        throw DataError(where, 0, "not a readable .npz (zip) archive: " + why);
    }
    zip_error_fini(&error);
    return Archive(archive);
}

// The names of the archive's arrays, for messages: "X, y" (at most 20).
std::string arrayNames(zip_t* archive) {
    std::string names;
    const zip_int64_t count = zip_get_num_entries(archive, 0);
    for (zip_int64_t k = 0; k < count && k < 20; ++k) {
        const char* entry = zip_get_name(archive, static_cast<zip_uint64_t>(k), 0);
        std::string name = entry ? entry : "?";
        if (name.size() > 4 && name.compare(name.size() - 4, 4, ".npy") == 0)
            name.resize(name.size() - 4);
        names += (names.empty() ? "" : ", ") + name;
    }
    if (count > 20) names += ", ...";
    return names.empty() ? "none" : names;
}

// The entry of the array `name` ("X": the entry "X.npy", or "X" itself), with its uncompressed
// size checked against its compressed size.
zip_uint64_t findArray(zip_t* archive, const std::string& name, const std::string& path,
                       const char* option, unsigned long long* size) {
    zip_int64_t index = zip_name_locate(archive, (name + ".npy").c_str(), 0);
    if (index < 0) index = zip_name_locate(archive, name.c_str(), 0);
    if (index < 0)
        throw DataError(path, 0,
                        "no array '" + name + "' (it holds: " + arrayNames(archive) +
                            "); choose with --data-set " + option + "=NAME");
    zip_stat_t stat;
    zip_stat_init(&stat);
    if (zip_stat_index(archive, static_cast<zip_uint64_t>(index), 0, &stat) != 0 ||
        !(stat.valid & ZIP_STAT_SIZE) || !(stat.valid & ZIP_STAT_COMP_SIZE))
        throw DataError(path, 0, "array '" + name + "': its entry has no size");
    const unsigned long long limit =
        stat.comp_method == ZIP_CM_STORE ? stat.comp_size : stat.comp_size * kMaxDeflateRatio;
    if (stat.size > limit)
        throw DataError(path, 0,
                        "array '" + name + "' declares " + std::to_string(stat.size) +
                            " bytes from " + std::to_string(stat.comp_size) +
                            " compressed ones: more than the file can hold");
    *size = stat.size;
    return static_cast<zip_uint64_t>(index);
}

Dataset readArchive(zip_t* archive, const std::string& path, const OptionValues& readerOptions,
                    const LoadOptions& options) {
    const NamedArrays names = namedArrays(readerOptions, path);
    Dataset data;
    unsigned long long size = 0;
    const zip_uint64_t x = findArray(archive, names.x, path, "x", &size);
    {
        EntryReader in(archive, x, path + " (array '" + names.x + "')");
        readNpyExamples(in, size, path + " (array '" + names.x + "')", names.labelColumn,
                        names.labelsInX(), data);
    }
    if (!names.labelsInX()) {
        const zip_uint64_t y = findArray(archive, names.y, path, "y", &size);
        EntryReader in(archive, y, path + " (array '" + names.y + "')");
        readNpyLabels(in, size, path + " (array '" + names.y + "')", data.dense.rows(),
                      data.labels);
    }
    finishArrayDataset(data, path, options, false);
    return data;
}

}  // namespace

Dataset loadNpz(const std::string& path, const LoadOptions& options,
                const OptionValues& readerOptions) {
    zip_error_t error;
    zip_error_init(&error);
    zip_source_t* source = zip_source_file_create(path.c_str(), 0, -1, &error);
    if (!source) {
        const std::string why = zip_error_strerror(&error);
        zip_error_fini(&error);
        throw DataError(path, 0, "cannot open: " + why);
    }
    zip_error_fini(&error);
    const Archive archive = openArchive(source, path);
    return readArchive(archive.get(), path, readerOptions, options);
}

Dataset decodeNpz(std::string_view bytes, const std::string& sourceName,
                  const OptionValues& readerOptions, const LoadOptions& options) {
    zip_error_t error;
    zip_error_init(&error);
    zip_source_t* source = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
    zip_error_fini(&error);
    if (!source) throw DataError(sourceName, 0, "out of memory");
    const Archive archive = openArchive(source, sourceName);
    return readArchive(archive.get(), sourceName, readerOptions, options);
}

int sniffNpz(const FilePrefix& prefix) {
    if (prefix.hasExtension(".npz")) return 5;
    const std::string& head = prefix.head;
    if (head.size() < 30 || head.compare(0, 4, "PK\x03\x04") != 0) return 0;
    const std::size_t nameLength =
        static_cast<unsigned char>(head[26]) + 256u * static_cast<unsigned char>(head[27]);
    if (nameLength < 4 || head.size() < 30 + nameLength) return 0;
    return head.compare(30 + nameLength - 4, 4, ".npy") == 0 ? 5 : 0;
}

}  // namespace cplab
