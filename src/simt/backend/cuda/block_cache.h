// Small device blocks freed in legacy-stream order, kept for the next allocation of their size
// class on that stream. The driver's stream-ordered pool already keeps freed memory, but asking it
// (cuMemAllocAsync, cuMemFreeAsync) costs a few hundred nanoseconds a call, which is most of what
// an operation on a small array costs beyond its launch. A block handed out again on the legacy
// stream is safe without an event: work queued there runs after everything queued there before,
// and the legacy stream waits for blocking streams (non-blocking streams' launches hold their
// arrays until they pass, see the backend's defer_release).
#pragma once
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace simt {

class BlockCache {
public:
    static constexpr size_t kGranule = 512;                // size classes are multiples of this
    static constexpr size_t kLargestBlock = size_t(1) << 20;  // larger ones go back to the pool at once
    static constexpr size_t kMaxCachedBytes = size_t(64) << 20;  // per device

    // The bytes a block of `bytes` really gets; blocks of kLargestBlock or less are rounded up to
    // their class, so that any of them can serve any request of that class.
    static size_t rounded(size_t bytes) {
        if (bytes == 0) bytes = 1;
        return bytes > kLargestBlock ? bytes : (bytes + kGranule - 1) / kGranule * kGranule;
    }
    static bool cacheable(size_t bytes) { return bytes <= kLargestBlock; }

    // A kept block of rounded(bytes), or 0 where there is none.
    uint64_t take(size_t bytes);
    // Keeps a block of rounded(bytes); false (nothing kept) when it is too large or the cache is full.
    bool keep(uint64_t ptr, size_t bytes);
    // Every kept block, the cache left empty (the caller frees them).
    std::vector<uint64_t> drain();
    size_t cached_bytes() const;

private:
    static size_t slot(size_t bytes) { return rounded(bytes) / kGranule - 1; }
    mutable std::mutex mutex_;
    std::vector<std::vector<uint64_t>> free_ = std::vector<std::vector<uint64_t>>(kLargestBlock / kGranule);
    size_t cached_bytes_ = 0;
};

}  // namespace simt
