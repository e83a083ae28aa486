// A fixed pool of worker threads running data-parallel loops; the calling thread joins in.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace simt {

class ThreadPool {
public:
    explicit ThreadPool(int threads);  // total participants including the caller
    ~ThreadPool();
    int size() const { return int(workers_.size()) + 1; }

    // Runs body(begin, end) over [0, n) in chunks of at most `grain`, on all threads; returns
    // when every chunk is done. The first exception thrown by a chunk is rethrown here.
    void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& body);

private:
    void worker_loop();
    void run_chunks();

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    uint64_t generation_ = 0;
    bool stopping_ = false;
    int active_ = 0;  // workers still inside the current job
    const std::function<void(int64_t, int64_t)>* body_ = nullptr;
    int64_t n_ = 0, grain_ = 1;
    std::atomic<int64_t> next_{0};
    std::exception_ptr error_;
    std::mutex error_mutex_;
};

// Number of threads the cpu backend uses: SIMT_NUM_THREADS, else the hardware's.
int default_thread_count();

}  // namespace simt
