// SPDX-License-Identifier: GPL-3.0-or-later
// Record columns by name: a test reads IterationRecord::extra through the solver's column
// names (Solver::extraColumns()), never by position, so that a column added or moved in a
// solver cannot silently change what a test checks. Header-only, for Qt Test executables.
//
//   QVERIFY(column(s, s.lastRecord(), "predicted_decrease") <= 1e-4);
//
// A name the solver does not have (or a record shorter than its column list) fails the test
// at the caller's line with the list of names, and the value is NaN.
#pragma once

#include <QtTest>
#include <algorithm>
#include <limits>
#include <source_location>
#include <string>
#include <string_view>
#include <vector>

#include "core/iteration_record.h"
#include "core/solver.h"

namespace cplab::test {

// Position of the column `name` in solver.extraColumns(), or -1 if it has none.
inline int columnIndex(const Solver& solver, std::string_view name) {
    const std::vector<std::string> columns = solver.extraColumns();
    const auto it = std::find(columns.begin(), columns.end(), name);
    return it == columns.end() ? -1 : static_cast<int>(it - columns.begin());
}

// The value of the column `name` in `record` (a record of `solver`). Unknown name or short
// record: records a test failure at the caller's line (QTest::qFail) and returns NaN.
inline double column(const Solver& solver, const IterationRecord& record, std::string_view name,
                     std::source_location where = std::source_location::current()) {
    const int k = columnIndex(solver, name);
    if (k >= 0 && static_cast<std::size_t>(k) < record.extra.size())
        return record.extra[static_cast<std::size_t>(k)];
    std::string message =
        k < 0 ? "no column \"" + std::string(name) + "\" in " + solver.name() + "'s extraColumns():"
              : "record of " + solver.name() + " has " + std::to_string(record.extra.size()) +
                    " extra values, column \"" + std::string(name) + "\" is number " +
                    std::to_string(k + 1) + " of:";
    for (const auto& c : solver.extraColumns())
        message += " " + c;
    QTest::qFail(message.c_str(), where.file_name(), static_cast<int>(where.line()));
    return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace cplab::test
