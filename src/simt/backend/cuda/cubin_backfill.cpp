// The cubin backfill worker (see cubin_backfill.h): one thread, started on first use.
#include "backend/cuda/cubin_backfill.h"
#include <pthread.h>
#include <unistd.h>
#include <chrono>
#include <cstdlib>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include "backend/cuda/nvrtc_api.h"
#include "backend/cuda/nvrtc_prelude.h"
#include "runtime/disk_cache.h"

namespace simt {

namespace {

constexpr size_t kMaxQueued = 128;

// Held by the worker for the length of each compile, and by fork() (pthread_atfork) while it
// copies the process: a child must not inherit NVRTC (or the disk cache) in the middle of a
// compile on a thread it does not have, whose locks it could never take.
std::mutex g_compiling;
void lock_for_fork() { g_compiling.lock(); }
void unlock_after_fork() { g_compiling.unlock(); }

class Worker {
public:
    Worker() : owner_(::getpid()), thread_([this] { run(); }) {}
    // Never destroyed (see worker()): in a forked child its condition variable still counts the
    // parent thread as a waiter, and destroying it would wait for that thread forever.
    ~Worker() = delete;
    // Compiles what the deadline allows, then stops the thread. Called at interpreter exit, and
    // from a C atexit handler registered after NVRTC, the disk cache and NVRTC's PCH directory
    // were set up, so before they are destroyed or removed (a compile must not outlive them).
    void finish() {
        if (::getpid() != owner_) return;  // a forked child: neither the thread nor its lock's state is ours
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (stopping_) return;
            stopping_ = true;
            deadline_ = std::chrono::steady_clock::now() + std::chrono::seconds(1);
        }
        changed_.notify_all();
        if (thread_.joinable()) thread_.join();
    }
    void add(const NvrtcRequest& r) {
        if (::getpid() != owner_) return;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            // Bounded: each request holds a whole translation unit. Past the bound a kernel is
            // left for a later process (which loads its cached PTX and queues it again).
            if (stopping_ || queue_.size() >= kMaxQueued) return;
            queue_.push_back(r);
        }
        changed_.notify_all();
    }
    void wait_idle() {
        if (::getpid() != owner_) return;
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [this] { return (queue_.empty() && !busy_) || stopped_; });
    }

private:
    void run() {
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (queue_.empty() || (stopping_ && std::chrono::steady_clock::now() > deadline_)) break;
            NvrtcRequest r = std::move(queue_.front());
            queue_.pop_front();
            busy_ = true;
            lock.unlock();
            try {
                std::lock_guard<std::mutex> compiling(g_compiling);
                compile_for_device(r);
            } catch (...) {
                // Only a cache fill: the kernel already runs; a later process compiles it again.
            }
            lock.lock();
            busy_ = false;
            changed_.notify_all();
        }
        queue_.clear();
        busy_ = false;
        stopped_ = true;
        changed_.notify_all();
    }

    pid_t owner_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<NvrtcRequest> queue_;
    bool busy_ = false;
    bool stopping_ = false;
    bool stopped_ = false;
    std::chrono::steady_clock::time_point deadline_;
    std::thread thread_;  // last: starts once the members above exist
};

std::mutex g_start;
Worker* g_worker = nullptr;  // started on first use, never destroyed; finish_cubin_backfill() stops it

void finish_at_exit() {
    if (g_worker) g_worker->finish();
}

Worker* worker(bool start) {
    std::lock_guard<std::mutex> lock(g_start);
    if (!g_worker && start) {
        DiskCache::instance();  // made first, so that they outlive the worker
        nvrtc();
        nvrtc_pch_directory();  // (removed at exit after the worker stops)
        ::pthread_atfork(lock_for_fork, unlock_after_fork, unlock_after_fork);
        g_worker = new Worker;
        std::atexit(finish_at_exit);
    }
    return g_worker;
}

}  // namespace

void backfill_cubin(const NvrtcRequest& request) {
    NvrtcRequest r = request;
    r.background = true;
    worker(true)->add(r);
}

void wait_for_cubin_backfill() {
    if (Worker* w = worker(false)) w->wait_idle();
}

void finish_cubin_backfill() {
    if (Worker* w = worker(false)) w->finish();
}

}  // namespace simt
