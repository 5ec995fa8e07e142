// SPDX-License-Identifier: GPL-3.0-or-later
#include "options.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>

namespace cplab {

const char* toString(OptionInfo::Kind kind) {
    switch (kind) {
        case OptionInfo::Kind::Real:
            return "real";
        case OptionInfo::Kind::Integer:
            return "integer";
        case OptionInfo::Kind::Boolean:
            return "boolean";
        case OptionInfo::Kind::Choice:
            return "choice";
        case OptionInfo::Kind::Text:
            return "text";
        case OptionInfo::Kind::Seed:
            return "seed";
        case OptionInfo::Kind::Path:
            return "path";
    }
    return "unknown";
}

namespace {

enum class IntegerText { Ok, NotAnInteger, BeyondType };

// An optionally signed decimal integer into T; BeyondType (and the nearest value of T in
// *out) for a well-formed integer that T cannot hold.
template <class T>
IntegerText parseInteger(const std::string& text, T* out) {
    T value = 0;
    const char* first = text.data();
    const char* last = text.data() + text.size();
    if (first != last && *first == '+') ++first;
    if (first == last || (*first == '-' && text.front() == '+')) return IntegerText::NotAnInteger;
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (ptr != last) return IntegerText::NotAnInteger;
    if (ec == std::errc::result_out_of_range) {
        *out = *first == '-' ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
        return IntegerText::BeyondType;
    }
    if (ec != std::errc()) return IntegerText::NotAnInteger;
    *out = value;
    return IntegerText::Ok;
}

bool parseBoolean(const std::string& text, bool* out) {
    if (text == "true" || text == "1" || text == "yes" || text == "on") {
        *out = true;
        return true;
    }
    if (text == "false" || text == "0" || text == "no" || text == "off") {
        *out = false;
        return true;
    }
    return false;
}

class Describer final : public OptionVisitor {
  public:
    std::vector<OptionInfo> infos;
    void real(const char* name, double& value, const char* help) override {
        infos.push_back({name, OptionInfo::Kind::Real, formatReal(value), help, {}});
    }
    void integer(const char* name, int& value, const char* help) override {
        infos.push_back({name, OptionInfo::Kind::Integer, std::to_string(value), help, {}});
    }
    void boolean(const char* name, bool& value, const char* help) override {
        infos.push_back({name, OptionInfo::Kind::Boolean, value ? "true" : "false", help, {}});
    }
    void choice(const char* name, std::string& value, const std::vector<std::string>& choices,
                const char* help) override {
        infos.push_back({name, OptionInfo::Kind::Choice, value, help, choices});
    }
    void text(const char* name, std::string& value, const char* help) override {
        infos.push_back({name, OptionInfo::Kind::Text, value, help, {}});
    }
    void path(const char* name, std::string& value, const char* help) override {
        infos.push_back({name, OptionInfo::Kind::Path, value, help, {}});
    }
    void seed(const char* name, std::int64_t& value, const char* help) override {
        infos.push_back({name, OptionInfo::Kind::Seed, std::to_string(value), help, {}});
    }
};

class Assigner final : public OptionVisitor {
  public:
    explicit Assigner(const OptionValues& values) : values_(values) {}

    std::string error;
    std::vector<detail::IntegerBeyondType> beyond;
    std::vector<std::string> known;
    int used = 0;

    void real(const char* name, double& value, const char* /*help*/) override {
        if (const std::string* text = find(name)) {
            if (parseReal(*text, value, true) != NumberError::None)
                fail(name, *text, "a real number");
        }
    }
    void integer(const char* name, int& value, const char* /*help*/) override {
        if (const std::string* text = find(name)) integerField(name, *text, value, "an integer");
    }
    void boolean(const char* name, bool& value, const char* /*help*/) override {
        if (const std::string* text = find(name)) {
            if (!parseBoolean(*text, &value)) fail(name, *text, "true or false");
        }
    }
    void choice(const char* name, std::string& value, const std::vector<std::string>& choices,
                const char* /*help*/) override {
        if (const std::string* text = find(name)) {
            bool ok = false;
            for (const auto& c : choices)
                ok = ok || c == *text;
            if (ok) {
                value = *text;
            } else {
                fail(name, *text, ("one of: " + joined(choices)).c_str());
            }
        }
    }
    void text(const char* name, std::string& value, const char* /*help*/) override {
        if (const std::string* given = find(name)) value = *given;
    }
    void seed(const char* name, std::int64_t& value, const char* /*help*/) override {
        if (const std::string* text = find(name))
            integerField(name, *text, value, "a 64-bit integer");
    }

