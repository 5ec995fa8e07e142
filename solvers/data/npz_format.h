// SPDX-License-Identifier: GPL-3.0-or-later
// NumPy .npz archives (np.savez, np.savez_compressed): a zip file of .npy arrays, each named
// after its key ("X.npy"), read through libzip (libzip-dev) without unpacking to disk.
//
// The examples are the array `x` (reader option, default "X") and the labels the array `y`
// (default "y"; y=none: the column `label_column` of x, default −1, the last), with everything
// npy_format.h says about a single array. An entry's declared size is checked against its
// compressed size (deflate cannot expand beyond 1032:1) before anything is allocated, and
// libzip checks each entry's CRC. A missing array is refused naming the arrays the file holds.
//
// The natural storage is dense (LoadOptions::storage = Auto).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "data/data_format.h"
#include "data/dataset.h"
#include "data/load_options.h"

namespace cplab {

// Loads the .npz file at `path` (reader options x, y, label_column: array_format.h).
Dataset loadNpz(const std::string& path, const LoadOptions& options = {},
                const OptionValues& readerOptions = {});
// A .npz held in memory (for fuzzing); `sourceName` in messages.
Dataset decodeNpz(std::string_view bytes, const std::string& sourceName,
                  const OptionValues& readerOptions = {}, const LoadOptions& options = {});

// The format table's sniff: 5 when the name ends in .npz, or the content is a zip whose first
// entry's name ends in .npy.
int sniffNpz(const FilePrefix& prefix);

}  // namespace cplab
