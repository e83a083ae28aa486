// Host functions queued on streams (CuPy's launch_host_func, numba's add_callback): they run in
// stream order on a thread of the backend's (the driver's callback thread; the cpu backend's
// executor), and user callbacks need a lock the caller may hold (Python's GIL). A thread that
// blocks waiting for the device while holding that lock, with such a callback pending, would
// wait forever: every blocking wait takes a BlockingWait, which lets go of the lock meanwhile.
// Nothing is let go while no callback is pending (one relaxed load per blocking wait).
#pragma once
#include <atomic>

namespace simt {

// How to let go of and take back the lock callbacks need (set by the Python bindings).
struct CallbackLock {
    void* (*release)() = nullptr;          // returns a token, null when this thread held nothing
    void (*reacquire)(void* token) = nullptr;
};
void set_callback_lock(CallbackLock lock);

// Counts callbacks queued but not yet finished.
void note_host_callback_queued();
void note_host_callback_finished();
bool host_callbacks_pending();

// Held around a wait that may block on queued device work.
class BlockingWait {
public:
    BlockingWait();
    ~BlockingWait();
    BlockingWait(const BlockingWait&) = delete;
    BlockingWait& operator=(const BlockingWait&) = delete;

private:
    void* token_ = nullptr;
};

}  // namespace simt
