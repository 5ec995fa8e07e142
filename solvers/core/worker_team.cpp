#include "core/worker_team.h"

#include <chrono>
#include <system_error>

namespace cplab {

namespace {

// How long a waiting thread spins before it sleeps: a few OCAS passes' worth, so that the
// passes of one iteration never pay a futex wake-up, while an idle team soon stops using CPU.
constexpr std::chrono::microseconds kSpin{200};

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
            helpers_.emplace_back([this, h] { helperLoop(h); });
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

void WorkerTeam::dispatch(int workers, Call call, void* context) {
    workers = std::max(workers, 1);
    std::unique_lock<std::mutex> lock(busy_, std::defer_lock);
    if (workers == 1 || helpers_.empty() || !lock.try_lock()) {
        for (int t = 0; t < workers; ++t)
            call(context, t);
        return;
    }
    call_ = call;
    context_ = context;
    workers_ = workers;
    const int helpers = static_cast<int>(helpers_.size());
    // Every helper acknowledges every job (even one it has no part in), so none can still be
    // reading this job's fields when the next one is written.
    pending_.store(helpers, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_seq_cst);
    if (sleepingHelpers_.load(std::memory_order_seq_cst) > 0) generation_.notify_all();

    call(context, 0);
    for (int t = helpers + 1; t < workers; ++t)
        call(context, t);

    const auto done = [this] { return pending_.load(std::memory_order_acquire) == 0; };
    if (!spinUntil(done)) {
        callerSleeping_.store(true, std::memory_order_seq_cst);
        for (int left = pending_.load(std::memory_order_seq_cst); left != 0;
             left = pending_.load(std::memory_order_seq_cst))
            pending_.wait(left, std::memory_order_seq_cst);
        callerSleeping_.store(false, std::memory_order_relaxed);
    }
}

void WorkerTeam::helperLoop(int index) {
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
        if (index < workers_) call_(context_, index);
        if (pending_.fetch_sub(1, std::memory_order_seq_cst) == 1 &&
            callerSleeping_.load(std::memory_order_seq_cst))
            pending_.notify_one();
    }
}

}  // namespace cplab
