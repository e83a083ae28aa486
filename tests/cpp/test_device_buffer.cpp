// The allocation switch behind arrays: the hook is asked only in Hook mode, its memory is freed
// through it, and its buffers are not treated as freed in stream order.
#include <gtest/gtest.h>
#include <vector>
#include "array/ndarray.h"

namespace simt {
namespace {

std::vector<size_t> g_asked;
std::vector<void*> g_released;
alignas(64) char g_arena[4096];

HookedAllocation arena_allocate(size_t bytes) {
    g_asked.push_back(bytes);
    if (bytes == 8) return {nullptr, nullptr, AllocationMode::Pool};  // (left to the pool)
    return {g_arena, &g_arena[1], AllocationMode::Pool};
}
void arena_release(void* handle) noexcept { g_released.push_back(handle); }

TEST(DeviceBuffer, HookIsAskedOnlyInHookMode) {
    select_backend("cpu");
    set_allocation_hook({&arena_allocate, &arena_release});
    g_asked.clear();
    g_released.clear();
    NdArray pooled = empty_array(DType::Float32, {16});
    EXPECT_TRUE(g_asked.empty());
    EXPECT_TRUE(pooled.owner_frees_in_stream_order);
    EXPECT_NE(pool_buffer(pooled), nullptr);

    set_allocation_mode(AllocationMode::Hook);
    {
        NdArray hooked = empty_array(DType::Float32, {4, 8});
        EXPECT_EQ(hooked.data, g_arena);
        EXPECT_FALSE(hooked.owner_frees_in_stream_order);  // (launches must hold it)
        EXPECT_EQ(pool_buffer(hooked), nullptr);
        NdArray left = empty_array(DType::Float64, {1});
        EXPECT_NE(left.data, g_arena);
        EXPECT_TRUE(left.owner_frees_in_stream_order);
        EXPECT_TRUE(g_released.empty());
    }
    set_allocation_mode(AllocationMode::Pool);
    EXPECT_EQ(g_asked, (std::vector<size_t>{128, 8}));
    EXPECT_EQ(g_released, (std::vector<void*>{&g_arena[1]}));
    NdArray again = empty_array(DType::Int8, {3});
    EXPECT_EQ(g_asked.size(), 2u);
}

}  // namespace
}  // namespace simt
