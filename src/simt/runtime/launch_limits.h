// Launch-configuration checks against a device's limits, with the driver's error for each
// violation (the cuda backend lets the driver decide; the cpu backend models an sm_90 GPU).
#pragma once
#include "runtime/backend.h"

namespace simt {

// Raises CudaError(CUDA_ERROR_INVALID_VALUE) when the grid, block or shared memory of `config`
// is outside `limits`, as cuLaunchKernel does. `max_dynamic_shared_bytes` is the kernel's
// attribute of that name where the program set it (-1: not set, the default limit applies).
void check_launch_limits(const LaunchConfig& config, const DeviceProperties& limits, int64_t static_shared_bytes,
                         int64_t max_dynamic_shared_bytes = -1);

// The device the cpu backend models.
DeviceProperties modelled_device_properties();

}  // namespace simt
