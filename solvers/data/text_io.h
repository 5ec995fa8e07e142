// SPDX-License-Identifier: GPL-3.0-or-later
// Plumbing shared by the text loaders and writers (LIBSVM, CSV, and later UAI and OCR files):
// reading a file with gzip detected by its magic bytes, iterating over lines while rejecting
// binary bytes, strict number parsing, shortest round-trip number text, and safe writing.
// Every failure is a DataError naming the file and, where it is about one line, the line.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/number_text.h"

namespace cplab {

// --- whole inputs ---------------------------------------------------------------------------

// Every reader below notes the file it opens as an input of this process (noteInputFile), so
// that no output replaces it.

// The bytes of the file at `path`, inflated when they start with the gzip magic bytes (1f 8b;
// the extension does not matter). Throws DataError(path, 0, ...) when the file does not exist,
// is a directory, cannot be read, or holds a truncated or corrupt gzip stream; and
// DataError(path, line, ...) as soon as its first 64 KB of text hold a binary byte (so
// /dev/zero or an image fails at once, not after reading gigabytes), or as soon as a line
// exceeds lineByteLimit() ("line longer than N bytes"). The text may not exceed
// inputByteLimit(): beyond it, reading stops with a DataError saying so.
//
// Streams: what is not a regular file (a pipe: `--data /dev/stdin`, `<(cmd)`; a named FIFO; a
// device) is read to its end on first use and its text kept, by path, for the life of the
// process; readInputHead, readInputFile and TextPieces all hand out that same text, so sniffing
// a format never consumes bytes the loader then misses (the memory is the text's, as for any
// input read whole). A named FIFO that gets no writer, or a device that sends nothing, within
// kStreamWaitSeconds is refused ("a FIFO with no writer after 5 s"); a pipe with a writer is
// read for as long as the writer writes. A failure is kept too (asked again, it is thrown
// again without waiting again).
std::string readInputFile(const std::string& path);

// How long a stream input may stay without a writer or a first byte before it is refused.
inline constexpr int kStreamWaitSeconds = 5;

// The longest line any text input may hold (64 MiB): beyond it a reader stops at once with
// DataError(path, line, "line longer than N bytes ..."), whether the text is plain, inflated
// from gzip or piped. Reading stays linear in the bytes however long the lines.
inline constexpr std::size_t kDefaultLineByteLimit = std::size_t{64} << 20;
std::size_t lineByteLimit();
// Overrides the limit (0: back to kDefaultLineByteLimit). For tests.
void setLineByteLimit(std::size_t bytes);

// The most text bytes one input may hold (plain or inflated): half the memory available when
// the input is opened (MemAvailable in /proc/meminfo), or the value set by
// setInputByteLimit(). Loading needs memory beyond the text itself, so a larger file could not
// be loaded anyway; it is refused before memory runs out.
std::size_t inputByteLimit();
// Overrides the limit (0: back to the memory-based default). For tests.
void setInputByteLimit(std::size_t bytes);

// Before a loader parses text it has read: throws DataError(sourceName, 0, ...) saying how
// many examples and values the text can hold and how much memory they need, when `bytes`
// exceeds the memory available now (MemAvailable; or the limit set by setInputByteLimit), so
// that a file whose data cannot fit fails with a message instead of exhausting memory.
void checkParsedSize(const std::string& sourceName, std::size_t examples, std::size_t values,
                     std::size_t bytes);

// Throws DataError(sourceName, line, "unexpected binary byte 0x.. at column N; expected
// text") when the first 64 KB of `text` hold a control byte other than tab, CR and LF.
void checkTextHead(std::string_view text, const std::string& sourceName);

// At most the first `count` bytes of the file (inflated when it is gzip), for telling formats
// apart by their content; empty when the file cannot be read (readInputFile says why). A
// stream is read whole and kept (see readInputFile), so the loader still gets all of it.
std::string readInputHead(const std::string& path, std::size_t count = 4096);

// True when `bytes` starts with the gzip magic bytes 1f 8b.
bool isGzip(std::string_view bytes);

// Inflates a gzip stream; concatenated members (as `cat a.gz b.gz` makes) are joined, and
// zero padding after the last member is ignored. Throws DataError(sourceName, 0, ...) with
// "truncated gzip stream ...", "corrupt gzip stream (<zlib's reason>)" or, when the output
// would exceed inputByteLimit(), "expands to more than ..."; and checkTextHead's error as soon
// as the first 64 KB inflated are not text.
std::string inflateGzip(std::string_view bytes, const std::string& sourceName);

// The text of an input given in memory: `bytes` itself, or, when it is gzip, its inflated
// copy, which is kept in `storage` (the returned view points into `bytes` or `storage`).
std::string_view inputText(std::string_view bytes, const std::string& sourceName,
                           std::string& storage);

// Gzip (one member, default compression level) of `bytes`.
std::string deflateGzip(std::string_view bytes);

// Writes `bytes` (gzip-compressed when `gzip`) to `path` as core/output_file.h says: a unique
// temporary file beside it renamed over it when complete (old file or new, never half of
// one), the replaced file's permission bits kept, a write-protected file or an input of this
// process refused. Throws DataError(path, 0, ...) on failure.
void writeOutputFile(const std::string& path, std::string_view bytes, bool gzip = false);

// Throws the DataError writeOutputFile would throw for `path` because of where or what it is
// (a missing folder, a folder without write permission, a directory in its place, a
// write-protected file, an input of this process, a FIFO nobody reads), before any work is
// done for it. Leaves no file behind.
void checkOutputPath(const std::string& path);

// The text of a file piece by piece, gzip inflated on the way, each piece ending at a line end:
// a loader can parse a file without holding all of its text (the compressed bytes of a gzip
// file are held; they are a fraction of it). Same checks and messages as readInputFile: a
// missing file, a directory, binary bytes in the first 64 KB, truncated or corrupt gzip, more
// text than inputByteLimit(), a line longer than lineByteLimit(). What is not a regular file (a
// pipe, a device) is read whole once (the text readInputFile and readInputHead share) and
// given as one piece.
class TextPieces {
  public:
    explicit TextPieces(const std::string& path, std::size_t pieceBytes = std::size_t{1} << 18);
    ~TextPieces();
    TextPieces(const TextPieces&) = delete;
    TextPieces& operator=(const TextPieces&) = delete;

