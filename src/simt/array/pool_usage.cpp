// Per-device byte counts of live DeviceBuffers: one relaxed atomic add per allocation, and a
// compare only while a limit is set.
#include "array/pool_usage.h"
#include <atomic>
#include <cstdint>
#include "support/error.h"

namespace simt {

namespace {
constexpr int kMaxDevices = 64;
std::atomic<size_t> g_used[kMaxDevices];
std::atomic<size_t> g_limit[kMaxDevices];

int slot(int device) {
    if (device < 0 || device >= kMaxDevices) raise(ErrorKind::Value, "device %d is out of range for memory accounting", device);
    return device;
}
}  // namespace

void note_allocation(int device, size_t bytes) {
    int d = slot(device);
    size_t before = g_used[d].fetch_add(bytes, std::memory_order_relaxed);
    size_t limit = g_limit[d].load(std::memory_order_relaxed);
    if (limit && before + bytes > limit) {
        g_used[d].fetch_sub(bytes, std::memory_order_relaxed);
        throw Error(ErrorKind::OutOfMemory,
                    format("out of memory: allocating %zu bytes would exceed the memory pool's limit of %zu bytes on device "
                           "%d (%zu bytes in use; see simt.get_default_memory_pool().set_limit)",
                           bytes, limit, device, before));
    }
}

void note_release(int device, size_t bytes) noexcept {
    if (device >= 0 && device < kMaxDevices) g_used[device].fetch_sub(bytes, std::memory_order_relaxed);
}

size_t pool_used_bytes(int device) { return g_used[slot(device)].load(std::memory_order_relaxed); }
void set_pool_limit(int device, size_t bytes) { g_limit[slot(device)].store(bytes, std::memory_order_relaxed); }
size_t pool_limit(int device) { return g_limit[slot(device)].load(std::memory_order_relaxed); }

}  // namespace simt
