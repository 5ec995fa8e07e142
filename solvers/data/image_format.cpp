// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/image_format.h"

#include <png.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>

#include "core/output_file.h"
#include "data/data_error.h"

namespace cplab {

namespace {

// A PNG file larger than this is refused before it is read (a 64-megapixel RGBA image
// compresses to far less).
constexpr std::uintmax_t kMaxPngBytes = 512u << 20;

std::uint32_t bigEndian(const unsigned char* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
           std::uint32_t{p[3]};
}

using Fail = std::function<void(const std::string&)>;

// The checks of the IHDR chunk's 13 bytes that name what is wrong (libpng only says "Invalid
// IHDR data"): the size, the pixel limit, libpng's default limit per side, and the colour
// type's bit depths.
void checkHeader(const unsigned char* body, const Fail& fail) {
    const std::uint32_t width = bigEndian(body), height = bigEndian(body + 4);
    const int depth = body[8], colourType = body[9];
    const std::string size = std::to_string(width) + " x " + std::to_string(height);
    if (width == 0 || height == 0)
        fail("PNG image of " + size + " pixels; expected at least 1 x 1");
    if (static_cast<long long>(width) * static_cast<long long>(height) > kMaxImagePixels)
        fail("PNG image of " + size + " pixels; at most " + std::to_string(kMaxImagePixels) +
             " pixels can be loaded");
    if (width > PNG_USER_WIDTH_MAX || height > PNG_USER_HEIGHT_MAX)
        fail("PNG image of " + size + " pixels; libpng loads at most " +
             std::to_string(PNG_USER_WIDTH_MAX) + " x " + std::to_string(PNG_USER_HEIGHT_MAX));
    const bool depthOk =
        (colourType == 0 &&
         (depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16)) ||
        (colourType == 3 && (depth == 1 || depth == 2 || depth == 4 || depth == 8)) ||
        ((colourType == 2 || colourType == 4 || colourType == 6) && (depth == 8 || depth == 16));
    if (!depthOk)
        fail("PNG colour type " + std::to_string(colourType) + " with bit depth " +
             std::to_string(depth) + " is not valid");
    if (body[10] != 0 || body[11] != 0) fail("corrupt PNG (unknown compression or filter method)");
}

// Walks the chunks before libpng decodes them, for messages that say where the file is
// broken: a missing signature, a chunk cut off, a CRC mismatch (libpng reports a corrupt
// IDAT's CRC only after inflating it, often as a bad filter byte), a bad header, a palette
// image without PLTE, no image data.
void checkChunks(std::string_view bytes, const Fail& fail) {
    static constexpr unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    if (bytes.size() < 8 || !std::equal(kSignature, kSignature + 8, data))
        fail("not a PNG image (the file does not start with the PNG signature)");
    std::size_t pos = 8;
    bool palette = false, imageData = false;
    int colourType = -1;
    for (std::string type; type != "IEND";) {
        if (pos + 12 > bytes.size())
            fail("truncated PNG (a chunk is cut off after byte " + std::to_string(pos) + ")");
        const std::uint32_t length = bigEndian(data + pos);
        type = std::string(bytes.substr(pos + 4, 4));
        if (length > bytes.size() - pos - 12)
            fail("truncated PNG (chunk " + type + " of " + std::to_string(length) +
                 " bytes runs past the end of the file)");
        const unsigned char* body = data + pos + 8;
        if (bigEndian(body + length) !=
            static_cast<std::uint32_t>(crc32(0L, data + pos + 4, length + 4)))
            fail("corrupt PNG (CRC mismatch in chunk " + type + ")");
        pos += 12 + length;
        if (colourType < 0 && (type != "IHDR" || length != 13))
            fail("corrupt PNG (the first chunk is not a 13-byte IHDR)");
        if (colourType < 0) {
            checkHeader(body, fail);
            colourType = body[9];
        }
        palette = palette || type == "PLTE";
        if (type == "IDAT" && colourType == 3 && !palette)
            fail("corrupt PNG (palette image without PLTE)");
        imageData = imageData || type == "IDAT";
    }
    if (!imageData) fail("corrupt PNG (no image data)");
}

// Frees a png_image on every path out (png_image_finish_read frees it too; a second free is
// harmless).
struct PngImage {
    png_image image{};
    PngImage() { image.version = PNG_IMAGE_VERSION; }
    ~PngImage() { png_image_free(&image); }
    PngImage(const PngImage&) = delete;
    PngImage& operator=(const PngImage&) = delete;
};

// Decodes the checked PNG with libpng's simplified API: 8-bit files as 8-bit sRGB samples
// (unchanged without a gAMA, cHRM or iCCP chunk), 16-bit ones as 16-bit linear samples
// (unchanged likewise) of which the high byte is kept; palettes and low bit depths expanded,
// Adam7 de-interlaced by libpng; alpha read and then dropped.
Image readPixels(std::string_view bytes, const Fail& fail) {
    PngImage png;
    png_image& image = png.image;
    if (!png_image_begin_read_from_memory(&image, bytes.data(), bytes.size()))
        fail(std::string("corrupt PNG (libpng: ") + image.message + ")");
    const bool colour = (image.format & PNG_FORMAT_FLAG_COLOR) != 0;
    const bool wide = (image.format & PNG_FORMAT_FLAG_LINEAR) != 0;
    image.format &= PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA | PNG_FORMAT_FLAG_LINEAR;
    const auto samples = static_cast<std::size_t>(PNG_IMAGE_SAMPLE_CHANNELS(image.format));
    const std::size_t count = static_cast<std::size_t>(image.width) * image.height * samples;
    std::vector<std::uint16_t> wideBuffer(wide ? count : 0);
    std::vector<std::uint8_t> buffer(wide ? 0 : count);
    void* out = wide ? static_cast<void*>(wideBuffer.data()) : static_cast<void*>(buffer.data());
    if (!png_image_finish_read(&image, nullptr, out, 0, nullptr))
        fail(std::string("corrupt PNG (libpng: ") + image.message + ")");

    Image result;
    result.width = static_cast<int>(image.width);
    result.height = static_cast<int>(image.height);
    result.channels = colour ? 3 : 1;
    const auto channels = static_cast<std::size_t>(result.channels);
    const std::size_t pixels = static_cast<std::size_t>(image.width) * image.height;
    result.pixels.resize(pixels * channels);
    for (std::size_t p = 0; p < pixels; ++p)
        for (std::size_t c = 0; c < channels; ++c)
            result.pixels[p * channels + c] =
                wide ? static_cast<std::uint8_t>(wideBuffer[p * samples + c] >> 8)
                     : buffer[p * samples + c];
    return result;
}

}  // namespace

Image decodePng(std::string_view bytes, const std::string& sourceName) {
    const Fail fail = [&](const std::string& detail) { throw DataError(sourceName, 0, detail); };
    checkChunks(bytes, fail);
    return readPixels(bytes, fail);
}

std::string readImageFile(const std::string& path, std::uintmax_t maxBytes, const char* what) {
    const std::string kind(what);
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        throw DataError(path, 0, "is a directory, not " + kind);
    if (!std::filesystem::exists(path, error)) throw DataError(path, 0, "no such file");
    if (std::filesystem::is_regular_file(path, error)) {
        const auto size = std::filesystem::file_size(path, error);
        if (!error && size > maxBytes)
            throw DataError(path, 0,
                            "file of " + std::to_string(size) + " bytes; " + kind + " of at most " +
                                std::to_string(maxBytes) + " bytes can be loaded");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw DataError(path, 0, "cannot be opened for reading");
    noteInputFile(path);
    std::string bytes;
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        bytes.append(buffer, static_cast<std::size_t>(in.gcount()));
        if (bytes.size() > maxBytes)
            throw DataError(path, 0,
                            "more than " + std::to_string(maxBytes) + " bytes; not " + kind +
                                " that can be loaded");
    }
    return bytes;
}

Image loadPng(const std::string& path) {
    return decodePng(readImageFile(path, kMaxPngBytes, "a PNG image"), path);
}

int greyAt(const Image& image, int x, int y) {
    if (image.channels == 1) return image.at(x, y);
    return (299 * image.at(x, y, 0) + 587 * image.at(x, y, 1) + 114 * image.at(x, y, 2) + 500) /
           1000;
}

Image toGrey(const Image& image) {
    Image grey;
    grey.width = image.width;
    grey.height = image.height;
    grey.channels = 1;
    grey.pixels.resize(static_cast<std::size_t>(image.width) *
                       static_cast<std::size_t>(image.height));
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x)
            grey.pixels[static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width) +
                        static_cast<std::size_t>(x)] =
                static_cast<std::uint8_t>(greyAt(image, x, y));
    return grey;
}

