// SPDX-License-Identifier: GPL-3.0-or-later
#include "memory_budget.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <memory>

#include "number_text.h"

namespace cplab {

namespace {

std::atomic<std::size_t> gBudget{0};  // 0: MemAvailable

using FilePtr = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

FilePtr openText(const char* path) {
    return FilePtr(std::fopen(path, "r"), &std::fclose);
}

// MemAvailable of /proc/meminfo in bytes; 0 when unknown.
std::size_t memAvailable() {
    FilePtr file = openText("/proc/meminfo");
    if (!file) return 0;
    char line[256];
    while (std::fgets(line, sizeof line, file.get())) {
        unsigned long long kb = 0;
        if (std::sscanf(line, "MemAvailable: %llu kB", &kb) == 1) return kb * 1024ULL;
    }
    return 0;
}

// One unsigned number from the start of a file; false when absent ("max" included).
bool readNumber(const char* path, unsigned long long* out) {
    FilePtr file = openText(path);
    return file && std::fscanf(file.get(), "%llu", out) == 1;
}

// What the process may still take under its own limits: the cgroup's memory.max (v2) less
// its memory.current, and the address-space limit (ulimit -v) less the address space in use;
// 0 when neither is set.
std::size_t limitHeadroom() {
    unsigned long long best = 0;
    unsigned long long max = 0, current = 0;
    if (readNumber("/sys/fs/cgroup/memory.max", &max) &&
        readNumber("/sys/fs/cgroup/memory.current", &current))
        best = max > current ? max - current : 1;
    rlimit limit{};
    if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
        unsigned long long pages = 0;
        const long pageSize = sysconf(_SC_PAGESIZE);
        const unsigned long long used =
            readNumber("/proc/self/statm", &pages) && pageSize > 0 ? pages * pageSize : 0;
        const unsigned long long room = limit.rlim_cur > used ? limit.rlim_cur - used : 1;
        best = best == 0 ? room : std::min(best, room);
    }
    return static_cast<std::size_t>(best);
}

// 20000 → "20,000"; non-integers as formatReal gives them.
std::string countText(double count) {
    if (!(count >= 0 && count < 1e18) || count != std::floor(count)) return formatReal(count);
    std::string digits = std::to_string(static_cast<unsigned long long>(count));
    for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3)
        digits.insert(static_cast<std::size_t>(at), ",");
    return digits;
}

}  // namespace

std::size_t memoryBudget() {
    if (const std::size_t set = gBudget.load()) return set;
    const std::size_t available = memAvailable();
    const std::size_t headroom = limitHeadroom();
    if (available == 0 || headroom == 0) return available + headroom;
    return std::min(available, headroom);
}

void setMemoryBudget(std::size_t bytes) {
    gBudget.store(bytes);
}

std::string sizeProduct(const std::vector<std::pair<double, std::string>>& factors) {
    std::string out;
    for (const auto& [count, unit] : factors) {
        if (!out.empty()) out += " x ";
        out += countText(count);
        if (!unit.empty()) out += " " + unit;
    }
    return out;
}

std::string byteText(double bytes) {
    const char* units[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};
    int u = 0;
    while (bytes >= 1024 && u < 6) {
        bytes /= 1024;
        ++u;
    }
    const double shown = bytes >= 100 ? std::round(bytes) : std::round(bytes * 10) / 10;
    return formatReal(shown) + " " + units[u];
}

std::string memoryShortfall(double bytes, const std::string& product) {
    const std::size_t budget = memoryBudget();
    if (budget == 0 || bytes <= static_cast<double>(budget)) return "";
    return "needs " + byteText(bytes) + ": " + product + "; about " +
           byteText(static_cast<double>(budget)) + " available";
}

std::string outOfMemoryMessage() {
    const std::size_t budget = memoryBudget();
    return "out of memory: an allocation failed" +
           (budget > 0 ? "; about " + byteText(static_cast<double>(budget)) + " available"
                       : std::string()) +
           ": the input is too large for this machine";
}

void requireMemory(double bytes, const std::string& product, const std::string& prefix) {
    if (std::string why = memoryShortfall(bytes, product); !why.empty())
        throw MemoryLimitError(prefix + why);
}

}  // namespace cplab
