// Runtime services for generated cpu kernels. Every entry point is noexcept: kernels are
// compiled without exceptions, so failures are recorded in the launch and raised by the host
// at the next synchronize.
#include "backend/cpu/kernel_runtime.h"
#include <csetjmp>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include "backend/cpu/block_fibers.h"
#include "support/error.h"

namespace simt::cpu {

LaunchState::LaunchState() {
    abi.runtime = kernel_runtime();
    abi.state = this;
}

void LaunchState::fail(const std::string& message) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (failed_.load(std::memory_order_relaxed)) return;
    failure_ = message;
    failed_.store(true, std::memory_order_relaxed);
}

std::string LaunchState::failure() {
    std::lock_guard<std::mutex> lock(mutex_);
    return failure_;
}

void LaunchState::print(const char* text, size_t length) {
    std::lock_guard<std::mutex> lock(mutex_);
    printed_.append(text, length);
    if (printed_.size() >= (size_t(1) << 20)) {  // do not hold unbounded output
        std::fwrite(printed_.data(), 1, printed_.size(), stdout);
        std::fflush(stdout);
        printed_.clear();
    }
}

void LaunchState::flush_printed() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (printed_.empty()) return;
    std::fwrite(printed_.data(), 1, printed_.size(), stdout);
    std::fflush(stdout);
    printed_.clear();
}

