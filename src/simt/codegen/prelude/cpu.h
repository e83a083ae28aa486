// simt prelude, cpu target. Deliberately includes no system header: a kernel compiles in
// well under 100 ms this way. Types here must match backend/cpu/launch_abi.h.
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long uint64_t;

#define SIMT_TARGET_CPU 1
#define SIMT_DEVICE_FN inline
#define SIMT_INLINE inline __attribute__((always_inline))
#define SIMT_EXPORT __attribute__((visibility("default")))

#ifndef SIMT_SYSTEM_MATH  // (raw CUDA C++ kernels include <math.h> instead: codegen/raw_module.cpp)
extern "C" {
double sin(double); double cos(double); double tan(double); double asin(double); double acos(double);
double atan(double); double sinh(double); double cosh(double); double tanh(double); double asinh(double);
double acosh(double); double atanh(double); double exp(double); double expm1(double); double exp2(double);
double log(double); double log2(double); double log10(double); double log1p(double); double sqrt(double);
double cbrt(double); double fabs(double); double erf(double); double erfc(double); double tgamma(double);
double lgamma(double); double atan2(double, double); double pow(double, double); double fmod(double, double);
double hypot(double, double); double copysign(double, double); double remainder(double, double);
double nextafter(double, double); double floor(double); double ceil(double); double trunc(double);
double rint(double); double ldexp(double, int); double fma(double, double, double);
float sinf(float); float cosf(float); float tanf(float); float asinf(float); float acosf(float);
float atanf(float); float sinhf(float); float coshf(float); float tanhf(float); float asinhf(float);
float acoshf(float); float atanhf(float); float expf(float); float expm1f(float); float exp2f(float);
float logf(float); float log2f(float); float log10f(float); float log1pf(float); float sqrtf(float);
float cbrtf(float); float fabsf(float); float erff(float); float erfcf(float); float tgammaf(float);
float lgammaf(float); float atan2f(float, float); float powf(float, float); float fmodf(float, float);
float hypotf(float, float); float copysignf(float, float); float remainderf(float, float);
float nextafterf(float, float); float floorf(float); float ceilf(float); float truncf(float);
float rintf(float); float ldexpf(float, int); float fmaf(float, float, float);
}
#endif

SIMT_INLINE double simt_inf() { return __builtin_huge_val(); }
SIMT_INLINE double simt_nan() { return __builtin_nan(""); }

SIMT_INLINE uint32_t simt_float_bits(float f) { return __builtin_bit_cast(uint32_t, f); }
SIMT_INLINE float simt_bits_float(uint32_t u) { return __builtin_bit_cast(float, u); }

struct simt_dim3 { int32_t x, y, z; };

// Bounds-check report: the first failing access of a launch (see runtime/bounds_report.h).
struct simt_error_record {
    int32_t flag, site, ndim, pad;
    int64_t index[8];
    int64_t shape[8];
};

struct simt_runtime;

// One launch as the cpu runtime describes it to a kernel.
struct simt_launch {
    simt_dim3 grid;
    simt_dim3 block;
    int64_t dynamic_shared_bytes;
    simt_error_record* errors;
    const simt_runtime* runtime;  // services of libsimt (cpu_sync.h): fibers, barriers, warps, print
    void* state;                  // the launch's state inside libsimt
};

struct simt_ctx {
    simt_dim3 tid, bid, bdim, gdim;
    const simt_launch* launch;
    char* shared;  // the block's shared memory
    void* fiber;   // the thread's fiber (kernels with barriers or warp operations)
};

SIMT_INLINE simt_dim3 simt_threadIdx(const simt_ctx& c) { return c.tid; }
SIMT_INLINE simt_dim3 simt_blockIdx(const simt_ctx& c) { return c.bid; }
SIMT_INLINE simt_dim3 simt_blockDim(const simt_ctx& c) { return c.bdim; }
SIMT_INLINE simt_dim3 simt_gridDim(const simt_ctx& c) { return c.gdim; }
SIMT_INLINE int64_t simt_grid(const simt_ctx& c, int axis) {
    if (axis == 0) return (int64_t)c.bid.x * c.bdim.x + c.tid.x;
    if (axis == 1) return (int64_t)c.bid.y * c.bdim.y + c.tid.y;
    return (int64_t)c.bid.z * c.bdim.z + c.tid.z;
}
SIMT_INLINE int64_t simt_gridsize(const simt_ctx& c, int axis) {
    if (axis == 0) return (int64_t)c.bdim.x * c.gdim.x;
    if (axis == 1) return (int64_t)c.bdim.y * c.gdim.y;
    return (int64_t)c.bdim.z * c.gdim.z;
}
SIMT_INLINE int32_t simt_laneid(const simt_ctx& c) {
    return (int32_t)(((c.tid.z * c.bdim.y + c.tid.y) * c.bdim.x + c.tid.x) & 31);
}

SIMT_INLINE simt_error_record* simt_error_slot(simt_ctx& ctx) { return ctx.launch->errors; }
SIMT_INLINE bool simt_claim_error(simt_error_record* r) {
    int32_t expected = 0;
    return __atomic_compare_exchange_n(&r->flag, &expected, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

inline char* simt_block_shared_memory(const simt_launch* L, int64_t static_shared_bytes);  // cpu_sync.h

// Block b of the grid, numbered with x fastest.
SIMT_INLINE void simt_set_block(simt_ctx& c, int64_t b) {
    const int64_t gx = c.gdim.x, gy = c.gdim.y;
    c.bid.x = (int32_t)(b % gx);
    c.bid.y = (int32_t)((b / gx) % gy);
    c.bid.z = (int32_t)(b / (gx * gy));
}

// Runs blocks [begin, end) of a launch, each block's threads as a plain loop (kernels without
// barriers or warp operations: threads of a block are independent).
template <class Body>
inline void simt_run_blocks(const simt_launch* L, int64_t begin, int64_t end, int64_t static_shared_bytes, Body body) {
    simt_ctx ctx;
    ctx.launch = L;
    ctx.bdim = L->block;
    ctx.gdim = L->grid;
    ctx.fiber = 0;
    ctx.shared = simt_block_shared_memory(L, static_shared_bytes);
    for (int64_t b = begin; b < end; ++b) {
        simt_set_block(ctx, b);
        for (int32_t z = 0; z < L->block.z; ++z)
            for (int32_t y = 0; y < L->block.y; ++y)
                for (int32_t x = 0; x < L->block.x; ++x) {
                    ctx.tid.x = x;
                    ctx.tid.y = y;
                    ctx.tid.z = z;
                    body(ctx);
                }
    }
}
