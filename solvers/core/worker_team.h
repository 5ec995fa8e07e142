// SPDX-License-Identifier: GPL-3.0-or-later
// A fixed team of threads for data-parallel passes that are too short to start threads for.
// An OCAS iteration on a9a makes some twenty passes of 20–200 µs each (scores, loss,
// back-projection, the line search's sums and selection rounds); starting a std::thread costs
// 20–50 µs, so the passes run on helpers started once, with the Risk that owns the team.
//
// run(parts, fn) calls fn(t) once for each part t = 0..parts−1 and returns when every part has
// returned. The parts are not assigned to threads: the calling thread and the helpers take the
// next unclaimed part until none is left, so a helper that the system has not scheduled (a
// core shared with another program) leaves its part to the others instead of holding the pass
// up. Callers split their work by part index only (never by which thread runs a part), so a
// result depends on `parts`, not on scheduling.
//
// Contention. A helper can still be descheduled in the middle of a part it took; the caller
// then waits for the rest of that helper's time slice (milliseconds, against passes of
// microseconds). When waiting for helpers has cost more than the parts the helpers ran saved,
// the team runs the following passes on the calling thread alone for a while (starting at
// kSoloStart and doubling, up to kSoloMax, while the stalls go on), then tries the helpers
// again. Results do not change: the parts are the same, only who runs them.
//
// Between jobs a helper spins for a short while (the next pass of an iteration usually
// follows within microseconds) and then sleeps on a futex (std::atomic::wait), so an idle team
// costs no CPU.
//
// Threading contract: run() may be called from any thread. One job runs at a time; a call
// that finds the team busy with another thread's job runs all of its parts on the calling
// thread, one after another (same result, no waiting, no deadlock). fn must not throw.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace cplab {

class WorkerTeam {
  public:
    // A team of `threads` (≥ 1; the calling thread counts as one, threads − 1 helpers start
    // now). When the system refuses to start a helper the team stays smaller (see size()).
    explicit WorkerTeam(int threads);
    ~WorkerTeam();
    WorkerTeam(const WorkerTeam&) = delete;
    WorkerTeam& operator=(const WorkerTeam&) = delete;

    // The calling thread plus the helpers.
    int size() const { return static_cast<int>(helpers_.size()) + 1; }

    // Parts for `work` units at one part per `grain` units: between 1 and size().
    int partsFor(long long work, long long grain) const {
        return static_cast<int>(
            std::clamp(work / std::max(grain, 1LL), 1LL, static_cast<long long>(size())));
    }

    // Calls fn(t) once for each t = 0..parts−1 (see the header comment).
    template <class Fn>
    void run(int parts, Fn&& fn) {
        using F = std::remove_reference_t<Fn>;
        dispatch(
            parts, [](void* f, int t) { (*static_cast<F*>(f))(t); },
            const_cast<void*>(static_cast<const void*>(std::addressof(fn))));
    }

    // Jobs so far whose parts all ran on the calling thread because the team was backing off
    // from stalls (see the header comment); for tests and benchmarks.
    long long soloJobs() const { return soloJobs_.load(std::memory_order_relaxed); }

    // The first and the longest spell of running alone after a stall.
    static constexpr std::chrono::microseconds kSoloStart{1000};
    static constexpr std::chrono::microseconds kSoloMax{16000};

  private:
    using Call = void (*)(void*, int);
    using Clock = std::chrono::steady_clock;
    void dispatch(int parts, Call call, void* context);
    // Claims and runs parts of the current job until none is left; the number run.
    int runClaimedParts();
    void helperLoop();

    std::vector<std::thread> helpers_;
    std::mutex busy_;  // held by the thread whose job runs
    // The job, written under busy_ before claims_ is reset (release) and read by a thread after
    // a successful claim (acquire); a job's fields stay unchanged until all its parts are done.
    Call call_ = nullptr;
    void* context_ = nullptr;
    // (parts << 32) | next unclaimed part: a fetch_add that returns next < parts claims that
    // part of the current job. Between jobs next ≥ parts, so nothing can be claimed.
    std::atomic<std::uint64_t> claims_{0};
    std::atomic<int> done_{0};             // parts of the current job that have returned
    std::atomic<unsigned> generation_{0};  // bumped per job: what sleeping helpers wait on
    std::atomic<int> sleepingHelpers_{0};
    std::atomic<bool> callerSleeping_{false};
    std::atomic<bool> stop_{false};
    // Stall back-off, touched only by the thread holding busy_.
    Clock::time_point soloUntil_{};
    std::chrono::microseconds soloSpell_{kSoloStart};
    std::atomic<long long> soloJobs_{0};
};

// The first index of block t when [0, n) is cut into `blocks` contiguous blocks.
inline int blockBegin(int n, int blocks, int t) {
    return static_cast<int>(static_cast<long long>(n) * t / blocks);
}

// Runs fn(t, begin, end) for the contiguous blocks t = 0..blocks−1 of [0, n) on `team`, or on
// the calling thread when team is null.
template <class Fn>
void runBlocks(WorkerTeam* team, int n, int blocks, Fn&& fn) {
    blocks = std::max(blocks, 1);
    if (team == nullptr || blocks == 1) {
        for (int t = 0; t < blocks; ++t)
            fn(t, blockBegin(n, blocks, t), blockBegin(n, blocks, t + 1));
        return;
    }
    team->run(blocks,
              [&](int t) { fn(t, blockBegin(n, blocks, t), blockBegin(n, blocks, t + 1)); });
}

}  // namespace cplab
