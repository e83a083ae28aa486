// The cpu backend's device: one FIFO of work (kernel launches, copies, fills) run in order by
// an executor thread, so launches are asynchronous as on a GPU. Streams are tags on tasks.
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace simt {

class TaskQueue {
public:
    TaskQueue();
    ~TaskQueue();

    // Queues `work`; returns its sequence number (1, 2, ...).
    uint64_t enqueue(std::function<void()> work);
    // Waits until task `seq` (and all before it) finished. An error raised by a task since the
    // last wait is rethrown here, once. A task that would have to wait for itself (a host
    // callback calling the runtime) gets CUDA_ERROR_NOT_PERMITTED, as a driver callback does.
    void wait(uint64_t seq);
    void wait_all() { wait(last_enqueued()); }
    // Waits for everything queued without reporting task errors (for cleanup paths).
    void wait_all_quietly();
    uint64_t last_enqueued();
    bool done(uint64_t seq);
    // Everything queued so far has finished (one lock, where done(last_enqueued()) takes two).
    bool idle();

    // Runs `work` on the calling thread as the next task when nothing is queued or running, so
    // order is kept and a short task skips two thread hand-offs; returns its sequence number,
    // or 0 (having run nothing) when the queue is busy. Its error is reported by the next wait.
    template <class Work>
    uint64_t run_if_idle(Work&& work) {
        uint64_t seq = begin_inline();
        if (!seq) return 0;
        std::exception_ptr failure;
        try {
            work();
        } catch (...) {
            failure = std::current_exception();
        }
        end_inline(seq, failure);
        return seq;
    }

private:
    void run();
    // Raises CUDA_ERROR_NOT_PERMITTED when called on the executor thread (see wait).
    void refuse_wait_on_executor() const;
    uint64_t begin_inline();
    void end_inline(uint64_t seq, std::exception_ptr failure);

    std::mutex mutex_;
    std::condition_variable has_work_, progress_;
    std::deque<std::pair<uint64_t, std::function<void()>>> tasks_;
    uint64_t next_seq_ = 1;
    uint64_t completed_ = 0;
    bool stopping_ = false;
    bool inline_running_ = false;  // a task runs on its caller's thread: the executor waits
    std::exception_ptr error_;
    std::thread executor_;
};

}  // namespace simt
