// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the gzip path of the text reader (data/text_io.h) in memory: isGzip, inflateGzip,
// inputText and the LineReader over the inflated text, under a 4 MB input limit so that a
// gzip bomb is refused rather than inflated. Expected: text or a DataError. Findings: a crash
// or sanitizer report, any other exception, a LineReader line that is not valid text, or
// inflated text that does not survive deflateGzip → inflateGzip unchanged.
#include <cstddef>
#include <cstdint>
#include <string>

#include "data/data_error.h"
#include "data/text_io.h"
#include "fuzz_common.h"

using namespace cplab;
using namespace cplab::fuzz;

namespace {

constexpr std::size_t kInputLimit = std::size_t{4} << 20;

// Reads every line as the loaders do; each one must be text without its terminator.
void readLines(std::string_view text) {
    LineReader reader(text, "fuzz.gz");
    std::string_view line;
    int previous = 0;
    try {
        while (reader.next(line)) {
            require(reader.lineNumber() == previous + 1, "LineReader skipped a line number");
            previous = reader.lineNumber();
            require(line.find('\n') == std::string_view::npos, "LineReader line holds a LF");
            for (const char c : line) {
                const auto u = static_cast<unsigned char>(c);
                require(u >= 0x20 || u == '\t' || u == '\r', "LineReader returned a control byte");
            }
        }
    } catch (const DataError&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool limited = (setInputByteLimit(kInputLimit), true);
    (void)limited;
    const std::string_view bytes = asText(data, size);

    std::string inflated;
    try {
        inflated = inflateGzip(bytes, "fuzz.gz");
    } catch (const DataError&) {
        inflated.clear();
    }
    require(inflated.size() <= kInputLimit, "inflateGzip exceeded inputByteLimit()");
    if (!inflated.empty()) {
        // Our own gzip of the text must give it back.
        std::string again;
        try {
            again = inflateGzip(deflateGzip(inflated), "fuzz.gz (deflated)");
        } catch (const DataError& e) {
            require(false, std::string("inflateGzip(deflateGzip(x)) threw: ") + e.what());
        }
        require(again == inflated, "inflateGzip(deflateGzip(x)) != x");
    }

    // What every loader does with bytes in memory.
    std::string storage;
    std::string_view text;
    try {
        text = inputText(bytes, "fuzz.gz", storage);
    } catch (const DataError&) {
        return 0;
    }
    require(isGzip(bytes) || text == bytes, "inputText changed plain text");
    readLines(text);
    return 0;
}
