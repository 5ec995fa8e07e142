#include "options.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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
    }
    return "unknown";
}

namespace {

bool parseInteger(const std::string& text, int* out) {
    int value = 0;
    const char* first = text.data();
    const char* last = text.data() + text.size();
    if (first != last && *first == '+') ++first;
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec != std::errc() || ptr != last || first == last) return false;
    *out = value;
    return true;
}

bool parseSeed(const std::string& text, std::int64_t* out) {
    std::int64_t value = 0;
    const char* first = text.data();
    const char* last = text.data() + text.size();
    if (first != last && *first == '+') ++first;
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec != std::errc() || ptr != last || first == last) return false;
    *out = value;
    return true;
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
    void seed(const char* name, std::int64_t& value, const char* help) override {
        infos.push_back({name, OptionInfo::Kind::Seed, std::to_string(value), help, {}});
    }
};

class Assigner final : public OptionVisitor {
  public:
    explicit Assigner(const OptionValues& values) : values_(values) {}

    std::string error;
    std::vector<std::string> known;
    int used = 0;

    void real(const char* name, double& value, const char* /*help*/) override {
        if (const std::string* text = find(name)) {
            if (parseReal(*text, value, true) != NumberError::None)
                fail(name, *text, "a real number");
        }
    }
    void integer(const char* name, int& value, const char* /*help*/) override {
        if (const std::string* text = find(name)) {
            if (!parseInteger(*text, &value)) fail(name, *text, "an integer");
        }
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
        if (const std::string* text = find(name)) {
            if (!parseSeed(*text, &value)) fail(name, *text, "a 64-bit integer");
        }
    }

  private:
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
            std::string* why) {
    Assigner assigner(values);
    visit(options, assigner);
    if (!assigner.error.empty()) {
        if (why) *why = assigner.error;
        return false;
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
    if (!ok && why) *why = std::string(owner) + "::" + field + " = '" + value + "': " + requirement;
    return ok;
}

}  // namespace cplab
