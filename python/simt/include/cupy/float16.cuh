// simt's <cupy/float16.cuh>: CuPy's `float16` element type for user kernels, written for simt.
// A float16 converts to float implicitly, so arithmetic on it computes in float, and a float
// assigned to it rounds once to half (round to nearest even), as in CuPy; other types convert
// explicitly, or on assignment. On the cuda backend the bits convert with the GPU's own cvt
// instructions and <cuda_fp16.h> is included (its `half` and intrinsics are there for kernels
// that use them); on the cpu backend the conversions are simt's software ones (prelude numeric.h)
// and a small host `half` / `__half` gives cuda_fp16's conversions and + - * /.
#pragma once
#ifndef SIMT_CUPY_FLOAT16_CUH
#define SIMT_CUPY_FLOAT16_CUH

#ifdef SIMT_RAW_CPU
namespace simt_fp16 {
__forceinline__ unsigned short from_float(float f) { return simt_half_from_float(f); }
__forceinline__ unsigned short from_double(double d) { return simt_half_from_double(d); }
__forceinline__ float to_float(unsigned short h) { return simt_half_to_float(h); }
}  // namespace simt_fp16

// cuda_fp16's half type, for the host: bits, with conversions through float.
struct __half_raw { unsigned short x; };
struct __half {
    unsigned short __x;
    __half() = default;
    __half(float f) : __x(simt_fp16::from_float(f)) {}
    __half(double d) : __x(simt_fp16::from_double(d)) {}
    __half(__half_raw r) : __x(r.x) {}
    operator float() const { return simt_fp16::to_float(__x); }
    operator __half_raw() const { return __half_raw{__x}; }
};
typedef __half half;
__forceinline__ __half __float2half(float f) { return __half(f); }
__forceinline__ __half __float2half_rn(float f) { return __half(f); }
__forceinline__ __half __double2half(double d) { return __half(d); }
__forceinline__ float __half2float(__half h) { return float(h); }
__forceinline__ unsigned short __half_as_ushort(__half h) { return h.__x; }
__forceinline__ __half __ushort_as_half(unsigned short bits) { return __half(__half_raw{bits}); }
__forceinline__ __half __hadd(__half a, __half b) { return __half(float(a) + float(b)); }
__forceinline__ __half __hsub(__half a, __half b) { return __half(float(a) - float(b)); }
__forceinline__ __half __hmul(__half a, __half b) { return __half(float(a) * float(b)); }
__forceinline__ __half __hdiv(__half a, __half b) { return __half(float(a) / float(b)); }
__forceinline__ __half __hneg(__half a) { return __ushort_as_half((unsigned short)(a.__x ^ 0x8000u)); }
__forceinline__ __half operator+(__half a, __half b) { return __hadd(a, b); }
__forceinline__ __half operator-(__half a, __half b) { return __hsub(a, b); }
__forceinline__ __half operator*(__half a, __half b) { return __hmul(a, b); }
__forceinline__ __half operator/(__half a, __half b) { return __hdiv(a, b); }
__forceinline__ __half operator-(__half a) { return __hneg(a); }
#else
#include <cuda_fp16.h>
namespace simt_fp16 {
__host__ __device__ __forceinline__ unsigned short from_float(float f) { return __half_as_ushort(__float2half_rn(f)); }
__host__ __device__ __forceinline__ unsigned short from_double(double d) { return __half_as_ushort(__double2half(d)); }
__host__ __device__ __forceinline__ float to_float(unsigned short h) { return __half2float(__ushort_as_half(h)); }
}  // namespace simt_fp16
#endif

