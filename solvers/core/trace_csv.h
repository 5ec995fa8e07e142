// SPDX-License-Identifier: GPL-3.0-or-later
// Traces as CSV: one header line, then one row per iteration with every record column:
//   iteration,seconds,oracle_calls,upper,lower,gap,rel_gap[,passes][,path_parameter],<extra…>
// `passes` appears when a solver counts passes over the data apart from its oracle calls
// (online and block-coordinate solvers), `path_parameter` for path-following solvers.
// Doubles are written with round-trip precision so a trace re-reads to the same numbers.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "iteration_record.h"

namespace cplab {

// Which optional columns `records` need.
struct TraceLayout {
    bool passes = false;
    bool path = false;
    static TraceLayout of(const std::vector<IterationRecord>& records);
};

std::vector<std::string> traceColumns(const std::vector<std::string>& extraColumns,
                                      TraceLayout layout = {});

void writeTraceCsv(std::ostream& out, const std::vector<IterationRecord>& records,
                   const std::vector<std::string>& extraColumns);
// The header line of `columns`, and one record's row (for writers that write row by row).
void writeTraceHeader(std::ostream& out, const std::vector<std::string>& columns);
void writeTraceRow(std::ostream& out, const IterationRecord& record, TraceLayout layout,
                   std::size_t extraCount);

// Writes to a file atomically (core/output_file.h: the complete new trace or the untouched old
// file); returns false and sets *why (naming the path) when it cannot be written.
bool writeTraceCsv(const std::string& path, const std::vector<IterationRecord>& records,
                   const std::vector<std::string>& extraColumns, std::string* why);

}  // namespace cplab
