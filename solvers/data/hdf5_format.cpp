// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/hdf5_format.h"

#include <hdf5.h>

#include <algorithm>
#include <filesystem>
#include <utility>
#include <vector>

#include "data/array_format.h"
#include "data/child_read.h"
#include "data/data_error.h"

namespace cplab {

namespace {

constexpr std::size_t kBlockValues = std::size_t{1} << 17;  // 1 MiB of doubles per read

// An HDF5 identifier closed by its own close function.
class Handle {
  public:
    Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
    ~Handle() {
        if (id_ >= 0) close_(id_);
    }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, -1)), close_(other.close_) {}
    Handle& operator=(Handle&&) = delete;
    hid_t get() const { return id_; }
    bool valid() const { return id_ >= 0; }

  private:
    hid_t id_;
    herr_t (*close_)(hid_t);
};

herr_t collectName(hid_t, const char* name, const H5L_info_t*, void* names) {
    auto& list = *static_cast<std::string*>(names);
    if (list.size() < 400) list += (list.empty() ? "" : ", ") + std::string(name);
    return 0;
}

std::string rootMembers(hid_t file) {
    std::string names;
    H5Literate(file, H5_INDEX_NAME, H5_ITER_NATIVE, nullptr, &collectName, &names);
    return names.empty() ? "none" : names;
}

// A numeric dataset's shape, checked against the bytes the file can hold.
ArrayShape datasetShape(hid_t dataset, const std::string& path, const std::string& what,
                        bool vector, unsigned long long fileBytes) {
    const Handle type(H5Dget_type(dataset), &H5Tclose);
    const H5T_class_t typeClass = H5Tget_class(type.get());
    if (typeClass != H5T_INTEGER && typeClass != H5T_FLOAT)
        throw DataError(path, 0,
                        what + " holds " +
                            (typeClass == H5T_STRING ? "text" : "values that are not numbers") +
                            ": expected integers or floats");
    const Handle space(H5Dget_space(dataset), &H5Sclose);
    const int rank = H5Sget_simple_extent_ndims(space.get());
    hsize_t dims[2] = {0, 0};
    if (rank < 1 || rank > 2 || H5Sget_simple_extent_dims(space.get(), dims, nullptr) < 0)
        throw DataError(path, 0,
                        what + " has " + std::to_string(rank) + " dimensions: expected " +
                            (vector ? "a vector of labels" : "a 2-D array"));
    ArrayShape shape{static_cast<long long>(dims[0]),
                     rank == 2 ? static_cast<long long>(dims[1]) : 1, false};
    if (vector && rank == 2) {
        if (shape.rows != 1 && shape.cols != 1)
            throw DataError(path, 0,
                            what + " is " + std::to_string(shape.rows) + " x " +
                                std::to_string(shape.cols) +
                                ": expected a vector of one label per example");
        shape = {shape.rows * shape.cols, 1, false};
    }
    if (!vector && rank != 2)
        throw DataError(path, 0, what + " is a vector: expected a 2-D array (examples x features)");
    // Storage that is not there reads as fill values: a dataset may declare only what its
    // stored (perhaps compressed) bytes and the file can expand to.
    const unsigned long long stored =
        std::min<unsigned long long>(H5Dget_storage_size(dataset), fileBytes);
    const unsigned long long elementBytes = H5Tget_size(type.get());
    checkArrayFits(shape, static_cast<int>(std::min<unsigned long long>(elementBytes, 16)),
                   stored * kMaxDeflateRatio, path, what);
    return shape;
}

// A contiguous dataset's bytes lie within the file (offset and size as its layout says); a
// compact one holds all its bytes in its header (libhdf5 copied from a null pointer for a
// compact dataset of 12 values with none stored: a segmentation fault). Chunked data reads
// missing chunks as fill values.
void checkStored(hid_t dataset, const std::string& path, const std::string& what,
                 unsigned long long fileBytes) {
    const Handle plist(H5Dget_create_plist(dataset), &H5Pclose);
    const H5D_layout_t layout = plist.valid() ? H5Pget_layout(plist.get()) : H5D_LAYOUT_ERROR;
    if (layout != H5D_CONTIGUOUS && layout != H5D_COMPACT) return;
    const Handle type(H5Dget_type(dataset), &H5Tclose);
    const Handle space(H5Dget_space(dataset), &H5Sclose);
    const hssize_t points = H5Sget_simple_extent_npoints(space.get());
    const unsigned long long needed =
        points < 0 ? 0 : static_cast<unsigned long long>(points) * H5Tget_size(type.get());
    const unsigned long long stored = H5Dget_storage_size(dataset);
    bool holds = stored >= needed;
    if (layout == H5D_CONTIGUOUS) {
        const haddr_t offset = H5Dget_offset(dataset);
        if (offset == HADDR_UNDEF && stored == 0) return;  // never written: fill values
        holds =
            holds && offset != HADDR_UNDEF && offset <= fileBytes && needed <= fileBytes - offset;
    }
    if (!holds)
        throw DataError(path, 0,
                        what + " declares " + std::to_string(needed) +
                            " bytes of data that the file does not hold: truncated or corrupt");
}

