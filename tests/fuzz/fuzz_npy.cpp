// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the NumPy readers (data/npy_format.h, npz_format.h): the input is a .npy (decodeNpy,
// the label column chosen from the input's hash) or, when it starts like a zip ("PK"), a .npz
// (decodeNpz with the default arrays X and y, or with y=none from the hash). Expected: a Dataset
// or a DataError. Findings: a crash or sanitizer report, any other exception, a dataset that
// breaks the Dataset contract, or a .npy dataset that does not read back the same after being
// written again as a float64 .npy in C order with its labels as the last column (every
// accepted value is finite and converts to double exactly).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "data/data_error.h"
#include "data/npy_format.h"
#include "data/npz_format.h"
#include "fuzz_common.h"

using namespace cplab;
using namespace cplab::fuzz;

namespace {

// `data` as a float64 little-endian .npy in C order, the labels as the last column.
std::string npyOf(const Dataset& data) {
    const int d = data.dimension();
    std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" +
                         std::to_string(data.size()) + ", " + std::to_string(d + 1) + "), }";
    header += std::string(64 - (10 + header.size() + 1) % 64, ' ') + "\n";
    std::string out("\x93NUMPY\x01\x00", 8);
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
    out += header;
    const auto put = [&out](double value) {
        char bytes[8];
        std::memcpy(bytes, &value, 8);  // the fuzz build runs on little-endian machines
        out.append(bytes, 8);
    };
    for (int i = 0; i < data.size(); ++i) {
        const Eigen::VectorXd x = data.row(i);
        for (int j = 0; j < d; ++j)
            put(x(j));
        put(data.labels(i));
    }
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes = asText(data, size);
    const std::uint64_t hash = hashOf(bytes);
    if (bytes.rfind("PK", 0) == 0) {
        try {
            const OptionValues options =
                hash % 2 ? OptionValues{} : OptionValues{{"y", "none"}, {"label_column", "0"}};
            requireContract(decodeNpz(bytes, "fuzz.npz", options), "decodeNpz");
        } catch (const DataError&) {
        }
        return 0;
    }
    const int labelColumn = static_cast<int>(hash % 3) - 1;  // -1, 0 or 1
    Dataset read;
    try {
        read = decodeNpy(bytes, "fuzz.npy", labelColumn);
    } catch (const DataError&) {
        return 0;
    }
    requireContract(read, "decodeNpy");
    const Dataset again = decodeNpy(npyOf(read), "again.npy", -1);
    require(sameExamples(read, again), "decodeNpy: the examples do not read back the same");
    return 0;
}
