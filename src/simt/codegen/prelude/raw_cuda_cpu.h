// simt prelude for raw CUDA C++ (simt.RawKernel, simt.RawModule) on the cpu backend: CUDA's
// qualifiers, built-in variables, barriers, warp functions, atomics and device intrinsics over
// the cpu prelude's runtime. Joined after <math.h> and friends, cpu.h, numeric.h and cpu_sync.h
// (see codegen/raw_module.cpp); the user's code follows it.

// The entry of the kernel's table of synchronization sites that barriers and warp functions here
// report (a raw kernel's one entry; code linked into a generated kernel gets its own).
#ifndef SIMT_RAW_SITE
#define SIMT_RAW_SITE 0
#endif

// ---- qualifiers ------------------------------------------------------------------------------
#define __global__
#define __device__
#define __host__
#define __noinline__ __attribute__((noinline))
#define __forceinline__ inline __attribute__((always_inline))
#define __restrict__ __restrict
#define __launch_bounds__(...)
#define __grid_constant__
#define __managed__
#define __align__(n) alignas(n)
// A block's threads run on one OS thread (one after another, or as fibers), and blocks on the
// same OS thread run one after another: a thread_local is exactly one block's shared variable.
#define __shared__ static thread_local
// Constant memory is ordinary (read-only by convention) memory of the shared object, exported
// like __device__ variables so that RawModule.get_global() finds it.
#define __constant__
#define __CUDACC__ 1
#define __CUDACC_RTC__ 1
#define SIMT_RAW_CPU 1
#undef assert
#define assert(e) ((void)0)  // (compiled out, as with NDEBUG: a failing host assert would end the process)

// ---- vector types ------------------------------------------------------------------------------
#define SIMT_RAW_VECTOR(T, NAME, ALIGN2, ALIGN4)                                                        \
    struct alignas(sizeof(T)) NAME##1 { T x; };                                                          \
    struct alignas(ALIGN2) NAME##2 { T x, y; };                                                          \
    struct NAME##3 { T x, y, z; };                                                                       \
    struct alignas(ALIGN4) NAME##4 { T x, y, z, w; };                                                    \
    SIMT_INLINE NAME##1 make_##NAME##1(T x) { return NAME##1{x}; }                                       \
    SIMT_INLINE NAME##2 make_##NAME##2(T x, T y) { return NAME##2{x, y}; }                               \
    SIMT_INLINE NAME##3 make_##NAME##3(T x, T y, T z) { return NAME##3{x, y, z}; }                       \
    SIMT_INLINE NAME##4 make_##NAME##4(T x, T y, T z, T w) { return NAME##4{x, y, z, w}; }
SIMT_RAW_VECTOR(signed char, char, 2, 4)
SIMT_RAW_VECTOR(unsigned char, uchar, 2, 4)
SIMT_RAW_VECTOR(short, short, 4, 8)
SIMT_RAW_VECTOR(unsigned short, ushort, 4, 8)
SIMT_RAW_VECTOR(int, int, 8, 16)
SIMT_RAW_VECTOR(unsigned int, uint, 8, 16)
SIMT_RAW_VECTOR(long long, longlong, 16, 16)
SIMT_RAW_VECTOR(unsigned long long, ulonglong, 16, 16)
SIMT_RAW_VECTOR(float, float, 8, 16)
SIMT_RAW_VECTOR(double, double, 16, 16)
#undef SIMT_RAW_VECTOR

// ---- built-in variables ------------------------------------------------------------------------
struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};

namespace simt_raw {
// The thread this OS thread runs now: set before a thread's body starts and again after every
// barrier or warp operation (another thread of the block ran meanwhile).
inline thread_local simt_ctx* current = 0;
SIMT_INLINE uint3 dim(simt_dim3 d) { return uint3{(unsigned)d.x, (unsigned)d.y, (unsigned)d.z}; }
SIMT_INLINE simt_ctx& me() { return *current; }
}  // namespace simt_raw

#define threadIdx (simt_raw::dim(simt_raw::current->tid))
#define blockIdx (simt_raw::dim(simt_raw::current->bid))
#define blockDim (simt_raw::dim(simt_raw::current->bdim))
#define gridDim (simt_raw::dim(simt_raw::current->gdim))
#define warpSize 32

