// simt prelude, both targets: array views with bounds-aware element access, Python's
// arithmetic semantics (floor division, modulo, power, shifts).
#define SIMT_BOUNDS_MASKED 0
#define SIMT_BOUNDS_CHECKED 1
#define SIMT_BOUNDS_UNCHECKED 2

// The bounds mode (one of the above) is defined by each kernel's source after the prelude:
//   template <int> struct simt_bounds_config { static constexpr int mode = ...; };
// so that the prelude is the same text for every kernel (NVRTC precompiles it once per process).
// Templates read it through a dependent name, looked up when a kernel instantiates them.
template <int Unused> struct simt_bounds_config;
template <class T> struct simt_bounds_of { static constexpr int mode = simt_bounds_config<sizeof(T) * 0>::mode; };

// (The float16 and complex types are in numeric.h, joined before this file.)

// x.view(dtype) of a number: its bits read as another type of the same size.
template <class To, class From> SIMT_INLINE To simt_bit_cast(From v) {
    To r;
#ifdef SIMT_TARGET_CUDA
    memcpy(&r, &v, sizeof(To));  // a device builtin in CUDA C++ (NVRTC has no __builtin_memcpy)
#else
    __builtin_memcpy(&r, &v, sizeof(To));
#endif
    return r;
}

// ---- truthiness, min/max/abs, special values --------------------------------------------------
template <class T> SIMT_INLINE bool simt_truthy(T x) { return x != 0; }
template <class R> SIMT_INLINE bool simt_truthy(simt_complex<R> x) { return x.re != 0 || x.im != 0; }
SIMT_INLINE bool simt_truthy(simt_half x) { return (float)x != 0.0f; }
template <class T> SIMT_INLINE T simt_min(T a, T b) { return b < a ? b : a; }  // Python: first wins ties and NaN
template <class T> SIMT_INLINE T simt_max(T a, T b) { return b > a ? b : a; }
template <class T> SIMT_INLINE T simt_abs(T a) { return a < 0 ? simt_wrap_neg(a) : a; }  // abs(INT64_MIN) wraps, as in NumPy
SIMT_INLINE double simt_abs(double a) { return fabs(a); }
SIMT_INLINE float simt_abs(float a) { return fabsf(a); }
template <class R> SIMT_INLINE R simt_abs(simt_complex<R> a) { return (R)hypot((double)a.re, (double)a.im); }
SIMT_INLINE float simt_abs(simt_complex64 a) { return hypotf(a.re, a.im); }
template <class T> SIMT_INLINE bool simt_isnan(T x) { return x != x; }
template <class T> SIMT_INLINE bool simt_isinf(T x) { return x == (T)simt_inf() || x == -(T)simt_inf(); }
template <class T> SIMT_INLINE bool simt_isfinite(T x) { return !simt_isnan(x) && !simt_isinf(x); }
SIMT_INLINE double simt_rint(double x) { return rint(x); }
SIMT_INLINE float simt_rint(float x) { return rintf(x); }
template <class T> SIMT_INLINE T simt_round_digits(T x, int64_t n) {
    double p = 1.0;
    for (int64_t i = 0; i < (n < 0 ? -n : n); ++i) p *= 10.0;
    double y = n >= 0 ? rint((double)x * p) / p : rint((double)x / p) * p;
    return (T)y;
}

// ---- Python integer and float arithmetic ------------------------------------------------------
// Division or modulo by zero gives 0 for integers and inf/nan for floats (numba's numpy error model).
// x / -1 is special-cased: INT_MIN / -1 overflows, which traps on x86 (the result wraps, as in NumPy).
template <class T> SIMT_INLINE T simt_floordiv(T a, T b) {
    if (b == 0) return 0;
    if ((T)-1 < (T)0 && b == (T)-1) return (T)((T)0 - a);
    T q = a / b;
    if ((T)(a % b) != 0 && ((a < 0) != (b < 0))) q -= 1;
    return q;
}
template <class T> SIMT_INLINE T simt_mod(T a, T b) {
    if (b == 0) return 0;
    if ((T)-1 < (T)0 && b == (T)-1) return 0;
    T r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}
