// simt prelude, both targets: shared, local and constant arrays, and numba.cuda's atomics.
// An atomic returns the element's old value; an index that the bounds rules mask out (null
// element pointer) does nothing and returns 0, like a masked load.

// ---- arrays over fixed storage ----------------------------------------------------------------
// A C-contiguous view of `data` with the given extents.
template <class T, class... D>
SIMT_INLINE simt_array<T, (int)sizeof...(D), SIMT_C> simt_make_array(T* data, D... dims) {
    simt_array<T, (int)sizeof...(D), SIMT_C> a;
    const int64_t shape[] = {(int64_t)dims...};
    a.data = data;
    int64_t stride = (int64_t)sizeof(T);
    for (int k = (int)sizeof...(D) - 1; k >= 0; --k) {
        a.shape[k] = shape[k];
        a.strides[k] = stride;
        stride *= shape[k];
    }
    return a;
}

// cuda.shared.array(0, dtype): the launch's dynamic shared memory as a 1-D array.
#if defined(SIMT_TARGET_CUDA)
extern __shared__ __align__(16) unsigned char simt_dynamic_smem[];
template <class T> SIMT_INLINE simt_array<T, 1, SIMT_C> simt_dynamic_shared_array(simt_ctx&, int64_t) {
    unsigned int bytes;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
    return simt_make_array((T*)simt_dynamic_smem, (int64_t)(bytes / sizeof(T)));
}
#else
template <class T> SIMT_INLINE simt_array<T, 1, SIMT_C> simt_dynamic_shared_array(simt_ctx& c, int64_t offset) {
    return simt_make_array((T*)(c.shared + offset), c.launch->dynamic_shared_bytes / (int64_t)sizeof(T));
}
#endif

