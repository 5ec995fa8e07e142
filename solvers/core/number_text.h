// SPDX-License-Identifier: GPL-3.0-or-later
// Numbers as text, one way for the whole project: the shortest text that reads back to the
// same double, a strict parser with reasons for refusal, and a joined list for messages.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cplab {

// Shortest %g text that reads back to exactly `value` ("0.1", "1e-06", "0.0001", "-3",
// "inf", "nan").
std::string formatReal(double value);
// `value` at readable precision for messages and event texts: %g with `digits` significant
// digits ("0.5312", "-12.35", "1.235e+06", "inf").
std::string formatShort(double value, int digits = 4);
// Appends formatReal(value) to `out` (writers of large files).
void appendReal(std::string& out, double value);

enum class NumberError { None, Empty, NotANumber, NotFinite, OutOfRange };

// Parses all of `token` as a double ("1", "+1", "-2.5e-3", ".5"); nothing else may precede
// or follow. NaN and infinities ("nan", "inf", "-inf") are accepted only with
// `allowNonFinite` (option values such as nu_max = inf); data files never allow them. On
// success returns NumberError::None and sets `value`, else leaves it unchanged.
NumberError parseReal(std::string_view token, double& value, bool allowNonFinite = false);
// "is empty", "is not a number", "is not finite (…)", "is out of range for a double".
const char* describe(NumberError error);

// The items separated by `separator` ("a, b, c").
std::string joined(const std::vector<std::string>& items, std::string_view separator = ", ");

}  // namespace cplab