#define SIMT_FLOAT_DIVMOD(T, FMOD, FLOOR, COPYSIGN)                                    \
    SIMT_INLINE T simt_mod(T a, T b) {                                                 \
        if (b == 0) return a / b * 0;                                                  \
        T m = FMOD(a, b);                                                              \
        if (m != 0) { if ((b < 0) != (m < 0)) m += b; }                               \
        else m = COPYSIGN((T)0, b);                                                    \
        return m;                                                                      \
    }                                                                                  \
    SIMT_INLINE T simt_floordiv(T a, T b) {                                            \
        if (b == 0) return a / b;                                                      \
        T m = FMOD(a, b);                                                              \
        T d = (a - m) / b;                                                             \
        if (m != 0 && ((b < 0) != (m < 0))) d -= 1;                                    \
        if (d == 0) return COPYSIGN((T)0, a / b);                                      \
        T f = FLOOR(d);                                                                \
        if (d - f > (T)0.5) f += 1;                                                    \
        return f;                                                                      \
    }
SIMT_FLOAT_DIVMOD(double, fmod, floor, copysign)
SIMT_FLOAT_DIVMOD(float, fmodf, floorf, copysignf)

template <class T> SIMT_INLINE T simt_pow(T a, T b) {  // integers
    if (b < 0) return a == 1 ? 1 : a == (T)-1 ? ((b & 1) ? (T)-1 : 1) : 0;
    T r = 1;
    while (b) { if (b & 1) r *= a; a *= a; b >>= 1; }
    return r;
}
SIMT_INLINE double simt_pow(double a, double b) { return pow(a, b); }
SIMT_INLINE float simt_pow(float a, float b) { return powf(a, b); }
template <class F> SIMT_INLINE F simt_powi(F a, int64_t n) {
    uint64_t m = n < 0 ? (uint64_t)0 - (uint64_t)n : (uint64_t)n;
    F r = 1;
    while (m) { if (m & 1) r *= a; a *= a; m >>= 1; }
    return n < 0 ? (F)1 / r : r;
}
SIMT_INLINE double simt_pow(double a, int64_t n) { return simt_powi(a, n); }
SIMT_INLINE float simt_pow(float a, int64_t n) { return simt_powi(a, n); }
// Shifts by the type's width or more give what NumPy gives (0, or the sign for >>); a negative
// value shifts left as its unsigned bits (C++17 leaves that undefined).
template <class T> SIMT_INLINE T simt_lshift(T a, T b) {
    return (uint64_t)b >= 8 * sizeof(T) ? (T)0 : (T)((typename simt_unsigned_of<T>::type)a << b);
}
template <class T> SIMT_INLINE T simt_rshift(T a, T b) { return (uint64_t)b >= 8 * sizeof(T) ? (T)(a < 0 ? -1 : 0) : (T)(a >> b); }

// ---- arrays -----------------------------------------------------------------------------------
enum { SIMT_C = 0, SIMT_F = 1, SIMT_A = 2 };
// Index arrays hold one slot more than a 0-d access needs: C++ has no arrays of length 0.
#define SIMT_SLOTS(N) ((N) > 0 ? (N) : 1)

// A kernel's view of an array: data pointer, extents, and strides in bytes. The same bytes are
// packed by the host launcher (runtime/argument_pack.cpp).
template <class T, int N> struct simt_array_fields {
    T* data;
    int64_t shape[N];
    int64_t strides[N];
};
// A 0-d array is its data pointer alone (8 bytes, as the host packs it): NVRTC rejects
// zero-length arrays. shape and strides stay names, so loops over k < N still compile.
template <class T> struct simt_array_fields<T, 0> {
    T* data;
    static constexpr int64_t* shape = nullptr;
    static constexpr int64_t* strides = nullptr;
};
template <class T, int N, int L>
struct simt_array : simt_array_fields<T, N> {
    simt_array() = default;
    template <int L2>
    SIMT_INLINE simt_array(const simt_array<T, N, L2>& o) {
        this->data = o.data;
        for (int k = 0; k < N; ++k) { this->shape[k] = o.shape[k]; this->strides[k] = o.strides[k]; }
    }
};

template <class T, int N, int L> SIMT_INLINE int64_t simt_size(const simt_array<T, N, L>& a) {
    int64_t n = 1;
    for (int k = 0; k < N; ++k) n *= a.shape[k];
    return n;
}

