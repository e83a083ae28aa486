// simt prelude, cuda target: barriers, warp operations, bit operations and print, mapped onto
// CUDA's intrinsics (same names and signatures as cpu_sync.h; the site arguments only matter
// to the cpu backend's error reports).

// ---- barriers and fences ----------------------------------------------------------------------
SIMT_INLINE void simt_syncthreads(simt_ctx&, int) { __syncthreads(); }
SIMT_INLINE int32_t simt_syncthreads_count(simt_ctx&, int, bool p) { return __syncthreads_count(p); }
SIMT_INLINE int32_t simt_syncthreads_and(simt_ctx&, int, bool p) { return __syncthreads_and(p); }
SIMT_INLINE int32_t simt_syncthreads_or(simt_ctx&, int, bool p) { return __syncthreads_or(p); }
SIMT_INLINE void simt_syncwarp(simt_ctx&, int, uint32_t mask) { __syncwarp(mask); }
SIMT_INLINE void simt_threadfence() { __threadfence(); }
SIMT_INLINE void simt_threadfence_block() { __threadfence_block(); }
SIMT_INLINE void simt_threadfence_system() { __threadfence_system(); }
SIMT_INLINE void simt_nanosleep(uint32_t ns) { __nanosleep(ns); }

// ---- warp operations --------------------------------------------------------------------------
template <class T> SIMT_INLINE T simt_shfl_sync(simt_ctx&, int, uint32_t mask, T v, int64_t lane) { return __shfl_sync(mask, v, (int)lane); }
template <class T> SIMT_INLINE T simt_shfl_up_sync(simt_ctx&, int, uint32_t mask, T v, int64_t delta) { return __shfl_up_sync(mask, v, (unsigned)delta); }
template <class T> SIMT_INLINE T simt_shfl_down_sync(simt_ctx&, int, uint32_t mask, T v, int64_t delta) { return __shfl_down_sync(mask, v, (unsigned)delta); }
template <class T> SIMT_INLINE T simt_shfl_xor_sync(simt_ctx&, int, uint32_t mask, T v, int64_t lanes) { return __shfl_xor_sync(mask, v, (int)lanes); }
SIMT_INLINE bool simt_all_sync(simt_ctx&, int, uint32_t mask, bool p) { return __all_sync(mask, p) != 0; }
SIMT_INLINE bool simt_any_sync(simt_ctx&, int, uint32_t mask, bool p) { return __any_sync(mask, p) != 0; }
SIMT_INLINE bool simt_eq_sync(simt_ctx&, int, uint32_t mask, bool p) { return __uni_sync(mask, p) != 0; }
SIMT_INLINE uint32_t simt_ballot_sync(simt_ctx&, int, uint32_t mask, bool p) { return __ballot_sync(mask, p); }
template <class T> SIMT_INLINE uint32_t simt_match_any_sync(simt_ctx&, int, uint32_t mask, T v) { return __match_any_sync(mask, v); }
template <class T> SIMT_INLINE uint32_t simt_match_all_sync(simt_ctx&, int, uint32_t mask, T v, bool* pred) {
    int p = 0;
    uint32_t r = __match_all_sync(mask, v, &p);
    *pred = p != 0;
    return r;
}
SIMT_INLINE uint32_t simt_activemask(simt_ctx&, int) { return __activemask(); }
SIMT_INLINE uint32_t simt_lanemask_lt(simt_ctx&) {
    unsigned int m;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
    return m;
}

// ---- bit operations (numba.cuda's popc, clz, ffs, brev) ----------------------------------------
SIMT_INLINE int8_t simt_popc(int8_t x) { return (int8_t)__popc((uint8_t)x); }
SIMT_INLINE uint8_t simt_popc(uint8_t x) { return (uint8_t)__popc(x); }
SIMT_INLINE int16_t simt_popc(int16_t x) { return (int16_t)__popc((uint16_t)x); }
SIMT_INLINE uint16_t simt_popc(uint16_t x) { return (uint16_t)__popc(x); }
SIMT_INLINE int32_t simt_popc(int32_t x) { return __popc((uint32_t)x); }
SIMT_INLINE uint32_t simt_popc(uint32_t x) { return (uint32_t)__popc(x); }
SIMT_INLINE int64_t simt_popc(int64_t x) { return __popcll((unsigned long long)x); }
SIMT_INLINE uint64_t simt_popc(uint64_t x) { return (uint64_t)__popcll(x); }
SIMT_INLINE int8_t simt_clz(int8_t x) { return (int8_t)(__clz((int)(uint8_t)x) - 24); }
SIMT_INLINE uint8_t simt_clz(uint8_t x) { return (uint8_t)(__clz((int)x) - 24); }
SIMT_INLINE int16_t simt_clz(int16_t x) { return (int16_t)(__clz((int)(uint16_t)x) - 16); }
SIMT_INLINE uint16_t simt_clz(uint16_t x) { return (uint16_t)(__clz((int)x) - 16); }
SIMT_INLINE int32_t simt_clz(int32_t x) { return __clz(x); }
SIMT_INLINE uint32_t simt_clz(uint32_t x) { return (uint32_t)__clz((int)x); }
SIMT_INLINE int64_t simt_clz(int64_t x) { return __clzll((long long)x); }
SIMT_INLINE uint64_t simt_clz(uint64_t x) { return (uint64_t)__clzll((long long)x); }
SIMT_INLINE uint32_t simt_ffs(int8_t x) { return (uint32_t)__ffs((int)(uint8_t)x); }
SIMT_INLINE uint32_t simt_ffs(uint8_t x) { return (uint32_t)__ffs((int)x); }
SIMT_INLINE uint32_t simt_ffs(int16_t x) { return (uint32_t)__ffs((int)(uint16_t)x); }
SIMT_INLINE uint32_t simt_ffs(uint16_t x) { return (uint32_t)__ffs((int)x); }
SIMT_INLINE uint32_t simt_ffs(int32_t x) { return (uint32_t)__ffs(x); }
SIMT_INLINE uint32_t simt_ffs(uint32_t x) { return (uint32_t)__ffs((int)x); }
SIMT_INLINE uint32_t simt_ffs(int64_t x) { return (uint32_t)__ffsll((long long)x); }
SIMT_INLINE uint32_t simt_ffs(uint64_t x) { return (uint32_t)__ffsll((long long)x); }
SIMT_INLINE uint32_t simt_brev(uint32_t x) { return __brev(x); }
SIMT_INLINE uint64_t simt_brev(uint64_t x) { return __brevll(x); }
SIMT_INLINE float simt_fma(float a, float b, float c) { return fmaf(a, b, c); }
SIMT_INLINE double simt_fma(double a, double b, double c) { return fma(a, b, c); }
SIMT_INLINE float simt_cbrt(float a) { return cbrtf(a); }
SIMT_INLINE double simt_cbrt(double a) { return cbrt(a); }

// ---- print ------------------------------------------------------------------------------------
template <class... A> SIMT_INLINE void simt_print(simt_ctx&, const char* format, A... args) { printf(format, args...); }
