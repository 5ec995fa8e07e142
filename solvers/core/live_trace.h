// SPDX-License-Identifier: GPL-3.0-or-later
// Traces that can be watched while a run writes them (`cplab-cli run --trace FILE`, followed
// in the app by File › Follow a running trace, or by `tail -f`).
//
// While the run goes, every record is appended to FILE.running as one CSV row the moment the
// solver reports it (written straight to the file: a reader sees each row at once). The row
// has every column of trace_csv.h, passes and path_parameter always. When the run ends, the
// finished trace is written to FILE atomically as before, and FILE.running is removed: so FILE
// is never half-written, and an old FILE stays as it was until the new one is complete.
//
// The writer holds an exclusive lock (flock) on FILE.running while it writes. A second run
// with the same --trace is refused while the first writes; a FILE.running left by a killed run
// (a cplab trace, unlocked) is taken over; any other file of that name is the user's own and
// is refused, untouched. A follower tells a run that was killed (the file unlocked but still
// there) from one that is only slow (locked) with runningTraceWriterAlive().
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iteration_record.h"

namespace cplab {

// FILE.running for the trace FILE.
std::string runningTracePath(const std::string& tracePath);

class LiveTrace {
  public:
    LiveTrace() = default;
    ~LiveTrace();
    LiveTrace(const LiveTrace&) = delete;
    LiveTrace& operator=(const LiveTrace&) = delete;

    // Takes FILE.running for the trace `tracePath` (before the data are loaded, so that a
    // refusal costs nothing); the reason (naming FILE.running) when it cannot. It stays empty
    // until columns(). A trace that goes to a device or a pipe (/dev/stdout) has no running
    // file: start() succeeds and the rest does nothing.
    std::optional<std::string> start(const std::string& tracePath);
    // Writes the header: the standard columns and the solver's `extraColumns`.
    void columns(const std::vector<std::string>& extraColumns);
    bool active() const { return fd_ >= 0; }
    // Appends one row. A write that fails (a full disk) stops the live file; failure() says
    // why (the finished trace is still written at the end).
    void append(const IterationRecord& record);
    const std::string& failure() const { return failure_; }
    // Removes FILE.running and releases it (after FILE was written; also on destruction).
    // keep: leaves a complete FILE.running in place as the run's only trace (FILE could not
    // be written); returns whether it was kept.
    bool finish(bool keep = false);

  private:
    int fd_ = -1;
    std::string running_;
    std::size_t extraCount_ = 0;
    std::string failure_;
};

// True when a process holds the writer's lock on the running trace at `runningPath` (a run is
// still writing it); false when none does or the file is gone.
bool runningTraceWriterAlive(const std::string& runningPath);

// Reads trace CSV (trace_csv.h's and LiveTrace's) back, line by line.
class TraceCsvReader {
  public:
    // The header line; false and *why when it is not a cplab trace's.
    bool readHeader(std::string_view line, std::string* why);
    // One row into `record`; false and *why ("expected 9 columns, found 4") when it is not one.
    bool readRow(std::string_view line, IterationRecord& record, std::string* why) const;
    // The family columns after the standard ones, by name.
    const std::vector<std::string>& extraColumns() const { return extraNames_; }

  private:
    std::size_t columns_ = 0;
    int iteration_ = -1, seconds_ = -1, oracleCalls_ = -1, upper_ = -1, lower_ = -1, gap_ = -1,
        passes_ = -1, path_ = -1;
    std::vector<int> extras_;
    std::vector<std::string> extraNames_;
};

}  // namespace cplab
