// The cuda backend's cache of small freed blocks: size classes, reuse by class, the byte limit,
// and draining. Pure bookkeeping (no device): pointers are numbers here.
#include <gtest/gtest.h>
#include <algorithm>
#include <random>
#include "backend/cuda/block_cache.h"

using simt::BlockCache;

TEST(BlockCache, RoundsSmallRequestsToTheirClassAndLeavesLargeOnes) {
    EXPECT_EQ(BlockCache::rounded(0), BlockCache::kGranule);
    EXPECT_EQ(BlockCache::rounded(1), BlockCache::kGranule);
    EXPECT_EQ(BlockCache::rounded(BlockCache::kGranule), BlockCache::kGranule);
    EXPECT_EQ(BlockCache::rounded(BlockCache::kGranule + 1), 2 * BlockCache::kGranule);
    EXPECT_EQ(BlockCache::rounded(BlockCache::kLargestBlock), BlockCache::kLargestBlock);
    EXPECT_EQ(BlockCache::rounded(BlockCache::kLargestBlock + 1), BlockCache::kLargestBlock + 1);
}

TEST(BlockCache, HandsOutAKeptBlockOnlyForItsClass) {
    BlockCache cache;
    EXPECT_EQ(cache.take(4), 0u);
    ASSERT_TRUE(cache.keep(0x1000, 4));
    EXPECT_EQ(cache.take(BlockCache::kGranule + 1), 0u);  // another class
    EXPECT_EQ(cache.take(BlockCache::kGranule), 0x1000u); // same class, other request size
    EXPECT_EQ(cache.take(4), 0u);                          // handed out once only
    EXPECT_EQ(cache.cached_bytes(), 0u);
}

TEST(BlockCache, RefusesLargeBlocksAndStopsAtItsLimit) {
    BlockCache cache;
    EXPECT_FALSE(cache.keep(0x1000, BlockCache::kLargestBlock + 1));
    EXPECT_EQ(cache.take(BlockCache::kLargestBlock + 1), 0u);
    size_t kept = 0;
    uint64_t ptr = 0x100000;
    while (cache.keep(ptr, BlockCache::kLargestBlock)) {
        ++kept;
        ptr += BlockCache::kLargestBlock;
    }
    EXPECT_EQ(kept, BlockCache::kMaxCachedBytes / BlockCache::kLargestBlock);
    EXPECT_EQ(cache.cached_bytes(), BlockCache::kMaxCachedBytes);
    EXPECT_FALSE(cache.keep(ptr, 1));  // full: even the smallest block goes back to the pool
}

TEST(BlockCache, MatchesAReferenceOfRandomKeepsAndTakes) {
    std::mt19937 rng(std::random_device{}());
    std::uniform_int_distribution<size_t> size(0, 8 * BlockCache::kGranule);
    BlockCache cache;
    std::vector<std::pair<uint64_t, size_t>> reference;  // (pointer, class) of every kept block
    uint64_t next = 0x1000;
    for (int step = 0; step < 2000; ++step) {
        size_t bytes = size(rng);
        size_t cls = BlockCache::rounded(bytes);
        if (rng() % 2) {
            ASSERT_TRUE(cache.keep(next, bytes));
            reference.emplace_back(next, cls);
            next += 0x1000;
        } else {
            uint64_t got = cache.take(bytes);
            auto it = std::find_if(reference.begin(), reference.end(), [&](auto& b) { return b.first == got; });
            bool any = std::any_of(reference.begin(), reference.end(), [&](auto& b) { return b.second == cls; });
            if (!any) {
                ASSERT_EQ(got, 0u);
                continue;
            }
            ASSERT_NE(it, reference.end()) << "handed out a block that was not kept";
            ASSERT_EQ(it->second, cls) << "handed out a block of another class";
            reference.erase(it);
        }
        size_t bytes_kept = 0;
        for (auto& b : reference) bytes_kept += b.second;
        ASSERT_EQ(cache.cached_bytes(), bytes_kept);
    }
    std::vector<uint64_t> drained = cache.drain();
    std::vector<uint64_t> expected;
    for (auto& b : reference) expected.push_back(b.first);
    std::sort(drained.begin(), drained.end());
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(drained, expected);
    EXPECT_EQ(cache.cached_bytes(), 0u);
    EXPECT_EQ(cache.take(1), 0u);
}
