// The driver's wording for the errors the cpu backend can raise (cuGetErrorName/String).
#include "runtime/cuda_errors.h"

namespace simt {

const char* documented_cuda_error_name(int code) {
    switch (code) {
        case kCudaErrorInvalidValue: return "CUDA_ERROR_INVALID_VALUE";
        case kCudaErrorOutOfMemory: return "CUDA_ERROR_OUT_OF_MEMORY";
        case kCudaErrorInvalidHandle: return "CUDA_ERROR_INVALID_HANDLE";
        case kCudaErrorLaunchOutOfResources: return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
        case kCudaErrorCooperativeLaunchTooLarge: return "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE";
        case kCudaErrorNotPermitted: return "CUDA_ERROR_NOT_PERMITTED";
        default: return nullptr;
    }
}

const char* documented_cuda_error_description(int code) {
    switch (code) {
        case kCudaErrorInvalidValue:
            return "This indicates that one or more of the parameters passed to the API call is not within an acceptable range of values.";
        case kCudaErrorOutOfMemory:
            return "The API call failed because it was unable to allocate enough memory or other resources to perform the requested operation.";
        case kCudaErrorInvalidHandle:
            return "This indicates that a resource handle passed to the API call was not valid.";
        case kCudaErrorLaunchOutOfResources:
            return "This indicates that a launch did not occur because it did not have appropriate resources.";
        case kCudaErrorCooperativeLaunchTooLarge:
            return "This error indicates that the number of blocks launched per grid for a kernel that was launched via "
                   "either cuLaunchCooperativeKernel or cuLaunchCooperativeKernelMultiDevice exceeds the maximum number of "
                   "blocks as allowed by cuOccupancyMaxActiveBlocksPerMultiprocessor or "
                   "cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags times the number of multiprocessors as specified "
                   "by the device attribute CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT.";
        case kCudaErrorNotPermitted: return "This error indicates that the attempted operation is not permitted.";
        default: return nullptr;
    }
}

void raise_cuda_error(int code) {
    if (const char* name = documented_cuda_error_name(code)) throw CudaError(code, name, documented_cuda_error_description(code));
    throw CudaError(code, "CUDA_ERROR_UNKNOWN", "This indicates that an unknown internal error has occurred.");
}

}  // namespace simt
