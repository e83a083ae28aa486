// Host functions queued on streams (runtime/host_callbacks.h): the cpu backend runs them in
// queue order, a wait from inside one is refused, and a blocking wait lets go of the lock a
// pending callback needs (Python's GIL, modelled here by a mutex).
#include <gtest/gtest.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <mutex>
#include <vector>
#include "array/ndarray.h"
#include "backend/cpu/task_queue.h"
#include "runtime/backend.h"
#include "runtime/host_callbacks.h"
#include "support/error.h"
#include "test_helpers.h"

namespace simt {
namespace {

// A stand-in for the GIL: which thread holds it is tracked so release() can tell.
std::mutex g_model_gil;
thread_local bool t_holds = false;
std::atomic<int> g_releases{0};

void take_gil() {
    g_model_gil.lock();
    t_holds = true;
}
void give_gil() {
    t_holds = false;
    g_model_gil.unlock();
}

CallbackLock model_lock() {
    return {[]() -> void* {
                if (!t_holds) return nullptr;
                ++g_releases;
                give_gil();
                return &g_model_gil;
            },
            [](void*) { take_gil(); }};
}

struct LockGuardForTest {
    LockGuardForTest() { set_callback_lock(model_lock()); }
    ~LockGuardForTest() { set_callback_lock({}); }
};

TEST(HostCallbacks, BlockingWaitLetsGoOnlyWhileACallbackIsPending) {
    LockGuardForTest hooks;
    take_gil();
    g_releases = 0;
    { BlockingWait w; }
    EXPECT_EQ(g_releases.load(), 0);  // nothing pending: the lock stays
    note_host_callback_queued();
    {
        BlockingWait w;
        EXPECT_FALSE(t_holds);
    }
    EXPECT_TRUE(t_holds);
    EXPECT_EQ(g_releases.load(), 1);
    note_host_callback_finished();
    EXPECT_FALSE(host_callbacks_pending());
    give_gil();
}

TEST(HostCallbacks, AWaitForACallbackNeedingTheCallersLockDoesNotDeadlock) {
    LockGuardForTest hooks;
    std::future<bool> done = std::async(std::launch::async, [] {
        TaskQueue q;
        take_gil();
        note_host_callback_queued();
        bool ran = false;
        uint64_t seq = q.enqueue([&] {  // a callback: it takes the lock its caller holds
            take_gil();
            ran = true;
            give_gil();
            note_host_callback_finished();
        });
        q.wait(seq);  // holding the lock: must hand it over while it waits
        bool holds = t_holds;
        give_gil();
        return ran && holds;
    });
    if (done.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
        std::fprintf(stderr, "deadlock: the wait kept the lock a queued callback needed\n");
        std::_Exit(1);
    }
    EXPECT_TRUE(done.get());
}

TEST(HostCallbacks, AWaitFromInsideTheQueueIsNotPermitted) {
    TaskQueue q;
    uint64_t seq = q.enqueue([&] { q.wait(q.last_enqueued()); });
    try {
        q.wait(seq);
        FAIL() << "the task's wait should have failed";
    } catch (const CudaError& e) {
        EXPECT_EQ(e.code(), 800);
        EXPECT_EQ(e.name(), "CUDA_ERROR_NOT_PERMITTED");
    }
    EXPECT_NO_THROW(q.wait(q.enqueue([] {})));  // the queue goes on
}

void record(void* data) { static_cast<std::vector<int>*>(data)->push_back(int(static_cast<std::vector<int>*>(data)->size())); }

TEST(HostCallbacks, TheCpuBackendRunsHostFunctionsAfterEarlierWorkInOrder) {
    test::use_cpu_backend_with_private_cache();
    Backend& b = backend();
    StreamHandle s = b.create_stream(false);
    std::vector<double> host(1 << 16);
    for (size_t i = 0; i < host.size(); ++i) host[i] = double(i) * 0.5 - 7.0;
    NdArray a = empty_array(DType::Float64, {int64_t(host.size())});
    copy_from_host(a, host.data());
    NdArray c = empty_array(DType::Float64, {int64_t(host.size())});
    std::vector<int> calls;
    std::vector<double> seen;
    struct Snapshot {
        const double* src;
        std::vector<double>* out;
        size_t n;
    } snap{reinterpret_cast<const double*>(c.data), &seen, host.size()};
    b.copy_device_to_device(c.data, a.data, size_t(a.nbytes()), s);
    b.launch_host_func(s, [](void* p) {  // on the cpu backend device memory is host memory
        auto* sn = static_cast<Snapshot*>(p);
        sn->out->assign(sn->src, sn->src + sn->n);
    }, &snap);
    for (int i = 0; i < 3; ++i) b.launch_host_func(s, record, &calls);
    b.synchronize_stream(s);
    EXPECT_EQ(calls, (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(seen, host);
    b.destroy_stream(s);
}

}  // namespace
}  // namespace simt
