// Fiber stack pool (mmap with PROT_NONE guard regions below each stack) and the SIGSEGV
// handler that turns a guard-region fault into a jump back to the fiber scheduler.
#include "backend/cpu/fiber_stacks.h"
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include "support/error.h"
#include "support/fast_tls.h"

namespace simt::cpu {

namespace {

size_t page_size() {
    static const size_t size = size_t(::sysconf(_SC_PAGESIZE));
    return size;
}

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

// Large enough that a frame of a generated function cannot step over it unprobed (kernels are
// also compiled with -fstack-clash-protection); only address space, never memory.
constexpr size_t kGuardBytes = size_t(64) << 10;
// Top-of-stack staggering: 64 cache lines cover every set of a 4 KiB-per-way L1.
constexpr size_t kColourStride = 64, kColours = 64;

}  // namespace

FiberStacks::~FiberStacks() {
    if (base_) ::munmap(base_, mapped_);
}

void FiberStacks::reserve(int count, size_t usable_bytes) {
    const size_t page = page_size();
    size_t usable = round_up(usable_bytes + kColourStride * kColours, page);
    if (base_ && count <= count_ && usable <= usable_) return;
    if (base_) ::munmap(base_, mapped_);
    base_ = nullptr;
    count_ = 0;
    guard_ = round_up(kGuardBytes, page);
    slot_ = guard_ + usable;
    mapped_ = slot_ * size_t(count);
    void* p = ::mmap(nullptr, mapped_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        raise(ErrorKind::OutOfMemory, "cannot map %d fiber stacks of %zu KiB for the cpu backend", count, usable >> 10);
    base_ = static_cast<char*>(p);
    for (int i = 0; i < count; ++i) {
        if (::mprotect(base_ + size_t(i) * slot_ + guard_, usable, PROT_READ | PROT_WRITE) != 0) {
            ::munmap(base_, mapped_);
            base_ = nullptr;
            // (each stack between guard pages is a mapping of its own: the count may be what ran out)
            raise(ErrorKind::OutOfMemory, "cannot map %d fiber stacks of %zu KiB for the cpu backend (out of memory, or "
                  "of the process's memory mappings: vm.max_map_count)", count, usable >> 10);
        }
    }
    usable_ = usable;
    count_ = count;
}

char* FiberStacks::bottom(int i) const { return base_ + size_t(i) * slot_ + guard_; }

char* FiberStacks::top(int i) const {
    return base_ + size_t(i + 1) * slot_ - (size_t(i) % kColours) * kColourStride;
}

bool FiberStacks::in_guard(const void* address) const {
    uintptr_t a = reinterpret_cast<uintptr_t>(address), b = reinterpret_cast<uintptr_t>(base_);
    if (!base_ || a < b || a >= b + mapped_) return false;
    return (a - b) % slot_ < guard_;
}

namespace {

struct sigaction previous_segv_action;
SIMT_FAST_TLS OverflowCatcher* tls_catcher = nullptr;  // (also: a signal handler may not call __tls_get_addr)

void on_segv(int sig, siginfo_t* info, void* context) {
    OverflowCatcher* c = tls_catcher;
    if (c && c->armed && c->stacks && c->stacks->in_guard(info->si_addr)) {
        c->armed = false;
        siglongjmp(c->jump, 1);
    }
    // Not a fiber stack overflow: behave as if this handler were not there.
    const struct sigaction& prev = previous_segv_action;
    if (prev.sa_flags & SA_SIGINFO) {
        if (prev.sa_sigaction) prev.sa_sigaction(sig, info, context);
        return;
    }
    if (prev.sa_handler == SIG_DFL || prev.sa_handler == SIG_IGN) {
        struct sigaction dfl = {};
        dfl.sa_handler = SIG_DFL;
        ::sigaction(sig, &dfl, nullptr);  // returning re-runs the faulting access: default action
        return;
    }
    prev.sa_handler(sig);
}

void install_handler_once() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction action = {};
        action.sa_sigaction = on_segv;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGSEGV, &action, &previous_segv_action);
    });
}

// This thread's alternate signal stack: the handler cannot run on the overflowed fiber stack.
struct AlternateStack {
    void* memory = nullptr;
    size_t size = 0;
    AlternateStack() {
        stack_t current;
        if (::sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return;  // one exists
        size = size_t(64) << 10;
        memory = std::malloc(size);
        if (!memory) return;
        stack_t s = {};
        s.ss_sp = memory;
        s.ss_size = size;
        if (::sigaltstack(&s, nullptr) != 0) { std::free(memory); memory = nullptr; }
    }
    ~AlternateStack() {
        if (!memory) return;
        stack_t s = {};
        s.ss_flags = SS_DISABLE;
        ::sigaltstack(&s, nullptr);
        std::free(memory);
    }
};

}  // namespace

OverflowCatcher& OverflowCatcher::current() {
    thread_local OverflowCatcher catcher;
    thread_local AlternateStack alternate_stack;
    (void)alternate_stack;
    install_handler_once();
    tls_catcher = &catcher;
    return catcher;
}

}  // namespace simt::cpu
