// The cpu backend's in-order task queue: queued tasks, and short tasks run on the caller's
// thread when the queue is idle (order kept, errors reported by the next wait).
#include <gtest/gtest.h>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>
#include "backend/cpu/task_queue.h"

namespace simt {
namespace {

TEST(TaskQueue, RunsOnTheCallersThreadOnlyWhenIdle) {
    TaskQueue q;
    const std::thread::id caller = std::this_thread::get_id();
    std::thread::id ran_on;
    uint64_t seq = q.run_if_idle([&] { ran_on = std::this_thread::get_id(); });
    EXPECT_EQ(seq, 1u);
    EXPECT_EQ(ran_on, caller);
    EXPECT_TRUE(q.done(1));
    EXPECT_EQ(q.last_enqueued(), 1u);

    std::atomic<bool> release{false};
    uint64_t busy = q.enqueue([&] { while (!release.load()) std::this_thread::yield(); });
    EXPECT_EQ(busy, 2u);
    bool ran = false;
    EXPECT_EQ(q.run_if_idle([&] { ran = true; }), 0u);  // a task is running: nothing ran
    EXPECT_FALSE(ran);
    release = true;
    q.wait_all();
    EXPECT_NE(q.run_if_idle([&] { ran = true; }), 0u);
    EXPECT_TRUE(ran);
}

TEST(TaskQueue, AnErrorOfAnInlineTaskComesFromTheNextWait) {
    TaskQueue q;
    uint64_t seq = q.run_if_idle([] { throw std::runtime_error("kernel failed"); });
    EXPECT_NE(seq, 0u);  // the launch itself returns normally
    EXPECT_THROW(q.wait(seq), std::runtime_error);
    EXPECT_NO_THROW(q.wait_all());  // reported once
}

TEST(TaskQueue, TasksQueuedWhileAnInlineTaskRunsRunAfterIt) {
    TaskQueue q;
    std::vector<int> order;
    std::atomic<bool> inline_started{false};
    std::thread other;
    q.run_if_idle([&] {
        inline_started = true;
        other = std::thread([&] { q.enqueue([&] { order.push_back(2); }); });
        other.join();  // queued while this task runs: enqueue returns at once
        std::this_thread::sleep_for(std::chrono::milliseconds(5));  // the executor had time to start it
        order.push_back(1);
    });
    q.wait_all();
    EXPECT_TRUE(inline_started.load());
    EXPECT_EQ(order, (std::vector<int>{1, 2}));
}

}  // namespace
}  // namespace simt