namespace {

// What each OS thread of the pool keeps between launches.
// A buffer that only grows.
struct Buffer {
    char* data = nullptr;
    size_t size = 0;
    ~Buffer() { std::free(data); }
    char* get(size_t bytes) {
        if (bytes > size) {
            std::free(data);
            size = (bytes + 4095) / 4096 * 4096;
            data = static_cast<char*>(std::aligned_alloc(64, size));
            if (!data) size = 0;
        }
        return data;
    }
};

struct Worker {
    BlockFibers block;
    Buffer shared, scratch;
    char* shared_memory(size_t bytes) { return shared.get(bytes); }
};

Worker& worker() {
    thread_local Worker w;
    return w;
}

int64_t round16(int64_t n) { return (n + 15) / 16 * 16; }

char* rt_shared_memory(const cpu_abi::Launch* launch, int64_t static_bytes) noexcept {
    return worker().shared_memory(size_t(round16(static_bytes) + launch->dynamic_shared_bytes));
}

// A kernel with grid barriers (cuda.cg): every block of the grid at once, on this OS thread,
// each with its own fibers and shared memory. Each round runs every block until its threads all
// wait at the grid barrier (or it finishes), then the next round resumes them all past it.
void run_grid(LaunchState* state, const cpu_abi::Launch* launch, int64_t blocks, const cpu_abi::FiberKernel* kernel) {
    using Status = BlockFibers::Status;
    std::vector<std::unique_ptr<BlockFibers>> grid;
    std::vector<std::unique_ptr<char, decltype(&std::free)>> shared;
    const size_t shared_bytes = size_t(round16(kernel->static_shared_bytes) + launch->dynamic_shared_bytes);
    try {
        for (int64_t b = 0; b < blocks; ++b) {
            shared.emplace_back(shared_bytes ? static_cast<char*>(std::aligned_alloc(64, round16(int64_t(shared_bytes)))) : nullptr,
                                &std::free);
            if (shared_bytes && !shared.back()) throw Error(ErrorKind::OutOfMemory, "out of memory: shared memory of a block");
            grid.push_back(std::make_unique<BlockFibers>());
            grid.back()->configure(launch, kernel, shared.back().get());
        }
    } catch (const std::exception& e) {
        state->fail(e.what());
        return;
    }
    std::vector<Status> status(size_t(blocks), Status::AtGridBarrier);  // (before sigsetjmp: a longjmp skips no destructor)
    OverflowCatcher& catcher = OverflowCatcher::current();
    volatile int64_t running = 0;  // (read after a longjmp)
    if (sigsetjmp(catcher.jump, 1)) {
        catcher.disarm();
        state->fail(format("kernel '%s': a thread overflowed its fiber stack (%zu KiB). Kernels that use barriers or warp "
                           "operations run each thread on its own stack; use smaller cuda.local arrays",
                           kernel->name, grid[size_t(running)]->stacks().usable_bytes() >> 10));
        return;
    }
    for (bool first = true;; first = false) {
        for (int64_t b = 0; b < blocks; ++b) {
            running = b;
            catcher.arm(&grid[size_t(b)]->stacks());
            status[size_t(b)] = first ? grid[size_t(b)]->start(b) : grid[size_t(b)]->resume_after_grid_barrier();
            catcher.disarm();
            if (status[size_t(b)] == Status::Failed) {
                state->fail(grid[size_t(b)]->error());
                return;
            }
        }
        int64_t finished = std::count(status.begin(), status.end(), Status::Finished);
        if (finished == blocks) return;
        if (finished > 0) {  // some blocks returned while the others wait at a grid barrier
            int64_t waiting = blocks - finished;
            state->fail(format("kernel '%s': %lld of the grid's %lld blocks wait at a grid barrier (cuda.cg's "
                               "this_grid().sync()) that the other %lld returned without reaching; every thread of the "
                               "grid must reach it (CUDA leaves this undefined: on a GPU the waiting blocks hang)",
                               kernel->name, (long long)waiting, (long long)blocks, (long long)finished));
            return;
        }
    }
}

void rt_run_fibers(const cpu_abi::Launch* launch, int64_t begin, int64_t end, const cpu_abi::FiberKernel* kernel) noexcept {
    LaunchState* state = LaunchState::of(launch);
    if (kernel->flags & cpu_abi::kFibersGridSync) {  // (the backend passes the whole grid at once)
        try {
            run_grid(state, launch, end - begin, kernel);
        } catch (const std::exception& e) {
            state->fail(e.what());
        }
        return;
    }
    Worker& w = worker();
    BlockFibers& block = w.block;
    try {
        char* shared = w.shared_memory(size_t(round16(kernel->static_shared_bytes) + launch->dynamic_shared_bytes));
        block.configure(launch, kernel, shared);
    } catch (const std::exception& e) {
        state->fail(e.what());
        return;
    }
    OverflowCatcher& catcher = OverflowCatcher::current();
    if (sigsetjmp(catcher.jump, 1)) {
        catcher.disarm();
        state->fail(format("kernel '%s': a thread overflowed its fiber stack (%zu KiB). Kernels that use barriers or warp "
                           "operations run each thread on its own stack; use smaller cuda.local arrays",
                           kernel->name, block.stacks().usable_bytes() >> 10));
        return;
    }
    catcher.arm(&block.stacks());
    for (int64_t b = begin; b < end && !state->failed(); ++b) {
        if (!block.run(b)) {
            state->fail(block.error());
            break;
        }
    }
    catcher.disarm();
}

// A barrier or warp function called where the block's threads run one after another, not as
// fibers: code simt did not see when it chose how to run the kernel (CUDA C++ reached through a
// header it could not read). The launch fails, naming what happened, instead of crashing.
void unseen_wait(cpu_abi::Ctx* ctx, const char* what) {
    LaunchState::of(ctx->launch)
        ->fail(std::string("a ") + what + " ran where simt runs a block's threads one after another: it did not see this "
               "call in the kernel's code or in the CUDA C++ files it reads (is it in a header simt cannot see?), so it "
               "cannot make the threads wait for each other");
}

int32_t rt_barrier(cpu_abi::Ctx* ctx, int32_t site, int32_t op, int32_t predicate) noexcept {
    Fiber* f = static_cast<Fiber*>(ctx->fiber);
    if (!f) {
        unseen_wait(ctx, "barrier (__syncthreads)");
        return 0;
    }
    return f->block->barrier(f, site, op, predicate);
}

void rt_grid_barrier(cpu_abi::Ctx* ctx, int32_t site) noexcept {
    Fiber* f = static_cast<Fiber*>(ctx->fiber);
    if (!f) {
        unseen_wait(ctx, "grid barrier");
        return;
    }
    f->block->grid_barrier(f, site);
}

uint64_t rt_warp(cpu_abi::Ctx* ctx, int32_t site, int32_t op, uint32_t mask, uint64_t value, int64_t arg,
                 uint32_t* aux) noexcept {
    Fiber* f = static_cast<Fiber*>(ctx->fiber);
    if (!f) {
        unseen_wait(ctx, "warp function");
        return value;
    }
    return f->block->warp(f, site, op, mask, value, arg, aux);
}

void rt_print(cpu_abi::Ctx* ctx, const char* fmt, ...) noexcept {
    if (Fiber* f = static_cast<Fiber*>(ctx->fiber)) {
        // Formatting needs stack; a fiber close to its guard region stops with a clear error.
        const char* here = static_cast<const char*>(__builtin_frame_address(0));
        if (here - f->block->stacks().bottom(f->index) < (16 << 10))
            f->block->abort(f, "a thread ran out of fiber stack while printing; use smaller cuda.local arrays");
    }
    char small[256];
    va_list args, again;
    va_start(args, fmt);
    va_copy(again, args);
    int n = std::vsnprintf(small, sizeof small, fmt, args);
    va_end(args);
    LaunchState* state = LaunchState::of(ctx->launch);
    if (n >= 0 && size_t(n) < sizeof small) {
        state->print(small, size_t(n));
    } else if (n > 0) {
        std::unique_ptr<char[]> big(new (std::nothrow) char[size_t(n) + 1]);
        if (big) {
            std::vsnprintf(big.get(), size_t(n) + 1, fmt, again);
            state->print(big.get(), size_t(n));
        }
    }
    va_end(again);
}

char* rt_scratch(const cpu_abi::Launch* launch, int64_t bytes) noexcept {
    char* p = worker().scratch.get(size_t(bytes));
    if (!p) LaunchState::of(launch)->fail(format("out of memory: %lld bytes of per-thread state", (long long)bytes));
    return p;
}

void rt_region_error(cpu_abi::Ctx* ctx, const cpu_abi::FiberKernel* kernel, int32_t site, int32_t line, int32_t live) noexcept {
    const cpu_abi::Dim3 b = ctx->launch->block;
    const int32_t n = b.x * b.y * b.z;
    std::string message =
        line < 0 ? partial_barrier_message(kernel, site, live, n, ctx->bid)
                 : "kernel '" + std::string(kernel->name) + "': the threads of block " + block_index_text(ctx->bid) +
                       " disagree on the condition at line " + std::to_string(line) + ", which decides whether they reach " +
                       sync_site_text(kernel, site) + ". Every thread of a block must reach each barrier (CUDA leaves this "
                       "undefined)";
    LaunchState::of(ctx->launch)->fail(message);
}

const cpu_abi::Runtime runtime_table = {
    cpu_abi::kRuntimeAbiVersion, 0, rt_shared_memory, rt_run_fibers, rt_barrier, rt_warp, rt_print, rt_scratch, rt_region_error,
    rt_grid_barrier,
};

}  // namespace

const cpu_abi::Runtime* kernel_runtime() { return &runtime_table; }

}  // namespace simt::cpu
