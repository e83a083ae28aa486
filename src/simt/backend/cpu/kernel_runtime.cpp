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
struct Worker {
    BlockFibers block;
    char* shared = nullptr;
    size_t shared_size = 0;
    ~Worker() { std::free(shared); }

    char* shared_memory(size_t bytes) {
        if (bytes > shared_size) {
            std::free(shared);
            shared_size = (bytes + 4095) / 4096 * 4096;
            shared = static_cast<char*>(std::aligned_alloc(64, shared_size));
            if (!shared) shared_size = 0;
        }
        return shared;
    }
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

int32_t rt_barrier(cpu_abi::Ctx* ctx, int32_t site, int32_t op, int32_t predicate) noexcept {
    Fiber* f = static_cast<Fiber*>(ctx->fiber);
    return f->block->barrier(f, site, op, predicate);
}

uint64_t rt_warp(cpu_abi::Ctx* ctx, int32_t site, int32_t op, uint32_t mask, uint64_t value, int64_t arg,
                 uint32_t* aux) noexcept {
    Fiber* f = static_cast<Fiber*>(ctx->fiber);
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

const cpu_abi::Runtime runtime_table = {
    cpu_abi::kRuntimeAbiVersion, 0, rt_shared_memory, rt_run_fibers, rt_barrier, rt_warp, rt_print,
};

}  // namespace

const cpu_abi::Runtime* kernel_runtime() { return &runtime_table; }

}  // namespace simt::cpu
