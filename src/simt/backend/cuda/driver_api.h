// The CUDA driver, loaded at run time: its entry points, and the error every failed call
// becomes (simt.cuda.CUDAError with the driver's "NAME: description").
#pragma once
#include <string>
#include "backend/cuda/cuda_api.h"

namespace simt {

// Loads libcuda and calls cuInit once per process. Returns null when there is no usable driver,
// with the reason in *why (library missing, too old, or cuInit failing).
const cu::DriverApi* load_driver(std::string* why);
// The loaded driver (only valid after load_driver succeeded).
const cu::DriverApi& driver();

// "CUDA_ERROR_X: description" for a driver result code.
std::string driver_error_text(cu::Result code);
// Raises CudaError(code) with the driver's name and description.
[[noreturn]] void raise_driver_error(cu::Result code);

inline void check(cu::Result code) {
    if (code != cu::kSuccess) raise_driver_error(code);
}

}  // namespace simt