// ---- compare-and-swap on a value's bits -------------------------------------------------------
// simt_cas: true when *p held `expected` (bitwise) and now holds `desired`; otherwise `expected`
// receives the current value.
#if defined(SIMT_TARGET_CUDA)
template <int Size> struct simt_cas_word;
template <> struct simt_cas_word<4> { typedef unsigned int type; };
template <> struct simt_cas_word<8> { typedef unsigned long long type; };
template <class T> SIMT_INLINE bool simt_cas(T* p, T& expected, T desired) {
    typedef typename simt_cas_word<sizeof(T)>::type W;
    union { T t; W w; } e, d, seen;
    e.t = expected;
    d.t = desired;
    seen.w = atomicCAS((W*)p, e.w, d.w);
    expected = seen.t;
    return seen.w == e.w;
}
template <class T> SIMT_INLINE T simt_atomic_load(T* p) { return *(volatile T*)p; }
#else
template <class T> SIMT_INLINE bool simt_cas(T* p, T& expected, T desired) {
    return __atomic_compare_exchange(p, &expected, &desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}
template <class T> SIMT_INLINE T simt_atomic_load(T* p) {
    T v;
    __atomic_load(p, &v, __ATOMIC_RELAXED);
    return v;
}
#endif

// Atomically replaces *p by `n` for as long as next(old, n) asks to; returns the old value.
template <class T, class F> SIMT_INLINE T simt_atomic_rmw(T* p, F next) {
    T old = simt_atomic_load(p), desired;
    while (next(old, desired))
        if (simt_cas(p, old, desired)) break;
    return old;
}

// ---- max/min (numba: max and min leave the element alone when either value is NaN; nanmax and
// nanmin treat NaN as missing), inc/dec (numba's wrap rules), and compare-and-swap -------------
template <class T> SIMT_INLINE T simt_atomic_max(T* p, T v) {
    if (!p) return T(0);
    if (v != v) return simt_atomic_load(p);
    return simt_atomic_rmw(p, [v](T o, T& n) { n = v; return o == o && o < v; });
}
template <class T> SIMT_INLINE T simt_atomic_min(T* p, T v) {
    if (!p) return T(0);
    if (v != v) return simt_atomic_load(p);
    return simt_atomic_rmw(p, [v](T o, T& n) { n = v; return o == o && o > v; });
}
template <class T> SIMT_INLINE T simt_atomic_nanmax(T* p, T v) {
    if (!p) return T(0);
    if (v != v) return simt_atomic_load(p);
    return simt_atomic_rmw(p, [v](T o, T& n) { n = v; return o < v || o != o; });
}
template <class T> SIMT_INLINE T simt_atomic_nanmin(T* p, T v) {
    if (!p) return T(0);
    if (v != v) return simt_atomic_load(p);
    return simt_atomic_rmw(p, [v](T o, T& n) { n = v; return o > v || o != o; });
}
template <class T> SIMT_INLINE T simt_atomic_inc(T* p, T v) {  // unsigned: old >= v ? 0 : old + 1
    if (!p) return T(0);
    return simt_atomic_rmw(p, [v](T o, T& n) { n = o >= v ? T(0) : T(o + 1); return true; });
}
template <class T> SIMT_INLINE T simt_atomic_dec(T* p, T v) {  // unsigned: old == 0 or old > v ? v : old - 1
    if (!p) return T(0);
    return simt_atomic_rmw(p, [v](T o, T& n) { n = (o == 0 || o > v) ? v : T(o - 1); return true; });
}
template <class T> SIMT_INLINE T simt_atomic_cas(T* p, T expected, T desired) {
    if (!p) return T(0);
    simt_cas(p, expected, desired);
    return expected;  // the old value whether or not the swap happened
}

// ---- add, sub, and, or, xor, exch -------------------------------------------------------------
#if defined(SIMT_TARGET_CUDA)
// Native CUDA atomics where the type has one; 64-bit signed integers use the unsigned forms
// (two's complement makes them identical).
#define SIMT_CUDA_ATOMIC(NAME, T, CALL) \
    SIMT_INLINE T NAME(T* p, T v) { return p ? (T)(CALL) : T(0); }
SIMT_CUDA_ATOMIC(simt_atomic_add, int32_t, atomicAdd((int*)p, (int)v))
SIMT_CUDA_ATOMIC(simt_atomic_add, uint32_t, atomicAdd((unsigned int*)p, (unsigned int)v))
SIMT_CUDA_ATOMIC(simt_atomic_add, int64_t, atomicAdd((unsigned long long*)p, (unsigned long long)v))
SIMT_CUDA_ATOMIC(simt_atomic_add, uint64_t, atomicAdd((unsigned long long*)p, (unsigned long long)v))
SIMT_CUDA_ATOMIC(simt_atomic_add, float, atomicAdd(p, v))
SIMT_CUDA_ATOMIC(simt_atomic_add, double, atomicAdd(p, v))
SIMT_CUDA_ATOMIC(simt_atomic_sub, int32_t, atomicSub((int*)p, (int)v))
SIMT_CUDA_ATOMIC(simt_atomic_sub, uint32_t, atomicSub((unsigned int*)p, (unsigned int)v))
SIMT_CUDA_ATOMIC(simt_atomic_sub, int64_t, atomicAdd((unsigned long long*)p, 0ull - (unsigned long long)v))
SIMT_CUDA_ATOMIC(simt_atomic_sub, uint64_t, atomicAdd((unsigned long long*)p, 0ull - (unsigned long long)v))
SIMT_CUDA_ATOMIC(simt_atomic_sub, float, atomicAdd(p, -v))
SIMT_CUDA_ATOMIC(simt_atomic_sub, double, atomicAdd(p, -v))
#define SIMT_CUDA_ATOMIC_BITS(NAME, FN)                                                         \
    SIMT_CUDA_ATOMIC(NAME, int32_t, FN((int*)p, (int)v))                                         \
    SIMT_CUDA_ATOMIC(NAME, uint32_t, FN((unsigned int*)p, (unsigned int)v))                      \
    SIMT_CUDA_ATOMIC(NAME, int64_t, FN((unsigned long long*)p, (unsigned long long)v))           \
    SIMT_CUDA_ATOMIC(NAME, uint64_t, FN((unsigned long long*)p, (unsigned long long)v))
SIMT_CUDA_ATOMIC_BITS(simt_atomic_and, atomicAnd)
SIMT_CUDA_ATOMIC_BITS(simt_atomic_or, atomicOr)
SIMT_CUDA_ATOMIC_BITS(simt_atomic_xor, atomicXor)
SIMT_CUDA_ATOMIC_BITS(simt_atomic_exch, atomicExch)
// Integer max/min and 32-bit inc/dec are native; the templates above serve floats and 64 bits.
SIMT_CUDA_ATOMIC(simt_atomic_max, int32_t, atomicMax((int*)p, (int)v))
SIMT_CUDA_ATOMIC(simt_atomic_max, uint32_t, atomicMax((unsigned int*)p, (unsigned int)v))
SIMT_CUDA_ATOMIC(simt_atomic_max, int64_t, atomicMax((long long*)p, (long long)v))
SIMT_CUDA_ATOMIC(simt_atomic_max, uint64_t, atomicMax((unsigned long long*)p, (unsigned long long)v))
SIMT_CUDA_ATOMIC(simt_atomic_min, int32_t, atomicMin((int*)p, (int)v))
SIMT_CUDA_ATOMIC(simt_atomic_min, uint32_t, atomicMin((unsigned int*)p, (unsigned int)v))
SIMT_CUDA_ATOMIC(simt_atomic_min, int64_t, atomicMin((long long*)p, (long long)v))
SIMT_CUDA_ATOMIC(simt_atomic_min, uint64_t, atomicMin((unsigned long long*)p, (unsigned long long)v))
SIMT_CUDA_ATOMIC(simt_atomic_inc, uint32_t, atomicInc((unsigned int*)p, (unsigned int)v))
SIMT_CUDA_ATOMIC(simt_atomic_dec, uint32_t, atomicDec((unsigned int*)p, (unsigned int)v))
#undef SIMT_CUDA_ATOMIC_BITS
#undef SIMT_CUDA_ATOMIC
#else
template <class T> SIMT_INLINE T simt_atomic_add(T* p, T v) { return p ? __atomic_fetch_add(p, v, __ATOMIC_RELAXED) : T(0); }
template <class T> SIMT_INLINE T simt_atomic_sub(T* p, T v) { return p ? __atomic_fetch_sub(p, v, __ATOMIC_RELAXED) : T(0); }
template <class T> SIMT_INLINE T simt_atomic_and(T* p, T v) { return p ? __atomic_fetch_and(p, v, __ATOMIC_RELAXED) : T(0); }
template <class T> SIMT_INLINE T simt_atomic_or(T* p, T v) { return p ? __atomic_fetch_or(p, v, __ATOMIC_RELAXED) : T(0); }
template <class T> SIMT_INLINE T simt_atomic_xor(T* p, T v) { return p ? __atomic_fetch_xor(p, v, __ATOMIC_RELAXED) : T(0); }
template <class T> SIMT_INLINE T simt_atomic_exch(T* p, T v) { return p ? __atomic_exchange_n(p, v, __ATOMIC_RELAXED) : T(0); }
#define SIMT_CPU_FLOAT_ATOMIC(NAME, T, OP) \
    SIMT_INLINE T NAME(T* p, T v) { return p ? simt_atomic_rmw(p, [v](T o, T& n) { n = o OP v; return true; }) : T(0); }
SIMT_CPU_FLOAT_ATOMIC(simt_atomic_add, float, +)
SIMT_CPU_FLOAT_ATOMIC(simt_atomic_add, double, +)
SIMT_CPU_FLOAT_ATOMIC(simt_atomic_sub, float, -)
SIMT_CPU_FLOAT_ATOMIC(simt_atomic_sub, double, -)
#undef SIMT_CPU_FLOAT_ATOMIC
#endif