class float16 {
    unsigned short bits_;

public:
    // (an empty constructor: CUDA allows such types in __shared__ memory)
    __host__ __device__ float16() {}
    __host__ __device__ float16(float v) : bits_(simt_fp16::from_float(v)) {}
    __host__ __device__ explicit float16(double v) : bits_(simt_fp16::from_double(v)) {}
    __host__ __device__ explicit float16(bool v) : bits_(v ? 0x3c00u : 0u) {}
    __host__ __device__ explicit float16(int v) : bits_(simt_fp16::from_float(float(v))) {}
    __host__ __device__ explicit float16(unsigned int v) : bits_(simt_fp16::from_double(double(v))) {}
    __host__ __device__ explicit float16(long long v) : bits_(simt_fp16::from_double(double(v))) {}
    __host__ __device__ explicit float16(unsigned long long v) : bits_(simt_fp16::from_double(double(v))) {}
    __host__ __device__ explicit float16(const __half& h) : bits_(__half_as_ushort(h)) {}

    __host__ __device__ operator float() const { return simt_fp16::to_float(bits_); }
    __host__ __device__ explicit operator __half() const { return __ushort_as_half(bits_); }

    float16& operator=(const float16&) = default;
    // Any value with an explicit conversion may be assigned (CuPy's kernels rely on it).
    template <class T> __host__ __device__ float16& operator=(const T& v) { return *this = static_cast<float16>(v); }
    template <class T> __host__ __device__ float16& operator+=(const T& v) { return *this = float(*this) + v; }
    template <class T> __host__ __device__ float16& operator-=(const T& v) { return *this = float(*this) - v; }
    template <class T> __host__ __device__ float16& operator*=(const T& v) { return *this = float(*this) * v; }
    template <class T> __host__ __device__ float16& operator/=(const T& v) { return *this = float(*this) / v; }

    __host__ __device__ unsigned short to_bits() const { return bits_; }
    __host__ __device__ static float16 from_bits(unsigned short b) { float16 h; h.bits_ = b; return h; }
    __host__ __device__ int iszero() const { return (bits_ & 0x7fffu) == 0; }
    __host__ __device__ int isnan() const { return (bits_ & 0x7c00u) == 0x7c00u && (bits_ & 0x03ffu) != 0; }
    __host__ __device__ int isinf() const { return (bits_ & 0x7fffu) == 0x7c00u; }
    __host__ __device__ int isfinite() const { return (bits_ & 0x7c00u) != 0x7c00u; }
    __host__ __device__ int signbit() const { return (bits_ & 0x8000u) != 0; }
};

__host__ __device__ inline int iszero(float16 x) { return x.iszero(); }
__host__ __device__ inline int isnan(float16 x) { return x.isnan(); }
__host__ __device__ inline int isinf(float16 x) { return x.isinf(); }
__host__ __device__ inline int isfinite(float16 x) { return x.isfinite(); }
__host__ __device__ inline int signbit(float16 x) { return x.signbit(); }
__host__ __device__ inline float16 copysign(float16 x, float16 y) {
    return float16::from_bits((unsigned short)((x.to_bits() & 0x7fffu) | (y.to_bits() & 0x8000u)));
}
// min/max as CUDA's on floats (and CuPy's on float16): a NaN operand gives the other one.
__host__ __device__ inline float16 min(float16 x, float16 y) { return x.isnan() ? y : y.isnan() ? x : float(y) < float(x) ? y : x; }
__host__ __device__ inline float16 max(float16 x, float16 y) { return x.isnan() ? y : y.isnan() ? x : float(x) < float(y) ? y : x; }
__host__ __device__ inline float16 fmin(float16 x, float16 y) { return x.isnan() ? y : y.isnan() ? x : float(y) < float(x) ? y : x; }
__host__ __device__ inline float16 fmax(float16 x, float16 y) { return x.isnan() ? y : y.isnan() ? x : float(x) < float(y) ? y : x; }
// The next representable half after x towards y.
__host__ __device__ inline float16 nextafter(float16 x, float16 y) {
    if (x.isnan() || y.isnan()) return float16::from_bits(0x7e00u);
    const unsigned short a = x.to_bits(), b = y.to_bits();
    if (float(x) == float(y)) return y;
    if (x.iszero()) return float16::from_bits((unsigned short)((b & 0x8000u) | 1u));
    const bool away = (float(x) < float(y)) == !x.signbit();  // moving away from zero
    return float16::from_bits((unsigned short)(away ? a + 1 : a - 1));
}

#endif  // SIMT_CUPY_FLOAT16_CUH
