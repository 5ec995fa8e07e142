// SPDX-License-Identifier: GPL-3.0-or-later
// DataError: the one exception type the data loaders throw for bad input files.
//
// It names the file (or the built-in resource), the 1-based line (0 when the problem is not
// about one line: a missing file, a truncated gzip stream, a dataset with one class) and what
// was expected, so that the GUI and the CLI can show it verbatim:
//   what() == "<file>:<line>: <detail>"  or  "<file>: <detail>" when line() == 0.
#pragma once

#include <stdexcept>
#include <string>

namespace cplab {

class DataError : public std::runtime_error {
  public:
    DataError(std::string file, int line, std::string detail);

    const std::string& file() const { return file_; }
    int line() const { return line_; }
    const std::string& detail() const { return detail_; }

  private:
    std::string file_;
    int line_ = 0;
    std::string detail_;
};

}  // namespace cplab
