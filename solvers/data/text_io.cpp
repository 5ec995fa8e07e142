// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/text_io.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <system_error>

#include "core/memory_budget.h"
#include "core/output_file.h"
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

constexpr std::size_t kHeadBytes = 1 << 16;   // checked for binary bytes before reading on
std::atomic<std::size_t> gInputByteLimit{0};  // 0: half of MemAvailable
std::atomic<std::size_t> gLineByteLimit{kDefaultLineByteLimit};

// The memory this process may still take (core/memory_budget.h); 0 when unknown.
std::size_t availableMemory() {
    return memoryBudget();
}

std::string megabytes(std::size_t bytes) {
    const double mb = static_cast<double>(bytes) / (1 << 20);
    return formatReal(mb >= 100 ? std::round(mb) : std::round(mb * 100) / 100) + " MB";
}

[[noreturn]] void failTooLarge(const std::string& source, const char* what) {
    const std::size_t limit = inputByteLimit();
    throw DataError(source, 0,
                    std::string(what) + " more than " + megabytes(limit) +
                        " of text, beyond what the memory available can load (half of it)");
}

// Follows the lines of a text as it arrives, a chunk at a time, and refuses one longer than
// lineByteLimit() as soon as its bytes exceed it: one pass of memchr over each byte, so the
// time is linear in the text however long its lines (a 3 GB line inflated from 3 MB of gzip
// fails after 64 MB, not after minutes).
class LineLengthCheck {
  public:
    explicit LineLengthCheck(const std::string& source) : source_(source) {}

    void add(std::string_view bytes) {
        const char* p = bytes.data();
        const char* const end = p + bytes.size();
        while (p < end) {
            const void* newline = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
            if (!newline) {
                length_ += static_cast<std::size_t>(end - p);
                break;
            }
            length_ += static_cast<std::size_t>(static_cast<const char*>(newline) - p);
            check();
            length_ = 0;
            ++line_;
            p = static_cast<const char*>(newline) + 1;
        }
        check();
    }
    void restart() {
        length_ = 0;
        line_ = 1;
    }

  private:
    void check() const {
        const std::size_t limit = lineByteLimit();
        if (length_ <= limit) return;
        throw DataError(source_, line_,
                        "line longer than " + std::to_string(limit) + " bytes (" +
                            megabytes(limit) +
                            ", the most one line may hold); expected a text data file with "
                            "one example per line");
    }

    const std::string& source_;
    std::size_t length_ = 0;  // bytes of the current line so far
    int line_ = 1;
};

// What one inflate() call did.
struct InflateStep {
    std::size_t written = 0;  // bytes of text
    bool memberEnd = false;   // a gzip member ended
};

// One inflate() call from bytes[inPos...] into out[0, room): advances inPos. Throws DataError
// for corrupt data and for a stream that stops before its end.
InflateStep inflateOnce(z_stream& zs, std::string_view bytes, std::size_t& inPos, char* out,
                        std::size_t room, const std::string& source) {
    constexpr std::size_t kMaxChunk = UINT_MAX / 2;  // zlib counts in uInt
    const std::size_t inAvail = std::min(bytes.size() - inPos, kMaxChunk);
    const std::size_t outAvail = std::min(room, kMaxChunk);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + inPos));
    zs.avail_in = static_cast<uInt>(inAvail);
    zs.next_out = reinterpret_cast<Bytef*>(out);
    zs.avail_out = static_cast<uInt>(outAvail);
    const int ret = inflate(&zs, Z_NO_FLUSH);
    inPos += inAvail - zs.avail_in;
    const InflateStep step{outAvail - zs.avail_out, ret == Z_STREAM_END};
    if (ret == Z_STREAM_END) return step;
    if (ret == Z_DATA_ERROR || ret == Z_NEED_DICT || ret == Z_STREAM_ERROR) {
        throw DataError(source, 0,
                        std::string("corrupt gzip stream (") +
                            (zs.msg ? zs.msg : "invalid compressed data") + ")");
    }
    if (ret == Z_MEM_ERROR) throw std::bad_alloc();
    // Z_OK or Z_BUF_ERROR: inflate wants more input or more room. No input left while there
    // is room means the stream stops before its end.
    if (inPos == bytes.size() && zs.avail_out > 0) {
        throw DataError(source, 0,
                        "truncated gzip stream (the file ends before the compressed data does; "
                        "incomplete download or copy?)");
    }
    return step;
}

