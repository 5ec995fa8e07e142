// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the readers of array files that libraries read from a file (data/mat_format.h through
// matio, data/hdf5_format.h through libhdf5): the input is written to a file of this process
// and read as a MATLAB .mat file, or as an HDF5 file when it starts with HDF5's signature; the
// input's hash chooses the reader options (the default arrays X and y, or y=none with a label
// column). Expected: a Dataset or a DataError. Findings: a crash or sanitizer report (in our
// code, or a crash in the library on our behalf), any other exception, a dataset that breaks
// the Dataset contract.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "data/child_read.h"
#include "data/data_error.h"
#include "data/hdf5_format.h"
#include "data/mat_format.h"
#include "fuzz_common.h"

using namespace cplab;
using namespace cplab::fuzz;

// libhdf5 keeps allocations of its own (free lists, the error stack) until the process ends,
// which LeakSanitizer reports for the first HDF5 input; leaks of our readers are found by the
// other targets (fuzz_npy reads through the same ArraySink).
// An allocation the machine cannot give returns null, as in a release build (libhdf5 asks for
// impossible sizes on some corrupt files and reports the failure; run_all.sh lifts libFuzzer's
// single-allocation limit for this target: memory actually used is still checked).
// Interceptor reports inside libhdf5 and matio are suppressed (library_reads.supp says why).
extern "C" const char* __asan_default_options() {
    return "allocator_may_return_null=1:suppressions=" CPLAB_FUZZ_DIR "/library_reads.supp";
}

// The readers run in this process, not in the child process cplab forks for them, so that
// libFuzzer sees their coverage.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
    setChildProcessReads(false);
    return 0;
}

extern "C" const char* __lsan_default_options() {
    return "detect_leaks=0";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes = asText(data, size);
    const std::uint64_t hash = hashOf(bytes);
    const bool hdf5 = bytes.rfind("\x89HDF\r\n\x1a\n", 0) == 0;
    const std::string path =
        "/tmp/cplab-fuzz-array-" + std::to_string(::getpid()) + (hdf5 ? ".h5" : ".mat");
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file) return 0;
    const bool written = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
    if (std::fclose(file) != 0 || !written) return 0;
    const OptionValues options =
        hash % 2 ? OptionValues{} : OptionValues{{"y", "none"}, {"label_column", "0"}};
    try {
        requireContract(hdf5 ? loadHdf5(path, {}, options) : loadMat(path, {}, options),
                        hdf5 ? "loadHdf5" : "loadMat");
    } catch (const DataError&) {
    }
    std::remove(path.c_str());
    return 0;
}
