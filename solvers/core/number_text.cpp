// SPDX-License-Identifier: GPL-3.0-or-later
#include "number_text.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <system_error>

namespace cplab {

void appendReal(std::string& out, double value) {
    if (std::isnan(value)) {
        out += "nan";
        return;
    }
    if (std::isinf(value)) {
        out += value > 0 ? "inf" : "-inf";
        return;
    }
    // The shortest round-trip digits come from to_chars; %g with that many significant
    // digits is the shortest %g text that reads back (the nearest p-digit decimal round-trips
    // whenever any p-digit decimal does).
    char digits[64];
    const auto result =
        std::to_chars(digits, digits + sizeof digits, value, std::chars_format::scientific);
    int precision = 0;
    for (const char* p = digits; p != result.ptr && *p != 'e'; ++p)
        precision += (*p >= '0' && *p <= '9') ? 1 : 0;
    char buffer[64];
    int length = std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    // %g writes 420 as "4.2e+02"; an integer is written plainly where that is no longer
    // (420, 1200), so counts read as counts while 1e+06 stays short.
    if (std::fabs(value) < 1e15 && value == std::trunc(value)) {
        char plain[32];
        const int plainLength = std::snprintf(plain, sizeof plain, "%.0f", value);
        if (plainLength <= length) {
            std::memcpy(buffer, plain, static_cast<std::size_t>(plainLength));
            length = plainLength;
        }
    }
    out.append(buffer, static_cast<std::size_t>(length));
}

std::string formatShort(double value, int digits) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char buffer[64];
    const int length = std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    return std::string(buffer, static_cast<std::size_t>(length));
}

std::string formatReal(double value) {
    std::string out;
    appendReal(out, value);
    return out;
}

NumberError parseReal(std::string_view token, double& value, bool allowNonFinite) {
    if (token.empty()) return NumberError::Empty;
    const char* first = token.data();
    const char* last = first + token.size();
    if (*first == '+') {  // from_chars rejects a plus sign; LIBSVM labels use it ("+1")
        ++first;
        if (first == last || *first == '+' || *first == '-') return NumberError::NotANumber;
    }
    double parsed = 0.0;
    const auto [end, ec] = std::from_chars(first, last, parsed);
    if (ec == std::errc::result_out_of_range) return NumberError::OutOfRange;
    if (ec != std::errc() || end != last) return NumberError::NotANumber;
    if (!allowNonFinite && !std::isfinite(parsed)) return NumberError::NotFinite;
    value = parsed;
    return NumberError::None;
}

const char* describe(NumberError error) {
    switch (error) {
        case NumberError::None:
            return "is a number";
        case NumberError::Empty:
            return "is empty";
        case NumberError::NotANumber:
            return "is not a number";
        case NumberError::NotFinite:
            return "is not finite (NaN and infinity are not allowed)";
        case NumberError::OutOfRange:
            return "is out of range for a double";
    }
    return "is not a number";
}

std::string joined(const std::vector<std::string>& items, std::string_view separator) {
    std::string out;
    for (std::size_t k = 0; k < items.size(); ++k) {
        if (k) out += separator;
        out += items[k];
    }
    return out;
}

}  // namespace cplab