// After a member ended at inPos: true when another member follows (as `cat a.gz b.gz` makes;
// zs is reset for it), false at the end (nothing more, or zero padding); DataError for other
// bytes.
bool nextMember(z_stream& zs, std::string_view bytes, std::size_t inPos,
                const std::string& source) {
    const std::string_view rest = bytes.substr(inPos);
    if (rest.empty() || std::all_of(rest.begin(), rest.end(), [](char c) { return c == '\0'; }))
        return false;
    if (!isGzip(rest)) {
        throw DataError(source, 0,
                        "corrupt gzip stream (" + std::to_string(rest.size()) +
                            " unexpected bytes after the end of the compressed data)");
    }
    inflateReset(&zs);
    return true;
}

}  // namespace

std::size_t inputByteLimit() {
    if (const std::size_t set = gInputByteLimit.load()) return set;
    const std::size_t available = availableMemory();
    return available > 0 ? available / 2 : std::numeric_limits<std::size_t>::max();
}

void setInputByteLimit(std::size_t bytes) {
    gInputByteLimit.store(bytes);
}

void checkParsedSize(const std::string& sourceName, std::size_t examples, std::size_t values,
                     std::size_t bytes) {
    const std::size_t set = gInputByteLimit.load();
    const std::size_t budget = set ? set : availableMemory();
    if (budget == 0 || bytes <= budget) return;
    throw DataError(sourceName, 0,
                    "the text holds up to " + std::to_string(examples) + " examples with " +
                        std::to_string(values) + " feature values, which need about " +
                        megabytes(bytes) + " of memory once parsed; only " + megabytes(budget) +
                        " are available");
}

void checkTextHead(std::string_view text, const std::string& sourceName) {
    const std::string_view head = text.substr(0, std::min(text.size(), kHeadBytes));
    // Whole lines as LineReader checks them (same rule, same message) …
    const std::size_t lastNewline = head.rfind('\n');
    const std::size_t whole = lastNewline == std::string_view::npos ? 0 : lastNewline + 1;
    LineReader reader(head.substr(0, whole), sourceName);
    std::string_view line;
    while (reader.next(line)) {
    }
    // … and the line cut at 64 KB by its control bytes (a UTF-8 sequence may be cut too).
    const int lineNumber = reader.lineNumber() + 1;
    for (std::size_t i = whole; i < head.size(); ++i) {
        const auto c = static_cast<unsigned char>(head[i]);
        if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
            throw DataError(sourceName, lineNumber,
                            "unexpected binary byte " + hexByte(c) + " at column " +
                                std::to_string(i - whole + 1) + "; expected text (ASCII or UTF-8)");
        }
    }
}

namespace {

// Where an input is, as readInputFile sees it: a regular file is read (and sniffed) as often as
// needed; anything else that can be opened (a pipe, /dev/stdin, <(...), a FIFO, a device) can
// be read once only, so it goes through streamText.
enum class InputKind { Regular, Stream };

InputKind inputKind(const std::string& path) {
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (status.type() == fs::file_type::not_found) throw DataError(path, 0, "no such file");
    if (ec) throw DataError(path, 0, "cannot open: " + ec.message());
    if (fs::is_directory(status)) throw DataError(path, 0, "is a directory, not a data file");
    noteInputFile(path);
    return fs::is_regular_file(status) ? InputKind::Regular : InputKind::Stream;
}

// Appends what is read to `bytes` with readInputFile's checks: the first 64 KB are text unless
// gzip, no line beyond lineByteLimit() (plain text; gzip is checked once inflated), no more
// than inputByteLimit() bytes.
class InputChecks {
  public:
    explicit InputChecks(const std::string& path) : path_(path), lines_(path) {}

    void append(std::string& bytes, const char* data, std::size_t n, bool end) {
        const std::size_t old = bytes.size();
        bytes.append(data, n);
        if (!decided_ && (bytes.size() >= 2 || end)) {
            decided_ = true;
            plain_ = !isGzip(bytes);
            if (plain_) lines_.add(bytes);
        } else if (decided_ && plain_) {
            lines_.add(std::string_view(bytes).substr(old));
        }
        // The first bytes tell binary input (a device such as /dev/zero never ends) before
        // the rest is read; gzip is checked once inflated.
        if (!headChecked_ && (bytes.size() >= kHeadBytes || end)) {
            headChecked_ = true;
            if (!isGzip(bytes)) checkTextHead(bytes, path_);
        }
        if (bytes.size() > inputByteLimit()) failTooLarge(path_, "the input holds");
    }

