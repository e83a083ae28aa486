// Pooled fiber stacks with guard regions, and the stack-overflow catcher: a fault in a guard
// region while fibers run becomes an error on the host instead of silent memory corruption.
#pragma once
#include <csetjmp>
#include <cstddef>

namespace simt::cpu {

class FiberStacks {
public:
    FiberStacks() = default;
    FiberStacks(const FiberStacks&) = delete;
    FiberStacks& operator=(const FiberStacks&) = delete;
    ~FiberStacks();

    // Makes at least `count` stacks of at least `usable_bytes` each available (reuses the pool
    // when it is big enough). Raises Error(OutOfMemory) when the mapping fails.
    void reserve(int count, size_t usable_bytes);
    // Highest usable address of stack i, staggered per stack so that the hot top-of-stack
    // lines of neighbouring fibers do not all fall into the same cache sets.
    char* top(int i) const;
    char* bottom(int i) const;  // lowest usable address of stack i
    bool in_guard(const void* address) const;
    size_t usable_bytes() const { return usable_; }

private:
    char* base_ = nullptr;
    size_t mapped_ = 0, slot_ = 0, guard_ = 0, usable_ = 0;
    int count_ = 0;
};

// The overflow catcher of the calling OS thread. Usage:
//   OverflowCatcher& c = OverflowCatcher::current();
//   if (sigsetjmp(c.jump, 1)) { /* a fiber overflowed its stack */ }
//   c.arm(&stacks); ... run fibers ...; c.disarm();
struct OverflowCatcher {
    sigjmp_buf jump;
    const FiberStacks* stacks = nullptr;
    volatile bool armed = false;

    // Installs the process-wide SIGSEGV handler and this thread's alternate signal stack once.
    static OverflowCatcher& current();
    void arm(const FiberStacks* s) { stacks = s; armed = true; }
    void disarm() { armed = false; }
};

}  // namespace simt::cpu
