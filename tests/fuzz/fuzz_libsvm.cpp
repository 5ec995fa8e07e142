// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the LIBSVM / SVMlight parser (parseLibsvm, data/libsvm_format.h) from bytes, plain or
// gzip. Expected: a Dataset or a DataError. Findings: a crash or sanitizer report, any other
// exception, a dataset that breaks the Dataset contract, a dense/sparse load that differs from
// the sparse one, or formatLibsvm output that does not parse back to the same examples.
#include <cstddef>
#include <cstdint>

#include "data/data_error.h"
#include "data/libsvm_format.h"
#include "fuzz_common.h"

using namespace cplab;
using namespace cplab::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes = asText(data, size);
    Dataset parsed;
    try {
        parsed = parseLibsvm(bytes, "fuzz.libsvm");
    } catch (const DataError&) {
        return 0;
    }
    requireContract(parsed, "parseLibsvm");
    require(parsed.sparseStorage, "parseLibsvm: Auto storage must be sparse");

    // The round trip documented in libsvm_format.h, up to the dimension.
    LoadOptions sameDimension;
    sameDimension.dimension = parsed.dimension();
    const std::string text = formatLibsvm(parsed);
    Dataset again;
    try {
        again = parseLibsvm(text, "fuzz.libsvm (formatted)", sameDimension);
    } catch (const DataError& e) {
        require(false, std::string("formatLibsvm output does not parse: ") + e.what());
    }
    requireContract(again, "parseLibsvm (round trip)");
    require(sameExamples(parsed, again), "parseLibsvm(formatLibsvm(x)) != x");

    // Other load options on the same bytes: dense storage (when small), class checks and binary
    // labels may refuse the data with a DataError, but must agree with the plain load.
    const std::uint64_t h = hashOf(bytes);
    LoadOptions options;
    const long long entries =
        static_cast<long long>(parsed.size()) * static_cast<long long>(parsed.dimension());
    options.storage = (h & 1) && entries <= 1000000 ? Storage::Dense : Storage::Sparse;
    options.minClasses = static_cast<int>((h >> 1) % 3);
    options.binaryLabels = ((h >> 3) & 1) != 0;
    try {
        const Dataset other = parseLibsvm(bytes, "fuzz.libsvm", options);
        requireContract(other, "parseLibsvm (options)");
        require(sameFeatures(other, parsed), "parseLibsvm: load options changed the features");
        if (!options.binaryLabels) {
            require(sameVector(other.labels, parsed.labels),
                    "parseLibsvm: load options changed labels");
        }
    } catch (const DataError&) {
        require(options.minClasses > 0 || options.binaryLabels,
                "parseLibsvm: a load option without checks refused data the plain load took");
    }
    return 0;
}