// `extern __shared__ T name[];` is rewritten to `constexpr simt_dynamic_shared<T> name{};`, at file
// or function scope alike (no code may run when the library loads): it finds the running block's
// memory when used, indexed, converted to T* (arithmetic) or cast to another pointer type.
SIMT_INLINE void* simt_raw_dynamic_shared() { return simt_raw::current->shared; }
template <class E> struct simt_dynamic_shared {
    E& operator[](long long j) const { return ((E*)simt_raw_dynamic_shared())[j]; }
    operator E*() const { return (E*)simt_raw_dynamic_shared(); }
    template <class P> explicit operator P*() const { return (P*)simt_raw_dynamic_shared(); }
};

// ---- barriers and fences -----------------------------------------------------------------------
#define SIMT_RAW_BARRIER(OP, P)                                   \
    simt_ctx* simt_self = simt_raw::current;                      \
    int32_t simt_r = simt_self->launch->runtime->barrier(simt_self, SIMT_RAW_SITE, OP, P); \
    simt_raw::current = simt_self;
inline void __syncthreads() { SIMT_RAW_BARRIER(SIMT_BARRIER, 0) (void)simt_r; }
inline int __syncthreads_count(int p) { SIMT_RAW_BARRIER(SIMT_BARRIER_COUNT, p != 0) return simt_r; }
inline int __syncthreads_and(int p) { SIMT_RAW_BARRIER(SIMT_BARRIER_AND, p != 0) return simt_r; }
inline int __syncthreads_or(int p) { SIMT_RAW_BARRIER(SIMT_BARRIER_OR, p != 0) return simt_r; }
#undef SIMT_RAW_BARRIER
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __nanosleep(unsigned) {}  // (CUDA allows a sleep of 0: a fiber's pause would stop its block)

// ---- warp functions ----------------------------------------------------------------------------
namespace simt_raw {
inline uint64_t warp(int op, unsigned mask, uint64_t value, int64_t arg, uint32_t* aux = 0) {
    simt_ctx* self = current;
    uint64_t r = self->launch->runtime->warp(self, SIMT_RAW_SITE, op, mask, value, arg, aux);
    current = self;
    return r;
}
inline int lane() { return simt_laneid(*current); }
// CUDA's shuffles within segments of `width` lanes, as a read of source lane `src` (or the own
// value where the source falls outside the segment).
template <class T> T shuffle_from(unsigned mask, T v, int src, int width, bool in_segment) {
    uint64_t bits = simt_to_warp_bits(v);
    uint64_t got = warp(SIMT_SHFL_IDX, mask, bits, in_segment ? src : lane());
    return simt_from_warp_bits<T>(got);
}
}  // namespace simt_raw

inline void __syncwarp(unsigned mask = 0xffffffffu) { simt_raw::warp(SIMT_WARP_SYNC, mask, 0, 0); }
inline unsigned __activemask() { return (unsigned)simt_raw::warp(SIMT_ACTIVEMASK, 0, 0, 0); }
inline int __all_sync(unsigned mask, int p) { return simt_raw::warp(SIMT_VOTE_ALL, mask, p != 0, 0) != 0; }
inline int __any_sync(unsigned mask, int p) { return simt_raw::warp(SIMT_VOTE_ANY, mask, p != 0, 0) != 0; }
inline int __uni_sync(unsigned mask, int p) { return simt_raw::warp(SIMT_VOTE_UNI, mask, p != 0, 0) != 0; }
inline unsigned __ballot_sync(unsigned mask, int p) { return (unsigned)simt_raw::warp(SIMT_VOTE_BALLOT, mask, p != 0, 0); }
template <class T> unsigned __match_any_sync(unsigned mask, T v) {
    return (unsigned)simt_raw::warp(SIMT_MATCH_ANY, mask, simt_to_warp_bits(v), 0);
}
template <class T> unsigned __match_all_sync(unsigned mask, T v, int* pred) {
    uint32_t all = 0;
    unsigned r = (unsigned)simt_raw::warp(SIMT_MATCH_ALL, mask, simt_to_warp_bits(v), 0, &all);
    *pred = all != 0;
    return r;
}
template <class T> T __shfl_sync(unsigned mask, T v, int src, int width = 32) {
    const int base = simt_raw::lane() & ~(width - 1);
    return simt_raw::shuffle_from(mask, v, base + (src & (width - 1)), width, true);
}
template <class T> T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = 32) {
    const int l = simt_raw::lane(), base = l & ~(width - 1);
    return simt_raw::shuffle_from(mask, v, l - (int)delta, width, l - (int)delta >= base);
}
template <class T> T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = 32) {
    const int l = simt_raw::lane(), base = l & ~(width - 1);
    return simt_raw::shuffle_from(mask, v, l + (int)delta, width, l + (int)delta < base + width);
}
template <class T> T __shfl_xor_sync(unsigned mask, T v, int lane_mask, int width = 32) {
    const int l = simt_raw::lane(), base = l & ~(width - 1), src = l ^ lane_mask;
    return simt_raw::shuffle_from(mask, v, src, width, src >= base && src < base + width);
}
template <class T> T __reduce_add_sync(unsigned mask, T v) {
    T total = 0;
    for (int src = 0; src < 32; ++src) total += (mask >> src & 1u) ? __shfl_sync(mask, v, src) : T(0);
    return total;
}

