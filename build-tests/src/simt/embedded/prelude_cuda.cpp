// Generated from /work/main/src/simt/codegen/prelude/cuda.h; do not edit.
namespace simt { namespace embedded {
extern const char* const prelude_cuda;
const char* const prelude_cuda = R"simt_embed(// simt prelude, cuda target (compiled by NVRTC). No headers: NVRTC provides the CUDA math
// functions and builtin variables itself.
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long uint64_t;

#define SIMT_TARGET_CUDA 1
#define SIMT_DEVICE_FN __device__ inline
#define SIMT_INLINE __device__ __forceinline__

SIMT_INLINE double simt_inf() { return __longlong_as_double(0x7ff0000000000000LL); }
SIMT_INLINE double simt_nan() { return __longlong_as_double(0x7ff8000000000000LL); }

SIMT_INLINE uint32_t simt_float_bits(float f) { return __float_as_uint(f); }
SIMT_INLINE float simt_bits_float(uint32_t u) { return __uint_as_float(u); }

struct simt_dim3 { int32_t x, y, z; };

struct simt_error_record {
    int32_t flag, site, ndim, pad;
    int64_t index[8];
    int64_t shape[8];
};
// Read back by the host after each synchronize when the kernel was compiled with boundscheck.
extern "C" __device__ simt_error_record simt_errors;
__device__ simt_error_record simt_errors;

struct simt_ctx {};

SIMT_INLINE simt_dim3 simt_threadIdx(simt_ctx&) { return {(int32_t)threadIdx.x, (int32_t)threadIdx.y, (int32_t)threadIdx.z}; }
SIMT_INLINE simt_dim3 simt_blockIdx(simt_ctx&) { return {(int32_t)blockIdx.x, (int32_t)blockIdx.y, (int32_t)blockIdx.z}; }
SIMT_INLINE simt_dim3 simt_blockDim(simt_ctx&) { return {(int32_t)blockDim.x, (int32_t)blockDim.y, (int32_t)blockDim.z}; }
SIMT_INLINE simt_dim3 simt_gridDim(simt_ctx&) { return {(int32_t)gridDim.x, (int32_t)gridDim.y, (int32_t)gridDim.z}; }
SIMT_INLINE int64_t simt_grid(simt_ctx&, int axis) {
    if (axis == 0) return (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (axis == 1) return (int64_t)blockIdx.y * blockDim.y + threadIdx.y;
    return (int64_t)blockIdx.z * blockDim.z + threadIdx.z;
}
SIMT_INLINE int64_t simt_gridsize(simt_ctx&, int axis) {
    if (axis == 0) return (int64_t)blockDim.x * gridDim.x;
    if (axis == 1) return (int64_t)blockDim.y * gridDim.y;
    return (int64_t)blockDim.z * gridDim.z;
}
SIMT_INLINE int32_t simt_laneid(simt_ctx&) {
    unsigned int lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return (int32_t)lane;
}

SIMT_INLINE simt_error_record* simt_error_slot(simt_ctx&) { return &simt_errors; }
SIMT_INLINE bool simt_claim_error(simt_error_record* r) { return atomicCAS(&r->flag, 0, 1) == 0; }
)simt_embed";
} }