template <class T, int N, int L> SIMT_INLINE T* simt_address(const simt_array<T, N, L>& a, const int64_t* ix) {
    if constexpr (N == 0) return a.data;  // a 0-d array: its one element (there is no ix[0] to read)
    if (L == SIMT_C) {
        int64_t off = ix[0];
        for (int k = 1; k < N; ++k) off = off * a.shape[k] + ix[k];
        return a.data + off;
    }
    if (L == SIMT_F) {
        int64_t off = ix[N - 1];
        for (int k = N - 2; k >= 0; --k) off = off * a.shape[k] + ix[k];
        return a.data + off;
    }
    int64_t off = 0;
    for (int k = 0; k < N; ++k) off += ix[k] * a.strides[k];
    return (T*)((char*)a.data + off);
}

// Out-of-range access with boundscheck=True: remember the first one for the host to raise.
template <int N>
SIMT_DEVICE_FN void simt_report_oob(simt_ctx& ctx, int site, const int64_t* ix, const int64_t* shape) {
    simt_error_record* r = simt_error_slot(ctx);
    if (!simt_claim_error(r)) return;
    r->site = site;
    r->ndim = N;
    for (int k = 0; k < N && k < 8; ++k) { r->index[k] = ix[k]; r->shape[k] = shape[k]; }
}

// A failed assert or a raise in a debug=True kernel: the first one's site, thread and block, for
// the host to raise (the kind goes where a bounds report's ndim is; runtime/bounds_report.h).
enum { SIMT_REPORT_ASSERT = -1, SIMT_REPORT_RAISE = -2 };
SIMT_DEVICE_FN void simt_report_failure(simt_ctx& ctx, int site, int kind) {
    simt_error_record* r = simt_error_slot(ctx);
    if (!simt_claim_error(r)) return;
    const simt_dim3 t = simt_threadIdx(ctx), b = simt_blockIdx(ctx);
    r->site = site;
    r->ndim = kind;
    r->index[0] = t.x; r->index[1] = t.y; r->index[2] = t.z;
    r->index[3] = b.x; r->index[4] = b.y; r->index[5] = b.z;
}

// Whether every index type is unsigned: such indices are never negative, so they skip the
// wrap-around (which also keeps loops over them vectorizable).
template <class T> struct simt_is_unsigned { enum { value = 0 }; };
template <> struct simt_is_unsigned<uint8_t> { enum { value = 1 }; };
template <> struct simt_is_unsigned<uint16_t> { enum { value = 1 }; };
template <> struct simt_is_unsigned<uint32_t> { enum { value = 1 }; };
template <> struct simt_is_unsigned<uint64_t> { enum { value = 1 }; };
template <class... I> struct simt_all_unsigned { enum { value = (simt_is_unsigned<I>::value && ...) }; };

// Float to integer as the GPU's cvt.rzi does it, on both backends: toward zero, saturating at the
// type's limits, NaN to 0. (C++ leaves out-of-range conversions undefined: x86 gave INT64_MIN
// where the GPU gave INT64_MAX or 0.)
template <class T> SIMT_INLINE T simt_int_max() {
    typedef typename simt_unsigned_of<T>::type U;
    return simt_is_unsigned<T>::value ? (T)~(U)0 : (T)((U)~(U)0 >> 1);
}
template <class T> SIMT_INLINE T simt_int_min() { return simt_is_unsigned<T>::value ? (T)0 : (T)(-simt_int_max<T>() - 1); }
// Compared in the source type (no float64 work for float32 on a GPU): a limit 2**k - 1 that the
// type cannot hold rounds up to 2**k, and every value below that converts exactly.
template <class T, class F> SIMT_INLINE T simt_float_to_int(F x) {
    if (!(x == x)) return (T)0;
    if (x <= (F)simt_int_min<T>()) return simt_int_min<T>();
    if (x >= (F)simt_int_max<T>()) return simt_int_max<T>();
    return (T)x;
}
template <class T> SIMT_INLINE T simt_float_to_int(simt_half x) { return simt_float_to_int<T>((float)x); }

// An index known to lie in [0, stop): the variable of a range() loop with a non-negative start
// and a positive step, which the loop body does not reassign. Its test becomes
// `stop <= extent || index < extent`: the first half does not change inside the loop, so the
// compiler hoists it (or folds it, for constant extents such as shared arrays') and can unroll
// and pipeline the loop instead of testing every iteration.
template <class I> struct simt_ranged_index { I value; int64_t stop; };
template <class I> SIMT_INLINE simt_ranged_index<I> simt_ranged(I value, int64_t stop) { return {value, stop}; }
template <class I> struct simt_is_unsigned<simt_ranged_index<I>> { enum { value = 1 }; };  // never negative
template <class I> SIMT_INLINE int64_t simt_index_value(I i) { return (int64_t)i; }
template <class I> SIMT_INLINE int64_t simt_index_value(simt_ranged_index<I> i) { return (int64_t)i.value; }
template <class I> SIMT_INLINE int64_t simt_index_stop(I) { return -1; }  // no known range
template <class I> SIMT_INLINE int64_t simt_index_stop(simt_ranged_index<I> i) { return i.stop; }

