// SPDX-License-Identifier: GPL-3.0-or-later
// A cancellation flag shared between the thread that runs a solver and the one that may
// stop it. Copies share the flag. Long inner loops poll cancelled().
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
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

// Where a long step reports how far it has come ("oracle pass 3: 120 of 626 words, 35.2 s"),
// for front ends that print progress while a step takes seconds or minutes. Called from
// whichever thread runs the pass, at most once per kProgressInterval (never concurrently).
using ProgressSink = std::function<void(const std::string&)>;

// What a long inner loop (an oracle pass over thousands of words) polls to end a step early:
// the user's cancel token and the run's deadline (max_seconds; none by default), and where it
// reports its progress. Cheap enough to poll per word: one relaxed load and, with a deadline or
// a sink, one clock read.
class Interrupt {
  public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::chrono::seconds kProgressInterval{2};

    Interrupt() = default;
    explicit Interrupt(CancelToken token, Clock::time_point deadline = Clock::time_point::max(),
                       ProgressSink sink = {})
        : token_(std::move(token)), deadline_(deadline), start_(Clock::now()) {
        if (sink) progress_ = std::make_shared<Progress>(std::move(sink));
    }

    bool cancelled() const { return token_.cancelled(); }
    bool timedOut() const {
        return deadline_ != Clock::time_point::max() && Clock::now() >= deadline_;
    }
    bool requested() const { return cancelled() || timedOut(); }
    // Not interrupted, and work of about `seconds` ends before the deadline.
    bool allows(double seconds) const {
        if (requested()) return false;
        if (deadline_ == Clock::time_point::max()) return true;
        const double left = std::chrono::duration<double>(deadline_ - Clock::now()).count();
        return seconds <= left;
    }
    // Seconds since this interrupt was made (the step's start, for stepInterrupt()).
    double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

    // `done` of `total` units of `what` ("oracle pass 3", "words"): passed to the sink when
    // kProgressInterval has gone by since the pass began or since the last report. Thread-safe.
    void report(const char* what, long long done, long long total, const char* unit) const {
        if (!progress_) return;
        Progress& p = *progress_;
        const long long now = Clock::now().time_since_epoch().count();
        long long last = p.last.load(std::memory_order_relaxed);
        const long long interval =
            std::chrono::duration_cast<Clock::duration>(kProgressInterval).count();
        if (now - last < interval) return;
        if (!p.last.compare_exchange_strong(last, now, std::memory_order_relaxed)) return;
        const double seconds =
            std::chrono::duration<double>(Clock::duration(now - p.start)).count();
        p.sink(std::string(what) + ": " + std::to_string(done) + " of " + std::to_string(total) +
               " " + unit + ", " + std::to_string(static_cast<long long>(seconds)) + " s");
    }

  private:
    struct Progress {
        explicit Progress(ProgressSink s)
            : sink(std::move(s)), start(Clock::now().time_since_epoch().count()), last(start) {}
        ProgressSink sink;
        long long start;
        std::atomic<long long> last;
    };

    CancelToken token_;
    Clock::time_point deadline_ = Clock::time_point::max();
    Clock::time_point start_ = Clock::now();
    std::shared_ptr<Progress> progress_;  // shared by copies: one report per interval
};

}  // namespace cplab
