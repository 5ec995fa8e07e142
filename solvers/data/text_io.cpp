#include "data/text_io.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <new>
#include <system_error>

#include "data/data_error.h"

namespace cplab {

namespace {

namespace fs = std::filesystem;

std::string systemReason(int error) {
    return std::generic_category().message(error);
}

// A FILE* that closes itself.
struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

std::string hexByte(unsigned char c) {
    char text[8];
    std::snprintf(text, sizeof text, "0x%02x", static_cast<unsigned>(c));
    return text;
}

}  // namespace

// --- whole inputs ---------------------------------------------------------------------------

std::string readInputFile(const std::string& path) {
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (status.type() == fs::file_type::not_found) throw DataError(path, 0, "no such file");
    if (ec) throw DataError(path, 0, "cannot open: " + ec.message());
    if (fs::is_directory(status)) throw DataError(path, 0, "is a directory, not a data file");

    errno = 0;
    FilePtr file(std::fopen(path.c_str(), "rb"));
    if (!file) throw DataError(path, 0, "cannot open: " + systemReason(errno));
    std::string bytes;
    const auto size = fs::file_size(path, ec);
    if (!ec && fs::is_regular_file(status)) bytes.reserve(static_cast<std::size_t>(size));
    char buffer[1 << 16];
    for (;;) {
        const std::size_t n = std::fread(buffer, 1, sizeof buffer, file.get());
        bytes.append(buffer, n);
        if (n < sizeof buffer) break;
    }
    if (std::ferror(file.get())) throw DataError(path, 0, "cannot read: " + systemReason(errno));
    if (isGzip(bytes)) return inflateGzip(bytes, path);
    return bytes;
}

std::string readInputHead(const std::string& path, std::size_t count) {
    // gzopen reads plain files as they are and inflates gzip ones; errors mean "no head".
    gzFile file = gzopen(path.c_str(), "rb");
    if (!file) return {};
    std::string head(count, '\0');
    const int n = gzread(file, head.data(), static_cast<unsigned>(count));
    gzclose(file);
    head.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    return head;
}

bool isGzip(std::string_view bytes) {
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
           static_cast<unsigned char>(bytes[1]) == 0x8b;
}

std::string inflateGzip(std::string_view bytes, const std::string& sourceName) {
    z_stream zs{};
    if (inflateInit2(&zs, 15 + 16) != Z_OK) throw std::bad_alloc();  // 16: gzip wrapper only
    struct Guard {
        z_stream* zs;
        ~Guard() { inflateEnd(zs); }
    } guard{&zs};

    // The last four bytes of a member hold its size mod 2^32: a good first guess for a sound
    // file. It is only a hint (a cut or corrupt file ends in arbitrary bytes), so it is capped
    // at a 64:1 ratio; a larger output simply grows.
    std::size_t guess = bytes.size() * 4;
    if (bytes.size() >= 18) {
        const auto* tail = reinterpret_cast<const unsigned char*>(bytes.data() + bytes.size() - 4);
        const std::size_t isize =
            tail[0] | (tail[1] << 8) | (tail[2] << 16) | (static_cast<std::size_t>(tail[3]) << 24);
        guess = std::max(guess, std::min(isize + 1, bytes.size() * 64));
    }
    std::string out(guess + (1 << 16), '\0');

    constexpr std::size_t kMaxChunk = UINT_MAX / 2;  // zlib counts in uInt
    std::size_t inPos = 0;
    std::size_t outPos = 0;
    for (;;) {
        if (out.size() - outPos < (1 << 16))
            out.resize(std::max(out.size() * 2, outPos + (1 << 16)));
        const std::size_t inAvail = std::min(bytes.size() - inPos, kMaxChunk);
        const std::size_t outAvail = std::min(out.size() - outPos, kMaxChunk);
        zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + inPos));
        zs.avail_in = static_cast<uInt>(inAvail);
        zs.next_out = reinterpret_cast<Bytef*>(out.data() + outPos);
        zs.avail_out = static_cast<uInt>(outAvail);
        const int ret = inflate(&zs, Z_NO_FLUSH);
        inPos += inAvail - zs.avail_in;
        outPos += outAvail - zs.avail_out;
        if (ret == Z_STREAM_END) {
            const std::string_view rest = bytes.substr(inPos);
            if (rest.empty()) break;
            if (isGzip(rest)) {  // another member follows
                inflateReset(&zs);
                continue;
            }
            if (std::all_of(rest.begin(), rest.end(), [](char c) { return c == '\0'; })) break;
            throw DataError(sourceName, 0,
                            "corrupt gzip stream (" + std::to_string(rest.size()) +
                                " unexpected bytes after the end of the compressed data)");
        }
        if (ret == Z_DATA_ERROR || ret == Z_NEED_DICT || ret == Z_STREAM_ERROR) {
            throw DataError(sourceName, 0,
                            std::string("corrupt gzip stream (") +
                                (zs.msg ? zs.msg : "invalid compressed data") + ")");
        }
        if (ret == Z_MEM_ERROR) throw std::bad_alloc();
        // Z_OK or Z_BUF_ERROR: inflate wants more input or more room. No input left while
        // there is room means the stream stops before its end.
        if (inPos == bytes.size() && zs.avail_out > 0) {
            throw DataError(sourceName, 0,
                            "truncated gzip stream (the file ends before the compressed data "
                            "does; incomplete download or copy?)");
        }
    }
    out.resize(outPos);
    return out;
}

