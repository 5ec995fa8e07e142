// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes LIBSVM's precomputed-kernel reader (data/precomputed_format.h): the sniffing rule
// looksLikePrecomputedKernel and loadPrecomputedKernel, as a training file (square) and as a
// test file against a few training examples. The reader only takes paths, so every input is
// written to one scratch file per fuzzer process (in $TMPDIR, removed at exit). Expected: a
// Dataset or a DataError. Findings: a crash or sanitizer report, any other exception, a
// dataset that breaks the Dataset contract, a training kernel that is not square, or a test
// kernel whose width is not the number of training examples asked for.
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "data/data_error.h"
#include "data/precomputed_format.h"
#include "fuzz_common.h"

using namespace cplab;
using namespace cplab::fuzz;

namespace {

// The scratch file of this process; its folder is removed at exit.
const std::string& scratchPath() {
    static const std::string path = [] {
        const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                          ("cplab_fuzz_precomputed." + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        static const std::filesystem::path toRemove = dir;
        std::atexit([] {
            std::error_code ignored;
            std::filesystem::remove_all(toRemove, ignored);
        });
        return (dir / "input.precomputed").string();
    }();
    return path;
}

void checkLoaded(const Dataset& data, int columns) {
    requireContract(data, "loadPrecomputedKernel");
    require(!data.sparseStorage, "a precomputed kernel must be dense");
    if (columns <= 0) {
        require(data.size() == data.dimension(), "a training kernel that is not square");
    } else {
        require(data.dimension() == columns, "a test kernel of the wrong width");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string& path = scratchPath();
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
        require(static_cast<bool>(out), "cannot write the scratch file " + path);
    }
    (void)looksLikePrecomputedKernel(path);

    try {
        checkLoaded(loadPrecomputedKernel(path, 0), 0);
    } catch (const DataError&) {
    }
    // As a test file: against as many training examples as the first line has values (so
    // that real test files load), or 1..8 when it has none.
    const std::string_view text = asText(data, size);
    const std::string_view first = text.substr(0, text.find('\n'));
    int columns = static_cast<int>(std::count(first.begin(), first.end(), ':')) - 1;
    if (columns <= 0) columns = static_cast<int>(hashOf(text) % 8) + 1;
    try {
        checkLoaded(loadPrecomputedKernel(path, columns), columns);
    } catch (const DataError&) {
    }
    return 0;
}
