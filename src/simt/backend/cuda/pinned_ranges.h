// The host memory the driver has page-locked for simt (allocated pinned or registered), looked
// up by address so that copies from or into it can skip the staging buffers.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <mutex>

namespace simt {

class PinnedRanges {
public:
    void add(const void* ptr, size_t bytes) {
        std::lock_guard<std::mutex> lock(mutex_);
        ranges_[uintptr_t(ptr)] = bytes;
        count_.store(ranges_.size(), std::memory_order_relaxed);
    }
    // False when `ptr` does not start a range simt pinned.
    bool remove(const void* ptr) {
        std::lock_guard<std::mutex> lock(mutex_);
        bool found = ranges_.erase(uintptr_t(ptr)) != 0;
        count_.store(ranges_.size(), std::memory_order_relaxed);
        return found;
    }
    // Whether [ptr, ptr + bytes) lies inside one pinned range.
    bool contains(const void* ptr, size_t bytes) const {
        if (count_.load(std::memory_order_relaxed) == 0) return false;  // the common case: no lock
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = ranges_.upper_bound(uintptr_t(ptr));
        if (it == ranges_.begin()) return false;
        --it;
        return uintptr_t(ptr) + bytes <= it->first + it->second;
    }

private:
    mutable std::mutex mutex_;
    std::map<uintptr_t, size_t> ranges_;
    std::atomic<size_t> count_{0};
};

}  // namespace simt
