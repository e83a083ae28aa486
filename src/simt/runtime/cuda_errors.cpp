// The driver's wording for the errors the cpu backend can raise (cuGetErrorName/String).
#include "runtime/cuda_errors.h"

namespace simt {

void raise_cuda_error(int code) {
    switch (code) {
        case kCudaErrorInvalidValue:
            throw CudaError(code, "CUDA_ERROR_INVALID_VALUE",
                            "This indicates that one or more of the parameters passed to the API call is not within an acceptable range of values.");
        case kCudaErrorOutOfMemory:
            throw CudaError(code, "CUDA_ERROR_OUT_OF_MEMORY",
                            "The API call failed because it was unable to allocate enough memory or other resources to perform the requested operation.");
        case kCudaErrorInvalidHandle:
            throw CudaError(code, "CUDA_ERROR_INVALID_HANDLE",
                            "This indicates that a resource handle passed to the API call was not valid.");
        case kCudaErrorLaunchOutOfResources:
            throw CudaError(code, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
                            "This indicates that a launch did not occur because it did not have appropriate resources.");
        default:
            throw CudaError(code, "CUDA_ERROR_UNKNOWN", "This indicates that an unknown internal error has occurred.");
    }
}

}  // namespace simt
