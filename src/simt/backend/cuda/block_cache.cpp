#include "backend/cuda/block_cache.h"

namespace simt {

uint64_t BlockCache::take(size_t bytes) {
    if (!cacheable(bytes)) return 0;
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<uint64_t>& blocks = free_[slot(bytes)];
    if (blocks.empty()) return 0;
    uint64_t ptr = blocks.back();
    blocks.pop_back();
    cached_bytes_ -= rounded(bytes);
    return ptr;
}

bool BlockCache::keep(uint64_t ptr, size_t bytes) {
    if (!cacheable(bytes)) return false;
    std::lock_guard<std::mutex> lock(mutex_);
    if (cached_bytes_ + rounded(bytes) > kMaxCachedBytes) return false;
    free_[slot(bytes)].push_back(ptr);
    cached_bytes_ += rounded(bytes);
    return true;
}

std::vector<uint64_t> BlockCache::drain() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<uint64_t> all;
    for (std::vector<uint64_t>& blocks : free_) {
        all.insert(all.end(), blocks.begin(), blocks.end());
        blocks.clear();
    }
    cached_bytes_ = 0;
    return all;
}

size_t BlockCache::cached_bytes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return cached_bytes_;
}

}  // namespace simt
