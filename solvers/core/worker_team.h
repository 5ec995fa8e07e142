// A fixed team of threads for data-parallel passes that are too short to start threads for.
// An OCAS iteration on a9a makes some twenty passes of 20–200 µs each (scores, loss,
// back-projection, the line search's sums and selection rounds); starting a std::thread costs
// 20–50 µs, so the passes run on helpers started once, with the Risk that owns the team.
//
// run(workers, fn) calls fn(t) for the parts t = 0..workers−1: part 0 on the calling thread,
// part h on helper h, and returns when every part has returned. Callers split their work by
// part index only (never by which thread runs a part), so a result depends on `workers`, not
// on scheduling. Between jobs a helper spins for a short while (the next pass of an iteration
// usually follows within microseconds) and then sleeps on a futex (std::atomic::wait), so an
// idle team costs no CPU.
//
// Threading contract: run() may be called from any thread. One job runs at a time; a call
// that finds the team busy with another thread's job runs all of its parts on the calling
// thread, one after another (same result, no waiting, no deadlock). fn must not throw.
#pragma once

#include <algorithm>
#include <atomic>
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

    // Calls fn(t) for t = 0..workers−1 (see the header comment). Parts beyond size() − 1 run on
    // the calling thread after part 0.
    template <class Fn>
    void run(int workers, Fn&& fn) {
        using F = std::remove_reference_t<Fn>;
        dispatch(
            workers, [](void* f, int t) { (*static_cast<F*>(f))(t); },
            const_cast<void*>(static_cast<const void*>(std::addressof(fn))));
    }

  private:
    using Call = void (*)(void*, int);
    void dispatch(int workers, Call call, void* context);
    void helperLoop(int index);

    std::vector<std::thread> helpers_;
    std::mutex busy_;  // held by the thread whose job runs
    // The job, written under busy_ before generation_ is bumped (release), read by the helpers
    // after they see the new generation (acquire).
    Call call_ = nullptr;
    void* context_ = nullptr;
    int workers_ = 0;
    std::atomic<unsigned> generation_{0};
    std::atomic<int> pending_{0};  // helpers that have not finished the current job
    std::atomic<int> sleepingHelpers_{0};
    std::atomic<bool> callerSleeping_{false};
    std::atomic<bool> stop_{false};
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
