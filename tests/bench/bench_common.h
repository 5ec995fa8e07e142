// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers every benchmark uses: clocks, CPU time, medians, the "median [min-max]" text, the
// --runs option and the header line with the date and the machine's load.
#pragma once

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

namespace bench {

using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// CPU seconds of this process, all threads (RUSAGE_SELF), or of its finished and waited-for
// child processes such as svmocas (RUSAGE_CHILDREN).
inline double cpuSeconds(int who = RUSAGE_SELF) {
    rusage usage{};
    getrusage(who, &usage);
    const auto seconds = [](const timeval& t) { return t.tv_sec + 1e-6 * t.tv_usec; };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

inline double loadAverage() {
    double load[1] = {0};
    return getloadavg(load, 1) == 1 ? load[0] : std::nan("");
}

inline double median(std::vector<double> v) {
    if (v.empty()) return std::nan("");
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

inline std::string fmt(const char* format, double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

// Median with the spread of the runs, e.g. "0.412 [0.40-0.47]".
inline std::string timeText(const std::vector<double>& v) {
    if (v.empty()) return "n/a";
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    return fmt("%.3f", median(v)) + " [" + fmt("%.3f", *lo) + "-" + fmt("%.3f", *hi) + "]";
}

// The same in milliseconds with two decimals, for runs of a few milliseconds.
inline std::string millisecondsText(const std::vector<double>& v) {
    if (v.empty()) return "n/a";
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    return fmt("%.2f", 1e3 * median(v)) + " [" + fmt("%.2f", 1e3 * *lo) + "-" +
           fmt("%.2f", 1e3 * *hi) + "]";
}

// Reads "--runs N" (the only option) into *runs; false after printing the usage otherwise.
inline bool parseRuns(int argc, char** argv, int* runs) {
    for (int k = 1; k < argc; ++k) {
        const std::string a = argv[k];
        if (a == "--runs" && k + 1 < argc) {
            *runs = std::max(1, std::atoi(argv[++k]));
        } else {
            std::cerr << "usage: " << argv[0]
                      << " [--runs N]\n  --runs N   measurements per row (default " << *runs
                      << ")\n";
            return false;
        }
    }
    return true;
}

// "<name>  2026-11-23 09:29  (2 hardware threads, load average 0.52": the caller closes it.
inline std::string header(const char* name) {
    const std::time_t now = std::time(nullptr);
    char date[64];
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M", std::localtime(&now));
    return std::string(name) + "  " + date + "  (" +
           std::to_string(std::thread::hardware_concurrency()) +
           " hardware threads, load average " + fmt("%.2f", loadAverage());
}

// The first `count` numbers in `line` after `marker` (skipping any text between them), for
// reading the peers' progress lines; empty when the marker is missing or fewer numbers follow.
// (Plain parsing rather than <regex>, whose GCC 12 headers warn under the sanitizers.)
inline std::vector<double> numbersAfter(const std::string& line, const std::string& marker,
                                        int count) {
    std::vector<double> out;
    const std::size_t at = line.find(marker);
    if (at == std::string::npos) return out;
    const char* p = line.c_str() + at + marker.size();
    const auto startsNumber = [](const char* c) {
        const auto digit = [](char d) { return d >= '0' && d <= '9'; };
        return digit(c[0]) || ((c[0] == '-' || c[0] == '+' || c[0] == '.') && digit(c[1])) ||
               ((c[0] == '-' || c[0] == '+') && c[1] == '.' && digit(c[2]));
    };
    while (static_cast<int>(out.size()) < count && *p) {
        if (!startsNumber(p)) {
            ++p;
            continue;
        }
        char* end = nullptr;
        out.push_back(std::strtod(p, &end));
        p = end;
    }
    if (static_cast<int>(out.size()) < count) out.clear();
    return out;
}

}  // namespace bench
