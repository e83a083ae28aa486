// The cuda backend's cache of small freed blocks: size classes, reuse and its byte limit.
#include <gtest/gtest.h>
#include <algorithm>
#include "backend/cuda/small_block_cache.h"

namespace simt {
namespace {

TEST(SmallBlockCache, ClassesArePowersOfTwoFrom256BytesTo1MiB) {
    EXPECT_EQ(SmallBlockCache::class_of(0), 256u);
    EXPECT_EQ(SmallBlockCache::class_of(1), 256u);
    EXPECT_EQ(SmallBlockCache::class_of(256), 256u);
    EXPECT_EQ(SmallBlockCache::class_of(257), 512u);
    EXPECT_EQ(SmallBlockCache::class_of(8000), 8192u);
    EXPECT_EQ(SmallBlockCache::class_of(size_t(1) << 20), size_t(1) << 20);
    EXPECT_EQ(SmallBlockCache::class_of((size_t(1) << 20) + 1), 0u);  // the driver's
    for (size_t bytes = 1; bytes <= (size_t(1) << 20); bytes = bytes * 3 + 1) {
        size_t c = SmallBlockCache::class_of(bytes);
        EXPECT_GE(c, bytes);
        EXPECT_LT(c, std::max<size_t>(2 * bytes, 512));
        EXPECT_EQ(c & (c - 1), 0u) << c;
    }
}

TEST(SmallBlockCache, GivesBackBlocksOfTheSameClassOnly) {
    SmallBlockCache cache;
    EXPECT_EQ(cache.take(512), 0u);
    EXPECT_TRUE(cache.keep(0x1000, 512));
    EXPECT_TRUE(cache.keep(0x2000, 1024));
    EXPECT_EQ(cache.cached_bytes(), 1536u);
    EXPECT_EQ(cache.take(256), 0u);
    EXPECT_EQ(cache.take(1024), 0x2000u);
    EXPECT_EQ(cache.take(1024), 0u);
    EXPECT_EQ(cache.take(512), 0x1000u);
    EXPECT_EQ(cache.cached_bytes(), 0u);
}

TEST(SmallBlockCache, RefusesBlocksBeyondItsCapacityAndDrainsEverything) {
    SmallBlockCache cache(4096);
    EXPECT_TRUE(cache.keep(0x10000, 2048));
    EXPECT_TRUE(cache.keep(0x20000, 1024));
    EXPECT_TRUE(cache.keep(0x30000, 1024));
    EXPECT_FALSE(cache.keep(0x40000, 256));  // 4096 held: the caller frees this one
    EXPECT_EQ(cache.cached_bytes(), 4096u);
    std::vector<uint64_t> all = cache.drain();
    std::sort(all.begin(), all.end());
    EXPECT_EQ(all, (std::vector<uint64_t>{0x10000, 0x20000, 0x30000}));
    EXPECT_EQ(cache.cached_bytes(), 0u);
    EXPECT_EQ(cache.take(1024), 0u);
    EXPECT_TRUE(cache.keep(0x40000, 256));  // room again
}

}  // namespace
}  // namespace simt
