// SPDX-License-Identifier: GPL-3.0-or-later
// The memory behind KernelSet and KernelQ (kernel_set.h): blocks for whole kernel matrices
// (uninitialised, huge pages from 2 MB) and an LRU of fixed-length rows within a budget.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <unordered_map>
#include <vector>

#include "core/memory_budget.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace cplab {

// The bytes a cache of `cacheMb` may hold: the cache is a speed knob, so a cache_mb beyond the
// memory available is held to half of it (whole matrices, or an LRU that fills row by row,
// would otherwise fail to allocate mid-run).
inline double cacheBudgetBytes(double cacheMb) {
    const double available = static_cast<double>(memoryBudget());
    const double asked = cacheMb * 1024.0 * 1024.0;
    return available > 0 ? std::min(asked, available / 2) : asked;
}

// Uninitialised memory for a whole kernel matrix. From 2 MB up it is aligned to 2 MB and
// advised as transparent huge pages: a solve first touches rows in no particular order, and on
// a virtual machine one 4 KB page fault can cost ~10 µs (an SMO on 683 examples took 400 of
// them, twice LIBSVM's whole solve); a huge page takes one fault for 512 pages. Smaller blocks
// come from the heap, which hands the pages of a finished solve to the next one. Pages nobody
// touches are never committed either way.
template <class T>
class RowMemory {
  public:
    static constexpr std::size_t kHugePage = std::size_t(2) << 20;

    // The bytes a block of `count` values occupies once touched (rounded up to huge pages).
    static std::size_t footprint(std::size_t count) {
        const std::size_t bytes = count * sizeof(T);
        return bytes >= kHugePage ? (bytes + kHugePage - 1) / kHugePage * kHugePage : bytes;
    }

    explicit RowMemory(std::size_t count) {
        const std::size_t bytes = footprint(count);
        void* p = bytes >= kHugePage ? std::aligned_alloc(kHugePage, bytes) : std::malloc(bytes);
        if (p == nullptr) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (bytes >= kHugePage) madvise(p, bytes, MADV_HUGEPAGE);  // advice only
#endif
        data_.reset(static_cast<T*>(p));
    }
    T* data() const {
        return data_.get();
    }

  private:
    struct Free {
        void operator()(T* p) const { std::free(p); }
    };
    std::unique_ptr<T[], Free> data_;
};

// Slots of `rowLength` doubles for at most `capacity` keys, least recently used evicted.
// Slots are allocated on first use and reused after that: memory never exceeds
// capacity · rowLength · 8 bytes.
class RowLru {
  public:
    void configure(int capacity, int rowLength) {
        capacity_ = std::max(capacity, 1);
        rowLength_ = rowLength;
        slots_.clear();
        keys_.clear();
        prev_.clear();
        next_.clear();
        clear();
    }
    int capacity() const { return capacity_; }

    // The slot of `key`, marked most recent; null when absent.
    double* find(long long key) {
        const auto it = slotOf_.find(key);
        if (it == slotOf_.end()) return nullptr;
        touch(it->second);
        return slots_[it->second].get();
    }
    // A slot for `key` (absent), evicting the least recently used when full; its contents are
    // to be written by the caller.
    double* insert(long long key) {
        int slot;
        if (static_cast<int>(slots_.size()) < capacity_) {
            slot = static_cast<int>(slots_.size());
            slots_.emplace_back(new double[static_cast<std::size_t>(rowLength_)]);
            keys_.push_back(key);
            prev_.push_back(-1);
            next_.push_back(-1);
        } else if (free_ >= 0) {
            slot = free_;
            free_ = next_[slot];
            keys_[slot] = key;
        } else {
            slot = tail_;
            unlink(slot);
            slotOf_.erase(keys_[slot]);
            keys_[slot] = key;
        }
        pushFront(slot);
        slotOf_.emplace(key, slot);
        return slots_[slot].get();
    }
    // Forgets every key; the slots stay allocated for reuse.
    void clear() {
        slotOf_.clear();
        head_ = tail_ = -1;
        free_ = -1;
        for (int s = static_cast<int>(slots_.size()) - 1; s >= 0; --s) {
            prev_[s] = -1;
            next_[s] = free_;
            free_ = s;
        }
        slotOf_.reserve(static_cast<std::size_t>(capacity_));
    }
    std::size_t bytes() const {
        return slots_.size() * static_cast<std::size_t>(rowLength_) * sizeof(double);
    }

  private:
    void unlink(int s) {
        if (prev_[s] >= 0)
            next_[prev_[s]] = next_[s];
        else
            head_ = next_[s];
        if (next_[s] >= 0)
            prev_[next_[s]] = prev_[s];
        else
            tail_ = prev_[s];
        prev_[s] = next_[s] = -1;
    }
    void pushFront(int s) {
        prev_[s] = -1;
        next_[s] = head_;
        if (head_ >= 0) prev_[head_] = s;
        head_ = s;
        if (tail_ < 0) tail_ = s;
    }
    void touch(int s) {
        if (head_ == s) return;
        unlink(s);
        pushFront(s);
    }

    int capacity_ = 1;
    int rowLength_ = 0;
    std::vector<std::unique_ptr<double[]>> slots_;
    std::vector<long long> keys_;
    std::vector<int> prev_, next_;
    int head_ = -1, tail_ = -1, free_ = -1;
    std::unordered_map<long long, int> slotOf_;
};

}  // namespace cplab