// Wraps negative indices once (unless Wrap is false) and checks each against its extent. Returns
// whether the element exists; `ix` then holds the wrapped indices. `stop[k]` >= 0 says index k
// lies in [0, stop[k]) (see simt_ranged_index). Loads and stores test this flag rather than a
// null pointer, so the GPU compiler can predicate them (a shared-memory address converted to a
// generic pointer cannot be proven non-null, which forced branches).
template <bool Wrap, class T, int N, int L>
SIMT_INLINE bool simt_in_range(simt_ctx& ctx, const simt_array<T, N, L>& a, int site, int64_t* ix,
                               const int64_t* stop = nullptr) {
    constexpr int mode = simt_bounds_of<T>::mode;
    bool ok = true;
    int64_t given[SIMT_SLOTS(N)];
    if constexpr (mode == SIMT_BOUNDS_CHECKED)
        for (int k = 0; k < N; ++k) given[k] = ix[k];
    for (int k = 0; k < N; ++k) {
        bool ranged = stop && stop[k] >= 0;
        if (Wrap && !ranged && ix[k] < 0) ix[k] += a.shape[k];
        if constexpr (mode != SIMT_BOUNDS_UNCHECKED)
            ok = ok && ((ranged && stop[k] <= a.shape[k]) || (uint64_t)ix[k] < (uint64_t)a.shape[k]);
    }
    if constexpr (mode == SIMT_BOUNDS_CHECKED)
        if (!ok) simt_report_oob<N>(ctx, site, given, a.shape);
    (void)ctx; (void)site; (void)given;
    return ok;
}

// The element's address, or null when out of range (for read-modify-write users: op=, atomics).
template <bool Wrap, class T, int N, int L>
SIMT_INLINE T* simt_locate(simt_ctx& ctx, const simt_array<T, N, L>& a, int site, int64_t* ix,
                           const int64_t* stop = nullptr) {
    return simt_in_range<Wrap>(ctx, a, site, ix, stop) ? simt_address(a, ix) : (T*)0;
}

// 1-D loads and stores without bounds reports (most accesses): the same rules as
// simt_in_range, written without index arrays and loops, which are less for NVRTC to optimize
// away (it compiles each kernel in a few tens of milliseconds, and this is a share of them).
template <bool Wrap, class T, int L, class I>
SIMT_INLINE bool simt_in_range_1d(const simt_array<T, 1, L>& a, I idx, int64_t& i) {
    i = simt_index_value(idx);
    const int64_t stop = simt_index_stop(idx);
    if (Wrap && stop < 0 && i < 0) i += a.shape[0];
    if constexpr (simt_bounds_of<T>::mode == SIMT_BOUNDS_UNCHECKED) return true;
    return (stop >= 0 && stop <= a.shape[0]) || (uint64_t)i < (uint64_t)a.shape[0];
}
template <class T, int L> SIMT_INLINE T* simt_address_1d(const simt_array<T, 1, L>& a, int64_t i) {
    if (L == SIMT_A) return (T*)((char*)a.data + i * a.strides[0]);
    return a.data + i;
}

