// Runs the threads of one block as fibers on the calling OS thread, with CUDA's block barriers
// and warp rendezvous (shuffles, votes, matches, syncwarp), and explains a block that can never
// finish (a barrier some threads skipped, a warp mask naming lanes that never come).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include "backend/cpu/fiber_context.h"
#include "backend/cpu/fiber_stacks.h"
#include "backend/cpu/launch_abi.h"

namespace simt::cpu {

class BlockFibers;

// Texts shared by the fiber and region runtimes: a site of the kernel's table, a block index,
// and the report for a barrier that only `reached` of the block's `n` threads arrive at.
std::string sync_site_text(const cpu_abi::FiberKernel* kernel, int32_t site);
std::string block_index_text(const cpu_abi::Dim3& block);
std::string partial_barrier_message(const cpu_abi::FiberKernel* kernel, int32_t site, int32_t reached, int32_t n,
                                    const cpu_abi::Dim3& block);

enum class FiberState : uint8_t {
    NotStarted,
    Ready,      // suspended and free to continue
    Running,
    AtBarrier,  // waiting for barrier generation `wait_generation` to complete
    AtWarp,     // waiting in a warp rendezvous
    AtGridBarrier,  // waiting for the rest of the grid (cuda.cg); resumed by resume_after_grid_barrier
    Done,
};

struct Fiber {
    void* sp = nullptr;  // saved stack pointer while suspended
    cpu_abi::Ctx ctx{};  // ctx.fiber points back here
    BlockFibers* block = nullptr;
    int32_t index = 0;   // linear thread index in the block (x fastest)
    FiberState state = FiberState::NotStarted;
    int32_t site = -1;   // barrier or warp-operation site while waiting
    uint64_t wait_generation = 0;
    uint64_t result = 0;  // warp operation result, written when the rendezvous completes
    uint32_t aux = 0;
};

// The lanes of one warp that meet in the same warp operation with the same mask.
struct WarpGroup {
    uint32_t mask = 0, arrived = 0;
    int32_t op = 0, site = -1;
    uint64_t value[32] = {};
    int64_t arg[32] = {};
    WarpGroup* next = nullptr;
};

struct WarpState {
    uint32_t exists = 0;  // lanes present in the block (the last warp may be partial)
    uint32_t exited = 0;  // lanes whose thread returned
    WarpGroup* open = nullptr;
    int32_t open_activemask = 0;  // open activemask groups (they settle when the other lanes block)
};

// Hidden: calls between these functions stay direct (no PLT) inside the Python module.
class __attribute__((visibility("hidden"))) BlockFibers {
public:
    BlockFibers() = default;
    BlockFibers(const BlockFibers&) = delete;
    BlockFibers& operator=(const BlockFibers&) = delete;

    // Prepares to run blocks of `launch` (one fiber and stack per thread); `shared` is the
    // block's shared memory. Raises Error(OutOfMemory) if stacks cannot be mapped.
    void configure(const cpu_abi::Launch* launch, const cpu_abi::FiberKernel* kernel, char* shared);
    // Runs block `index` of the grid; false (and error()) when it cannot finish.
    bool run(int64_t index) { return start(index) == Status::Finished; }
    // Kernels with grid barriers (cuda.cg) run every block of the grid at once: a block runs until
    // it finishes, fails (error()), or every one of its threads waits at a grid barrier; then
    // the caller runs the other blocks and resumes this one past the barrier.
    enum class Status { Finished, AtGridBarrier, Failed };
    Status start(int64_t index);
    Status resume_after_grid_barrier();
    const std::string& error() const { return error_; }
    const FiberStacks& stacks() const { return stacks_; }
    const cpu_abi::FiberKernel* kernel() const { return kernel_; }

    // Services for the fibers (called on fiber stacks, never throw).
    int32_t barrier(Fiber* f, int32_t site, int32_t op, int32_t predicate);
    void grid_barrier(Fiber* f, int32_t site);
    uint64_t warp(Fiber* f, int32_t site, int32_t op, uint32_t mask, uint64_t value, int64_t arg, uint32_t* aux);
    // Stops the block with an error; does not return to the fiber.
    [[noreturn]] void abort(Fiber* f, const std::string& message);

private:
    static void fiber_main(void* fiber);
    [[noreturn]] void finish(Fiber* f);
    bool runnable(const Fiber& f) const {
        return f.state == FiberState::NotStarted || f.state == FiberState::Ready ||
               (f.state == FiberState::AtBarrier && f.wait_generation != generation_);
    }
    // The first runnable fiber after `after` in thread order (wrapping), or null.
    Fiber* next_runnable(int32_t after) {
        int32_t j = after + 1 < n_ ? after + 1 : 0;  // usually the very next thread
        if (runnable(fibers_[size_t(j)])) return &fibers_[size_t(j)];
        return scan_runnable(j);
    }
    Fiber* scan_runnable(int32_t from);
    void resume(Fiber* from, Fiber* to) {
        if (to->state == FiberState::NotStarted) start(to);
        to->state = FiberState::Running;
        simt_fiber_switch(&from->sp, to->sp);
    }
    // Suspends `f` (already marked as waiting) in favour of the next runnable fiber; when none
    // can run, the scheduler gets control back and explains why.
    void yield(Fiber* f) {
        if (Fiber* next = next_runnable(f->index)) resume(f, next);
        else simt_fiber_switch(&f->sp, scheduler_sp_);
    }
    void start(Fiber* f);
    Status settle();  // on the scheduler's stack again: how the block stands
    void complete(WarpGroup* g, WarpState& w, int32_t warp_index, Fiber* self);
    // activemask: the lanes that reach it together. Its group completes once every other lane
    // of the warp has returned or waits somewhere else (the lanes CUDA would find inactive).
    void settle_activemask(int32_t warp_index, Fiber* self);
    WarpGroup* new_group();
    void release_groups();
    std::string site_text(int32_t site) const;
    std::string block_text() const;
    std::string explain_stall() const;

    const cpu_abi::Launch* launch_ = nullptr;
    const cpu_abi::FiberKernel* kernel_ = nullptr;
    FiberStacks stacks_;
    std::vector<Fiber> fibers_;
    std::vector<WarpState> warps_;
    std::vector<std::unique_ptr<WarpGroup>> groups_;
    WarpGroup* free_groups_ = nullptr;
    int32_t n_ = 0;
    int32_t live_ = 0;
    int32_t at_grid_barrier_ = 0;
    int32_t arrived_ = 0, count_true_ = 0;
    int32_t barrier_counts_[2] = {0, 0};
    uint64_t generation_ = 0;
    void* scheduler_sp_ = nullptr;
    bool aborted_ = false;
    cpu_abi::Dim3 block_index_{};
    std::string error_;
};

}  // namespace simt::cpu
