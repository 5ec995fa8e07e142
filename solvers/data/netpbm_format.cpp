// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/netpbm_format.h"

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

Image decodeNetpbm(std::string_view bytes, const std::string& sourceName) {
    if (bytes.size() < 3 || bytes[0] != 'P' ||
        std::string_view("2356").find(bytes[1]) == std::string_view::npos || !isSpace(bytes[2]))
        throw DataError(sourceName, 1, "expected a PGM or PPM magic number (P2, P3, P5 or P6)");
    const bool binary = bytes[1] == '5' || bytes[1] == '6';
    const int channels = bytes[1] == '3' || bytes[1] == '6' ? 3 : 1;
    Tokens tokens(bytes, sourceName);
    const long long width = tokens.number("width");
    const long long height = tokens.number("height");
    const long long maxval = tokens.number("maxval");
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
    if (maxval < 1 || maxval > 65535)
        throw DataError(sourceName, 1,
                        "maxval " + std::to_string(maxval) + "; expected 1 to 65535");
    Image image;
    image.width = static_cast<int>(width);
    image.height = static_cast<int>(height);
    image.channels = channels;
    const std::size_t samples = static_cast<std::size_t>(width * height) * channels;
    image.pixels.resize(samples);
    const auto scaled = [maxval, &sourceName](long long v) {
        if (v > maxval)
            throw DataError(
                sourceName, 0,
                "sample " + std::to_string(v) + " above maxval " + std::to_string(maxval));
        return static_cast<std::uint8_t>((v * 255 + maxval / 2) / maxval);
    };
    if (binary) {
        tokens.advance(1);  // the one whitespace byte after maxval
        const std::size_t width2 = maxval > 255 ? 2 : 1;
        const std::size_t start = tokens.position();
        if (start > bytes.size() || bytes.size() - start < samples * width2)
            throw DataError(sourceName, 0,
                            "raster of " +
                                std::to_string(bytes.size() - std::min(start, bytes.size())) +
                                " bytes; expected " + std::to_string(samples * width2));
        for (std::size_t k = 0; k < samples; ++k) {
            const auto* p =
                reinterpret_cast<const unsigned char*>(bytes.data() + start + k * width2);
            image.pixels[k] = scaled(width2 == 2 ? (p[0] << 8) | p[1] : p[0]);
        }
        tokens.advance(samples * width2);
    } else {
        for (std::size_t k = 0; k < samples; ++k)
            image.pixels[k] = scaled(tokens.number("next sample"));
    }
    if (!tokens.onlySpaceLeft())
        throw DataError(sourceName, 0,
                        "bytes after the image's raster; one image per file is read");
    return image;
}

Image loadNetpbm(const std::string& path) {
    return decodeNetpbm(readImageFile(path, kMaxNetpbmBytes, "a PGM/PPM image"), path);
}

int sniffNetpbm(const FilePrefix& prefix) {
    if (prefix.hasExtension(".pgm") || prefix.hasExtension(".ppm") || prefix.hasExtension(".pnm"))
        return 5;
    const std::string& head = prefix.head;
    return head.size() >= 3 && head[0] == 'P' &&
                   std::string_view("2356").find(head[1]) != std::string_view::npos &&
                   isSpace(head[2])
               ? 5
               : 0;
}

}  // namespace cplab
