// SPDX-License-Identifier: GPL-3.0-or-later
// Memory that grows with a product of input sizes (examples × classes, tokens × tokens,
// nodes × labels), estimated before a run starts and refused when it cannot fit, so that a
// large input ends with a message naming the sizes rather than a raw std::bad_alloc hours in
// (or a "numerical failure" for what is a memory limit).
//
//   const std::string why = memoryShortfall(3.0 * 8 * m * K,
//                                           sizeProduct({{m, "examples"}, {K, "classes"}}));
//   if (!why.empty()) reject("OcasSolver: " + why);
//
// gives "needs 3.2 GB: 20,000 examples x 20,000 classes x 3 score matrices x 8 B; about
// 1.5 GB available".
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cplab {

// A refused allocation; what() is memoryShortfall's message. Callers that turn exceptions into
// invalid-input refusals (exit status 1) treat it like std::invalid_argument.
class MemoryLimitError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Bytes the process may still take: MemAvailable of /proc/meminfo now, held to the room left
// under the process's cgroup memory.max and its address-space limit (ulimit -v), or the
// budget set by setMemoryBudget; 0 when none is known (then nothing is refused).
std::size_t memoryBudget();
// Replaces MemAvailable by `bytes` (tests; 0 restores MemAvailable).
void setMemoryBudget(std::size_t bytes);

// "20,000 examples x 20,000 classes": counts with thousands separators and their units.
std::string sizeProduct(const std::vector<std::pair<double, std::string>>& factors);
// "3.2 GB", "750 MB", "12 KB" (powers of 1024).
std::string byteText(double bytes);

// "" when `bytes` fit in memoryBudget(), else "needs 3.2 GB: <product>; about 1.5 GB
// available". `bytes` is a double so that a product of sizes cannot overflow on the way.
std::string memoryShortfall(double bytes, const std::string& product);
// What an allocation that failed anyway (std::bad_alloc, memory no estimate foresaw) says:
// "out of memory: an allocation failed; about 1.5 GB available: the input is too large for
// this machine".
std::string outOfMemoryMessage();
// Throws MemoryLimitError(prefix + memoryShortfall(...)) when it is not "".
void requireMemory(double bytes, const std::string& product, const std::string& prefix = "");

}  // namespace cplab