// ---- atomics (host memory, real atomics: blocks run in parallel) -------------------------------
namespace simt_raw {
template <class T> T float_update(T* p, T (*f)(T, T), T v) {
    typedef typename std::conditional<sizeof(T) == 4, uint32_t, uint64_t>::type U;
    U* bits = (U*)p;
    U old = __atomic_load_n(bits, __ATOMIC_RELAXED);
    for (;;) {
        T x;
        __builtin_memcpy(&x, &old, sizeof(T));
        T y = f(x, v);
        U ny;
        __builtin_memcpy(&ny, &y, sizeof(T));
        if (__atomic_compare_exchange_n(bits, &old, ny, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) return x;
    }
}
template <class T> T add(T a, T b) { return a + b; }
template <class T> T sub(T a, T b) { return a - b; }
template <class T> T exch(T, T b) { return b; }
template <class T> T lo(T a, T b) { return b < a ? b : a; }
template <class T> T hi(T a, T b) { return a < b ? b : a; }
}  // namespace simt_raw

template <class T> T atomicAdd(T* p, T v) {
    if constexpr (std::is_floating_point<T>::value) return simt_raw::float_update<T>(p, simt_raw::add<T>, v);
    else return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
}
template <class T> T atomicSub(T* p, T v) { return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST); }
template <class T> T atomicExch(T* p, T v) {
    if constexpr (std::is_floating_point<T>::value) return simt_raw::float_update<T>(p, simt_raw::exch<T>, v);
    else return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
}
template <class T> T atomicMin(T* p, T v) {
    if constexpr (std::is_floating_point<T>::value) return simt_raw::float_update<T>(p, simt_raw::lo<T>, v);
    else return __atomic_fetch_min(p, v, __ATOMIC_SEQ_CST);
}
template <class T> T atomicMax(T* p, T v) {
    if constexpr (std::is_floating_point<T>::value) return simt_raw::float_update<T>(p, simt_raw::hi<T>, v);
    else return __atomic_fetch_max(p, v, __ATOMIC_SEQ_CST);
}
template <class T> T atomicAnd(T* p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); }
template <class T> T atomicOr(T* p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }
template <class T> T atomicXor(T* p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); }
template <class T> T atomicCAS(T* p, T compare, T v) {
    __atomic_compare_exchange_n(p, &compare, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return compare;  // (the old value either way)
}
inline unsigned atomicInc(unsigned* p, unsigned limit) {
    unsigned old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(p, &old, old >= limit ? 0u : old + 1u, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
    }
    return old;
}
inline unsigned atomicDec(unsigned* p, unsigned limit) {
    unsigned old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(p, &old, (old == 0 || old > limit) ? limit : old - 1u, true, __ATOMIC_SEQ_CST,
                                        __ATOMIC_RELAXED)) {
    }
    return old;
}
#define SIMT_RAW_SCOPED_ATOMIC(NAME)                                                       \
    template <class T, class... A> T NAME##_block(T* p, A... a) { return NAME(p, a...); }  \
    template <class T, class... A> T NAME##_system(T* p, A... a) { return NAME(p, a...); }
SIMT_RAW_SCOPED_ATOMIC(atomicAdd) SIMT_RAW_SCOPED_ATOMIC(atomicSub) SIMT_RAW_SCOPED_ATOMIC(atomicExch)
SIMT_RAW_SCOPED_ATOMIC(atomicMin) SIMT_RAW_SCOPED_ATOMIC(atomicMax) SIMT_RAW_SCOPED_ATOMIC(atomicAnd)
SIMT_RAW_SCOPED_ATOMIC(atomicOr) SIMT_RAW_SCOPED_ATOMIC(atomicXor) SIMT_RAW_SCOPED_ATOMIC(atomicCAS)
#undef SIMT_RAW_SCOPED_ATOMIC