template <class T, int N, int L, class... I>
SIMT_INLINE T simt_load(simt_ctx& ctx, const simt_array<T, N, L>& a, int site, I... idx) {
    if constexpr (N == 1 && simt_bounds_of<T>::mode != SIMT_BOUNDS_CHECKED) {
        int64_t i;
        bool ok = simt_in_range_1d<!simt_all_unsigned<I...>::value>(a, idx..., i);
        if constexpr (simt_bounds_of<T>::mode == SIMT_BOUNDS_UNCHECKED)
            return *simt_address_1d(a, i);
        else
            return ok ? *simt_address_1d(a, i) : T(0);
    } else {
        int64_t ix[SIMT_SLOTS(N)] = {simt_index_value(idx)...};
        const int64_t stop[SIMT_SLOTS(N)] = {simt_index_stop(idx)...};
        bool ok = simt_in_range<!simt_all_unsigned<I...>::value>(ctx, a, site, ix, stop);
        if constexpr (simt_bounds_of<T>::mode == SIMT_BOUNDS_UNCHECKED)
            return *simt_address(a, ix);  // no test keeps loops vectorizable
        else
            return ok ? *simt_address(a, ix) : T(0);
    }
}
template <class T> struct simt_same { typedef T type; };  // keeps `value` out of deduction
template <class T, int N, int L, class... I>
SIMT_INLINE void simt_store(simt_ctx& ctx, const simt_array<T, N, L>& a, int site, typename simt_same<T>::type value, I... idx) {
    if constexpr (N == 1 && simt_bounds_of<T>::mode != SIMT_BOUNDS_CHECKED) {
        int64_t i;
        bool ok = simt_in_range_1d<!simt_all_unsigned<I...>::value>(a, idx..., i);
        if (simt_bounds_of<T>::mode == SIMT_BOUNDS_UNCHECKED || ok) *simt_address_1d(a, i) = value;
    } else {
        int64_t ix[SIMT_SLOTS(N)] = {simt_index_value(idx)...};
        const int64_t stop[SIMT_SLOTS(N)] = {simt_index_stop(idx)...};
        bool ok = simt_in_range<!simt_all_unsigned<I...>::value>(ctx, a, site, ix, stop);
        if (simt_bounds_of<T>::mode == SIMT_BOUNDS_UNCHECKED || ok) *simt_address(a, ix) = value;
    }
}
// The commonest access, one int64 or uint64 index into a 1-D array, written out without the
// general path's helpers: NVRTC instantiates and inlines those for every kernel, and this form
// takes it about a millisecond less per kernel (of some twenty). Overload resolution prefers
// these to the variadic forms above; bounds reports still go through those.
template <class T, int L> SIMT_INLINE T simt_load(simt_ctx& ctx, const simt_array<T, 1, L>& a, int site, uint64_t i) {
    constexpr int mode = simt_bounds_of<T>::mode;
    if constexpr (mode == SIMT_BOUNDS_CHECKED) return simt_load<T, 1, L, uint64_t>(ctx, a, site, i);
    else if constexpr (mode == SIMT_BOUNDS_UNCHECKED) return *simt_address_1d(a, (int64_t)i);
    else return i < (uint64_t)a.shape[0] ? *simt_address_1d(a, (int64_t)i) : T(0);
}
template <class T, int L> SIMT_INLINE T simt_load(simt_ctx& ctx, const simt_array<T, 1, L>& a, int site, int64_t i) {
    constexpr int mode = simt_bounds_of<T>::mode;
    if constexpr (mode == SIMT_BOUNDS_CHECKED) return simt_load<T, 1, L, int64_t>(ctx, a, site, i);
    if (i < 0) i += a.shape[0];
    if constexpr (mode == SIMT_BOUNDS_UNCHECKED) return *simt_address_1d(a, i);
    else return (uint64_t)i < (uint64_t)a.shape[0] ? *simt_address_1d(a, i) : T(0);
}
template <class T, int L>
SIMT_INLINE void simt_store(simt_ctx& ctx, const simt_array<T, 1, L>& a, int site, typename simt_same<T>::type value, uint64_t i) {
    constexpr int mode = simt_bounds_of<T>::mode;
    if constexpr (mode == SIMT_BOUNDS_CHECKED) simt_store<T, 1, L, uint64_t>(ctx, a, site, value, i);
    else if (mode == SIMT_BOUNDS_UNCHECKED || i < (uint64_t)a.shape[0]) *simt_address_1d(a, (int64_t)i) = value;
}
template <class T, int L>
SIMT_INLINE void simt_store(simt_ctx& ctx, const simt_array<T, 1, L>& a, int site, typename simt_same<T>::type value, int64_t i) {
    constexpr int mode = simt_bounds_of<T>::mode;
    if constexpr (mode == SIMT_BOUNDS_CHECKED) {
        simt_store<T, 1, L, int64_t>(ctx, a, site, value, i);
    } else {
        if (i < 0) i += a.shape[0];
        if (mode == SIMT_BOUNDS_UNCHECKED || (uint64_t)i < (uint64_t)a.shape[0]) *simt_address_1d(a, i) = value;
    }
}
template <class T, int N, int L, class... I>
SIMT_INLINE T* simt_ref(simt_ctx& ctx, const simt_array<T, N, L>& a, int site, I... idx) {
    int64_t ix[SIMT_SLOTS(N)] = {simt_index_value(idx)...};
    const int64_t stop[SIMT_SLOTS(N)] = {simt_index_stop(idx)...};
    return simt_locate<!simt_all_unsigned<I...>::value>(ctx, a, site, ix, stop);
}
// Accesses that a test before their loop proved in range (codegen/loop_bounds.h): no wrap-around,
// no test. The tests: an invariant index, and c*v + b1 + b2 ... for every v in [0, stop). Their
// bounds keep the arithmetic far from overflow; a test that fails only means the loop runs with
// every access tested.
template <class I> SIMT_INLINE bool simt_invariant_in_range(I i, int64_t extent) {
    return (uint64_t)(int64_t)i < (uint64_t)extent;
}
// Whether integer v lies in [0, limit] (any integer type: a uint64 of 2**63 or more does not).
template <class V> SIMT_INLINE bool simt_at_most(V v, uint64_t limit) { return (uint64_t)(int64_t)v <= limit; }
// The loop variable runs over [start, stop) with a positive step.
template <class C, class S0, class S, class... B>
SIMT_INLINE bool simt_affine_in_range(C coef, S0 start_value, S stop_value, int64_t extent, B... terms) {
    const uint64_t small = 0x7fffffff, term_limit = (uint64_t)1 << 40;
    if (!simt_at_most(coef, small) || !simt_at_most(start_value, small) || !simt_at_most(stop_value, small)) return false;
    if (!(simt_at_most(terms, term_limit) && ...)) return false;
    const int64_t c = (int64_t)coef, start = (int64_t)start_value, stop = (int64_t)stop_value;
    if (stop <= start) return true;  // the loop does not run
    return c * (stop - 1) + ((int64_t)0 + ... + (int64_t)terms) < extent;
}
template <class T, int N, int L, class... I>
SIMT_INLINE T simt_load_proven(simt_ctx&, const simt_array<T, N, L>& a, int, I... idx) {
    int64_t ix[SIMT_SLOTS(N)] = {simt_index_value(idx)...};
    return *simt_address(a, ix);
}
template <class T, int N, int L, class... I>
SIMT_INLINE void simt_store_proven(simt_ctx&, const simt_array<T, N, L>& a, int, typename simt_same<T>::type value,
                                   I... idx) {
    int64_t ix[SIMT_SLOTS(N)] = {simt_index_value(idx)...};
    *simt_address(a, ix) = value;
}
template <class T, int N, int L, class... I>
SIMT_INLINE T* simt_ref_proven(simt_ctx&, const simt_array<T, N, L>& a, int, I... idx) {
    int64_t ix[SIMT_SLOTS(N)] = {simt_index_value(idx)...};
    return simt_address(a, ix);
}
// Accesses an enclosing if keeps below the extents (codegen/guards.h): the indices are known
// non-negative as Python computes them, so only a negative value here (an int64 overflow, where
// Python's value would be past the end) is out of range; the compiler drops the test where it
// can prove the sign itself.
template <int N> SIMT_INLINE bool simt_all_nonneg(const int64_t* ix) {
    bool ok = true;
    for (int k = 0; k < N; ++k) ok = ok && ix[k] >= 0;
    return ok;
}
template <class T, int N, int L, class... I>
SIMT_INLINE T simt_load_nonneg(simt_ctx&, const simt_array<T, N, L>& a, int, I... idx) {
    int64_t ix[SIMT_SLOTS(N)] = {(int64_t)idx...};
    return simt_all_nonneg<N>(ix) ? *simt_address(a, ix) : T(0);
}
template <class T, int N, int L, class... I>
SIMT_INLINE void simt_store_nonneg(simt_ctx&, const simt_array<T, N, L>& a, int, typename simt_same<T>::type value,
                                   I... idx) {
    int64_t ix[SIMT_SLOTS(N)] = {(int64_t)idx...};
    if (simt_all_nonneg<N>(ix)) *simt_address(a, ix) = value;
}
template <class T, int N, int L, class... I>
SIMT_INLINE T* simt_ref_nonneg(simt_ctx&, const simt_array<T, N, L>& a, int, I... idx) {
    int64_t ix[SIMT_SLOTS(N)] = {(int64_t)idx...};
    return simt_all_nonneg<N>(ix) ? simt_address(a, ix) : (T*)0;
}
template <class T, int L>
SIMT_INLINE T simt_load_unchecked(const simt_array<T, 1, L>& a, int64_t i) {
    int64_t ix[1] = {i};
    return *simt_address(a, ix);
}