  private:
    const std::string& path_;
    LineLengthCheck lines_;
    bool decided_ = false;  // gzip or not is known
    bool plain_ = false;
    bool headChecked_ = false;
};

// Closes a file descriptor.
struct Descriptor {
    int fd = -1;
    ~Descriptor() {
        if (fd >= 0) ::close(fd);
    }
};

// The text of an input that is not a regular file, read to its end once. A named FIFO without
// a writer, or a device that sends nothing (a terminal), is refused after kStreamWaitSeconds
// instead of blocking forever; once a writer is there (an anonymous pipe always has one until
// it closes: `cmd | cplab-cli ... --data /dev/stdin`, `<(cmd)`), reading waits for it as long
// as it writes, since the user chose that program.
std::string readStream(const std::string& path) {
    Descriptor in;
    errno = 0;
    in.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (in.fd < 0) throw DataError(path, 0, "cannot open: " + systemReason(errno));
    struct stat info {};
    const bool fifo = ::fstat(in.fd, &info) == 0 && S_ISFIFO(info.st_mode);
    struct statfs fileSystem {};
    const bool anonymousPipe =
        fifo && ::fstatfs(in.fd, &fileSystem) == 0 &&
        fileSystem.f_type == static_cast<decltype(fileSystem.f_type)>(PIPEFS_MAGIC);

    std::string bytes;
    InputChecks checks(path);
    char buffer[kHeadBytes];
    // Waiting for the first byte or a writer, without blocking.
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::seconds(kStreamWaitSeconds);
    bool ended = false;
    bool hungUp = false;  // a writer came and left
    for (;;) {
        const ssize_t n = ::read(in.fd, buffer, sizeof buffer);
        if (n > 0) {
            checks.append(bytes, buffer, static_cast<std::size_t>(n), false);
            break;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
            throw DataError(path, 0, "cannot read: " + systemReason(errno));
        if (n < 0 && fifo) break;  // a writer is connected, it has not written yet
        // n == 0 on a pipe or FIFO: no writer. An anonymous pipe's writer has closed (the
        // end); a named FIFO may yet get one, unless one came and left.
        if (n == 0 && (!fifo || anonymousPipe || hungUp)) {
            ended = true;
            break;
        }
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) {
            throw DataError(path, 0,
                            fifo ? "a FIFO with no writer after " +
                                       std::to_string(kStreamWaitSeconds) +
                                       " s; start the program that writes it first, or give a "
                                       "regular file"
                                 : "no input after " + std::to_string(kStreamWaitSeconds) +
                                       " s (a terminal or device that sends nothing?); give a "
                                       "regular file or a pipe");
        }
        // Without a writer a FIFO never polls readable: sleep in short slices to notice one.
        pollfd watch{in.fd, POLLIN, 0};
        if (::poll(&watch, 1, static_cast<int>(std::min<long long>(left, 100))) > 0 &&
            (watch.revents & POLLHUP))
            hungUp = true;
    }
    if (!ended) {
        const int flags = ::fcntl(in.fd, F_GETFL);
        if (flags < 0 || ::fcntl(in.fd, F_SETFL, flags & ~O_NONBLOCK) < 0)
            throw DataError(path, 0, "cannot read: " + systemReason(errno));
        for (;;) {
            const ssize_t n = ::read(in.fd, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) throw DataError(path, 0, "cannot read: " + systemReason(errno));
            if (n == 0) break;
            checks.append(bytes, buffer, static_cast<std::size_t>(n), false);
        }
    }
    checks.append(bytes, buffer, 0, true);
    if (isGzip(bytes)) return inflateGzip(bytes, path);
    return bytes;
}

// The text of every stream input read so far, by path, for the life of the process: sniffing
// (readInputHead) and loading (readInputFile, TextPieces) of `--data /dev/stdin` must see the
// same bytes, and a stream gives them once. A failure is kept too, so that a FIFO without a
// writer is waited for once, not once per reader.
struct StreamEntry {
    std::shared_ptr<const std::string> text;
    std::exception_ptr error;
};
std::mutex gStreamMutex;
std::map<std::string, StreamEntry> gStreams;

std::shared_ptr<const std::string> streamText(const std::string& path) {
    // Held while reading: a second reader of the same stream waits for the first.
    const std::lock_guard<std::mutex> lock(gStreamMutex);
    if (const auto known = gStreams.find(path); known != gStreams.end()) {
        if (known->second.error) std::rethrow_exception(known->second.error);
        return known->second.text;
    }
    try {
        auto text = std::make_shared<const std::string>(readStream(path));
        gStreams[path].text = text;
        return text;
    } catch (const DataError&) {
        gStreams[path].error = std::current_exception();
        throw;
    }
}

}  // namespace

