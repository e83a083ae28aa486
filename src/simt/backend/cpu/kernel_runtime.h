// The services libsimt gives generated cpu kernels (shared memory, fibers, barriers, warp
// operations, print), reached through Launch::runtime, and each launch's state behind them.
#pragma once
#include <atomic>
#include <mutex>
#include <string>
#include "backend/cpu/launch_abi.h"

namespace simt::cpu {

// One launch as libsimt tracks it: the ABI block handed to the kernel, the first error a
// block reported, and the text the kernel printed (written to stdout when the launch ends).
class LaunchState {
public:
    LaunchState();
    LaunchState(const LaunchState&) = delete;
    LaunchState& operator=(const LaunchState&) = delete;

    static LaunchState* of(const cpu_abi::Launch* launch) { return static_cast<LaunchState*>(launch->state); }

    cpu_abi::Launch abi{};
    void fail(const std::string& message);  // the first failure wins
    bool failed() const { return failed_.load(std::memory_order_relaxed); }
    std::string failure();
    void print(const char* text, size_t length);
    void flush_printed();  // writes printed text to stdout

private:
    std::atomic<bool> failed_{false};
    std::mutex mutex_;
    std::string failure_;
    std::string printed_;
};

// The function table every cpu launch passes to its kernel.
const cpu_abi::Runtime* kernel_runtime();

}  // namespace simt::cpu
