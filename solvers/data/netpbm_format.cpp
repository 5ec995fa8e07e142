// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/netpbm_format.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "data/data_error.h"

namespace cplab {

namespace {

constexpr std::uintmax_t kMaxNetpbmBytes = 1024u << 20;  // 2^26 RGB pixels of two bytes: 384 MB

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

// Reads the header's and the plain raster's numbers, skipping whitespace and comments.
class Tokens {
  public:
    Tokens(std::string_view bytes, const std::string& source) : bytes_(bytes), source_(source) {}

    // The next decimal number; `what` names it in the error when there is none.
    long long number(const char* what) {
        skip();
        if (pos_ >= bytes_.size())
            throw DataError(source_, line_, std::string("ended before the ") + what);
        long long value = 0;
        const std::size_t start = pos_;
        while (pos_ < bytes_.size() && std::isdigit(static_cast<unsigned char>(bytes_[pos_]))) {
            value = value * 10 + (bytes_[pos_] - '0');
            if (value > (1LL << 40))
                throw DataError(source_, line_, std::string(what) + " too large");
            ++pos_;
        }
        if (pos_ == start ||
            (pos_ < bytes_.size() && !isSpace(bytes_[pos_]) && bytes_[pos_] != '#'))
            throw DataError(source_, line_,
                            std::string("expected the ") + what + " as a decimal number");
        return value;
    }
    // The next sample of a plain bitmap (P1): one digit 0 or 1, with or without whitespace
    // between samples.
    int bit() {
        skip();
        if (pos_ >= bytes_.size()) throw DataError(source_, line_, "ended before the next bit");
        const char c = bytes_[pos_++];
        if (c != '0' && c != '1')
            throw DataError(source_, line_, std::string("expected a bit, 0 or 1, not '") + c + "'");
        return c - '0';
    }
    std::size_t position() const { return pos_; }
    void advance(std::size_t count) { pos_ += count; }
    bool onlySpaceLeft() {
        skip();
        return pos_ >= bytes_.size();
    }

  private:
    void skip() {
        while (pos_ < bytes_.size()) {
            if (bytes_[pos_] == '#') {
                while (pos_ < bytes_.size() && bytes_[pos_] != '\n')
                    ++pos_;
            } else if (isSpace(bytes_[pos_])) {
                line_ += bytes_[pos_] == '\n' ? 1 : 0;
                ++pos_;
            } else {
                return;
            }
        }
    }

