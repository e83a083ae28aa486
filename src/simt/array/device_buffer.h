// Device allocations behind arrays, and the switch deciding where they come from: the device's
// pool, managed memory, or an allocation hook (the bindings' Python allocators).
#pragma once
#include <cstddef>
#include "runtime/backend.h"

namespace simt {

// Pool: the device's pool (the default). Managed: managed memory (CuPy's
// set_allocator(MemoryPool(malloc_managed).malloc); only the cuda backend's differs from its
// device memory). Hook: the installed hook decides, per allocation (some thread has a Python
// allocator). Read with one relaxed load per allocation.
enum class AllocationMode : int { Pool, Managed, Hook };
void set_allocation_mode(AllocationMode mode);
AllocationMode allocation_mode();

// What the hook did with a request: allocated it (`handle` non-null, given back to release()
// when the buffer goes), or left it to be allocated as `instead` (Pool or Managed).
struct HookedAllocation {
    void* ptr = nullptr;
    void* handle = nullptr;
    AllocationMode instead = AllocationMode::Pool;
};
struct AllocationHook {
    HookedAllocation (*allocate)(size_t bytes) = nullptr;  // may raise (the allocation's error)
    void (*release)(void* handle) noexcept = nullptr;      // from any thread, also at exit
};
// Installed once, before the mode is first set to Hook.
void set_allocation_hook(AllocationHook hook);

// An allocation released when the last view of it goes away.
class DeviceBuffer {
public:
    DeviceBuffer(size_t bytes, StreamHandle stream);
    ~DeviceBuffer();
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    void* data() const { return ptr_; }
    size_t size() const { return bytes_; }
    // Pool and managed memory is freed after work already queued on the default stream; what a
    // hook allocated is freed when its owner says (so launches must hold the buffer).
    bool frees_in_stream_order() const { return hook_handle_ == nullptr; }
private:
    void* ptr_ = nullptr;
    size_t bytes_;
    Backend* backend_;
    int device_;  // where it was allocated (its bytes are counted there: array/pool_usage.h)
    bool managed_ = false;
    void* hook_handle_ = nullptr;
};

}  // namespace simt
