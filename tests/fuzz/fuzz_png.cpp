// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the PNG decoder (decodePng, data/image_format.h) and what the map family does with an
// image (toGrey, downsample by 2). Expected: an Image or a DataError (downsample:
// std::invalid_argument for an image smaller than its factor). Findings: a crash or sanitizer
// report, any other exception, a decoded image whose pixel buffer disagrees with width × height ×
// channels or exceeds kMaxImagePixels, or a grey image of another size.
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "data/data_error.h"
#include "data/image_format.h"
#include "fuzz_common.h"

using namespace cplab;
using namespace cplab::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Image image;
    try {
        image = decodePng(asText(data, size), "fuzz.png");
    } catch (const DataError&) {
        return 0;
    }
    const long long pixels = static_cast<long long>(image.width) * image.height;
    require(image.width > 0 && image.height > 0 && pixels <= kMaxImagePixels,
            "decodePng: an image without pixels or over kMaxImagePixels");
    require(static_cast<long long>(image.pixels.size()) == pixels * image.channels,
            "decodePng: the pixel buffer disagrees with width x height x channels");
    const Image grey = toGrey(image);
    require(grey.width == image.width && grey.height == image.height && grey.channels == 1,
            "toGrey: another size");
    try {
        const Image half = downsample(grey, 2);
        require(half.width == image.width / 2 && half.height == image.height / 2,
                "downsample: wrong size");
    } catch (const std::invalid_argument&) {
        require(image.width < 2 || image.height < 2, "downsample refused a large enough image");
    }
    return 0;
}