std::size_t lineByteLimit() {
    return gLineByteLimit.load();
}

void setLineByteLimit(std::size_t bytes) {
    gLineByteLimit.store(bytes ? bytes : kDefaultLineByteLimit);
}

std::string readInputFile(const std::string& path) {
    if (inputKind(path) == InputKind::Stream) return *streamText(path);

    errno = 0;
    FilePtr file(std::fopen(path.c_str(), "rb"));
    if (!file) throw DataError(path, 0, "cannot open: " + systemReason(errno));
    std::string bytes;
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (!ec) {
        if (size > inputByteLimit()) failTooLarge(path, "the file holds");
        bytes.reserve(static_cast<std::size_t>(size));
    }
    InputChecks checks(path);
    char buffer[kHeadBytes];
    for (;;) {
        const std::size_t n = std::fread(buffer, 1, sizeof buffer, file.get());
        checks.append(bytes, buffer, n, n < sizeof buffer);
        if (n < sizeof buffer) break;
    }
    if (std::ferror(file.get())) throw DataError(path, 0, "cannot read: " + systemReason(errno));
    if (isGzip(bytes)) return inflateGzip(bytes, path);
    return bytes;
}

std::string readInputHead(const std::string& path, std::size_t count) {
    try {
        if (inputKind(path) == InputKind::Stream) {
            const std::shared_ptr<const std::string> text = streamText(path);
            return text->substr(0, std::min(count, text->size()));
        }
    } catch (const DataError&) {
        return {};  // the loader reports it
    }
    // gzopen reads plain files as they are and inflates gzip ones; errors mean "no head".
    gzFile file = gzopen(path.c_str(), "rb");
    if (!file) return {};
    noteInputFile(path);
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
    const std::size_t limit = inputByteLimit();
    std::string out(std::min(guess, limit) + (1 << 16), '\0');
    bool headChecked = false;
    LineLengthCheck lines(sourceName);

    std::size_t inPos = 0;
    std::size_t outPos = 0;
    for (;;) {
        if (out.size() - outPos < (1 << 16))
            out.resize(std::min(std::max(out.size() * 2, outPos + (1 << 16)),
                                std::max(limit, outPos) + (1 << 16)));
        const InflateStep step =
            inflateOnce(zs, bytes, inPos, out.data() + outPos, out.size() - outPos, sourceName);
        lines.add(std::string_view(out.data() + outPos, step.written));
        outPos += step.written;
        // Checked once 64 KB are out, or at the end: not at the end of a first member, which
        // may be empty (a text after it went unchecked).
        if (!headChecked && outPos >= kHeadBytes) {
            headChecked = true;
            checkTextHead(std::string_view(out.data(), outPos), sourceName);
        }
        if (outPos > limit) failTooLarge(sourceName, "the compressed stream expands to");
        if (step.memberEnd && !nextMember(zs, bytes, inPos, sourceName)) break;
    }
    out.resize(outPos);
    if (!headChecked) checkTextHead(out, sourceName);
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

void checkOutputPath(const std::string& path) {
    if (const auto problem = outputProblem(path)) throw DataError(path, 0, *problem);
}

void writeOutputFile(const std::string& path, std::string_view bytes, bool gzip) {
    std::string compressed;
    if (gzip) {
        compressed = deflateGzip(bytes);
        bytes = compressed;
    }
    if (const auto failure = writeFileAtomically(path, bytes)) throw DataError(path, 0, *failure);
}

// --- pieces ---------------------------------------------------------------------------------

struct TextPieces::Impl {
    std::string path;
    std::size_t pieceBytes = 0;
    std::shared_ptr<const std::string> whole;  // not a regular file: all of its text
    bool wholeGiven = false;
    bool gzip = false;
    FilePtr file;        // a plain regular file
    std::string packed;  // a gzip file's bytes
    z_stream zs{};
    bool zsOpen = false;
    std::size_t packedPos = 0;
    bool memberDone = false;
    std::string buffer;  // text read and not yet handed out, from `consumed` on
    std::size_t consumed = 0;
    std::size_t total = 0;  // text bytes produced so far
    bool headChecked = false;
    bool end = false;  // no more text to read
    std::optional<LineLengthCheck> lines;

    ~Impl() {
        if (zsOpen) inflateEnd(&zs);
    }

    // Appends up to `count` bytes of text to `buffer`; 0 at the end of the text.
    std::size_t produce(std::size_t count) {
        const std::size_t old = buffer.size();
        buffer.resize(old + count);
        std::size_t made = 0;
        if (!gzip) {
            made = std::fread(buffer.data() + old, 1, count, file.get());
            if (made < count && std::ferror(file.get()))
                throw DataError(path, 0, "cannot read: " + systemReason(errno));
        } else {
            made = inflateSome(buffer.data() + old, count);
        }
        buffer.resize(old + made);
        lines->add(std::string_view(buffer).substr(old));
        total += made;
        if (total > inputByteLimit())
            failTooLarge(path, gzip ? "the compressed stream expands to" : "the input holds");
        return made;
    }

    // inflateGzip's loop, a bounded output at a time.
    std::size_t inflateSome(char* out, std::size_t count) {
        std::size_t made = 0;
        while (made < count) {
            if (memberDone) {
                if (!nextMember(zs, packed, packedPos, path)) return made;
                memberDone = false;
            }
            const InflateStep step =
                inflateOnce(zs, packed, packedPos, out + made, count - made, path);
            made += step.written;
            memberDone = step.memberEnd;
        }
        return made;
    }

    void start() {
        buffer.clear();
        consumed = 0;
        total = 0;
        end = false;
        lines->restart();
        if (gzip) {
            if (zsOpen) inflateEnd(&zs);
            zs = z_stream{};
            if (inflateInit2(&zs, 15 + 16) != Z_OK) throw std::bad_alloc();
            zsOpen = true;
            packedPos = 0;
            memberDone = false;
        } else if (std::fseek(file.get(), 0, SEEK_SET) != 0) {
            throw DataError(path, 0, "cannot read: " + systemReason(errno));
        }
    }
};

TextPieces::TextPieces(const std::string& path, std::size_t pieceBytes)
    : impl_(std::make_unique<Impl>()) {
    Impl& p = *impl_;
    p.path = path;
    p.pieceBytes = std::max<std::size_t>(pieceBytes, 1);
    p.lines.emplace(p.path);
    if (inputKind(path) == InputKind::Stream) {
        p.whole = streamText(path);  // read whole once, shared with the sniffing before
        return;
    }
    errno = 0;
    p.file.reset(std::fopen(path.c_str(), "rb"));
    if (!p.file) throw DataError(path, 0, "cannot open: " + systemReason(errno));
    char magic[2] = {0, 0};
    const std::size_t n = std::fread(magic, 1, 2, p.file.get());
    p.gzip = isGzip(std::string_view(magic, n));
    if (p.gzip) {  // the compressed bytes, held whole
        std::rewind(p.file.get());
        char block[kHeadBytes];
        for (std::size_t got; (got = std::fread(block, 1, sizeof block, p.file.get())) > 0;)
            p.packed.append(block, got);
        if (std::ferror(p.file.get()))
            throw DataError(path, 0, "cannot read: " + systemReason(errno));
    }
    if (p.gzip) p.file.reset();
    p.start();
}

TextPieces::~TextPieces() = default;

void TextPieces::rewind() {
    Impl& p = *impl_;
    if (p.whole) {
        p.wholeGiven = false;
        return;
    }
    p.start();
}

bool TextPieces::next(std::string_view& piece) {
    Impl& p = *impl_;
    if (p.whole) {
        if (p.wholeGiven || p.whole->empty()) return false;
        piece = *p.whole;
        p.wholeGiven = true;
        return true;
    }
    p.buffer.erase(0, p.consumed);  // the cut line left over from the last piece: no '\n'
    p.consumed = 0;
    // Read until the piece is full and holds a line end, or the text ends. Only the bytes just
    // read are searched for a line end, so a long line costs time linear in its length.
    bool lineEnd = false;
    while (!p.end && (!p.headChecked || p.buffer.size() < p.pieceBytes || !lineEnd)) {
        const std::size_t old = p.buffer.size();
        if (p.produce(p.pieceBytes) == 0) p.end = true;
        if (!lineEnd) lineEnd = std::memchr(p.buffer.data() + old, '\n', p.buffer.size() - old);
        if (!p.headChecked && (p.total >= kHeadBytes || p.end)) {
            p.headChecked = true;
            checkTextHead(p.buffer, p.path);
        }
    }
    if (p.buffer.empty()) return false;
    const std::size_t lastEnd = p.buffer.rfind('\n');
    const std::size_t cut = p.end || lastEnd == std::string::npos ? p.buffer.size() : lastEnd + 1;
    piece = std::string_view(p.buffer).substr(0, cut);
    p.consumed = cut;
    return true;
}

// --- lines ----------------------------------------------------------------------------------

LineReader::LineReader(std::string_view text, std::string sourceName, int linesBefore)
    : text_(text), sourceName_(std::move(sourceName)), lineNumber_(linesBefore) {
    if (linesBefore == 0 && text_.substr(0, 3) == "\xEF\xBB\xBF") position_ = 3;
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
        if (c == '\r') {  // a CR before the LF was removed by next(): this one ends nothing
            fail("carriage return without line feed (old Mac line endings) at column " +
                 std::to_string(i + 1) + "; expected lines ending in LF or CRLF");
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

double LineReader::number(std::string_view token, const char* what) const {
    double value = 0.0;
    const NumberError error = parseReal(token, value);
    if (error != NumberError::None) {
        fail(std::string(what) + " " + inQuotes(token) + " " + describe(error));
    }
    return value;
}

int LineReader::integer(std::string_view token, const char* what, int low) const {
    const double value = number(token, what);
    // Checked as a double first: converting one beyond int's range is undefined.
    constexpr double kMax = 1 << 30;  // far beyond any count a file of ours holds
    if (!(value >= low && value <= kMax) || value != std::floor(value)) {
        fail(std::string(what) + " " + inQuotes(token) + " must be an integer in [" +
             std::to_string(low) + ", " + formatReal(kMax) + "]");
    }
    return static_cast<int>(value);
}

std::string_view nextToken(std::string_view line, std::size_t& pos) {
    while (pos < line.size() && isBlank(line[pos]))
        ++pos;
    const std::size_t begin = pos;
    while (pos < line.size() && !isBlank(line[pos]))
        ++pos;
    return line.substr(begin, pos - begin);
}

void splitFeature(const LineReader& reader, std::string_view token, std::string_view& indexText,
                  std::string_view& valueText, const char* layout) {
    const std::size_t colon = token.find(':');
    if (colon == std::string_view::npos) {
        reader.fail("token " + inQuotes(token) + " is not '<index>:<value>' (missing ':'); " +
                    layout);
    }
    indexText = token.substr(0, colon);
    valueText = token.substr(colon + 1);
}

int featureIndex(const LineReader& reader, std::string_view token, std::string_view indexText,
                 int previous, const char* layout) {
    int index = 0;
    const auto [end, ec] =
        std::from_chars(indexText.data(), indexText.data() + indexText.size(), index);
    if (ec == std::errc::result_out_of_range) {
        reader.fail("feature index " + inQuotes(indexText) + " in " + inQuotes(token) +
                    " is too large");
    }
    if (ec != std::errc() || end != indexText.data() + indexText.size() || indexText.empty() ||
        index < 0) {
        reader.fail("feature index " + inQuotes(indexText) + " in " + inQuotes(token) +
                    " is not a positive integer; " + layout);
    }
    if (index == 0) {
        reader.fail("feature index 0 in " + inQuotes(token) + "; indices start at 1");
    }
    if (index == previous) {
        reader.fail("feature index " + std::to_string(index) +
                    " appears twice; indices must increase");
    }
    if (index < previous) {
        reader.fail("feature index " + std::to_string(index) + " after index " +
                    std::to_string(previous) + "; indices must increase");
    }
    return index;
}

double featureValue(const LineReader& reader, std::string_view valueText, int index) {
    double value = 0.0;
    if (const NumberError error = parseReal(valueText, value); error != NumberError::None) {
        reader.fail("value " + inQuotes(valueText) + " of feature " + std::to_string(index) + " " +
                    describe(error));
    }
    return value;
}

std::string inQuotes(std::string_view text) {
    constexpr std::size_t kMax = 40;
    if (text.size() <= kMax) return "'" + std::string(text) + "'";
    std::size_t cut = kMax;  // do not split a UTF-8 sequence
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    return "'" + std::string(text.substr(0, cut)) + "...'";
}

}  // namespace cplab
