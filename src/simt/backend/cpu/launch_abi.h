// The structures a cpu kernel entry point receives; must match codegen/prelude/cpu.h.
#pragma once
#include <cstdint>
#include "runtime/backend.h"

namespace simt::cpu_abi {

struct Dim3 { int32_t x, y, z; };

struct Runtime;

struct Launch {
    Dim3 grid;
    Dim3 block;
    int64_t dynamic_shared_bytes;
    BoundsErrorRecord* errors;
    const Runtime* runtime;  // services of libsimt (kernels are shared objects that do not link it)
    void* state;             // the launch's own state in libsimt (errors, printed text)
};

// One thread of a block as generated code sees it (simt_ctx).
struct Ctx {
    Dim3 tid, bid, bdim, gdim;
    const Launch* launch;
    char* shared;  // this block's shared memory
    void* fiber;   // the thread's fiber, when the kernel runs threads as fibers
};

// A kernel whose threads run as fibers (it uses barriers or warp operations).
struct FiberKernel {
    void (*body)(void* closure, Ctx* ctx);  // runs one thread
    void* closure;
    const char* name;
    const char* const* sites;  // "cuda.syncthreads() at file.py:12", indexed by site id
    int32_t site_count;
    int32_t flags;  // kFibersGridSync
    int64_t static_shared_bytes;
    int64_t local_bytes;  // bytes of cuda.local arrays, to size the fiber stacks
};

// Warp operations of Runtime::warp (same numbers in the cpu prelude).
enum WarpOp : int32_t {
    kWarpSync = 0, kShflIdx, kShflUp, kShflDown, kShflXor, kVoteAll, kVoteAny, kVoteUni, kVoteBallot,
    kMatchAny, kMatchAll, kActiveMask,
};
// Block barriers of Runtime::barrier.
enum BarrierOp : int32_t { kBarrierPlain = 0, kBarrierCount, kBarrierAnd, kBarrierOr };

struct Runtime {
    int32_t abi_version;
    int32_t reserved;
    // This OS thread's buffer for a block's shared memory: static bytes (16-aligned) + dynamic.
    char* (*shared_memory)(const Launch* launch, int64_t static_bytes);
    // Runs blocks [begin, end) with one fiber per thread.
    void (*run_fibers)(const Launch* launch, int64_t begin, int64_t end, const FiberKernel* kernel);
    int32_t (*barrier)(Ctx* ctx, int32_t site, int32_t op, int32_t predicate);
    uint64_t (*warp)(Ctx* ctx, int32_t site, int32_t op, uint32_t mask, uint64_t value, int64_t arg, uint32_t* aux);
    void (*print)(Ctx* ctx, const char* format, ...);
    // This OS thread's scratch memory (per-thread variables of region-mode kernels).
    char* (*scratch)(const Launch* launch, int64_t bytes);
    // A region-mode kernel found a barrier that not every thread reaches: line < 0 when `live`
    // threads reached barrier `site` and the others returned; else the threads disagreed on the
    // condition at `line` that decides whether they reach it.
    void (*region_error)(Ctx* ctx, const FiberKernel* kernel, int32_t site, int32_t line, int32_t live);
    // A grid barrier (cuda.cg): the kernel's blocks all run at once on one OS thread (kFibersGridSync).
    void (*grid_barrier)(Ctx* ctx, int32_t site);
};

// FiberKernel::flags: the kernel has grid barriers.
constexpr int32_t kFibersGridSync = 1;

constexpr int32_t kRuntimeAbiVersion = 2;

// extern "C" void kernel(const Launch*, void* const* args, int64_t block_begin, int64_t block_end)
using EntryPoint = void (*)(const Launch*, void* const*, int64_t, int64_t);

static_assert(sizeof(BoundsErrorRecord) == 144, "bounds record layout must match the preludes");
static_assert(sizeof(Launch) == 56 && sizeof(Ctx) == 72 && sizeof(FiberKernel) == 56, "must match codegen/prelude/cpu.h");

}  // namespace simt::cpu_abi
