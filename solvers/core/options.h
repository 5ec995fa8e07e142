// SPDX-License-Identifier: GPL-3.0-or-later
// Options of every solver are aggregate structs with defaults. Each exposes its fields to an
// OptionVisitor (name, reference, help text), which gives the CLI and the GUI one generic way
// to list, parse and print them; validation stays in the struct (isValid).
//
//   struct MyOptions {
//       double nu = 1.0;  // prox weight, > 0
//       void visit(OptionVisitor& v) { v.real("nu", nu, "prox weight, > 0"); }
//       bool isValid(std::string* why) const;
//   };
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "number_text.h"

namespace cplab {

struct OptionInfo {
    // Text: free text the owner validates (kernel lists such as "gaussian:0.1,1,10;poly:2",
    // λ grids); Seed: a 64-bit integer (random seeds; the owner requires ≥ 0); Path: the name
    // of a file the problem reads ("" and "none" name no file), which a session writes
    // relative to its folder, resolves against it and hashes (app/session/session.h).
    enum class Kind { Real, Integer, Boolean, Choice, Text, Seed, Path };
    std::string name;
    Kind kind = Kind::Real;
    std::string defaultValue;          // as text, as the CLI would accept it
    std::string help;                  // meaning, units and valid range
    std::vector<std::string> choices;  // for Kind::Choice
};

const char* toString(OptionInfo::Kind kind);

class OptionVisitor {
  public:
    virtual ~OptionVisitor() = default;
    virtual void real(const char* name, double& value, const char* help) = 0;
    virtual void integer(const char* name, int& value, const char* help) = 0;
    virtual void boolean(const char* name, bool& value, const char* help) = 0;
    virtual void choice(const char* name, std::string& value,
                        const std::vector<std::string>& choices, const char* help) = 0;
    virtual void text(const char* name, std::string& value, const char* help) = 0;
    virtual void seed(const char* name, std::int64_t& value, const char* help) = 0;
    // A file's name: text to every visitor but the one that describes the options.
    virtual void path(const char* name, std::string& value, const char* help) {
        text(name, value, help);
    }
};

// Option values as text, keyed by option name, as typed on the command line
// (--set key=value) or entered in the GUI's form.
using OptionValues = std::map<std::string, std::string>;

namespace detail {
// An integer or seed option given as an integer beyond its field's type (int; 64 bits for a
// seed), e.g. threads = 2147483648: assign() stores the nearest value the type holds and
// lists the option here, so that assignOptions can name the option's range instead of
// refusing a well-formed integer as "expected an integer".
struct IntegerBeyondType {
    std::string name;
    std::string text;       // as given
    long long nearest = 0;  // the value stored: the type's end on the text's side
    long long lowest = 0;   // the type's range
    long long highest = 0;
};
std::vector<OptionInfo> describe(void (*visit)(void*, OptionVisitor&), void* options);
bool assign(void (*visit)(void*, OptionVisitor&), void* options, const OptionValues& values,
            std::string* why, std::vector<IntegerBeyondType>* beyond = nullptr);
// "option 'threads' = '2147483648': must lie in [0, 256]": the requirement the owner's check
// states for the nearest value, or else "must be an integer in [lo, hi]" with the range that
// `valid` (the options with the field set to a value pass their check) accepts around
// `startText` (the field's value before assignment), or the type's range when `valid` is empty.
std::string beyondTypeMessage(const IntegerBeyondType& beyond, const std::string& startText,
                              const std::function<bool(long long, std::string*)>& valid);
OptionValues values(void (*visit)(void*, OptionVisitor&), void* options);
template <class Options>
void visitThunk(void* options, OptionVisitor& v) {
    static_cast<Options*>(options)->visit(v);
}
}  // namespace detail

// Name, kind, default (the value in `options`) and help of every field.
template <class Options>
std::vector<OptionInfo> describeOptions(Options options = Options{}) {
    return detail::describe(&detail::visitThunk<Options>, &options);
}

// Parses `values` into `options`. Returns false and explains in *why when a name is unknown
// or a text does not parse as the field's type; `options` is then unchanged. Ranges are not
// checked here: that is Options::isValid's job — except for an integer beyond the field's type
// (2147483648 for an int), refused with the range Options::isValid accepts.
template <class Options>
bool assignOptions(Options& options, const OptionValues& values, std::string* why) {
    Options copy = options;
    std::vector<detail::IntegerBeyondType> beyond;
    if (!detail::assign(&detail::visitThunk<Options>, &copy, values, why, &beyond)) return false;
    if (!beyond.empty()) {
        const detail::IntegerBeyondType& first = beyond.front();
        std::function<bool(long long, std::string*)> valid;
        if constexpr (requires(const Options& o, std::string* s) { o.isValid(s); }) {
            valid = [&copy, &first](long long value, std::string* reason) {
                Options probe = copy;
                return detail::assign(&detail::visitThunk<Options>, &probe,
                                      {{first.name, std::to_string(value)}}, nullptr) &&
                       probe.isValid(reason);
            };
        }
        const OptionValues before = detail::values(&detail::visitThunk<Options>, &options);
        const auto it = before.find(first.name);
        if (why)
            *why = detail::beyondTypeMessage(first, it == before.end() ? "" : it->second, valid);
        return false;
    }
    options = copy;
    return true;
}

// Every field of `options` as text.
template <class Options>
OptionValues optionValues(Options options) {
    return detail::values(&detail::visitThunk<Options>, &options);
}

// Helpers for isValid(): write "<Owner>::<field> = <value>: <requirement>" into *why and
// return false when `ok` is false.
bool require(bool ok, const char* owner, const char* field, double value, const char* requirement,
             std::string* why);
bool requireText(bool ok, const char* owner, const char* field, const std::string& value,
                 const char* requirement, std::string* why);

}  // namespace cplab
