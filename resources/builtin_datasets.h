// SPDX-License-Identifier: GPL-3.0-or-later
// The demo datasets compiled into the applications (resources/datasets; provenance in its
// README), as the exact bytes of their LIBSVM text files. Parse them with
// parseLibsvm(bytes, "builtin:<name>").
#pragma once

#include <string_view>
#include <vector>

namespace cplab {

struct BuiltinFile {
    std::string_view name;   // e.g. "heart_scale"
    std::string_view bytes;  // the file's content
};

// All built-in dataset files (LIBSVM text), in a fixed order.
const std::vector<BuiltinFile>& builtinDatasetFiles();
// The built-in labelled sequences: Taskar's letter.data layout, gzip (parseLetterData).
const std::vector<BuiltinFile>& builtinSequenceFiles();
// The built-in UAI 2014 MAP instances: MARKOV models, gzip (parseUai), named like the
// competition's files without extension ("Grids_26").
const std::vector<BuiltinFile>& builtinUaiFiles();
// Their reference labelings, the competition's `.MAP` result text (parseUaiResult), under the
// same names and in the same order.
const std::vector<BuiltinFile>& builtinUaiResults();
// The built-in PNG images (decodePng of solvers/data/image_format.h), named without extension: the
// Middlebury Tsukuba stereo pair "tsukuba_imL", "tsukuba_imR" and the left view's ground-truth
// disparities "tsukuba_truedispL" (grey / 16; 0 unknown).
const std::vector<BuiltinFile>& builtinImageFiles();
// The file called `name`, or nullptr.
const BuiltinFile* findBuiltinDataset(std::string_view name);

}  // namespace cplab
