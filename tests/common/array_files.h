// SPDX-License-Identifier: GPL-3.0-or-later
// Test helpers: a Dataset written as NumPy .npy/.npz, MATLAB .mat and HDF5 files, by the test
// itself (.npy by hand after numpy.lib.format, the others through the same libraries the
// readers use: libzip, matio, libhdf5), so that a reader is checked against data written
// independently of it.
#pragma once

#include <hdf5.h>
#include <matio.h>
#include <zip.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "data/dataset.h"

namespace cplab::testing {

// Bytes of one value of numpy type `descr` ("<f8", ">f4", "|i1", "<u2", ...).
inline std::string npyValue(double value, const std::string& descr) {
    const char kind = descr[1];
    const int size = std::stoi(descr.substr(2));
    std::uint64_t bits = 0;
    if (kind == 'f' && size == 8) {
        bits = std::bit_cast<std::uint64_t>(value);
    } else if (kind == 'f' && size == 4) {
        bits = std::bit_cast<std::uint32_t>(static_cast<float>(value));
    } else if (kind == 'i') {
        bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(value));
    } else {
        bits = static_cast<std::uint64_t>(value);
    }
    std::string out(static_cast<std::size_t>(size), '\0');
    for (int k = 0; k < size; ++k) {
        const int at = descr[0] == '>' ? size - 1 - k : k;
        out[static_cast<std::size_t>(at)] = static_cast<char>((bits >> (8 * k)) & 0xff);
    }
    return out;
}

// A .npy of `rowMajor` values with `shape` ("(270, 14)" or "(270,)"), stored in Fortran order
// when `fortran`; `rows` and `cols` give the matrix for the reordering (cols 1 for a vector).
inline std::string npyBytes(const std::vector<double>& rowMajor, long long rows, long long cols,
                            const std::string& shape, const std::string& descr = "<f8",
                            bool fortran = false) {
    std::string header = "{'descr': '" + descr +
                         "', 'fortran_order': " + (fortran ? "True" : "False") +
                         ", 'shape': " + shape + ", }";
    header += std::string(64 - (10 + header.size() + 1) % 64, ' ') + "\n";
    std::string out("\x93NUMPY\x01\x00", 8);
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
    out += header;
    for (long long k = 0; k < rows * cols; ++k) {
        const long long index = fortran ? (k % rows) * cols + k / rows : k;
        out += npyValue(rowMajor[static_cast<std::size_t>(index)], descr);
    }
    return out;
}

// The examples of a dense dataset, row-major, with the label as an extra last column when
// `withLabels`.
inline std::vector<double> rowMajorValues(const Dataset& data, bool withLabels) {
    std::vector<double> values;
    for (int i = 0; i < data.size(); ++i) {
        const Eigen::VectorXd x = data.row(i);
        values.insert(values.end(), x.data(), x.data() + x.size());
        if (withLabels) values.push_back(data.labels(i));
    }
    return values;
}

inline std::string npyOfExamples(const Dataset& data, const std::string& descr = "<f8",
                                 bool fortran = false, bool withLabels = false) {
    const long long cols = data.dimension() + (withLabels ? 1 : 0);
    return npyBytes(rowMajorValues(data, withLabels), data.size(), cols,
                    "(" + std::to_string(data.size()) + ", " + std::to_string(cols) + ")", descr,
                    fortran);
}

inline std::string npyOfLabels(const Dataset& data, const std::string& descr = "<f8") {
    const std::vector<double> labels(data.labels.data(), data.labels.data() + data.size());
    return npyBytes(labels, data.size(), 1, "(" + std::to_string(data.size()) + ",)", descr);
}

inline void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A zip of `entries` (name, bytes), deflated when `compress` (np.savez_compressed) else stored.
inline void writeZip(const std::string& path,
                     const std::vector<std::pair<std::string, std::string>>& entries,
                     bool compress = true) {
    int error = 0;
    zip_t* archive = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
    if (!archive) throw std::runtime_error("zip_open failed");
    for (const auto& [name, bytes] : entries) {
        zip_source_t* source = zip_source_buffer(archive, bytes.data(), bytes.size(), 0);
        const zip_int64_t index = zip_file_add(archive, name.c_str(), source, ZIP_FL_OVERWRITE);
        zip_set_file_compression(archive, static_cast<zip_uint64_t>(index),
                                 compress ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0);
    }
    if (zip_close(archive) != 0) throw std::runtime_error("zip_close failed");
}