    std::string_view bytes_;
    const std::string& source_;
    std::size_t pos_ = 2;  // after the magic
    int line_ = 1;
};

}  // namespace

namespace {

// The header's magic: P1 to P6, then a whitespace byte.
bool netpbmMagic(std::string_view bytes) {
    return bytes.size() >= 3 && bytes[0] == 'P' &&
           std::string_view("123456").find(bytes[1]) != std::string_view::npos && isSpace(bytes[2]);
}

// Width and height from the header, checked against kMaxImagePixels.
void readSize(Tokens& tokens, Image& image, const std::string& sourceName) {
    const long long width = tokens.number("width");
    const long long height = tokens.number("height");
    if (width < 1 || height < 1)
        throw DataError(sourceName, 1,
                        "an image of " + std::to_string(width) + " x " + std::to_string(height) +
                            " pixels has none");
    // Each side first: the product of two numbers up to 2^40 would overflow.
    if (width > kMaxImagePixels || height > kMaxImagePixels || width * height > kMaxImagePixels)
        throw DataError(sourceName, 1,
                        std::to_string(width) + " x " + std::to_string(height) +
                            " pixels; at most " + std::to_string(kMaxImagePixels) +
                            " can be loaded");
    image.width = static_cast<int>(width);
    image.height = static_cast<int>(height);
}

// A short binary raster: its size against what the header asks.
void checkRaster(std::string_view bytes, std::size_t start, std::size_t expected,
                 const std::string& sourceName) {
    if (start > bytes.size() || bytes.size() - start < expected)
        throw DataError(sourceName, 0,
                        "raster of " +
                            std::to_string(bytes.size() - std::min(start, bytes.size())) +
                            " bytes; expected " + std::to_string(expected));
}

// A bitmap's raster (P1 plain, P4 packed: rows of whole bytes, most significant bit first):
// 1 is black (0), 0 white (255).
void readBitmap(std::string_view bytes, bool packed, Tokens& tokens, Image& image,
                const std::string& sourceName) {
    const auto width = static_cast<std::size_t>(image.width);
    if (!packed) {
        for (std::uint8_t& pixel : image.pixels)
            pixel = tokens.bit() ? 0 : 255;
        return;
    }
    tokens.advance(1);  // the one whitespace byte after the height
    const std::size_t rowBytes = (width + 7) / 8, start = tokens.position();
    checkRaster(bytes, start, rowBytes * static_cast<std::size_t>(image.height), sourceName);
    for (std::size_t k = 0; k < image.pixels.size(); ++k) {
        const std::size_t row = k / width, column = k % width;
        const auto byte = static_cast<unsigned char>(bytes[start + row * rowBytes + column / 8]);
        image.pixels[k] = (byte >> (7 - column % 8)) & 1 ? 0 : 255;
    }
    tokens.advance(rowBytes * static_cast<std::size_t>(image.height));
}

// A grey map's or pixmap's raster, scaled from 0..maxval to 0..255.
void readSamples(std::string_view bytes, bool binary, Tokens& tokens, Image& image,
                 const std::string& sourceName) {
    const long long maxval = tokens.number("maxval");
    if (maxval < 1 || maxval > 65535)
        throw DataError(sourceName, 1,
                        "maxval " + std::to_string(maxval) + "; expected 1 to 65535");
    const auto scaled = [maxval, &sourceName](long long v) {
        if (v > maxval)
            throw DataError(
                sourceName, 0,
                "sample " + std::to_string(v) + " above maxval " + std::to_string(maxval));
        return static_cast<std::uint8_t>((v * 255 + maxval / 2) / maxval);
    };
    const std::size_t samples = image.pixels.size();
    if (!binary) {
        for (std::size_t k = 0; k < samples; ++k)
            image.pixels[k] = scaled(tokens.number("next sample"));
        return;
    }
    tokens.advance(1);  // the one whitespace byte after maxval
    const std::size_t width2 = maxval > 255 ? 2 : 1;
    const std::size_t start = tokens.position();
    checkRaster(bytes, start, samples * width2, sourceName);
    for (std::size_t k = 0; k < samples; ++k) {
        const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + start + k * width2);
        image.pixels[k] = scaled(width2 == 2 ? (p[0] << 8) | p[1] : p[0]);
    }
    tokens.advance(samples * width2);
}

}  // namespace

Image decodeNetpbm(std::string_view bytes, const std::string& sourceName) {
    if (!netpbmMagic(bytes))
        throw DataError(sourceName, 1, "expected a PBM, PGM or PPM magic number (P1 to P6)");
    const char kind = bytes[1];
    Tokens tokens(bytes, sourceName);
    Image image;
    readSize(tokens, image, sourceName);
    image.channels = kind == '3' || kind == '6' ? 3 : 1;
    image.pixels.resize(static_cast<std::size_t>(image.width) *
                        static_cast<std::size_t>(image.height) *
                        static_cast<std::size_t>(image.channels));
    if (kind == '1' || kind == '4')
        readBitmap(bytes, kind == '4', tokens, image, sourceName);
    else
        readSamples(bytes, kind == '5' || kind == '6', tokens, image, sourceName);
    if (!tokens.onlySpaceLeft())
        throw DataError(sourceName, 0,
                        "bytes after the image's raster; one image per file is read");
    return image;
}

Image loadNetpbm(const std::string& path) {
    return decodeNetpbm(readImageFile(path, kMaxNetpbmBytes, "a PBM/PGM/PPM image"), path);
}

int sniffNetpbm(const FilePrefix& prefix) {
    if (prefix.hasExtension(".pbm") || prefix.hasExtension(".pgm") || prefix.hasExtension(".ppm") ||
        prefix.hasExtension(".pnm"))
        return 5;
    return netpbmMagic(prefix.head) ? 5 : 0;
}

}  // namespace cplab
