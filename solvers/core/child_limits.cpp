// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/child_limits.h"

#include <sys/resource.h>

#include <cstdlib>
#include <fstream>
#include <string>

#if defined(__SANITIZE_ADDRESS__)
#define CPLAB_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define CPLAB_SANITIZED 1
#endif
#endif

namespace cplab {

void limitChildData(std::uint64_t extraBytes) {
#ifndef CPLAB_SANITIZED
    std::uint64_t usedKiB = 0;
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmData:", 0) == 0) usedKiB = std::strtoull(line.c_str() + 7, nullptr, 10);
    const std::uint64_t allowed = usedKiB * 1024 + extraBytes;
    const rlimit limit{allowed, allowed};
    setrlimit(RLIMIT_DATA, &limit);
#else
    (void)extraBytes;
#endif
}

}  // namespace cplab
