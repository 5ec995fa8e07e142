// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_csv.h"

#include <sstream>

#include "number_text.h"
#include "output_file.h"

namespace cplab {

TraceLayout TraceLayout::of(const std::vector<IterationRecord>& records) {
    TraceLayout layout;
    for (const auto& r : records) {
        layout.passes = layout.passes || r.passes != static_cast<double>(r.oracleCalls);
        layout.path = layout.path || r.hasPathParameter();
    }
    return layout;
}

std::vector<std::string> traceColumns(const std::vector<std::string>& extraColumns,
                                      TraceLayout layout) {
    std::vector<std::string> columns = {"iteration", "seconds", "oracle_calls", "upper",
                                        "lower",     "gap",     "rel_gap"};
    if (layout.passes) columns.push_back("passes");
    if (layout.path) columns.push_back("path_parameter");
    columns.insert(columns.end(), extraColumns.begin(), extraColumns.end());
    return columns;
}

void writeTraceHeader(std::ostream& out, const std::vector<std::string>& columns) {
    // Names with a comma or a quote ("beta:poly:2,1") are quoted as RFC 4180 says.
    for (std::size_t c = 0; c < columns.size(); ++c) {
        const std::string& name = columns[c];
        out << (c ? "," : "");
        if (name.find_first_of(",\"") == std::string::npos) {
            out << name;
            continue;
        }
        out << '"';
        for (char ch : name)
            out << (ch == '"' ? "\"\"" : std::string(1, ch));
        out << '"';
    }
    out << '\n';
}

void writeTraceRow(std::ostream& out, const IterationRecord& r, TraceLayout layout,
                   std::size_t extraCount) {
    out << r.iteration << ',' << formatReal(r.seconds) << ',' << r.oracleCalls << ','
        << formatReal(r.upper) << ',' << formatReal(r.lower) << ',' << formatReal(r.gap) << ','
        << formatReal(r.relGap());
    if (layout.passes) out << ',' << formatReal(r.passes);
    if (layout.path) out << ',' << formatReal(r.pathParameter);
    for (std::size_t k = 0; k < extraCount; ++k)
        out << ',' << (k < r.extra.size() ? formatReal(r.extra[k]) : std::string("nan"));
    out << '\n';
}

void writeTraceCsv(std::ostream& out, const std::vector<IterationRecord>& records,
                   const std::vector<std::string>& extraColumns) {
    const TraceLayout layout = TraceLayout::of(records);
    writeTraceHeader(out, traceColumns(extraColumns, layout));
    for (const auto& r : records)
        writeTraceRow(out, r, layout, extraColumns.size());
}

bool writeTraceCsv(const std::string& path, const std::vector<IterationRecord>& records,
                   const std::vector<std::string>& extraColumns, std::string* why) {
    std::ostringstream text;
    writeTraceCsv(text, records, extraColumns);
    if (const auto failure = writeFileAtomically(path, text.str())) {
        if (why) *why = path + ": " + *failure;
        return false;
    }
    return true;
}

}  // namespace cplab
