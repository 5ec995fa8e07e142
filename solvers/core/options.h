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
#include <map>
#include <string>
#include <vector>

#include "number_text.h"

namespace cplab {

struct OptionInfo {
    // Text: free text the owner validates (kernel lists such as "gaussian:0.1,1,10;poly:2",
    // λ grids); Seed: a 64-bit integer (random seeds; the owner requires ≥ 0).
    enum class Kind { Real, Integer, Boolean, Choice, Text, Seed };
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
};

// Option values as text, keyed by option name, as typed on the command line
// (--set key=value) or entered in the GUI's form.
using OptionValues = std::map<std::string, std::string>;

namespace detail {
std::vector<OptionInfo> describe(void (*visit)(void*, OptionVisitor&), void* options);
bool assign(void (*visit)(void*, OptionVisitor&), void* options, const OptionValues& values,
            std::string* why);
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
// checked here: that is Options::isValid's job.
template <class Options>
bool assignOptions(Options& options, const OptionValues& values, std::string* why) {
    Options copy = options;
    if (!detail::assign(&detail::visitThunk<Options>, &copy, values, why)) return false;
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
