// SPDX-License-Identifier: GPL-3.0-or-later
// Raster images for the generated MAP models (generators.h): an 8-bit pixel buffer, a PNG
// reader, box downsampling and the grey value of a pixel.
//
// PNG files are decoded by libpng's simplified API (png_image_*), in the Qt-free solver
// library, so that the CLI, the GUI and the tests read an image to the very same bytes. Every
// PNG of the specification loads, Adam7-interlaced ones included: grey, grey + alpha, RGB,
// RGBA and palette images of 1 to 16 bits per sample. Alpha is dropped (for 16-bit images
// with alpha libpng's linear output composites a translucent pixel onto black), 16-bit
// samples keep their high byte, low bit depths are scaled to 0-255; a gAMA, cHRM or iCCP chunk
// that is not sRGB's makes libpng convert the samples to sRGB. Before libpng sees the file
// every chunk's length and CRC is checked here, so that a broken file is reported by where
// it is broken.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "data/data_format.h"

namespace cplab {

struct Image {
    int width = 0;
    int height = 0;
    int channels = 0;                  // 1 (grey) or 3 (RGB)
    std::vector<std::uint8_t> pixels;  // row-major, channels interleaved

    bool empty() const { return pixels.empty(); }
    std::uint8_t at(int x, int y, int c = 0) const {
        return pixels[(static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                       static_cast<std::size_t>(x)) *
                          static_cast<std::size_t>(channels) +
                      static_cast<std::size_t>(c)];
    }
};

// The most pixels a decoded image may have (width·height): 2^26, 64 megapixels.
constexpr long long kMaxImagePixels = 1LL << 26;

// Decodes PNG `bytes`. Throws DataError(sourceName, 0, ...) for anything that is not a
// complete, valid PNG: no signature ("not a PNG image"), a truncated chunk, a CRC mismatch, a
// bad header, more than kMaxImagePixels pixels, a palette image without PLTE, no image data,
// or what libpng refuses ("corrupt PNG (libpng: <its message>)": a corrupt or short zlib
// stream, an unknown filter, ...).
Image decodePng(std::string_view bytes, const std::string& sourceName);
// The bytes of the image file at `path`, at most `maxBytes` of them; DataError naming the path
// and `what` ("a PNG image") for a directory, a missing file or one too large.
std::string readImageFile(const std::string& path, std::uintmax_t maxBytes, const char* what);
// Reads and decodes the PNG file at `path` (DataError naming the path on failure).
Image loadPng(const std::string& path);

// The luminance of pixel (x, y), round(0.299 R + 0.587 G + 0.114 B) for RGB (ITU-R BT.601
// weights, computed in integers as (299 R + 587 G + 114 B + 500) / 1000), the value itself for
// grey.
int greyAt(const Image& image, int x, int y);
// The image as one grey channel (greyAt of every pixel).
Image toGrey(const Image& image);
// Box downsampling by `factor` ≥ 1: pixel (x, y) of the result is the mean of the factor ×
// factor block at (x·factor, y·factor), rounded half up; the size is floor(width / factor) ×
// floor(height / factor) (a partial block at the right or bottom edge is dropped). Throws
// std::invalid_argument for factor < 1 or a result without pixels.
Image downsample(const Image& image, int factor);

// The format table's sniff (data_format.h): 5 when the name ends in .png (a PNG under another
// name is read, and refused, as text by the other formats).
int sniffPng(const FilePrefix& prefix);

}  // namespace cplab
