// Launch limits of a device.
#include "runtime/launch_limits.h"
#include "runtime/cuda_errors.h"
#include "backend/cpu/thread_pool.h"

namespace simt {

void check_launch_limits(const LaunchConfig& c, const DeviceProperties& p, int64_t static_shared_bytes,
                         int64_t max_dynamic_shared_bytes) {
    const int64_t grid[3] = {c.grid.x, c.grid.y, c.grid.z};
    const int64_t block[3] = {c.block.x, c.block.y, c.block.z};
    for (int i = 0; i < 3; ++i) {
        if (grid[i] < 1 || grid[i] > p.max_grid[i]) raise_cuda_error(kCudaErrorInvalidValue);
        if (block[i] < 1 || block[i] > p.max_block[i]) raise_cuda_error(kCudaErrorInvalidValue);
    }
    if (c.block.count() > p.max_threads_per_block) raise_cuda_error(kCudaErrorInvalidValue);
    if (c.dynamic_shared_bytes < 0) raise_cuda_error(kCudaErrorInvalidValue);
    if (max_dynamic_shared_bytes >= 0) {  // opted in past 48 KiB (cuFuncSetAttribute)
        if (c.dynamic_shared_bytes > max_dynamic_shared_bytes) raise_cuda_error(kCudaErrorInvalidValue);
    } else if (c.dynamic_shared_bytes + static_shared_bytes > p.max_shared_per_block) {
        raise_cuda_error(kCudaErrorInvalidValue);
    }
}

DeviceProperties modelled_device_properties() {
    DeviceProperties p;
    p.name = "simt cpu device (" + std::to_string(default_thread_count()) + " threads)";
    p.compute_major = 9;
    p.compute_minor = 0;
    p.multiprocessors = default_thread_count();
    return p;
}

}  // namespace simt
