// SPDX-License-Identifier: GPL-3.0-or-later
// The history of one run (run.h): every record from iteration 0, and the snapshots the run
// received (ascending iterations, one per iteration at most), thinned only past the history
// budget. The run writes it as its worker reports; the views, sessions and exports read it.
// A replay of a stored history streams into it (addReplayed, keepReplayed): within the same
// budget, never a second copy of the records.
#pragma once

#include <cstddef>
#include <vector>

#include "core/snapshot.h"
#include "session.h"

namespace cplab {

class RunHistory {
  public:
    const std::vector<IterationRecord>& trace() const { return trace_; }
    int iteration() const { return trace_.empty() ? 0 : trace_.back().iteration; }
    // The newest record (iteration 0 with the initial bounds before the first step).
    const IterationRecord& lastRecord() const { return last_; }
    // The record of `iteration` (0: the initial one), clamped to what exists.
    const IterationRecord& recordAt(int iteration) const;
    // The newest snapshot, and the newest one at or before `iteration`.
    SnapshotPtr snapshot() const { return snapshots_.empty() ? nullptr : snapshots_.back(); }
    SnapshotPtr snapshotAt(int iteration) const;
    const std::vector<SnapshotPtr>& snapshots() const { return snapshots_; }
    // What the snapshots take, a replay's pending ones included (the records are bounded by
    // the session's budget when stored, and a replay overwrites them in place).
    std::size_t bytes() const { return bytes_ + replayBytes_; }
    // Drops snapshots until the history holds at most `bytes`, keeping the first, the last and
    // every k-th (k doubling as needed, and kept for the snapshots still to come), a replay's
    // pending snapshots by the same rule. Returns k (1: nothing was ever dropped).
    int thin(std::size_t bytes);
    int thinFactor() const { return thinFactor_; }

    // Starts again from nothing (a run re-solving edited data).
    void clear();
    // Iteration 0: its record and its snapshot.
    void begin(SnapshotPtr first);
    void append(const std::vector<IterationRecord>& records);
    // A snapshot of an iteration already kept (a final one after cancel) replaces it.
    void keep(SnapshotPtr snapshot);
    // A stored history: `records` from iteration 0 (not empty), and its kept snapshots (none:
    // the snapshots so far stay). False, and nothing changed, unless record k is iteration k
    // and each snapshot is of one of their iterations, each later than the one before (the
    // views take the records up to a snapshot's iteration).
    bool restore(std::vector<IterationRecord> records, std::vector<SnapshotPtr> snapshots);

    // A replay of a restored history (run.h): the solver's records up to the stored iteration
    // are compared with the stored ones as they come (`comparison`, linear, nothing copied)
    // and overwrite them in place, so the stored records are never held beside the replay's;
    // records past the stored ones are ignored. Its snapshots wait beside the stored ones
    // (counted in bytes() and thinned as they are) until replaceByReplay.
    void addReplayed(const std::vector<IterationRecord>& records, StoredComparison* comparison);
    void keepReplayed(SnapshotPtr snapshot);
    // The last iteration a replay has overwritten (0: none).
    int replayed() const { return replayed_; }
    // The replay in place of the stored history: iteration 0 is `initial` (the solver's own),
    // the records up to replayed() are the replay's (the stored ones after it are dropped), the
    // snapshots are the replay's.
    void replaceByReplay(SnapshotPtr initial);

  private:
    IterationRecord initial_;
    IterationRecord last_;
    std::vector<IterationRecord> trace_;
    std::vector<SnapshotPtr> snapshots_;  // ascending iterations, one per iteration at most
    std::size_t bytes_ = 0;
    int thinFactor_ = 1;
    // A replay in progress: its snapshots (ascending iterations), their bytes, the last
    // iteration it overwrote, and the budget of the last thinning (0: none yet).
    std::vector<SnapshotPtr> replaySnapshots_;
    std::size_t replayBytes_ = 0;
    int replayed_ = 0;
    std::size_t budget_ = 0;
};

}  // namespace cplab
