// SPDX-License-Identifier: GPL-3.0-or-later
// The memory a forked child may take for work that cannot be bounded up front: a file read by
// a library not hardened against corrupt input (data/child_read.h), a typed function's constant
// part that GiNaC computes while reading it (nonsmooth/typed_function.cpp). The child's data
// segment may grow only by a given amount beyond what it holds when it is forked, so that a
// declared size or a huge power fails in the child (std::bad_alloc, or an abnormal end) and
// never takes the machine's memory.
#pragma once

#include <cstdint>

namespace cplab {

// To be called in the child after fork(): limits its data segment (RLIMIT_DATA, soft and hard)
// to what it holds now (VmData of /proc/self/status) plus `extraBytes`. Under AddressSanitizer
// or MemorySanitizer it does nothing: their shadow memory counts as data.
void limitChildData(std::uint64_t extraBytes);

}  // namespace cplab
