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

// All built-in dataset files, in a fixed order.
const std::vector<BuiltinFile>& builtinDatasetFiles();
// The file called `name`, or nullptr.
const BuiltinFile* findBuiltinDataset(std::string_view name);

}  // namespace cplab