std::string_view inputText(std::string_view bytes, const std::string& sourceName,
                           std::string& storage) {
    if (!isGzip(bytes)) return bytes;
    storage = inflateGzip(bytes, sourceName);
    return storage;
}

std::string deflateGzip(std::string_view bytes) {
    z_stream zs{};
    if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
        Z_OK) {
        throw std::bad_alloc();
    }
    struct Guard {
        z_stream* zs;
        ~Guard() { deflateEnd(zs); }
    } guard{&zs};
    std::string out;
    constexpr std::size_t kChunk = std::size_t{1} << 20;
    std::size_t inPos = 0;
    int ret = Z_OK;
    while (ret != Z_STREAM_END) {
        const std::size_t inAvail = std::min(bytes.size() - inPos, kChunk);
        const bool last = inPos + inAvail == bytes.size();
        zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + inPos));
        zs.avail_in = static_cast<uInt>(inAvail);
        do {
            const std::size_t outPos = out.size();
            out.resize(outPos + kChunk);
            zs.next_out = reinterpret_cast<Bytef*>(out.data() + outPos);
            zs.avail_out = static_cast<uInt>(kChunk);
            ret = deflate(&zs, last ? Z_FINISH : Z_NO_FLUSH);
            if (ret == Z_STREAM_ERROR) throw std::bad_alloc();
            out.resize(out.size() - zs.avail_out);
        } while (zs.avail_out == 0);
        inPos += inAvail - zs.avail_in;
    }
    return out;
}

void writeOutputFile(const std::string& path, std::string_view bytes, bool gzip) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) throw DataError(path, 0, "is a directory, not a file");
    std::string compressed;
    if (gzip) {
        compressed = deflateGzip(bytes);
        bytes = compressed;
    }
    const std::string temporary = path + ".part";
    errno = 0;
    FilePtr file(std::fopen(temporary.c_str(), "wb"));
    if (!file) throw DataError(path, 0, "cannot write: " + systemReason(errno));
    const std::size_t written = std::fwrite(bytes.data(), 1, bytes.size(), file.get());
    const int writeError = errno;
    const bool closed = std::fclose(file.release()) == 0;
    if (written != bytes.size() || !closed) {
        fs::remove(temporary, ec);
        throw DataError(path, 0, "cannot write: " + systemReason(writeError ? writeError : EIO));
    }
    fs::rename(temporary, path, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(temporary, ignored);
        throw DataError(path, 0, "cannot write: " + ec.message());
    }
}

// --- lines ----------------------------------------------------------------------------------

LineReader::LineReader(std::string_view text, std::string sourceName)
    : text_(text), sourceName_(std::move(sourceName)) {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") position_ = 3;
}

bool LineReader::next(std::string_view& line) {
    if (position_ >= text_.size()) return false;
    const std::size_t end = text_.find('\n', position_);
    const std::size_t stop = end == std::string_view::npos ? text_.size() : end;
    line = text_.substr(position_, stop - position_);
    position_ = end == std::string_view::npos ? text_.size() : end + 1;
    ++lineNumber_;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    checkText(line);
    return true;
}

void LineReader::fail(const std::string& detail) const {
    throw DataError(sourceName_, lineNumber_, detail);
}

void LineReader::checkText(std::string_view line) const {
    const auto* bytes = reinterpret_cast<const unsigned char*>(line.data());
    const std::size_t n = line.size();
    std::size_t i = 0;
    // Fast path: printable ASCII and tab.
    while (i < n && ((bytes[i] >= 0x20 && bytes[i] < 0x7f) || bytes[i] == '\t'))
        ++i;
    while (i < n) {
        const unsigned char c = bytes[i];
        if ((c >= 0x20 && c < 0x7f) || c == '\t') {
            ++i;
            continue;
        }
        // A UTF-8 sequence: lead byte, the allowed range of the second byte, length.
        unsigned char low = 0x80;
        unsigned char high = 0xBF;
        std::size_t length = 0;
        if (c >= 0xC2 && c <= 0xDF) {
            length = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            length = 3;
            if (c == 0xE0) low = 0xA0;   // no overlong forms
            if (c == 0xED) high = 0x9F;  // no surrogates
        } else if (c >= 0xF0 && c <= 0xF4) {
            length = 4;
            if (c == 0xF0) low = 0x90;
            if (c == 0xF4) high = 0x8F;  // nothing above U+10FFFF
        }
        bool valid = length > 0 && i + length <= n && bytes[i + 1] >= low && bytes[i + 1] <= high;
        for (std::size_t k = 2; valid && k < length; ++k) {
            valid = bytes[i + k] >= 0x80 && bytes[i + k] <= 0xBF;
        }
        if (!valid) {
            fail("unexpected binary byte " + hexByte(c) + " at column " + std::to_string(i + 1) +
                 "; expected text (ASCII or UTF-8)");
        }
        i += length;
    }
}

// --- numbers --------------------------------------------------------------------------------

std::string inQuotes(std::string_view text) {
    constexpr std::size_t kMax = 40;
    if (text.size() <= kMax) return "'" + std::string(text) + "'";
    std::size_t cut = kMax;  // do not split a UTF-8 sequence
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    return "'" + std::string(text.substr(0, cut)) + "...'";
}

}  // namespace cplab
