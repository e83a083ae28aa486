// The cuda backend's built-in kernels (pattern fills, simt.random fills): one NVRTC module per
// device, compiled on first use through the disk cache.
#pragma once
#include <string>
#include "backend/cuda/cuda_api.h"

namespace simt {

struct BuiltinKernels {
    cu::Module module = nullptr;
    cu::Function fill_u64 = nullptr, fill_u128 = nullptr;
    cu::Function uniform_f64 = nullptr, uniform_f32 = nullptr;
    cu::Function normal_f64 = nullptr, normal_f32 = nullptr;
    cu::Function integers[4] = {};  // 1-, 2-, 4- and 8-byte integers
};

// The complete CUDA source of the built-in module (philox.h + builtin_kernels.cuh).
const std::string& builtin_kernels_source();
// Compiles for compute capability `arch` and loads into the current context.
BuiltinKernels load_builtin_kernels(const cu::DriverApi& driver, int arch);

}  // namespace simt
