// The cpu backend's fiber runtime without the compiler: context switches, guarded stacks and
// overflow catching, and block scheduling (barriers, warp rendezvous, stalled blocks) driven by
// hand-written thread bodies through the same runtime table generated kernels use.
#include <gtest/gtest.h>
#include <csetjmp>
#include <string>
#include <vector>
#include "backend/cpu/fiber_context.h"
#include "backend/cpu/fiber_stacks.h"
#include "backend/cpu/kernel_runtime.h"

using namespace simt;
using namespace simt::cpu;

namespace {

// ---- context switches -------------------------------------------------------------------------
struct PingPong {
    void* main_sp = nullptr;
    void* sp[2] = {nullptr, nullptr};
    std::vector<int> trace;
    int rounds = 0;
};
PingPong* g_pp = nullptr;

void ping_pong_body(void* arg) {
    int me = int(reinterpret_cast<intptr_t>(arg));
    for (int r = 0; r < g_pp->rounds; ++r) {
        g_pp->trace.push_back(me * 100 + r);
        simt_fiber_switch(&g_pp->sp[me], me == 0 ? g_pp->sp[1] : g_pp->sp[0]);
    }
    simt_fiber_switch(&g_pp->sp[me], g_pp->main_sp);
    std::abort();
}

TEST(Fibers, SwitchAlternatesBetweenTwoStacksAndKeepsLocals) {
    FiberStacks stacks;
    stacks.reserve(2, 16 << 10);
    PingPong pp;
    pp.rounds = 5;
    g_pp = &pp;
    pp.sp[0] = fiber_make_context(stacks.top(0), ping_pong_body, reinterpret_cast<void*>(0));
    pp.sp[1] = fiber_make_context(stacks.top(1), ping_pong_body, reinterpret_cast<void*>(1));
    simt_fiber_switch(&pp.main_sp, pp.sp[0]);
    std::vector<int> expected;
    for (int r = 0; r < 5; ++r) { expected.push_back(r); expected.push_back(100 + r); }
    EXPECT_EQ(pp.trace, expected);
}

TEST(Fibers, StacksAreSeparatedByGuardRegions) {
    FiberStacks stacks;
    stacks.reserve(3, 20000);
    EXPECT_GE(stacks.usable_bytes(), 20000u);
    for (int i = 0; i < 3; ++i) {
        EXPECT_LT(stacks.bottom(i), stacks.top(i));
        EXPECT_FALSE(stacks.in_guard(stacks.bottom(i)));
        EXPECT_FALSE(stacks.in_guard(stacks.top(i) - 1));
        EXPECT_TRUE(stacks.in_guard(stacks.bottom(i) - 1));
        stacks.bottom(i)[0] = 1;  // the usable range is writable
        stacks.top(i)[-1] = 1;
    }
    EXPECT_FALSE(stacks.in_guard(&stacks));
}

// ---- stack overflow ---------------------------------------------------------------------------
void* g_overflow_main_sp = nullptr;
void* g_overflow_fiber_sp = nullptr;

int recurse_forever(int depth) {
    volatile char frame[512];
    frame[0] = char(depth);
    return recurse_forever(depth + 1) + frame[0];
}

void overflowing_body(void*) {
    recurse_forever(0);
    simt_fiber_switch(&g_overflow_fiber_sp, g_overflow_main_sp);
}

TEST(Fibers, StackOverflowIsCaughtInTheGuardRegion) {
    FiberStacks stacks;
    stacks.reserve(1, 32 << 10);
    OverflowCatcher& catcher = OverflowCatcher::current();
    volatile bool caught = false;
    if (sigsetjmp(catcher.jump, 1)) {
        caught = true;
    } else {
        catcher.arm(&stacks);
        g_overflow_fiber_sp = fiber_make_context(stacks.top(0), overflowing_body, nullptr);
        simt_fiber_switch(&g_overflow_main_sp, g_overflow_fiber_sp);
    }
    catcher.disarm();
    EXPECT_TRUE(caught);
}

// ---- block scheduling through the runtime table ----------------------------------------------
struct Harness {
    LaunchState state;
    std::vector<std::string> sites = {"cuda.syncthreads() at test.py:1", "cuda.shfl_sync() at test.py:2"};
    std::vector<const char*> site_ptrs;
    cpu_abi::FiberKernel kernel{};

