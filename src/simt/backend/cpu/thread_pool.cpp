// Thread pool for kernel blocks and library loops.
#include "backend/cpu/thread_pool.h"
#include <cfenv>
#include <cstdlib>

namespace simt {

int default_thread_count() {
    if (const char* env = std::getenv("SIMT_NUM_THREADS")) {
        int n = std::atoi(env);
        if (n > 0) return n;
    }
    unsigned hw = std::thread::hardware_concurrency();
    return hw ? int(hw) : 1;
}

ThreadPool::ThreadPool(int threads) {
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
}

void ThreadPool::run_chunks() {
    while (true) {
        int64_t begin = next_.fetch_add(grain_, std::memory_order_relaxed);
        if (begin >= n_) return;
        int64_t end = begin + grain_ < n_ ? begin + grain_ : n_;
        try {
            (*body_)(begin, end);
        } catch (...) {
            std::lock_guard<std::mutex> lock(error_mutex_);
            if (!error_) error_ = std::current_exception();
            next_.store(n_, std::memory_order_relaxed);  // stop handing out chunks
        }
    }
}

void ThreadPool::worker_loop() {
    std::fesetenv(FE_DFL_ENV);  // kernels see the default environment whatever the creator's was
    uint64_t seen = 0;
    while (true) {
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
            if (stopping_) return;
            seen = generation_;
        }
        run_chunks();
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (--active_ == 0) done_.notify_one();
        }
    }
}

void ThreadPool::parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& body) {
    if (n <= 0) return;
    if (grain < 1) grain = 1;
    if (workers_.empty() || n <= grain) {
        body(0, n);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        body_ = &body;
        n_ = n;
        grain_ = grain;
        next_.store(0, std::memory_order_relaxed);
        error_ = nullptr;
        active_ = int(workers_.size());
        ++generation_;
    }
    wake_.notify_all();
    run_chunks();
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return active_ == 0; });
    body_ = nullptr;
    if (error_) std::rethrow_exception(error_);
}

}  // namespace simt
