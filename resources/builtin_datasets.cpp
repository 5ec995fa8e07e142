// SPDX-License-Identifier: GPL-3.0-or-later
#include "builtin_datasets.h"

namespace cplab {

const BuiltinFile* findBuiltinDataset(std::string_view name) {
    for (const BuiltinFile& file : builtinDatasetFiles()) {
        if (file.name == name) return &file;
    }
    return nullptr;
}

}  // namespace cplab