Image downsample(const Image& image, int factor) {
    if (factor < 1)
        throw std::invalid_argument("downsample factor " + std::to_string(factor) +
                                    ": must be >= 1");
    if (factor == 1) return image;
    Image out;
    out.width = image.width / factor;
    out.height = image.height / factor;
    out.channels = image.channels;
    if (out.width < 1 || out.height < 1)
        throw std::invalid_argument("downsample factor " + std::to_string(factor) +
                                    " leaves no pixel of a " + std::to_string(image.width) + " x " +
                                    std::to_string(image.height) + " image");
    out.pixels.resize(static_cast<std::size_t>(out.width) * static_cast<std::size_t>(out.height) *
                      static_cast<std::size_t>(out.channels));
    const int area = factor * factor;
    std::size_t i = 0;
    for (int y = 0; y < out.height; ++y)
        for (int x = 0; x < out.width; ++x)
            for (int c = 0; c < out.channels; ++c) {
                int sum = 0;
                for (int dy = 0; dy < factor; ++dy)
                    for (int dx = 0; dx < factor; ++dx)
                        sum += image.at(x * factor + dx, y * factor + dy, c);
                out.pixels[i++] = static_cast<std::uint8_t>((2 * sum + area) / (2 * area));
            }
    return out;
}

int sniffPng(const FilePrefix& prefix) {
    return prefix.hasExtension(".png") ? 5 : 0;
}

}  // namespace cplab
