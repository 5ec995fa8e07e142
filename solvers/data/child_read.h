// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a file with a C library that is not hardened against malformed input (libhdf5, and
// matio, which reads level 7.3 files through it) in a child process. libhdf5 reads past its
// own buffers on some corrupt files (a fuzzed HDF5 attribute message: a heap over-read in
// H5O__attr_open_by_name) and can crash; run in a forked child, such a file takes only the
// child down and the caller gets a DataError naming the file. The child's memory is limited
// too, so a declared size cannot eat the machine's memory.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "data/dataset.h"

namespace cplab {

// Runs `read` in a child process and returns the Dataset it made, handed back through a pipe.
// A DataError `read` throws is thrown here as it was; any other failure of the child (a
// signal, an exception, memory beyond 1 GiB plus four times `fileBytes`) becomes a DataError
// naming `path` and what `library` did. The caller holds the library's mutex (so that no other
// thread is inside the library while the process forks); `read` must not take it again.
Dataset readInChildProcess(const std::string& path, std::uint64_t fileBytes,
                           const std::string& library, const std::function<Dataset()>& read);

// Whether readInChildProcess forks (default) or calls `read` in this process: for the fuzz
// targets, which look for faults in the readers themselves under the sanitizers.
void setChildProcessReads(bool fork);

}  // namespace cplab