// ---- integer and float intrinsics --------------------------------------------------------------
template <class A, class B> SIMT_INLINE typename std::common_type<A, B>::type min(A a, B b) {
    typedef typename std::common_type<A, B>::type T;
    return (T)b < (T)a ? (T)b : (T)a;
}
template <class A, class B> SIMT_INLINE typename std::common_type<A, B>::type max(A a, B b) {
    typedef typename std::common_type<A, B>::type T;
    return (T)a < (T)b ? (T)b : (T)a;
}
SIMT_INLINE int __popc(unsigned x) { return __builtin_popcount(x); }
SIMT_INLINE int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
SIMT_INLINE int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
SIMT_INLINE int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
SIMT_INLINE int __ffs(int x) { return __builtin_ffs(x); }
SIMT_INLINE int __ffsll(long long x) { return __builtin_ffsll(x); }
SIMT_INLINE unsigned __brev(unsigned x) { return simt_brev((uint32_t)x); }
SIMT_INLINE unsigned long long __brevll(unsigned long long x) { return simt_brev((uint64_t)x); }
SIMT_INLINE int __mul24(int a, int b) { return (int)((int64_t)(a << 8 >> 8) * (b << 8 >> 8)); }
SIMT_INLINE unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
SIMT_INLINE int __mulhi(int a, int b) { return (int)(((int64_t)a * b) >> 32); }
SIMT_INLINE unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((uint64_t)a * b) >> 32); }
SIMT_INLINE long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
SIMT_INLINE unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
SIMT_INLINE unsigned __sad(int a, int b, unsigned c) { return c + (unsigned)(a > b ? a - b : b - a); }
SIMT_INLINE unsigned __usad(unsigned a, unsigned b, unsigned c) { return c + (a > b ? a - b : b - a); }
SIMT_INLINE unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s) {
    return (unsigned)((((uint64_t)hi << 32 | lo) << (s & 31)) >> 32);
}
SIMT_INLINE unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s) {
    return (unsigned)(((uint64_t)hi << 32 | lo) >> (s & 31));
}
template <class T> SIMT_INLINE T __ldg(const T* p) { return *p; }
template <class T> SIMT_INLINE T __ldcg(const T* p) { return *p; }
template <class T> SIMT_INLINE T __ldca(const T* p) { return *p; }
template <class T> SIMT_INLINE T __ldcs(const T* p) { return *p; }
template <class T> SIMT_INLINE void __stcg(T* p, T v) { *p = v; }
template <class T> SIMT_INLINE void __stcs(T* p, T v) { *p = v; }
template <class T> SIMT_INLINE void __stwb(T* p, T v) { *p = v; }

SIMT_INLINE float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
SIMT_INLINE int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
SIMT_INLINE float __uint_as_float(unsigned x) { return __builtin_bit_cast(float, x); }
SIMT_INLINE unsigned __float_as_uint(float x) { return __builtin_bit_cast(unsigned, x); }
SIMT_INLINE double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
SIMT_INLINE long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
SIMT_INLINE int __float2int_rn(float x) { return (int)nearbyintf(x); }
SIMT_INLINE int __float2int_rz(float x) { return (int)x; }
SIMT_INLINE int __float2int_rd(float x) { return (int)floorf(x); }
SIMT_INLINE int __float2int_ru(float x) { return (int)ceilf(x); }
SIMT_INLINE unsigned __float2uint_rn(float x) { return (unsigned)nearbyintf(x); }
SIMT_INLINE long long __float2ll_rn(float x) { return (long long)nearbyintf(x); }
SIMT_INLINE int __double2int_rn(double x) { return (int)nearbyint(x); }
SIMT_INLINE long long __double2ll_rn(double x) { return (long long)nearbyint(x); }
SIMT_INLINE float __int2float_rn(int x) { return (float)x; }
SIMT_INLINE float __uint2float_rn(unsigned x) { return (float)x; }
SIMT_INLINE double __int2double_rn(int x) { return (double)x; }
SIMT_INLINE float __double2float_rn(double x) { return (float)x; }