// Reads the dataset in blocks of rows (converted to double by HDF5) into `sink`.
void readBlocks(hid_t dataset, const ArrayShape& shape, int rank, ArraySink& sink,
                const std::string& path, const std::string& what) {
    const Handle fileSpace(H5Dget_space(dataset), &H5Sclose);
    const long long total = shape.rows * shape.cols;
    // Rows as stored (a (1, m) vector of labels is one row of m, though `shape` is m x 1).
    hsize_t dims[2] = {0, 0};
    H5Sget_simple_extent_dims(fileSpace.get(), dims, nullptr);
    const long long perRow = rank == 2 ? static_cast<long long>(std::max<hsize_t>(dims[1], 1)) : 1;
    const long long blockRows = std::max<long long>(1, kBlockValues / perRow);
    std::vector<double> block(static_cast<std::size_t>(std::min(total, blockRows * perRow)));
    for (hsize_t row = 0; row < dims[0]; row += blockRows) {
        const hsize_t count[2] = {std::min<hsize_t>(blockRows, dims[0] - row), dims[1]};
        const hsize_t start[2] = {row, 0};
        const Handle memory(H5Screate_simple(rank, count, nullptr), &H5Sclose);
        if (H5Sselect_hyperslab(fileSpace.get(), H5S_SELECT_SET, start, nullptr, count, nullptr) <
                0 ||
            H5Dread(dataset, H5T_NATIVE_DOUBLE, memory.get(), fileSpace.get(), H5P_DEFAULT,
                    block.data()) < 0)
            throw DataError(path, 0, "cannot read " + what + ": truncated or corrupt");
        const std::size_t values = count[0] * (rank == 2 ? count[1] : 1);
        for (std::size_t k = 0; k < values; ++k)
            sink.put(block[k]);
    }
}

Handle openDataset(hid_t file, const std::string& name, const std::string& path,
                   const char* option) {
    const bool exists = H5Lexists(file, name.c_str(), H5P_DEFAULT) > 0;
    Handle dataset(exists ? H5Dopen2(file, name.c_str(), H5P_DEFAULT) : -1, &H5Dclose);
    if (!dataset.valid())
        throw DataError(path, 0,
                        "no dataset '" + name + "' (the root group holds: " + rootMembers(file) +
                            "); choose with --data-set " + option + "=PATH");
    return dataset;
}

int datasetRank(hid_t dataset) {
    const Handle space(H5Dget_space(dataset), &H5Sclose);
    return H5Sget_simple_extent_ndims(space.get());
}

Dataset readHdf5(hid_t file, const std::string& path, const NamedArrays& names,
                 unsigned long long fileBytes) {
    Dataset data;
    const std::string xWhat = "dataset '" + names.x + "'";
    const Handle x = openDataset(file, names.x, path, "x");
    const ArrayShape shape = datasetShape(x.get(), path, xWhat, false, fileBytes);
    checkStored(x.get(), path, xWhat, fileBytes);
    const std::string where = path + " (" + xWhat + ")";
    const int column =
        names.labelsInX() ? resolveLabelColumn(names.labelColumn, shape.cols, where) : -1;
    ArraySink sink(data, shape, column, where);
    readBlocks(x.get(), shape, 2, sink, path, xWhat);
    if (!names.labelsInX()) {
        const std::string yWhat = "dataset '" + names.y + "'";
        const Handle y = openDataset(file, names.y, path, "y");
        const ArrayShape labels = datasetShape(y.get(), path, yWhat, true, fileBytes);
        checkStored(y.get(), path, yWhat, fileBytes);
        checkLabelCount(labels.rows, shape.rows, path, yWhat);
        ArraySink labelSink(data.labels, labels, path + " (" + yWhat + ")");
        readBlocks(y.get(), labels, datasetRank(y.get()), labelSink, path, yWhat);
    }
    return data;
}

}  // namespace

std::mutex& hdf5Mutex() {
    static std::mutex mutex;
    return mutex;
}

void checkHdf5Storage(const std::string& path, const std::string& name, const std::string& what,
                      unsigned long long fileBytes) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    const Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), &H5Fclose);
    if (!file.valid()) return;
    const Handle dataset(H5Dopen2(file.get(), ("/" + name).c_str(), H5P_DEFAULT), &H5Dclose);
    if (dataset.valid()) checkStored(dataset.get(), path, what, fileBytes);
}

Dataset loadHdf5(const std::string& path, const LoadOptions& options,
                 const OptionValues& readerOptions) {
    const NamedArrays names = namedArrays(readerOptions, path);
    const unsigned long long fileBytes = arrayFileBytes(path);
    Dataset data;
    {
        // libhdf5 is not hardened against corrupt files: it reads them in a child process.
        const std::lock_guard<std::mutex> lock(hdf5Mutex());
        data = readInChildProcess(path, fileBytes, "the HDF5 library", [&] {
            H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors are ours to report
            if (H5Fis_hdf5(path.c_str()) <= 0)
                throw DataError(path, 0, "not an HDF5 file (no HDF5 signature, or truncated)");
            const Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), &H5Fclose);
            if (!file.valid())
                throw DataError(path, 0, "HDF5 cannot open it: truncated or corrupt");
            return readHdf5(file.get(), path, names, fileBytes);
        });
    }
    finishArrayDataset(data, path, options, false);
    return data;
}

int sniffHdf5(const FilePrefix& prefix) {
    if (prefix.hasExtension(".h5") || prefix.hasExtension(".hdf5")) return 5;
    static const std::string signature("\x89HDF\r\n\x1a\n", 8);
    const std::string& head = prefix.head;
    if (head.compare(0, signature.size(), signature) == 0) return 5;
    for (std::size_t offset : {512u, 1024u, 2048u})
        if (head.size() >= offset + signature.size() &&
            head.compare(offset, signature.size(), signature) == 0)
            return 4;
    return 0;
}

}  // namespace cplab
