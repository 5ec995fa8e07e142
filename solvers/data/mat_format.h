// SPDX-License-Identifier: GPL-3.0-or-later
// MATLAB .mat files, level 5 (MATLAB's -v6 and default -v7, compressed or not) and 7.3 (HDF5
// underneath), read through Debian's matio (libmatio-dev).
//
// The examples are the variable `x` (reader option, default "X"), a 2-D real matrix of double,
// single or (u)int8–64, or logical, dense or sparse; the labels the variable `y` (default "y"),
// a dense real vector with one value per example (y=none: the column `label_column` of a dense
// x, default −1, the last). A sparse x stays sparse (the Dataset keeps only its nonzeros; its
// natural storage is sparse, a dense x's dense). Refused, as a DataError naming the file and the
// variable: a missing variable (with the names the file holds), a cell, struct, char or complex
// variable, another shape, a NaN or infinite value, a dense matrix larger than the file can
// hold (checked before matio reads it), and whatever matio cannot read (a truncated file). A
// dense variable of a 7.3 file is streamed into the Dataset a block of columns at a time;
// matio reads a level 5 variable whole first (a second copy while loading).
#pragma once

#include <string>

#include "data/data_format.h"
#include "data/dataset.h"
#include "data/load_options.h"

namespace cplab {

// Loads the .mat file at `path` (reader options x, y, label_column: array_format.h).
Dataset loadMat(const std::string& path, const LoadOptions& options = {},
                const OptionValues& readerOptions = {});

// The format table's sniff: 5 when the name ends in .mat, or the file starts with a MATLAB
// level 5 or 7.3 header ("MATLAB 5.0 MAT-file", "MATLAB 7.3 MAT-file").
int sniffMat(const FilePrefix& prefix);

}  // namespace cplab
