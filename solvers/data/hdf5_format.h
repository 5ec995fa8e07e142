// SPDX-License-Identifier: GPL-3.0-or-later
// HDF5 files (.h5, .hdf5), read through Debian's libhdf5 (libhdf5-dev, the serial flavour).
//
// The examples are the dataset at path `x` (reader option, default "X"; a path such as
// "/train/data" reaches into groups), a 2-D array of integers or floats of any size and byte
// order (HDF5 converts them to double); the labels the dataset `y` (default "y"), one value per
// example, shape (m,), (m, 1) or (1, m) (y=none: the column `label_column` of x, default −1).
// Rows are read in blocks straight into the Dataset: no second copy of the array. Refused, as a
// DataError naming the file and the dataset: a missing dataset (with the names of the root
// group's members), a non-numeric type (strings, compounds, references), another shape, a NaN
// or infinite value, a dataset declaring more data than the file can hold (checked before
// anything is allocated), a file HDF5 cannot open.
//
// libhdf5's serial build is not thread-safe: every call into it (here and matio's 7.3 files)
// holds hdf5Mutex().
//
// The natural storage is dense (LoadOptions::storage = Auto).
#pragma once

#include <mutex>
#include <string>

#include "data/data_format.h"
#include "data/dataset.h"
#include "data/load_options.h"

namespace cplab {

// Loads the HDF5 file at `path` (reader options x, y, label_column: array_format.h).
Dataset loadHdf5(const std::string& path, const LoadOptions& options = {},
                 const OptionValues& readerOptions = {});

// The one lock around libhdf5 (and matio, which calls it for 7.3 files).
std::mutex& hdf5Mutex();

// Checks, with hdf5Mutex() held, that the dataset `name` of the HDF5 file at `path` (a level
// 7.3 .mat file's variable) stores its contiguous or compact data within the file: libhdf5
// copied from a null pointer reading a corrupt one (a segmentation fault). DataError naming
// `what` if not; nothing for chunked data, or a dataset it cannot open (its reader says why).
void checkHdf5Storage(const std::string& path, const std::string& name, const std::string& what,
                      unsigned long long fileBytes);

// The format table's sniff: 5 when the name ends in .h5 or .hdf5 or the HDF5 signature starts
// the file; 4 when it follows a user block of 512, 1024 or 2048 bytes (a MATLAB 7.3 file is one,
// and says so in its first bytes: sniffMat's 5 wins).
int sniffHdf5(const FilePrefix& prefix);

}  // namespace cplab
