// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/worker_team.h"

#include <system_error>

namespace cplab {

namespace {

// How long a waiting thread spins before it sleeps: a few OCAS passes' worth, so that the
// passes of one iteration never pay a futex wake-up, while an idle team soon stops using CPU.
constexpr std::chrono::microseconds kSpin{200};

// Waiting for helpers longer than their parts saved, by more than this, is a stall.
constexpr std::chrono::microseconds kStallSlack{20};

void relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    std::this_thread::yield();
#endif
}

// Spins until done() or kSpin has passed; true when done() held.
template <class Done>
bool spinUntil(Done&& done) {
    const auto until = std::chrono::steady_clock::now() + kSpin;
    for (;;) {
        for (int k = 0; k < 64; ++k) {
            if (done()) return true;
            relax();
        }
        if (std::chrono::steady_clock::now() >= until) return done();
    }
}

}  // namespace

WorkerTeam::WorkerTeam(int threads) {
    const int wanted = std::max(threads, 1) - 1;
    helpers_.reserve(static_cast<std::size_t>(wanted));
    for (int h = 1; h <= wanted; ++h) {
        try {
            helpers_.emplace_back([this] { helperLoop(); });
        } catch (const std::system_error&) {
            break;  // out of threads: a smaller team
        }
    }
}

WorkerTeam::~WorkerTeam() {
    {
        const std::lock_guard<std::mutex> lock(busy_);  // let a running job finish
        stop_.store(true, std::memory_order_seq_cst);
        generation_.fetch_add(1, std::memory_order_seq_cst);
    }
    generation_.notify_all();
    for (std::thread& helper : helpers_)
        helper.join();
}

int WorkerTeam::runClaimedParts() {
    int ran = 0;
    for (;;) {
        const std::uint64_t claim = claims_.fetch_add(1, std::memory_order_acq_rel);
        const auto part = static_cast<std::uint32_t>(claim);
        const auto parts = static_cast<std::uint32_t>(claim >> 32);
        if (part >= parts) return ran;
        call_(context_, static_cast<int>(part));
        ++ran;
        if (done_.fetch_add(1, std::memory_order_seq_cst) + 1 == static_cast<int>(parts) &&
            callerSleeping_.load(std::memory_order_seq_cst))
            done_.notify_one();
    }
}

void WorkerTeam::dispatch(int parts, Call call, void* context) {
    parts = std::max(parts, 1);
    std::unique_lock<std::mutex> lock(busy_, std::defer_lock);
    const auto alone = [&] {
        for (int t = 0; t < parts; ++t)
            call(context, t);
    };
    if (parts == 1 || helpers_.empty() || !lock.try_lock()) return alone();
    const Clock::time_point start = Clock::now();
    if (start < soloUntil_) {
        soloJobs_.fetch_add(1, std::memory_order_relaxed);
        return alone();
    }

    call_ = call;
    context_ = context;
    done_.store(0, std::memory_order_relaxed);
    claims_.store(static_cast<std::uint64_t>(parts) << 32, std::memory_order_release);
    generation_.fetch_add(1, std::memory_order_seq_cst);
    if (sleepingHelpers_.load(std::memory_order_seq_cst) > 0) generation_.notify_all();

    const int mine = runClaimedParts();
    if (mine == parts) return;  // the helpers took nothing: no one to wait for
    const Clock::time_point ownEnd = Clock::now();
    const auto done = [&] { return done_.load(std::memory_order_acquire) == parts; };
    if (!spinUntil(done)) {
        callerSleeping_.store(true, std::memory_order_seq_cst);
        for (int finished = done_.load(std::memory_order_seq_cst); finished != parts;
             finished = done_.load(std::memory_order_seq_cst))
            done_.wait(finished, std::memory_order_seq_cst);
        callerSleeping_.store(false, std::memory_order_relaxed);
    }
    const Clock::time_point end = Clock::now();

    // What the helpers' parts would have cost the caller at its own pace, against the wait.
    const auto own = ownEnd - start;
    const auto saved = mine > 0 ? own * (parts - mine) / mine : Clock::duration::zero();
    if (end - ownEnd > saved + kStallSlack) {
        // A stall soon after the last spell alone: contention goes on, stay alone longer.
        const bool again = end - soloUntil_ < soloSpell_;
        soloSpell_ = again ? std::min(2 * soloSpell_, kSoloMax) : kSoloStart;
        soloUntil_ = end + soloSpell_;
    }
}

void WorkerTeam::helperLoop() {
    unsigned seen = 0;
    for (;;) {
        const auto changed = [&] { return generation_.load(std::memory_order_acquire) != seen; };
        if (!spinUntil(changed)) {
            // Announce the sleep before the last look, so that dispatch() either sees a sleeper
            // (and notifies) or this thread sees the new generation (both are seq_cst).
            sleepingHelpers_.fetch_add(1, std::memory_order_seq_cst);
            while (generation_.load(std::memory_order_seq_cst) == seen)
                generation_.wait(seen, std::memory_order_seq_cst);
            sleepingHelpers_.fetch_sub(1, std::memory_order_relaxed);
        }
        seen = generation_.load(std::memory_order_acquire);
        if (stop_.load(std::memory_order_acquire)) return;
        runClaimedParts();
    }
}

}  // namespace cplab
