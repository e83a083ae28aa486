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
    // last wait is rethrown here, once.
    void wait(uint64_t seq);
    void wait_all() { wait(last_enqueued()); }
    // Waits for everything queued without reporting task errors (for cleanup paths).
    void wait_all_quietly();
    uint64_t last_enqueued();
    bool done(uint64_t seq);

private:
    void run();

    std::mutex mutex_;
    std::condition_variable has_work_, progress_;
    std::deque<std::pair<uint64_t, std::function<void()>>> tasks_;
    uint64_t next_seq_ = 1;
    uint64_t completed_ = 0;
    bool stopping_ = false;
    std::exception_ptr error_;
    std::thread executor_;
};

}  // namespace simt
