// In-order executor for the cpu backend's asynchronous work.
#include "backend/cpu/task_queue.h"
#include <cfenv>
#include "runtime/cuda_errors.h"
#include "runtime/host_callbacks.h"

namespace simt {

TaskQueue::TaskQueue() : executor_([this] { run(); }) {}

TaskQueue::~TaskQueue() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    has_work_.notify_all();
    executor_.join();
}

uint64_t TaskQueue::enqueue(std::function<void()> work) {
    uint64_t seq;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        seq = next_seq_++;
        tasks_.emplace_back(seq, std::move(work));
    }
    has_work_.notify_one();
    return seq;
}

uint64_t TaskQueue::last_enqueued() {
    std::lock_guard<std::mutex> lock(mutex_);
    return next_seq_ - 1;
}

bool TaskQueue::done(uint64_t seq) {
    std::lock_guard<std::mutex> lock(mutex_);
    return completed_ >= seq;
}

bool TaskQueue::idle() {
    std::lock_guard<std::mutex> lock(mutex_);
    return completed_ == next_seq_ - 1;
}

void TaskQueue::refuse_wait_on_executor() const {
    if (std::this_thread::get_id() == executor_.get_id()) raise_cuda_error(kCudaErrorNotPermitted);
}

void TaskQueue::wait(uint64_t seq) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (completed_ < seq) {
        lock.unlock();
        refuse_wait_on_executor();
        {
            BlockingWait unlocked;  // (a pending host callback may need the caller's lock: taken back after mutex_)
            std::unique_lock<std::mutex> waiting(mutex_);
            progress_.wait(waiting, [&] { return completed_ >= seq; });
        }
        lock.lock();
    }
    if (error_) {
        std::exception_ptr e = error_;
        error_ = nullptr;
        std::rethrow_exception(e);
    }
}

void TaskQueue::wait_all_quietly() {
    if (std::this_thread::get_id() == executor_.get_id()) return;  // (cleanup paths: nothing to wait for there)
    uint64_t target = last_enqueued();
    if (done(target)) return;
    BlockingWait unlocked;
    std::unique_lock<std::mutex> lock(mutex_);
    progress_.wait(lock, [&] { return completed_ >= target; });
}

uint64_t TaskQueue::begin_inline() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (inline_running_ || completed_ != next_seq_ - 1) return 0;
    inline_running_ = true;
    return next_seq_++;
}

void TaskQueue::end_inline(uint64_t seq, std::exception_ptr failure) {
    bool queued;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (failure && !error_) error_ = failure;
        completed_ = seq;
        inline_running_ = false;
        queued = !tasks_.empty();
    }
    // Wake the executor only for tasks queued meanwhile: waking it for nothing costs two context
    // switches per inline task (most of a small operation's time). Notifying a condition that
    // nobody waits on makes no system call.
    if (queued) has_work_.notify_one();
    progress_.notify_all();
}

void TaskQueue::run() {
    std::fesetenv(FE_DFL_ENV);  // kernels see the default environment whatever the creator's was
    while (true) {
        std::pair<uint64_t, std::function<void()>> task;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            has_work_.wait(lock, [&] { return (!tasks_.empty() && !inline_running_) || (stopping_ && tasks_.empty()); });
            if (tasks_.empty()) return;  // stopping and drained
            task = std::move(tasks_.front());
            tasks_.pop_front();
        }
        std::exception_ptr failure;
        try {
            task.second();
        } catch (...) {
            failure = std::current_exception();
        }
        task.second = nullptr;  // release captured buffers before reporting completion
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (failure && !error_) error_ = failure;
            completed_ = task.first;
        }
        progress_.notify_all();
    }
}

}  // namespace simt
