// Device allocations behind arrays: the pool, managed memory or the allocation hook.
#include "array/device_buffer.h"
#include <atomic>
#include "array/pool_usage.h"

namespace simt {

namespace {
std::atomic<int> g_mode{int(AllocationMode::Pool)};
AllocationHook g_hook;
}  // namespace

void set_allocation_mode(AllocationMode mode) { g_mode.store(int(mode), std::memory_order_relaxed); }
AllocationMode allocation_mode() { return AllocationMode(g_mode.load(std::memory_order_relaxed)); }
void set_allocation_hook(AllocationHook hook) { g_hook = hook; }

DeviceBuffer::DeviceBuffer(size_t bytes, StreamHandle stream)
    : bytes_(bytes), backend_(&backend()), device_(backend_->current_device()) {
    auto mode = AllocationMode(g_mode.load(std::memory_order_relaxed));
    if (mode == AllocationMode::Hook) {
        HookedAllocation got = g_hook.allocate(bytes);
        if (got.handle) {  // (the hook's memory is its owner's: not counted in simt's pool)
            ptr_ = got.ptr;
            hook_handle_ = got.handle;
            return;
        }
        mode = got.instead;
    }
    note_allocation(device_, bytes);
    try {
        if (mode == AllocationMode::Managed) {
            ptr_ = backend_->allocate_managed(bytes);
            managed_ = true;
        } else {
            ptr_ = backend_->allocate(bytes, stream);
        }
    } catch (...) {
        note_release(device_, bytes);
        throw;
    }
}

DeviceBuffer::~DeviceBuffer() {
    if (hook_handle_) {
        g_hook.release(hook_handle_);
        return;
    }
    if (managed_) backend_->release_managed(ptr_);  // (cuMemFree: waits for work still using it)
    else backend_->release(ptr_, bytes_, nullptr);
    note_release(device_, bytes_);
}

}  // namespace simt
