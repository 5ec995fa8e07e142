// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/data_error.h"

#include <utility>

namespace cplab {

namespace {
std::string compose(const std::string& file, int line, const std::string& detail) {
    if (line > 0) return file + ":" + std::to_string(line) + ": " + detail;
    return file + ": " + detail;
}
}  // namespace

DataError::DataError(std::string file, int line, std::string detail)
    : std::runtime_error(compose(file, line, detail)),
      file_(std::move(file)),
      line_(line),
      detail_(std::move(detail)) {}

}  // namespace cplab
