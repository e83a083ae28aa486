// User-level context switch for the cpu backend's fibers (x86-64 and aarch64): saves the
// callee-saved registers on the current stack and resumes another stack. No system calls.
#pragma once

namespace simt::cpu {

extern "C" {
// Saves the current context, stores its stack pointer in *save_sp and resumes `next_sp`
// (a stack pointer saved by an earlier switch or made by fiber_make_context).
void simt_fiber_switch(void** save_sp, void* next_sp);
}

// Prepares a fresh stack whose highest usable address is `stack_top` so that switching to
// the returned stack pointer calls entry(arg). `entry` must never return.
void* fiber_make_context(void* stack_top, void (*entry)(void*), void* arg);

}  // namespace simt::cpu
