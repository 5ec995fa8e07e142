// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the delimited-table parser (parseCsv, data/csv_format.h) from bytes, plain or gzip,
// with the default options and with a second set of options chosen from the input's hash
// (delimiter, header rule, label column, unlabeled, comment character). Expected: a Dataset or
// a DataError. Findings: a crash or sanitizer report, any other exception, a dataset that
// breaks the Dataset contract, or formatCsv output that does not parse back to the same
// examples (the round trip csv_format.h documents).
#include <cstddef>
#include <cstdint>

#include "data/csv_format.h"
#include "data/data_error.h"
#include "fuzz_common.h"

using namespace cplab;
using namespace cplab::fuzz;

namespace {

// parseCsv(formatCsv(x)) must give x back: features, labels and class names.
void checkRoundTrip(const Dataset& parsed) {
    CsvWriteOptions write;  // ',' with a header, label last, text labels
    const std::string text = formatCsv(parsed, write);
    CsvOptions read;
    read.delimiter = ',';
    read.header = CsvHeader::Yes;
    read.comment = 0;
    Dataset again;
    try {
        again = parseCsv(text, "fuzz.csv (formatted)", read);
    } catch (const DataError& e) {
        require(false, std::string("formatCsv output does not parse: ") + e.what());
    }
    requireContract(again, "parseCsv (round trip)");
    require(sameExamples(parsed, again), "parseCsv(formatCsv(x)) != x");
    require(again.classNames == parsed.classNames || parsed.classNames.empty(),
            "parseCsv(formatCsv(x)) changed the class names");
}

void parseAndCheck(std::string_view bytes, const CsvOptions& csv, bool roundTrip) {
    Dataset parsed;
    try {
        parsed = parseCsv(bytes, "fuzz.csv", csv);
    } catch (const DataError&) {
        return;
    }
    requireContract(parsed, "parseCsv");
    if (roundTrip) checkRoundTrip(parsed);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes = asText(data, size);
    parseAndCheck(bytes, CsvOptions{}, true);

    const std::uint64_t h = hashOf(bytes);
    static constexpr char kDelimiters[] = {0, ',', ';', '\t', '|', ' '};
    static constexpr CsvHeader kHeaders[] = {CsvHeader::Auto, CsvHeader::Yes, CsvHeader::No};
    static constexpr int kLabelColumns[] = {-1, 0, 1, -2};
    CsvOptions csv;
    csv.delimiter = kDelimiters[h % 6];
    csv.header = kHeaders[(h >> 3) % 3];
    csv.labelColumn = kLabelColumns[(h >> 5) % 4];
    csv.unlabeled = ((h >> 7) % 4) == 0;
    csv.comment = ((h >> 9) & 1) ? '#' : 0;
    parseAndCheck(bytes, csv, false);
    return 0;
}
