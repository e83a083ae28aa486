// The pending-callback count and the lock hand-off of blocking waits (see host_callbacks.h).
#include "runtime/host_callbacks.h"

namespace simt {

namespace {
std::atomic<long> g_pending{0};
CallbackLock g_lock;
}  // namespace

void set_callback_lock(CallbackLock lock) { g_lock = lock; }

void note_host_callback_queued() { g_pending.fetch_add(1, std::memory_order_acq_rel); }
void note_host_callback_finished() { g_pending.fetch_sub(1, std::memory_order_acq_rel); }
bool host_callbacks_pending() { return g_pending.load(std::memory_order_acquire) > 0; }

BlockingWait::BlockingWait() {
    if (g_lock.release && host_callbacks_pending()) token_ = g_lock.release();
}

BlockingWait::~BlockingWait() {
    if (token_) g_lock.reacquire(token_);
}

}  // namespace simt