// Device math beyond <math.h>: the fast intrinsics compute what their exact versions compute.
SIMT_INLINE float rsqrtf(float x) { return 1.0f / sqrtf(x); }
SIMT_INLINE double rsqrt(double x) { return 1.0 / sqrt(x); }
SIMT_INLINE float rcbrtf(float x) { return 1.0f / cbrtf(x); }
SIMT_INLINE double rcbrt(double x) { return 1.0 / cbrt(x); }
SIMT_INLINE float sinpif(float x) { return sinf((float)M_PI * x); }
SIMT_INLINE float cospif(float x) { return cosf((float)M_PI * x); }
SIMT_INLINE double sinpi(double x) { return sin(M_PI * x); }
SIMT_INLINE double cospi(double x) { return cos(M_PI * x); }
SIMT_INLINE float normcdff(float x) { return 0.5f * erfcf(-x * (float)M_SQRT1_2); }
SIMT_INLINE double normcdf(double x) { return 0.5 * erfc(-x * M_SQRT1_2); }
SIMT_INLINE float fdividef(float a, float b) { return a / b; }
SIMT_INLINE float __fdividef(float a, float b) { return a / b; }
SIMT_INLINE float __expf(float x) { return expf(x); }
SIMT_INLINE float __exp10f(float x) { return exp10f(x); }
SIMT_INLINE float __logf(float x) { return logf(x); }
SIMT_INLINE float __log2f(float x) { return log2f(x); }
SIMT_INLINE float __log10f(float x) { return log10f(x); }
SIMT_INLINE float __sinf(float x) { return sinf(x); }
SIMT_INLINE float __cosf(float x) { return cosf(x); }
SIMT_INLINE float __tanf(float x) { return tanf(x); }
SIMT_INLINE void __sincosf(float x, float* s, float* c) { sincosf(x, s, c); }
SIMT_INLINE float __powf(float a, float b) { return powf(a, b); }
SIMT_INLINE float __saturatef(float x) { return x != x ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
SIMT_INLINE float __frcp_rn(float x) { return 1.0f / x; }
SIMT_INLINE float __fsqrt_rn(float x) { return sqrtf(x); }
SIMT_INLINE float __fadd_rn(float a, float b) { return a + b; }
SIMT_INLINE float __fsub_rn(float a, float b) { return a - b; }
SIMT_INLINE float __fmul_rn(float a, float b) { return a * b; }
SIMT_INLINE float __fdiv_rn(float a, float b) { return a / b; }
SIMT_INLINE float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
SIMT_INLINE double __dadd_rn(double a, double b) { return a + b; }
SIMT_INLINE double __dmul_rn(double a, double b) { return a * b; }
SIMT_INLINE double __fma_rn(double a, double b, double c) { return fma(a, b, c); }

// ---- printf ------------------------------------------------------------------------------------
template <class... A> int simt_raw_printf(const char* format, A... args) {
    simt_ctx* self = simt_raw::current;
    self->launch->runtime->print(self, format, args...);
    simt_raw::current = self;
    return 0;
}
#define printf(...) simt_raw_printf(__VA_ARGS__)

// ---- launching: one exported entry per kernel (see codegen/raw_module.cpp) ------------------------
namespace simt_raw {
template <class T> SIMT_INLINE T argument(void* const* args, int i) {
    T v;
    __builtin_memcpy((void*)&v, args[i], sizeof(T));
    return v;
}
template <class... P, size_t... I>
SIMT_INLINE void call(void (*kernel)(P...), void* const* args, std::index_sequence<I...>) {
    kernel(argument<typename std::decay<P>::type>(args, (int)I)...);
}
template <class... P>
void run(const simt_launch* L, void* const* args, int64_t begin, int64_t end, void (*kernel)(P...), bool fibers,
         const char* name, const char* const* sites) {
    auto body = [&](simt_ctx& ctx) {
        current = &ctx;
        call(kernel, args, std::index_sequence_for<P...>{});
    };
    // (fiber stacks: raw kernels declare their local arrays in C++, unseen by simt: a generous 64 KiB)
    if (fibers) simt_run_blocks_fibers(L, begin, end, name, sites, 1, 0, 65536, 0, body);
    else simt_run_blocks(L, begin, end, 0, body);
}
// The byte size of each parameter: launches check the arguments against them.
template <class... P> struct parameter_sizes {
    static constexpr int64_t value[] = {(int64_t)sizeof...(P), (int64_t)sizeof(typename std::decay<P>::type)...};
};
template <class... P> const int64_t* sizes_of(void (*)(P...)) { return parameter_sizes<P...>::value; }
}  // namespace simt_raw
