// SPDX-License-Identifier: GPL-3.0-or-later
// LIBSVM / SVMlight sparse text format, read and written.
//
//   <label> <index>:<value> <index>:<value> ...   # optional comment
//
// Accepted: 1-based, strictly increasing feature indices; labels such as +1, -1, 1, 2.5 (any
// finite number); `qid:<int>` tokens (ignored); whole-line and trailing `#` comments; blank
// lines; LF or CRLF line ends; spaces or tabs between tokens; a gzip-compressed file
// (detected by its magic bytes). Explicit zero values ("3:0") are not stored, but the largest
// index seen, zero or not, sets the dimension. Anything else is a DataError naming the file,
// the line and what was expected; nothing is half-loaded.
//
// The natural storage is sparse (LoadOptions::storage = Auto).
#pragma once

#include <string>
#include <string_view>

#include "data/data_format.h"
#include "data/dataset.h"
#include "data/load_options.h"

namespace cplab {

// Loads the file at `path` (gzip or plain). name = the file name, source = `path`.
Dataset loadLibsvm(const std::string& path, const LoadOptions& options = {});

// The share of process `rank` of `ranks` (0 ≤ rank < ranks) of the file at `path`, so that
// the shares partition the file's lines, in order. Plain text: the lines that start in bytes
// [size·rank/ranks, size·(rank + 1)/ranks); only the share is read (and the bytes before it
// scanned for '\n', so that messages and Dataset::lines give the file's line numbers). Gzip
// (its bytes cannot be split): the lines [L·rank/ranks, L·(rank + 1)/ranks) of its L lines,
// found by streaming the decompressed text (once to count the lines, then to parse) and
// skipping the rest; only the share is parsed and kept. The dimension is the share's largest
// index. Throws DataError for a share without any line (more ranks than lines) or without
// examples, and whatever loadLibsvm throws.
Dataset loadLibsvmShare(const std::string& path, int rank, int ranks,
                        const LoadOptions& options = {});

// Parses LIBSVM text (or its gzip) held in memory, e.g. a built-in resource; `sourceName`
// (such as "builtin:heart_scale") is used in messages and becomes name and source.
Dataset parseLibsvm(std::string_view bytes, const std::string& sourceName,
                    const LoadOptions& options = {});

// LIBSVM text of `data`: one line per example, label then its nonzero features, "\n" line
// ends, numbers in shortest round-trip form, so parseLibsvm(formatLibsvm(x)) == x (up to the
// dimension, which the format cannot record beyond the last nonzero feature; pass
// LoadOptions::dimension to restore it). Text label names are not recorded.
// Throws std::invalid_argument when `data` breaks the Dataset contract.
std::string formatLibsvm(const Dataset& data);

// Writes formatLibsvm(data) to `path`, gzip-compressed when `gzip`. Throws DataError.
void writeLibsvm(const std::string& path, const Dataset& data, bool gzip = false);

// The format table's sniff (data_format.h): 1 for any file, LIBSVM/SVMlight being the fallback of
// text data.
int sniffLibsvm(const FilePrefix& prefix);

}  // namespace cplab
