// CUDA driver error names and descriptions, for backends that must report the driver's text
// without a driver (the cpu backend models a device and fails the way the driver would).
#pragma once
#include <string>
#include "support/error.h"

namespace simt {

// Known CUresult codes used by the modelled device.
enum : int {
    kCudaErrorInvalidValue = 1,
    kCudaErrorOutOfMemory = 2,
    kCudaErrorInvalidHandle = 400,
    kCudaErrorLaunchOutOfResources = 701,
    kCudaErrorCooperativeLaunchTooLarge = 720,
    kCudaErrorNotPermitted = 800,  // a runtime call from a host callback
};

// The documented name and description of a code in the table above; null for other codes.
// The cuda backend uses these descriptions too, so both backends print the same text.
const char* documented_cuda_error_name(int code);
const char* documented_cuda_error_description(int code);

// Raises CudaError(code) with the driver's name and description for that code.
[[noreturn]] void raise_cuda_error(int code);

}  // namespace simt