    // The next piece: whole lines (the file's last line may lack its '\n'), valid until the
    // next call; false at the end.
    bool next(std::string_view& piece);
    // Back to the first byte, for another pass.
    void rewind();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// A text given whole, handed out as TextPieces hands out a file's: one piece (loaders that
// parse piece by piece take either).
struct OnePiece {
    std::string_view text;
    bool given = false;
    bool next(std::string_view& piece) {
        if (given) return false;
        given = true;
        piece = text;
        return true;
    }
    void rewind() { given = false; }
};

// --- lines ----------------------------------------------------------------------------------

// Splits text into lines ("\n" or "\r\n"; a last line without terminator counts), skipping a
// UTF-8 byte-order mark at the start. Each returned line has been checked to be text: control
// bytes other than tab, and bytes that are not valid UTF-8, make next() throw
// "unexpected binary byte 0x.. at column N; expected text"; a carriage return inside a line
// throws "carriage return without line feed (old Mac line endings) at column N".
class LineReader {
  public:
    // `linesBefore`: lines of the same file before `text` (a piece of it, see TextPieces); the
    // numbers continue from there, and a byte-order mark is skipped only at line 1.
    LineReader(std::string_view text, std::string sourceName, int linesBefore = 0);

    // Stores the next line (without terminator) in `line`; false at the end of the text.
    bool next(std::string_view& line);
    // 1-based number of the line last returned by next() (0 before the first).
    int lineNumber() const { return lineNumber_; }
    const std::string& sourceName() const { return sourceName_; }
    // Throws DataError(sourceName(), lineNumber(), detail).
    [[noreturn]] void fail(const std::string& detail) const;
    // `token` as a finite number, else fail("<what> '<token>' <why>").
    double number(std::string_view token, const char* what) const;
    // `token` as an integer in [low, 2^30], checked as a double before any conversion, else
    // fail("<what> '<token>' must be an integer in [low, 2^30]").
    int integer(std::string_view token, const char* what, int low) const;

  private:
    void checkText(std::string_view line) const;

    std::string_view text_;
    std::string sourceName_;
    std::size_t position_ = 0;
    int lineNumber_ = 0;
};

// True for the blanks that separate tokens: space and tab.
inline bool isBlank(char c) {
    return c == ' ' || c == '\t';
}
// The next blank-separated token of `line` from `pos` (advanced past it); empty at the end.
std::string_view nextToken(std::string_view line, std::size_t& pos);

// Sparse features "<index>:<value>" (LIBSVM rows, sequence tokens), read on `reader`'s line;
// each fails (LineReader::fail) with a message naming the token. `layout` ("expected '<label>
// <index>:<value> ...'") ends the messages of a malformed token or index.
// `token` split at its colon into `indexText` and `valueText`.
void splitFeature(const LineReader& reader, std::string_view token, std::string_view& indexText,
                  std::string_view& valueText, const char* layout);
// The index: an integer >= 1 greater than `previous` (the index before it on the line, 0 for
// the first).
int featureIndex(const LineReader& reader, std::string_view token, std::string_view indexText,
                 int previous, const char* layout);
// The value of feature `index`: a finite number.
double featureValue(const LineReader& reader, std::string_view valueText, int index);

// --- numbers --------------------------------------------------------------------------------

// Numbers: parseReal, describe(NumberError) and formatReal in core/number_text.h.

// `text` in single quotes for messages, shortened to about 40 characters.
std::string inQuotes(std::string_view text);

}  // namespace cplab
