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

void rt_run_fibers(const cpu_abi::Launch* launch, int64_t begin, int64_t end, const cpu_abi::FiberKernel* kernel) noexcept {
    LaunchState* state = LaunchState::of(launch);
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
        ->fail(std::string("a ") + what + " ran in a kernel whose threads simt runs one after another: it found none in the "
               "kernel's code or in the CUDA C++ files it reads (one in a header it cannot see?), so it cannot make the "
               "threads wait for each other");
}

int32_t rt_barrier(cpu_abi::Ctx* ctx, int32_t site, int32_t op, int32_t predicate) noexcept {
    Fiber* f = static_cast<Fiber*>(ctx->fiber);
    if (!f) {
        unseen_wait(ctx, "barrier (__syncthreads)");
        return 0;
    }
    return f->block->barrier(f, site, op, predicate);
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
};

}  // namespace

const cpu_abi::Runtime* kernel_runtime() { return &runtime_table; }

}  // namespace simt::cpu
