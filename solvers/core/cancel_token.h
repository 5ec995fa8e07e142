// A cancellation flag shared between the thread that runs a solver and the one that may
// stop it. Copies share the flag. Long inner loops poll cancelled().
#pragma once

#include <atomic>
#include <memory>

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

}  // namespace cplab