// A MATLAB file with the examples as `xName` (dense, or sparse when `sparse`) and the labels as
// the column vector `yName`; level 7.3 when `v73`, else level 5, compressed (MATLAB's -v7) unless
// not `compressed` (-v6).
inline void writeMat(const std::string& path, const Dataset& data, bool v73, bool sparse,
                     const std::string& xName = "X", const std::string& yName = "y",
                     bool compressed = true) {
    mat_t* mat = Mat_CreateVer(path.c_str(), nullptr, v73 ? MAT_FT_MAT73 : MAT_FT_MAT5);
    if (!mat) throw std::runtime_error("Mat_CreateVer failed");
    const int m = data.size(), d = data.dimension();
    std::size_t dims[2] = {static_cast<std::size_t>(m), static_cast<std::size_t>(d)};
    std::vector<double> dense(static_cast<std::size_t>(m) * d);  // column-major
    std::vector<double> values;
    std::vector<mat_uint32_t> rowIndex, columnStart(1, 0);
    for (int j = 0; j < d; ++j) {
        for (int i = 0; i < m; ++i) {
            const double v = data.row(i)(j);
            dense[static_cast<std::size_t>(j) * m + i] = v;
            if (v != 0.0) values.push_back(v), rowIndex.push_back(static_cast<mat_uint32_t>(i));
        }
        columnStart.push_back(static_cast<mat_uint32_t>(values.size()));
    }
    mat_sparse_t s{};
    s.nzmax = static_cast<mat_uint32_t>(values.size());
    s.ir = rowIndex.data();
    s.nir = static_cast<mat_uint32_t>(rowIndex.size());
    s.jc = columnStart.data();
    s.njc = static_cast<mat_uint32_t>(columnStart.size());
    s.ndata = static_cast<mat_uint32_t>(values.size());
    s.data = values.data();
    matvar_t* x = sparse ? Mat_VarCreate(xName.c_str(), MAT_C_SPARSE, MAT_T_DOUBLE, 2, dims, &s,
                                         MAT_F_DONT_COPY_DATA)
                         : Mat_VarCreate(xName.c_str(), MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims,
                                         dense.data(), MAT_F_DONT_COPY_DATA);
    std::vector<double> labels(data.labels.data(), data.labels.data() + m);
    std::size_t ydims[2] = {static_cast<std::size_t>(m), 1};
    matvar_t* y = Mat_VarCreate(yName.c_str(), MAT_C_DOUBLE, MAT_T_DOUBLE, 2, ydims, labels.data(),
                                MAT_F_DONT_COPY_DATA);
    const matio_compression compression =
        v73 || !compressed ? MAT_COMPRESSION_NONE : MAT_COMPRESSION_ZLIB;
    Mat_VarWrite(mat, x, compression);
    Mat_VarWrite(mat, y, compression);
    Mat_VarFree(x);
    Mat_VarFree(y);
    Mat_Close(mat);
}

// An HDF5 file with the examples at `xPath` (float64, or float32 when `single`) and the labels
// at `yPath` (groups on the way are created).
inline void writeHdf5(const std::string& path, const Dataset& data, const std::string& xPath = "X",
                      const std::string& yPath = "y", bool single = false) {
    const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const hid_t links = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(links, 1);
    const std::vector<double> x = rowMajorValues(data, false);
    const hsize_t dims[2] = {static_cast<hsize_t>(data.size()),
                             static_cast<hsize_t>(data.dimension())};
    hid_t space = H5Screate_simple(2, dims, nullptr);
    hid_t set = H5Dcreate2(file, xPath.c_str(), single ? H5T_IEEE_F32BE : H5T_IEEE_F64LE, space,
                           links, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, x.data());
    H5Dclose(set);
    H5Sclose(space);
    space = H5Screate_simple(1, dims, nullptr);
    set = H5Dcreate2(file, yPath.c_str(), H5T_STD_I32LE, space, links, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.labels.data());
    H5Dclose(set);
    H5Sclose(space);
    H5Pclose(links);
    H5Fclose(file);
}

}  // namespace cplab::testing
