// SPDX-License-Identifier: GPL-3.0-or-later
// Options shared by every dataset loader (LIBSVM, CSV, tables), applied after parsing in the
// order: dimension padding, storage, class count check, binary labels.
#pragma once

namespace cplab {

struct Dataset;

enum class Storage {
    Auto,    // the format's natural storage: sparse for LIBSVM, dense for CSV and tables
    Dense,   // always dense (refused when m·d would exceed kMaxDenseEntries)
    Sparse,  // always sparse (zeros dropped)
};

struct LoadOptions {
    // At least this many classes (distinct labels), ≥ 0; 0 = no check. A classifier passes 2
    // and gets "only one class (label +1) found; at least 2 needed" instead of a solver failing.
    int minClasses = 0;
    // Pad the features to at least this dimension, ≥ 0 (e.g. the training set's d when loading
    // a test set whose last features never occur); 0 = as in the file. Never shrinks.
    int dimension = 0;
    // Storage of the features.
    Storage storage = Storage::Auto;
    // Map exactly two distinct labels a < b to −1/+1 (Dataset::makeBinaryLabels), e.g. ripley's
    // 0/1 or bupa's selector 1/2; a file without exactly two label values is an error.
    bool binaryLabels = false;
};

// Dense storage above this many entries (8 GB of doubles) is refused with a DataError rather
// than attempted.
inline constexpr long long kMaxDenseEntries = 1LL << 30;

// What every loader does last: checks `options` (std::invalid_argument for a negative field),
// pads the dimension, converts to the
// requested storage (`naturalSparse` is the format's Auto choice), then checks minClasses and
// applies binaryLabels; problems with the data are DataErrors naming data.source.
void applyLoadOptions(Dataset& data, const LoadOptions& options, bool naturalSparse);

}  // namespace cplab
