// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/load_options.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/number_text.h"
#include "data/data_error.h"
#include "data/dataset.h"

namespace cplab {

void applyLoadOptions(Dataset& data, const LoadOptions& options, bool naturalSparse) {
    if (options.minClasses < 0) {
        throw std::invalid_argument(
            "LoadOptions::minClasses = " + std::to_string(options.minClasses) + ": must be >= 0");
    }
    if (options.dimension < 0) {
        throw std::invalid_argument(
            "LoadOptions::dimension = " + std::to_string(options.dimension) + ": must be >= 0");
    }
    if (options.dimension > data.dimension()) data.setDimension(options.dimension);

    const bool wantSparse =
        options.storage == Storage::Auto ? naturalSparse : options.storage == Storage::Sparse;
    if (!wantSparse && data.sparseStorage &&
        static_cast<long long>(data.size()) * data.dimension() > kMaxDenseEntries) {
        throw DataError(data.source, 0,
                        "dense storage of " + std::to_string(data.size()) + " x " +
                            std::to_string(data.dimension()) +
                            " features is too large; use sparse storage");
    }
    data.setSparseStorage(wantSparse);

    if (options.minClasses > 0) {
        const std::vector<double> classes = data.classes();
        if (static_cast<int>(classes.size()) < options.minClasses) {
            std::string detail;
            if (classes.size() == 1) {
                detail =
                    "only one class found (every label is " + data.labelInMessage(classes[0]) + ")";
            } else {
                detail = "only " + std::to_string(classes.size()) + " classes found";
            }
            throw DataError(data.source, 0,
                            detail + "; at least " + std::to_string(options.minClasses) +
                                " classes are needed");
        }
    }
    if (options.binaryLabels) data.makeBinaryLabels();
}

}  // namespace cplab
