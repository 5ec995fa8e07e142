// Traces as CSV: one header line, then one row per iteration with every record column:
//   iteration,seconds,oracle_calls,upper,lower,gap,rel_gap,<extra columns...>
// Doubles are written with round-trip precision so a trace re-reads to the same numbers.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "iteration_record.h"

namespace cplab {

std::vector<std::string> traceColumns(const std::vector<std::string>& extraColumns);

void writeTraceCsv(std::ostream& out, const std::vector<IterationRecord>& records,
                   const std::vector<std::string>& extraColumns);

// Writes to a file; returns false and sets *why (naming the path) when it cannot be written.
bool writeTraceCsv(const std::string& path, const std::vector<IterationRecord>& records,
                   const std::vector<std::string>& extraColumns, std::string* why);

}  // namespace cplab
