// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/image_format.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
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

// The Paeth predictor of the PNG specification (section 9.4).
int paeth(int a, int b, int c) {
    const int p = a + b - c;
    const int pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
    if (pa <= pb && pa <= pc) return a;
    return pb <= pc ? b : c;
}

}  // namespace

Image decodePng(std::string_view bytes, const std::string& sourceName) {
    auto fail = [&](const std::string& detail) { throw DataError(sourceName, 0, detail); };
    static constexpr unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    if (bytes.size() < 8 || !std::equal(kSignature, kSignature + 8, data))
        fail("not a PNG image (the file does not start with the PNG signature)");

    std::size_t pos = 8;
    bool haveHeader = false, ended = false;
    std::uint32_t width = 0, height = 0;
    int depth = 0, colourType = 0;
    std::vector<std::array<std::uint8_t, 3>> palette;
    std::string compressed;
    while (!ended) {
        if (pos + 12 > bytes.size())
            fail("truncated PNG (a chunk is cut off after byte " + std::to_string(pos) + ")");
        const std::uint32_t length = bigEndian(data + pos);
        const std::string type(bytes.substr(pos + 4, 4));
        if (length > bytes.size() - pos - 12)
            fail("truncated PNG (chunk " + type + " of " + std::to_string(length) +
                 " bytes runs past the end of the file)");
        const unsigned char* body = data + pos + 8;
        const std::uint32_t crc = bigEndian(body + length);
        if (crc != static_cast<std::uint32_t>(crc32(0L, data + pos + 4, length + 4)))
            fail("corrupt PNG (CRC mismatch in chunk " + type + ")");
        pos += 12 + length;
        if (!haveHeader && type != "IHDR") fail("corrupt PNG (the first chunk is not IHDR)");
        if (type == "IHDR") {
            if (haveHeader || length != 13) fail("corrupt PNG (bad IHDR chunk)");
            haveHeader = true;
            width = bigEndian(body);
            height = bigEndian(body + 4);
            depth = body[8];
            colourType = body[9];
            if (width == 0 || height == 0)
                fail("PNG image of " + std::to_string(width) + " x " + std::to_string(height) +
                     " pixels; expected at least 1 x 1");
            if (static_cast<long long>(width) * static_cast<long long>(height) > kMaxImagePixels)
                fail("PNG image of " + std::to_string(width) + " x " + std::to_string(height) +
                     " pixels; at most " + std::to_string(kMaxImagePixels) +
                     " pixels can be loaded");
            const bool depthOk =
                (colourType == 0 &&
                 (depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16)) ||
                (colourType == 3 && (depth == 1 || depth == 2 || depth == 4 || depth == 8)) ||
                ((colourType == 2 || colourType == 4 || colourType == 6) &&
                 (depth == 8 || depth == 16));
            if (!depthOk)
                fail("PNG colour type " + std::to_string(colourType) + " with bit depth " +
                     std::to_string(depth) + " is not valid");
            if (body[10] != 0 || body[11] != 0)
                fail("corrupt PNG (unknown compression or filter method)");
            if (body[12] != 0)
                fail(
                    "interlaced (Adam7) PNG images are not supported; save the image "
                    "non-interlaced");
        } else if (type == "PLTE") {
            if (length % 3 != 0 || length == 0 || length > 768)
                fail("corrupt PNG (bad PLTE chunk)");
            palette.clear();
            for (std::uint32_t i = 0; i < length; i += 3)
                palette.push_back({body[i], body[i + 1], body[i + 2]});
        } else if (type == "IDAT") {
            compressed.append(reinterpret_cast<const char*>(body), length);
        } else if (type == "IEND") {
            ended = true;
        }
    }
    if (compressed.empty()) fail("corrupt PNG (no image data)");
    if (colourType == 3 && palette.empty()) fail("corrupt PNG (palette image without PLTE)");

    const int samples = colourType == 0 || colourType == 3 ? 1
                        : colourType == 4                  ? 2
                        : colourType == 2                  ? 3
                                                           : 4;
    const std::size_t bitsPerPixel = static_cast<std::size_t>(samples * depth);
    const std::size_t rowBytes = (static_cast<std::size_t>(width) * bitsPerPixel + 7) / 8;
    const std::size_t filterStep = std::max<std::size_t>(1, bitsPerPixel / 8);
    std::vector<unsigned char> raw((rowBytes + 1) * height);
    z_stream zs{};
    if (inflateInit(&zs) != Z_OK) throw std::bad_alloc();
    zs.next_in = reinterpret_cast<Bytef*>(compressed.data());
    zs.avail_in = static_cast<uInt>(compressed.size());
    zs.next_out = raw.data();
    zs.avail_out = static_cast<uInt>(raw.size());
    const int rc = inflate(&zs, Z_FINISH);
    const std::size_t produced = raw.size() - zs.avail_out;
    const std::string reason = zs.msg ? zs.msg : "";
    inflateEnd(&zs);
    if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT)
        fail("corrupt PNG (zlib: " + (reason.empty() ? std::string("bad data") : reason) + ")");
    if (produced < raw.size())
        fail("truncated PNG image data (" + std::to_string(produced) + " of " +
             std::to_string(raw.size()) + " bytes)");

    // Undo the filters, row by row (PNG specification, section 9).
    std::vector<unsigned char> previous(rowBytes, 0);
    for (std::uint32_t y = 0; y < height; ++y) {
        unsigned char* row = raw.data() + y * (rowBytes + 1);
        const int filter = row[0];
        unsigned char* cur = row + 1;
        for (std::size_t i = 0; i < rowBytes; ++i) {
            const int a = i >= filterStep ? cur[i - filterStep] : 0;
            const int b = previous[i];
            const int c = i >= filterStep ? previous[i - filterStep] : 0;
            int predictor = 0;
            switch (filter) {
                case 0:
                    predictor = 0;
                    break;
                case 1:
                    predictor = a;
                    break;
                case 2:
                    predictor = b;
                    break;
                case 3:
                    predictor = (a + b) / 2;
                    break;
                case 4:
                    predictor = paeth(a, b, c);
                    break;
                default:
                    fail("corrupt PNG (unknown filter type " + std::to_string(filter) + " in row " +
                         std::to_string(y) + ")");
            }
            cur[i] = static_cast<unsigned char>(cur[i] + predictor);
        }
        std::copy(cur, cur + rowBytes, previous.begin());
    }

    Image image;
    image.width = static_cast<int>(width);
    image.height = static_cast<int>(height);
    image.channels = colourType == 0 || colourType == 4 ? 1 : 3;
    image.pixels.resize(static_cast<std::size_t>(width) * height *
                        static_cast<std::size_t>(image.channels));
    auto sample = [&](const unsigned char* row, std::size_t x, int s) -> int {
        if (depth == 8)
            return row[x * static_cast<std::size_t>(samples) + static_cast<std::size_t>(s)];
        if (depth == 16)
            return row[2 * (x * static_cast<std::size_t>(samples) + static_cast<std::size_t>(s))];
        // 1, 2 or 4 bits, one sample per pixel, most significant bits first.
        const std::size_t bit = x * static_cast<std::size_t>(depth);
        const int shift = 8 - depth - static_cast<int>(bit % 8);
        return (row[bit / 8] >> shift) & ((1 << depth) - 1);
    };
    std::uint8_t* out = image.pixels.data();
    for (std::uint32_t y = 0; y < height; ++y) {
        const unsigned char* row = raw.data() + y * (rowBytes + 1) + 1;
        for (std::uint32_t x = 0; x < width; ++x) {
            if (colourType == 3) {
                const int index = sample(row, x, 0);
                if (index >= static_cast<int>(palette.size()))
                    fail("corrupt PNG (palette index " + std::to_string(index) + " in row " +
                         std::to_string(y) + " beyond the " + std::to_string(palette.size()) +
                         " palette entries)");
                const auto& rgb = palette[static_cast<std::size_t>(index)];
                *out++ = rgb[0];
                *out++ = rgb[1];
                *out++ = rgb[2];
            } else if (image.channels == 1) {
                const int value = sample(row, x, 0);
                *out++ = static_cast<std::uint8_t>(depth >= 8 ? value
                                                              : value * 255 / ((1 << depth) - 1));
            } else {
                for (int s = 0; s < 3; ++s)
                    *out++ = static_cast<std::uint8_t>(sample(row, x, s));
            }
        }
    }
    return image;
}

Image loadPng(const std::string& path) {
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        throw DataError(path, 0, "is a directory, not a PNG image");
    if (!std::filesystem::exists(path, error)) throw DataError(path, 0, "no such file");
    if (std::filesystem::is_regular_file(path, error)) {
        const auto size = std::filesystem::file_size(path, error);
        if (!error && size > kMaxPngBytes)
            throw DataError(path, 0,
                            "file of " + std::to_string(size) + " bytes; a PNG image of at most " +
                                std::to_string(kMaxPngBytes) + " bytes can be loaded");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw DataError(path, 0, "cannot be opened for reading");
    noteInputFile(path);
    std::string bytes;
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        bytes.append(buffer, static_cast<std::size_t>(in.gcount()));
        if (bytes.size() > kMaxPngBytes)
            throw DataError(path, 0,
                            "more than " + std::to_string(kMaxPngBytes) +
                                " bytes; not a PNG image that can be loaded");
    }
    return decodePng(bytes, path);
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
