// Freed small device blocks kept for the next allocation of the same size class, so a small
// array costs no driver call: cuMemAllocAsync plus cuMemFreeAsync take about a microsecond of
// host time, as much as the whole rest of `x + y` on one element.
//
// The cache only stores addresses; the backend decides when a block may go in (see
// CudaBackend::release: only blocks whose pending users are all on the legacy default stream)
// and hands them out only to allocations on that stream, which keeps CUDA's stream-ordered
// meaning: everything queued there after the reuse runs after the block's earlier users.
#pragma once
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace simt {

class SmallBlockCache {
public:
    static constexpr size_t kSmallestClass = 256;              // bytes
    static constexpr size_t kLargestClass = size_t(1) << 20;   // larger blocks always go to the driver
    static constexpr size_t kDefaultCapacity = size_t(64) << 20;  // bytes held at most

    explicit SmallBlockCache(size_t capacity_bytes = kDefaultCapacity) : capacity_(capacity_bytes) {}

    // The size class of an allocation of `bytes` (the power of two at least kSmallestClass that
    // holds it), or 0 when blocks of that size are not cached.
    static size_t class_of(size_t bytes);

    // A cached block of `class_bytes`, or 0 when there is none.
    uint64_t take(size_t class_bytes);
    // Keeps a block of `class_bytes`; false when the cache is full (the caller frees it).
    bool keep(uint64_t block, size_t class_bytes);
    // Removes and returns every cached block (to free them).
    std::vector<uint64_t> drain();

    size_t cached_bytes() const;

private:
    static constexpr int kClasses = 13;  // 256 B .. 1 MiB
    static int index_of(size_t class_bytes);

    mutable std::mutex mutex_;
    std::vector<uint64_t> free_[kClasses];
    size_t cached_bytes_ = 0;
    size_t capacity_;
};

}  // namespace simt
