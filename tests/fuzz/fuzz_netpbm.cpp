// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the PBM/PGM/PPM decoder (decodeNetpbm, data/netpbm_format.h). Expected: an Image or a
// DataError. Findings: a crash or sanitizer report, any other exception, or a decoded image whose
// pixel buffer disagrees with width × height × channels, exceeds kMaxImagePixels, or has a
// channel count other than 1 (PGM) or 3 (PPM).
#include <cstddef>
#include <cstdint>

#include "data/data_error.h"
#include "data/netpbm_format.h"
#include "fuzz_common.h"

using namespace cplab;
using namespace cplab::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Image image;
    try {
        image = decodeNetpbm(asText(data, size), "fuzz.ppm");
    } catch (const DataError&) {
        return 0;
    }
    const long long pixels = static_cast<long long>(image.width) * image.height;
    require(image.width > 0 && image.height > 0 && pixels <= kMaxImagePixels,
            "decodeNetpbm: an image without pixels or over kMaxImagePixels");
    require(image.channels == 1 || image.channels == 3, "decodeNetpbm: a channel count not 1 or 3");
    require(static_cast<long long>(image.pixels.size()) == pixels * image.channels,
            "decodeNetpbm: the pixel buffer disagrees with width x height x channels");
    return 0;
}
