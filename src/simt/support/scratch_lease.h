// Per-thread scratch objects reused across calls, so that a warm hot path (a kernel launch)
// allocates nothing: the vectors inside keep their capacity. A call nested in another on the
// same thread (a Python callback that launches a kernel) gets a fresh object instead.
#pragma once

namespace simt {

// T needs clear(), run when the lease ends.
template <class T> class ScratchLease {
public:
    ScratchLease() : slot_(&slot()) {
        if (slot_->busy) slot_ = nullptr;
        else slot_->busy = true;
    }
    ~ScratchLease() {
        get().clear();
        if (slot_) slot_->busy = false;
    }
    ScratchLease(const ScratchLease&) = delete;
    ScratchLease& operator=(const ScratchLease&) = delete;
    T& get() { return slot_ ? slot_->value : fresh_; }

private:
    struct Slot {
        T value;
        bool busy = false;
    };
    static Slot& slot() {
        thread_local Slot s;
        return s;
    }
    Slot* slot_;  // this thread's slot, looked up once (each thread_local access is a call); null: nested
    T fresh_;
};

}  // namespace simt