  private:
    template <class T>
    void integerField(const char* name, const std::string& text, T& value, const char* expected) {
        switch (parseInteger(text, &value)) {
            case IntegerText::Ok:
                break;
            case IntegerText::NotAnInteger:
                fail(name, text, expected);
                break;
            case IntegerText::BeyondType:
                beyond.push_back({name, text, static_cast<long long>(value),
                                  static_cast<long long>(std::numeric_limits<T>::min()),
                                  static_cast<long long>(std::numeric_limits<T>::max())});
                break;
        }
    }
    const std::string* find(const char* name) {
        known.push_back(name);
        const auto it = values_.find(name);
        if (it == values_.end()) return nullptr;
        ++used;
        return &it->second;
    }
    void fail(const char* name, const std::string& text, const char* expected) {
        if (error.empty()) {
            error = "option '" + std::string(name) + "' = '" + text + "': expected " + expected;
        }
    }
    const OptionValues& values_;
};

class Printer final : public OptionVisitor {
  public:
    OptionValues values;
    void real(const char* name, double& value, const char*) override {
        values[name] = formatReal(value);
    }
    void integer(const char* name, int& value, const char*) override {
        values[name] = std::to_string(value);
    }
    void boolean(const char* name, bool& value, const char*) override {
        values[name] = value ? "true" : "false";
    }
    void choice(const char* name, std::string& value, const std::vector<std::string>&,
                const char*) override {
        values[name] = value;
    }
    void text(const char* name, std::string& value, const char*) override { values[name] = value; }
    void seed(const char* name, std::int64_t& value, const char*) override {
        values[name] = std::to_string(value);
    }
};

}  // namespace

namespace detail {

std::vector<OptionInfo> describe(void (*visit)(void*, OptionVisitor&), void* options) {
    Describer describer;
    visit(options, describer);
    return describer.infos;
}

bool assign(void (*visit)(void*, OptionVisitor&), void* options, const OptionValues& values,
            std::string* why, std::vector<IntegerBeyondType>* beyond) {
    Assigner assigner(values);
    visit(options, assigner);
    if (!assigner.error.empty()) {
        if (why) *why = assigner.error;
        return false;
    }
    if (!assigner.beyond.empty()) {
        if (!beyond) {
            const IntegerBeyondType& b = assigner.beyond.front();
            if (why) *why = beyondTypeMessage(b, "", {});
            return false;
        }
        *beyond = assigner.beyond;
    }
    if (assigner.used != static_cast<int>(values.size())) {
        for (const auto& [name, text] : values) {
            bool found = false;
            for (const auto& k : assigner.known)
                found = found || k == name;
            if (!found) {
                if (why) *why = "unknown option '" + name + "'; known: " + joined(assigner.known);
                return false;
            }
        }
    }
    return true;
}

std::string beyondTypeMessage(const IntegerBeyondType& beyond, const std::string& startText,
                              const std::function<bool(long long, std::string*)>& valid) {
    const std::string head = "option '" + beyond.name + "' = '" + beyond.text + "': ";
    const std::string typeRange = "must be an integer in [" + std::to_string(beyond.lowest) + ", " +
                                  std::to_string(beyond.highest) + "]";
    if (!valid) return head + typeRange;
    // The owner's own words for the nearest value ("must lie in [0, 256]") when they are about
    // this field: "<Owner>::<field> = <value>: <requirement>".
    std::string reason;
    if (!valid(beyond.nearest, &reason)) {
        for (const std::string& lead : {"::" + beyond.name + " = ", beyond.name + " = "}) {
            const std::size_t at = reason.find(lead);
            if (at == std::string::npos || (lead[0] != ':' && at != 0)) continue;
            const std::size_t colon = reason.find(": ", at + lead.size());
            if (colon != std::string::npos) return head + reason.substr(colon + 2);
        }
        return head + typeRange;
    }
    // The nearest value passes: the range reaches the type's end on that side; its other end
    // is found by bisection from the field's previous value (which passes).
    long long start = 0;
    if (parseInteger(startText, &start) != IntegerText::Ok || !valid(start, nullptr))
        return head + typeRange;
    const bool upward = beyond.nearest == beyond.highest;
    long long good = start;
    long long bad = upward ? beyond.lowest : beyond.highest;
    if (valid(bad, nullptr)) {
        good = bad;
    } else {
        while (true) {
            const unsigned long long distance =
                good > bad
                    ? static_cast<unsigned long long>(good) - static_cast<unsigned long long>(bad)
                    : static_cast<unsigned long long>(bad) - static_cast<unsigned long long>(good);
            if (distance <= 1) break;
            const long long step = static_cast<long long>(distance / 2);
            const long long mid = good > bad ? bad + step : bad - step;
            (valid(mid, nullptr) ? good : bad) = mid;
        }
    }
    const long long lo = upward ? good : beyond.lowest;
    const long long hi = upward ? beyond.highest : good;
    return head + "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
}

OptionValues values(void (*visit)(void*, OptionVisitor&), void* options) {
    Printer printer;
    visit(options, printer);
    return printer.values;
}

}  // namespace detail

bool require(bool ok, const char* owner, const char* field, double value, const char* requirement,
             std::string* why) {
    if (!ok && why)
        *why = std::string(owner) + "::" + field + " = " + formatReal(value) + ": " + requirement;
    return ok;
}

bool requireText(bool ok, const char* owner, const char* field, const std::string& value,
                 const char* requirement, std::string* why) {
    // A long value (a list of thousands of kernels) is named by its head and its length, not
    // echoed whole.
    constexpr std::size_t kShown = 200;
    const std::string shown = value.size() <= kShown
                                  ? "'" + value + "'"
                                  : "'" + value.substr(0, kShown) + "...' (" +
                                        std::to_string(value.size()) + " characters)";
    if (!ok && why) *why = std::string(owner) + "::" + field + " = " + shown + ": " + requirement;
    return ok;
}

}  // namespace cplab
