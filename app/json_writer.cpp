#include "json_writer.h"

#include <cmath>
#include <cstdio>

#include "core/options.h"

namespace cplab {

std::string jsonEscape(const std::string& text) {
    std::string out;
    out.reserve(text.size() + 2);
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        switch (ch) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (c < 0x20) {
                    char buffer[8];
                    std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
                    out += buffer;
                } else {
                    out += ch;
                }
        }
    }
    return out;
}

void JsonWriter::newline() {
    if (!pretty_) return;
    out_ << '\n' << std::string(2 * first_.size(), ' ');
}

void JsonWriter::separate() {
    if (afterKey_) {
        afterKey_ = false;
        return;
    }
    if (!first_.empty()) {
        if (!first_.back()) out_ << ',';
        first_.back() = false;
        newline();
    }
}

void JsonWriter::beginObject() {
    separate();
    out_ << '{';
    first_.push_back(true);
}

void JsonWriter::endObject() {
    const bool empty = first_.back();
    first_.pop_back();
    if (!empty) newline();
    out_ << '}';
    if (first_.empty() && pretty_) out_ << '\n';
}

void JsonWriter::beginArray() {
    separate();
    out_ << '[';
    first_.push_back(true);
}

void JsonWriter::endArray() {
    const bool empty = first_.back();
    first_.pop_back();
    if (!empty) newline();
    out_ << ']';
}

void JsonWriter::key(const std::string& name) {
    separate();
    out_ << '"' << jsonEscape(name) << "\":" << (pretty_ ? " " : "");
    afterKey_ = true;
}

void JsonWriter::value(const std::string& text) {
    separate();
    out_ << '"' << jsonEscape(text) << '"';
}

void JsonWriter::value(double number) {
    separate();
    if (std::isfinite(number)) {
        out_ << formatReal(number);
    } else {
        out_ << "null";
    }
}

void JsonWriter::value(long long number) {
    separate();
    out_ << number;
}

void JsonWriter::value(bool flag) {
    separate();
    out_ << (flag ? "true" : "false");
}

void JsonWriter::null() {
    separate();
    out_ << "null";
}

void JsonWriter::value(const std::vector<double>& numbers) {
    separate();
    out_ << '[';
    for (std::size_t i = 0; i < numbers.size(); ++i) {
        if (i) out_ << ", ";
        if (std::isfinite(numbers[i])) {
            out_ << formatReal(numbers[i]);
        } else {
            out_ << "null";
        }
    }
    out_ << ']';
}

void JsonWriter::value(const SummaryValue& v) {
    std::visit([this](const auto& x) { value(x); }, v);
}

}  // namespace cplab
