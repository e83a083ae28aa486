// The fiber scheduler of one block. Fibers run in thread-index order and switch directly to the
// next runnable fiber when they block, so a barrier costs one switch per thread and the last
// thread to arrive continues without switching.
#include "backend/cpu/block_fibers.h"
#include <map>
#include "support/error.h"

namespace simt::cpu {

namespace {

// Room for the runtime's own calls (printing, the scheduler) on top of the kernel's frames.
constexpr size_t kFiberStackBytes = size_t(64) << 10;

int32_t barrier_result(int32_t op, int32_t count, int32_t n) {
    switch (op) {
        case cpu_abi::kBarrierCount: return count;
        case cpu_abi::kBarrierAnd: return count == n ? 1 : 0;
        case cpu_abi::kBarrierOr: return count > 0 ? 1 : 0;
        default: return 0;
    }
}

std::string lane_list(uint32_t lanes) {
    std::string out;
    for (int l = 0; l < 32;) {
        if (!(lanes >> l & 1)) { ++l; continue; }
        int end = l;
        while (end + 1 < 32 && (lanes >> (end + 1) & 1)) ++end;
        out += (out.empty() ? "" : ", ") + std::to_string(l) + (end > l ? "-" + std::to_string(end) : "");
        l = end + 1;
    }
    return out;
}

}  // namespace

std::string sync_site_text(const cpu_abi::FiberKernel* kernel, int32_t site) {
    if (kernel->sites && site >= 0 && site < kernel->site_count) return kernel->sites[site];
    return "a barrier";
}

std::string block_index_text(const cpu_abi::Dim3& b) {
    return "(" + std::to_string(b.x) + ", " + std::to_string(b.y) + ", " + std::to_string(b.z) + ")";
}

std::string partial_barrier_message(const cpu_abi::FiberKernel* kernel, int32_t site, int32_t reached, int32_t n,
                                    const cpu_abi::Dim3& block) {
    return "kernel '" + std::string(kernel->name) + "': " + sync_site_text(kernel, site) + " was reached by only " +
           std::to_string(reached) + " of the " + std::to_string(n) + " threads of block " + block_index_text(block) +
           "; the other " + std::to_string(n - reached) + " returned without reaching it. Every thread of a block must "
           "reach each barrier (CUDA leaves a barrier that only part of a block reaches undefined)";
}

void BlockFibers::configure(const cpu_abi::Launch* launch, const cpu_abi::FiberKernel* kernel, char* shared) {
    launch_ = launch;
    kernel_ = kernel;
    const cpu_abi::Dim3 b = launch->block;
    n_ = b.x * b.y * b.z;
    stacks_.reserve(n_, kFiberStackBytes + size_t(kernel->local_bytes > 0 ? kernel->local_bytes : 0));
    fibers_.resize(size_t(n_));
    for (int32_t i = 0; i < n_; ++i) {
        Fiber& f = fibers_[size_t(i)];
        f.block = this;
        f.index = i;
        f.ctx.tid = {i % b.x, (i / b.x) % b.y, i / (b.x * b.y)};
        f.ctx.bdim = b;
        f.ctx.gdim = launch->grid;
        f.ctx.launch = launch;
        f.ctx.shared = shared;
        f.ctx.fiber = &f;
    }
    release_groups();
    warps_.assign(size_t((n_ + 31) / 32), WarpState{});
    for (size_t w = 0; w < warps_.size(); ++w) {
        int32_t lanes = n_ - int32_t(w) * 32;
        warps_[w].exists = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u;
    }
}

BlockFibers::Status BlockFibers::start(int64_t index) {
    const int64_t gx = launch_->grid.x, gy = launch_->grid.y;
    block_index_ = {int32_t(index % gx), int32_t((index / gx) % gy), int32_t(index / (gx * gy))};
    for (Fiber& f : fibers_) {
        f.state = FiberState::NotStarted;
        f.site = -1;
        f.ctx.bid = block_index_;
    }
    release_groups();
    for (WarpState& w : warps_) w.exited = 0;
    live_ = n_;
    at_grid_barrier_ = 0;
    arrived_ = count_true_ = 0;
    aborted_ = false;
    error_.clear();
    Fiber& first = fibers_[0];
    start(&first);
    first.state = FiberState::Running;
    simt_fiber_switch(&scheduler_sp_, first.sp);
    return settle();
}

BlockFibers::Status BlockFibers::settle() {
    // Back on the scheduler's stack: every fiber finished, or none can continue.
    if (aborted_) return Status::Failed;
    if (live_ == 0) return Status::Finished;
    if (at_grid_barrier_ == live_) {
        if (live_ == n_) return Status::AtGridBarrier;
        int32_t site = -1;  // (some threads returned instead: CUDA leaves that undefined)
        for (const Fiber& f : fibers_) site = f.state == FiberState::AtGridBarrier ? f.site : site;
        error_ = partial_barrier_message(kernel_, site, live_, n_, block_index_);
        return Status::Failed;
    }
    error_ = explain_stall();
    return Status::Failed;
}

BlockFibers::Status BlockFibers::resume_after_grid_barrier() {
    Fiber* first = nullptr;
    for (Fiber& f : fibers_)
        if (f.state == FiberState::AtGridBarrier) {
            f.state = FiberState::Ready;
            if (!first) first = &f;
        }
    at_grid_barrier_ = 0;
    if (!first) return settle();
    first->state = FiberState::Running;
    simt_fiber_switch(&scheduler_sp_, first->sp);
    return settle();
}

void BlockFibers::grid_barrier(Fiber* f, int32_t site) {
    f->state = FiberState::AtGridBarrier;
    f->site = site;
    ++at_grid_barrier_;
    if (warps_[size_t(f->index >> 5)].open_activemask) settle_activemask(f->index >> 5, f);
    yield(f);  // (the block's last thread to arrive returns to the scheduler)
}

void BlockFibers::fiber_main(void* arg) {
    Fiber* f = static_cast<Fiber*>(arg);
    BlockFibers* b = f->block;
    b->kernel_->body(b->kernel_->closure, &f->ctx);
    b->finish(f);
}

void BlockFibers::finish(Fiber* f) {
    f->state = FiberState::Done;
    --live_;
    WarpState& w = warps_[size_t(f->index >> 5)];
    w.exited |= 1u << (f->index & 31);
    if (w.open_activemask) settle_activemask(f->index >> 5, f);
    if (Fiber* next = next_runnable(f->index)) resume(f, next);
    else simt_fiber_switch(&f->sp, scheduler_sp_);
    __builtin_trap();  // a finished fiber is never resumed
}

Fiber* BlockFibers::scan_runnable(int32_t from) {
    for (int32_t k = 1; k < n_; ++k) {
        int32_t j = from + k;
        if (j >= n_) j -= n_;
        if (runnable(fibers_[size_t(j)])) return &fibers_[size_t(j)];
    }
    return nullptr;
}

void BlockFibers::start(Fiber* f) { f->sp = fiber_make_context(stacks_.top(f->index), &BlockFibers::fiber_main, f); }

void BlockFibers::abort(Fiber* f, const std::string& message) {
    aborted_ = true;
    error_ = "kernel '" + std::string(kernel_->name) + "': " + message;
    simt_fiber_switch(&f->sp, scheduler_sp_);
    __builtin_trap();
}

int32_t BlockFibers::barrier(Fiber* f, int32_t site, int32_t op, int32_t predicate) {
    if (predicate) ++count_true_;
    if (++arrived_ == n_) {
        int32_t count = count_true_;
        barrier_counts_[generation_ & 1] = count;
        ++generation_;
        arrived_ = count_true_ = 0;
        return barrier_result(op, count, n_);
    }
    f->state = FiberState::AtBarrier;
    f->site = site;
    f->wait_generation = generation_;
    if (warps_[size_t(f->index >> 5)].open_activemask) settle_activemask(f->index >> 5, f);
    yield(f);
    // A fiber can be at most one barrier behind the others, so two result slots suffice.
    return barrier_result(op, barrier_counts_[f->wait_generation & 1], n_);
}

WarpGroup* BlockFibers::new_group() {
    if (!free_groups_) {
        groups_.push_back(std::make_unique<WarpGroup>());
        free_groups_ = groups_.back().get();
        free_groups_->next = nullptr;
    }
    WarpGroup* g = free_groups_;
    free_groups_ = g->next;
    g->mask = g->arrived = 0;
    g->next = nullptr;
    return g;
}

void BlockFibers::release_groups() {
    for (WarpState& w : warps_) {
        while (WarpGroup* g = w.open) {
            w.open = g->next;
            g->next = free_groups_;
            free_groups_ = g;
        }
        w.open_activemask = 0;
    }
}

uint64_t BlockFibers::warp(Fiber* f, int32_t site, int32_t op, uint32_t mask, uint64_t value, int64_t arg, uint32_t* aux) {
    const int32_t lane = f->index & 31, warp_index = f->index >> 5;
    const uint32_t bit = 1u << lane;
    WarpState& w = warps_[size_t(warp_index)];
    if (op == cpu_abi::kActiveMask) mask = w.exists;  // a soft rendezvous keyed by site (settle_activemask)
    if (!(mask & bit))
        abort(f, site_text(site) + ": the mask " + format("0x%08x", mask) + " does not include the calling thread (lane " +
                     std::to_string(lane) + " of warp " + std::to_string(warp_index) + " in block " + block_text() +
                     "); CUDA requires every calling lane to be in the mask");
    const uint32_t m = mask & w.exists;  // lanes past the end of the block do not exist
    if ((m & w.exited) && op != cpu_abi::kActiveMask)
        abort(f, site_text(site) + ": the mask " + format("0x%08x", mask) + " names lane(s) " + lane_list(m & w.exited) +
                     " of warp " + std::to_string(warp_index) + " in block " + block_text() +
                     ", which already returned; every lane in the mask must reach the operation (CUDA leaves this undefined)");
    const bool soft = op == cpu_abi::kActiveMask;
    WarpGroup* g = w.open;
    while (g && !(g->op == op && (soft ? g->site == site : g->mask == m) && !(g->arrived & bit))) g = g->next;
    if (!g) {
        g = new_group();
        g->mask = m;
        g->op = op;
        g->site = site;
        g->next = w.open;
        w.open = g;
        if (soft) ++w.open_activemask;
    }
    g->value[lane] = value;
    g->arg[lane] = arg;
    g->arrived |= bit;
    f->state = FiberState::AtWarp;
    f->site = site;
    if (!soft && g->arrived == m) {
        f->state = FiberState::Running;
        complete(g, w, warp_index, f);
    } else {
        if (w.open_activemask) settle_activemask(warp_index, f);
        if (f->state == FiberState::AtWarp) yield(f);
    }
    if (aux) *aux = f->aux;
    return f->result;
}

void BlockFibers::complete(WarpGroup* g, WarpState& w, int32_t warp_index, Fiber* self) {
    const uint32_t m = g->mask;
    uint32_t ballot = 0;
    bool all_equal = true;
    for (int l = 0; l < 32; ++l) {
        if (!(m >> l & 1)) continue;
        if (g->value[l]) ballot |= 1u << l;
        int first = __builtin_ctz(m);
        if (g->value[l] != g->value[first]) all_equal = false;
    }
    for (int l = 0; l < 32; ++l) {
        if (!(m >> l & 1)) continue;
        uint64_t r = 0;
        uint32_t a = 0;
        const uint64_t d = uint64_t(uint32_t(g->arg[l]));  // lane numbers and deltas are 32-bit unsigned
        int64_t src = -1;
        switch (g->op) {
            case cpu_abi::kShflIdx: src = int64_t(d & 31); break;
            case cpu_abi::kShflUp: src = d <= uint64_t(l) ? int64_t(l) - int64_t(d) : -1; break;
            case cpu_abi::kShflDown: src = uint64_t(l) + d <= 31 ? int64_t(l) + int64_t(d) : -1; break;
            case cpu_abi::kShflXor: src = (uint64_t(l) ^ d) <= 31 ? int64_t(uint64_t(l) ^ d) : -1; break;
            case cpu_abi::kVoteAll: r = ballot == m; break;
            case cpu_abi::kVoteAny: r = ballot != 0; break;
            case cpu_abi::kVoteUni: r = ballot == 0 || ballot == m; break;
            case cpu_abi::kVoteBallot: r = ballot; break;
            case cpu_abi::kMatchAny:
                for (int k = 0; k < 32; ++k)
                    if ((m >> k & 1) && g->value[k] == g->value[l]) r |= uint64_t(1) << k;
                break;
            case cpu_abi::kMatchAll:
                r = all_equal ? m : 0;
                a = all_equal ? 1 : 0;
                break;
            case cpu_abi::kActiveMask: r = g->arrived; break;
            default: break;  // syncwarp
        }
        if (g->op >= cpu_abi::kShflIdx && g->op <= cpu_abi::kShflXor)
            r = src >= 0 && (m >> src & 1) ? g->value[src] : g->value[l];  // invalid source: own value
        Fiber& lane_fiber = fibers_[size_t(warp_index * 32 + l)];
        lane_fiber.result = r;
        lane_fiber.aux = a;
        lane_fiber.state = &lane_fiber == self ? FiberState::Running : FiberState::Ready;
    }
    WarpGroup** p = &w.open;
    while (*p != g) p = &(*p)->next;
    *p = g->next;
    if (g->op == cpu_abi::kActiveMask) --w.open_activemask;
    g->next = free_groups_;
    free_groups_ = g;
}

void BlockFibers::settle_activemask(int32_t warp_index, Fiber* self) {
    WarpState& w = warps_[size_t(warp_index)];
    for (WarpGroup* g = w.open; g;) {
        WarpGroup* next = g->next;
        if (g->op == cpu_abi::kActiveMask) {
            bool settled = true;
            uint32_t others = w.exists & ~g->arrived;
            for (int l = 0; l < 32 && settled; ++l) {
                if (!(others >> l & 1)) continue;
                const Fiber& o = fibers_[size_t(warp_index * 32 + l)];
                settled = o.state != FiberState::Running && !runnable(o);
            }
            if (settled) {
                g->mask = g->arrived;
                complete(g, w, warp_index, self);
            }
        }
        g = next;
    }
}

std::string BlockFibers::site_text(int32_t site) const { return sync_site_text(kernel_, site); }

std::string BlockFibers::block_text() const { return block_index_text(block_index_); }

std::string BlockFibers::explain_stall() const {
    std::map<std::pair<int, int32_t>, int32_t> waiting;  // (0 barrier / 1 warp, site) -> threads
    int32_t done = 0;
    for (const Fiber& f : fibers_) {
        if (f.state == FiberState::Done) ++done;
        else if (f.state == FiberState::AtBarrier || f.state == FiberState::AtGridBarrier) ++waiting[{0, f.site}];
        else if (f.state == FiberState::AtWarp) ++waiting[{1, f.site}];
    }
    std::string head = "kernel '" + std::string(kernel_->name) + "': ";
    const std::string rule = "every thread of a block must reach each barrier, and every lane named in a warp "
                             "operation's mask must reach that operation (CUDA leaves this undefined)";
    if (waiting.size() == 1 && waiting.begin()->first.first == 0 && done > 0)
        return partial_barrier_message(kernel_, waiting.begin()->first.second, waiting.begin()->second, n_, block_index_);
    std::string parts;
    for (const auto& [key, count] : waiting)
        parts += (parts.empty() ? "" : ", ") + std::to_string(count) + (count == 1 ? " thread waits at " : " threads wait at ") +
                 site_text(key.second);
    if (done) parts += (parts.empty() ? "" : ", and ") + std::to_string(done) + (done == 1 ? " thread has" : " threads have") + " returned";
    std::string detail;
    for (size_t w = 0; w < warps_.size() && detail.empty(); ++w)
        if (const WarpGroup* g = warps_[w].open)
            detail = " (in warp " + std::to_string(w) + ", " + site_text(g->site) + " with mask " + format("0x%08x", g->mask) +
                     " still waits for lane(s) " + lane_list(g->mask & ~g->arrived) + ")";
    return head + "block " + block_text() + " cannot finish: " + parts + detail + "; " + rule;
}

}  // namespace simt::cpu
