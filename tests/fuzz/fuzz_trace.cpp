// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the trace reader (TraceCsvReader, core/live_trace.h: what the app's "Follow a running
// trace" reads from a file another process writes) from bytes: the first line as the header,
// every other line as a row. Expected: acceptance, or a refusal with a reason. Findings: a
// crash or sanitizer report, a refusal without a reason, any exception, or an accepted row that
// does not read back to the same numbers once written again (writeTraceRow with every column).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>

#include "core/live_trace.h"
#include "core/trace_csv.h"
#include "fuzz_common.h"

using namespace cplab;
using namespace cplab::fuzz;

namespace {

bool sameReal(double a, double b) {
    return a == b || (std::isnan(a) && std::isnan(b));
}

void checkRoundTrip(const TraceCsvReader& reader, const IterationRecord& r) {
    std::ostringstream header, row;
    const auto& extra = reader.extraColumns();
    writeTraceHeader(header, traceColumns(extra, TraceLayout{true, true}));
    writeTraceRow(row, r, TraceLayout{true, true}, extra.size());
    TraceCsvReader again;
    std::string why;
    std::string line = header.str();
    line.pop_back();
    require(again.readHeader(line, &why), "a written header does not read back: " + why);
    IterationRecord back;
    line = row.str();
    line.pop_back();
    require(again.readRow(line, back, &why), "a written row does not read back: " + why);
    bool same = back.iteration == r.iteration && back.oracleCalls == r.oracleCalls &&
                sameReal(back.seconds, r.seconds) && sameReal(back.upper, r.upper) &&
                sameReal(back.lower, r.lower) && sameReal(back.gap, r.gap) &&
                sameReal(back.passes, r.passes) && sameReal(back.pathParameter, r.pathParameter) &&
                back.extra.size() == r.extra.size();
    for (std::size_t k = 0; same && k < r.extra.size(); ++k)
        same = sameReal(back.extra[k], r.extra[k]);
    require(same, "a row read, written and read again changed: " + line);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = asText(data, size);
    TraceCsvReader reader;
    std::size_t begin = 0;
    bool header = true;
    while (begin <= text.size()) {
        std::size_t end = text.find('\n', begin);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = text.substr(begin, end - begin);
        begin = end + 1;
        std::string why;
        if (header) {
            if (!reader.readHeader(line, &why)) {
                require(!why.empty(), "a header refused without a reason");
                return 0;
            }
            header = false;
            continue;
        }
        IterationRecord r;
        if (!reader.readRow(line, r, &why)) {
            require(!why.empty(), "a row refused without a reason");
            continue;
        }
        checkRoundTrip(reader, r);
    }
    return 0;
}
