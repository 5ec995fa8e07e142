// A minimal streaming JSON writer for the CLI's machine-readable output (no Qt, no
// dependency). Non-finite numbers are written as null, as JSON has no inf/nan.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "core/solver.h"

namespace cplab {

class JsonWriter {
  public:
    explicit JsonWriter(std::ostream& out, bool pretty = true) : out_(out), pretty_(pretty) {}

    void beginObject();
    void endObject();
    void beginArray();
    void endArray();
    void key(const std::string& name);

    void value(const std::string& text);
    void value(const char* text) { value(std::string(text)); }
    void value(double number);
    void value(long long number);
    void value(int number) { value(static_cast<long long>(number)); }
    void value(bool flag);
    void value(const std::vector<double>& numbers);
    void value(const SummaryValue& v);
    void null();

    template <class T>
    void field(const std::string& name, const T& v) {
        key(name);
        value(v);
    }

  private:
    void separate();
    void newline();

    std::ostream& out_;
    bool pretty_;
    std::vector<bool> first_;  // per open container: no element written yet
    bool afterKey_ = false;
};

std::string jsonEscape(const std::string& text);

}  // namespace cplab
