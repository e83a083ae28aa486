#include "backend/cuda/small_block_cache.h"
#include <bit>

namespace simt {

size_t SmallBlockCache::class_of(size_t bytes) {
    if (bytes > kLargestClass) return 0;
    return bytes <= kSmallestClass ? kSmallestClass : std::bit_ceil(bytes);
}

int SmallBlockCache::index_of(size_t class_bytes) {
    return std::countr_zero(class_bytes) - std::countr_zero(kSmallestClass);
}

uint64_t SmallBlockCache::take(size_t class_bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<uint64_t>& list = free_[index_of(class_bytes)];
    if (list.empty()) return 0;
    uint64_t block = list.back();
    list.pop_back();
    cached_bytes_ -= class_bytes;
    return block;
}

bool SmallBlockCache::keep(uint64_t block, size_t class_bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (cached_bytes_ + class_bytes > capacity_) return false;
    free_[index_of(class_bytes)].push_back(block);
    cached_bytes_ += class_bytes;
    return true;
}

std::vector<uint64_t> SmallBlockCache::drain() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<uint64_t> all;
    for (std::vector<uint64_t>& list : free_) {
        all.insert(all.end(), list.begin(), list.end());
        list.clear();
    }
    cached_bytes_ = 0;
    return all;
}

size_t SmallBlockCache::cached_bytes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return cached_bytes_;
}

}  // namespace simt
