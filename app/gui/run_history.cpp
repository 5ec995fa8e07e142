// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_history.h"

#include <algorithm>

namespace cplab {

const IterationRecord& RunHistory::recordAt(int iteration) const {
    if (iteration <= 0 || trace_.empty()) return initial_;
    // Records are numbered 1, 2, … in order.
    const auto index = static_cast<std::size_t>(std::min<int>(iteration, int(trace_.size())) - 1);
    return trace_[index];
}

SnapshotPtr RunHistory::snapshotAt(int iteration) const {
    const auto it = std::upper_bound(
        snapshots_.begin(), snapshots_.end(), iteration,
        [](int value, const SnapshotPtr& s) { return value < s->record.iteration; });
    if (it == snapshots_.begin()) return snapshots_.empty() ? nullptr : snapshots_.front();
    return *(it - 1);
}

namespace {

// Keeps the first, the last and the iterations divisible by k of `snapshots`; returns the bytes
// kept.
std::size_t thinSnapshots(std::vector<SnapshotPtr>& snapshots, int k) {
    std::vector<SnapshotPtr> kept;
    std::size_t keptBytes = 0;
    for (std::size_t i = 0; i < snapshots.size(); ++i) {
        const bool keep =
            i == 0 || i + 1 == snapshots.size() || snapshots[i]->record.iteration % k == 0;
        if (!keep) continue;
        keptBytes += snapshots[i]->bytes();
        kept.push_back(std::move(snapshots[i]));
    }
    snapshots = std::move(kept);
    return keptBytes;
}

}  // namespace

int RunHistory::thin(std::size_t bytes) {
    budget_ = bytes;
    auto thinTo = [this](int k) {
        bytes_ = thinSnapshots(snapshots_, k);
        replayBytes_ = thinSnapshots(replaySnapshots_, k);
    };
    // Snapshots that arrived since the last thinning first get the density of the rest.
    if (this->bytes() > bytes && thinFactor_ > 1) thinTo(thinFactor_);
    while (this->bytes() > bytes && snapshots_.size() + replaySnapshots_.size() > 2 &&
           thinFactor_ < (1 << 24)) {
        thinFactor_ *= 2;
        thinTo(thinFactor_);
    }
    return thinFactor_;
}

void RunHistory::addReplayed(const std::vector<IterationRecord>& records,
                             StoredComparison* comparison) {
    for (const IterationRecord& r : records) {
        // Records are numbered 1, 2, … in order; the replay's come in order too.
        if (r.iteration < 1 || r.iteration > static_cast<int>(trace_.size())) continue;
        IterationRecord& stored = trace_[static_cast<std::size_t>(r.iteration - 1)];
        if (comparison) comparison->add(stored, r);
        stored = r;
        replayed_ = r.iteration;
    }
    if (!trace_.empty()) last_ = trace_.back();
}

void RunHistory::keepReplayed(SnapshotPtr snapshot) {
    if (!snapshot) return;
    if (!replaySnapshots_.empty() &&
        replaySnapshots_.back()->record.iteration >= snapshot->record.iteration) {
        replayBytes_ -= replaySnapshots_.back()->bytes();
        replaySnapshots_.pop_back();
    }
    replayBytes_ += snapshot->bytes();
    replaySnapshots_.push_back(std::move(snapshot));
    // Within the last budget the history was held to (the controller thins when told of new
    // snapshots, which a replay does not report until it ends).
    if (budget_ > 0 && bytes() > budget_) thin(budget_);
}

void RunHistory::replaceByReplay(SnapshotPtr initial) {
    trace_.resize(static_cast<std::size_t>(replayed_));
    std::vector<SnapshotPtr> replay = std::move(replaySnapshots_);
    snapshots_.clear();
    bytes_ = 0;
    replaySnapshots_.clear();
    replayBytes_ = 0;
    replayed_ = 0;
    if (initial) {
        initial_ = initial->record;
        keep(std::move(initial));
    }
    last_ = trace_.empty() ? initial_ : trace_.back();
    for (SnapshotPtr& s : replay)
        keep(std::move(s));
}

void RunHistory::clear() {
    trace_.clear();
    snapshots_.clear();
    bytes_ = 0;
    thinFactor_ = 1;
    replaySnapshots_.clear();
    replayBytes_ = 0;
    replayed_ = 0;
    initial_ = IterationRecord{};
    last_ = initial_;
}

void RunHistory::begin(SnapshotPtr first) {
    initial_ = first->record;
    last_ = initial_;
    keep(std::move(first));
}

void RunHistory::append(const std::vector<IterationRecord>& records) {
    trace_.insert(trace_.end(), records.begin(), records.end());
    last_ = trace_.back();
}

void RunHistory::keep(SnapshotPtr snapshot) {
    if (!snapshot) return;
    if (!snapshots_.empty() && snapshots_.back()->record.iteration >= snapshot->record.iteration) {
        bytes_ -= snapshots_.back()->bytes();
        snapshots_.pop_back();
    }
    bytes_ += snapshot->bytes();
    snapshots_.push_back(std::move(snapshot));
}

bool RunHistory::restore(std::vector<IterationRecord> records, std::vector<SnapshotPtr> snapshots) {
    if (records.empty()) return false;
    for (std::size_t k = 0; k < records.size(); ++k) {
        if (records[k].iteration != static_cast<int>(k)) return false;
    }
    int previous = -1;
    for (const SnapshotPtr& s : snapshots) {
        if (!s || s->record.iteration <= previous || s->record.iteration >= int(records.size()))
            return false;
        previous = s->record.iteration;
    }
    initial_ = records.front();
    trace_.assign(records.begin() + 1, records.end());
    last_ = trace_.empty() ? initial_ : trace_.back();
    if (snapshots.empty()) return true;
    snapshots_.clear();
    bytes_ = 0;
    for (auto& s : snapshots)
        keep(std::move(s));
    return true;
}

}  // namespace cplab
