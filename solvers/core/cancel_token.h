// A cancellation flag shared between the thread that runs a solver and the one that may
// stop it. Copies share the flag. Long inner loops poll cancelled().
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <utility>

namespace cplab {

class CancelToken {
  public:
    CancelToken() : flag_(std::make_shared<std::atomic<bool>>(false)) {}

    void cancel() const { flag_->store(true, std::memory_order_relaxed); }
    void reset() const { flag_->store(false, std::memory_order_relaxed); }
    bool cancelled() const { return flag_->load(std::memory_order_relaxed); }

  private:
    std::shared_ptr<std::atomic<bool>> flag_;
};

// What a long inner loop (an oracle pass over thousands of words) polls to end a step early:
// the user's cancel token and the run's deadline (max_seconds; none by default). Cheap enough
// to poll per word: one relaxed load and, with a deadline, one clock read.
class Interrupt {
  public:
    using Clock = std::chrono::steady_clock;

    Interrupt() = default;
    explicit Interrupt(CancelToken token, Clock::time_point deadline = Clock::time_point::max())
        : token_(std::move(token)), deadline_(deadline) {}

    bool cancelled() const { return token_.cancelled(); }
    bool timedOut() const {
        return deadline_ != Clock::time_point::max() && Clock::now() >= deadline_;
    }
    bool requested() const { return cancelled() || timedOut(); }

  private:
    CancelToken token_;
    Clock::time_point deadline_ = Clock::time_point::max();
};

}  // namespace cplab