    Harness(int threads, void (*body)(void*, cpu_abi::Ctx*), void* closure, int grid = 1) {
        state.abi.grid = {grid, 1, 1};
        state.abi.block = {threads, 1, 1};
        for (const std::string& s : sites) site_ptrs.push_back(s.c_str());
        kernel.body = body;
        kernel.closure = closure;
        kernel.name = "k";
        kernel.sites = site_ptrs.data();
        kernel.site_count = int32_t(site_ptrs.size());
    }
    void run() { kernel_runtime()->run_fibers(&state.abi, 0, state.abi.grid.x, &kernel); }
};

struct Trace {
    std::vector<int> events;  // thread * 10 + phase
    std::vector<int> counts;
};

void barrier_body(void* closure, cpu_abi::Ctx* ctx) {
    auto* t = static_cast<Trace*>(closure);
    const cpu_abi::Runtime* rt = ctx->launch->runtime;
    int me = ctx->tid.x;
    t->events.push_back(me * 10 + 0);
    int count = rt->barrier(ctx, 0, cpu_abi::kBarrierCount, me % 3 == 0);
    t->counts.push_back(count);
    t->events.push_back(me * 10 + 1);
    rt->barrier(ctx, 0, cpu_abi::kBarrierPlain, 0);
    t->events.push_back(me * 10 + 2);
}

TEST(BlockFibers, BarrierSeparatesPhasesAndCounts) {
    Trace trace;
    Harness h(50, barrier_body, &trace);
    h.run();
    ASSERT_FALSE(h.state.failed()) << h.state.failure();
    ASSERT_EQ(trace.events.size(), 150u);
    for (size_t i = 0; i < trace.events.size(); ++i) EXPECT_EQ(trace.events[i] % 10, int(i / 50)) << i;
    EXPECT_EQ(trace.counts, std::vector<int>(50, 17));  // threads 0, 3, ..., 48
}

void shuffle_body(void* closure, cpu_abi::Ctx* ctx) {
    auto* out = static_cast<std::vector<uint64_t>*>(closure);
    int me = ctx->tid.x;
    uint64_t got = ctx->launch->runtime->warp(ctx, 1, cpu_abi::kShflDown, 0xffffffffu, uint64_t(1000 + me), 3, nullptr);
    (*out)[size_t(me)] = got;
}

TEST(BlockFibers, ShuffleDownInFullAndPartialWarps) {
    std::vector<uint64_t> out(40);
    Harness h(40, shuffle_body, &out);
    h.run();
    ASSERT_FALSE(h.state.failed()) << h.state.failure();
    for (int i = 0; i < 40; ++i) {
        int lane = i % 32, lanes = i < 32 ? 32 : 8;
        uint64_t expected = lane + 3 < lanes ? uint64_t(1000 + i + 3) : uint64_t(1000 + i);
        EXPECT_EQ(out[size_t(i)], expected) << i;
    }
}

void early_exit_body(void*, cpu_abi::Ctx* ctx) {
    if (ctx->tid.x >= 5) return;
    ctx->launch->runtime->barrier(ctx, 0, cpu_abi::kBarrierPlain, 0);
}

TEST(BlockFibers, PartlyReachedBarrierIsReportedNotHung) {
    Harness h(8, early_exit_body, nullptr, 3);
    h.run();
    ASSERT_TRUE(h.state.failed());
    EXPECT_NE(h.state.failure().find("kernel 'k': cuda.syncthreads() at test.py:1 was reached by only 5 of the 8 threads "
                                     "of block (0, 0, 0)"), std::string::npos) << h.state.failure();
}

TEST(BlockFibers, BlocksRunAgainAfterAFailedLaunch) {
    Harness bad(8, early_exit_body, nullptr);
    bad.run();
    EXPECT_TRUE(bad.state.failed());
    Trace trace;
    Harness good(33, barrier_body, &trace, 2);
    good.run();
    EXPECT_FALSE(good.state.failed()) << good.state.failure();
    EXPECT_EQ(trace.events.size(), 2u * 33 * 3);
}

}  // namespace
