// The fiber context switch in assembly. Only callee-saved registers are saved: the switch is
// an ordinary function call to the compiler, so caller-saved registers are already spilled.
// The floating-point control registers (MXCSR, x87 CW, FPCR) are not switched: every fiber of
// a launch runs the same generated code, which never changes them.
#include "backend/cpu/fiber_context.h"
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)

// rdi = void** save_sp, rsi = void* next_sp
asm(R"(
    .text
    .globl simt_fiber_switch
    .hidden simt_fiber_switch
    .type simt_fiber_switch, @function
    .p2align 4
simt_fiber_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size simt_fiber_switch, .-simt_fiber_switch

    .globl simt_fiber_start
    .hidden simt_fiber_start
    .type simt_fiber_start, @function
    .p2align 4
simt_fiber_start:
    movq %r13, %rdi
    callq *%r12
    ud2
    .size simt_fiber_start, .-simt_fiber_start
)");

extern "C" void simt_fiber_start();

namespace simt::cpu {

void* fiber_make_context(void* stack_top, void (*entry)(void*), void* arg) {
    // Frame popped by simt_fiber_switch: r15 r14 r13 r12 rbx rbp, then the return address.
    // simt_fiber_start calls entry with rsp 16-byte aligned, as the ABI requires at a call.
    uintptr_t top = reinterpret_cast<uintptr_t>(stack_top) & ~uintptr_t(15);
    uint64_t* sp = reinterpret_cast<uint64_t*>(top - 72);
    sp[0] = 0;                                            // r15
    sp[1] = 0;                                            // r14
    sp[2] = reinterpret_cast<uint64_t>(arg);              // r13
    sp[3] = reinterpret_cast<uint64_t>(entry);            // r12
    sp[4] = 0;                                            // rbx
    sp[5] = 0;                                            // rbp: ends frame-pointer chains
    sp[6] = reinterpret_cast<uint64_t>(&simt_fiber_start);  // return address
    sp[7] = 0;
    return sp;
}

}  // namespace simt::cpu

#elif defined(__aarch64__)

// x0 = void** save_sp, x1 = void* next_sp. Saves x19-x30 and d8-d15 (AAPCS64 callee-saved).
asm(R"(
    .text
    .globl simt_fiber_switch
    .hidden simt_fiber_switch
    .type simt_fiber_switch, %function
    .p2align 4
simt_fiber_switch:
    sub sp, sp, #160
    stp x19, x20, [sp, #0]
    stp x21, x22, [sp, #16]
    stp x23, x24, [sp, #32]
    stp x25, x26, [sp, #48]
    stp x27, x28, [sp, #64]
    stp x29, x30, [sp, #80]
    stp d8, d9, [sp, #96]
    stp d10, d11, [sp, #112]
    stp d12, d13, [sp, #128]
    stp d14, d15, [sp, #144]
    mov x2, sp
    str x2, [x0]
    mov sp, x1
    ldp x19, x20, [sp, #0]
    ldp x21, x22, [sp, #16]
    ldp x23, x24, [sp, #32]
    ldp x25, x26, [sp, #48]
    ldp x27, x28, [sp, #64]
    ldp x29, x30, [sp, #80]
    ldp d8, d9, [sp, #96]
    ldp d10, d11, [sp, #112]
    ldp d12, d13, [sp, #128]
    ldp d14, d15, [sp, #144]
    add sp, sp, #160
    ret
    .size simt_fiber_switch, .-simt_fiber_switch

    .globl simt_fiber_start
    .hidden simt_fiber_start
    .type simt_fiber_start, %function
    .p2align 4
simt_fiber_start:
    mov x0, x20
    blr x19
    brk #0
    .size simt_fiber_start, .-simt_fiber_start
)");

extern "C" void simt_fiber_start();

namespace simt::cpu {

void* fiber_make_context(void* stack_top, void (*entry)(void*), void* arg) {
    // Frame restored by simt_fiber_switch: x19..x30 then d8..d15; x30 (the return address)
    // is simt_fiber_start, which calls entry(arg) from x19/x20 with sp 16-byte aligned.
    uintptr_t top = reinterpret_cast<uintptr_t>(stack_top) & ~uintptr_t(15);
    uint64_t* sp = reinterpret_cast<uint64_t*>(top - 160);
    std::memset(sp, 0, 160);
    sp[0] = reinterpret_cast<uint64_t>(entry);              // x19
    sp[1] = reinterpret_cast<uint64_t>(arg);                // x20
    sp[10] = 0;                                             // x29: ends frame-pointer chains
    sp[11] = reinterpret_cast<uint64_t>(&simt_fiber_start);  // x30
    return sp;
}

}  // namespace simt::cpu

#else
#error "simt's cpu backend has fiber context switches for x86-64 and aarch64 only"
#endif
