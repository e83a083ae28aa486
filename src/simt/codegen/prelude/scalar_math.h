// simt prelude, both targets: math helpers beyond the C functions the kernels call directly:
// float/double overload sets for templates, float16 versions of Python's arithmetic, and the
// tuple-returning math.frexp / math.modf. (Joined after common.h; see codegen/prelude.cpp.)
#ifdef SIMT_TARGET_CPU
extern "C" {
double frexp(double, int*); float frexpf(float, int*);
double modf(double, double*); float modff(float, float*);
float fmaxf(float, float); float fminf(float, float);
}
#endif

// ---- float/double overloads (the cpu prelude declares only the C names) ----------------------
#define SIMT_REAL_OVERLOAD1(name)                                               \
    SIMT_INLINE double simt_real_##name(double x) { return name(x); }          \
    SIMT_INLINE float simt_real_##name(float x) { return name##f(x); }
#define SIMT_REAL_OVERLOAD2(name)                                                         \
    SIMT_INLINE double simt_real_##name(double x, double y) { return name(x, y); }       \
    SIMT_INLINE float simt_real_##name(float x, float y) { return name##f(x, y); }
SIMT_REAL_OVERLOAD1(sin) SIMT_REAL_OVERLOAD1(cos) SIMT_REAL_OVERLOAD1(tan)
SIMT_REAL_OVERLOAD1(sinh) SIMT_REAL_OVERLOAD1(cosh) SIMT_REAL_OVERLOAD1(asinh)
SIMT_REAL_OVERLOAD1(atan) SIMT_REAL_OVERLOAD1(exp) SIMT_REAL_OVERLOAD1(log)
SIMT_REAL_OVERLOAD1(log1p) SIMT_REAL_OVERLOAD1(sqrt) SIMT_REAL_OVERLOAD1(fabs)
SIMT_REAL_OVERLOAD1(floor)
SIMT_REAL_OVERLOAD2(atan2) SIMT_REAL_OVERLOAD2(hypot) SIMT_REAL_OVERLOAD2(pow)
SIMT_REAL_OVERLOAD2(copysign)
#undef SIMT_REAL_OVERLOAD1
#undef SIMT_REAL_OVERLOAD2
// A quarter of the largest finite value: inputs above it are scaled down before squaring.
SIMT_INLINE double simt_real_quarter_max(double) { return 4.4942328371557893e307; }
SIMT_INLINE float simt_real_quarter_max(float) { return 8.50705917e37f; }

// ---- float16: Python arithmetic computed in float, rounded once ------------------------------
SIMT_INLINE simt_half simt_abs(simt_half a) { simt_half r; r.bits = (uint16_t)(a.bits & 0x7fffu); return r; }
SIMT_INLINE simt_half simt_floordiv(simt_half a, simt_half b) { return simt_half(simt_floordiv((float)a, (float)b)); }
SIMT_INLINE simt_half simt_mod(simt_half a, simt_half b) { return simt_half(simt_mod((float)a, (float)b)); }
SIMT_INLINE simt_half simt_pow(simt_half a, simt_half b) { return simt_half(powf((float)a, (float)b)); }
SIMT_INLINE simt_half simt_pow(simt_half a, int64_t n) { return simt_half(simt_powi((float)a, n)); }

// ---- math.frexp / math.modf -------------------------------------------------------------------
SIMT_INLINE double simt_real_frexp(double x, int* e) { return frexp(x, e); }
SIMT_INLINE float simt_real_frexp(float x, int* e) { return frexpf(x, e); }
SIMT_INLINE double simt_real_modf(double x, double* whole) { return modf(x, whole); }
SIMT_INLINE float simt_real_modf(float x, float* whole) { return modff(x, whole); }
// Python's conventions for non-finite values: frexp(inf) = (inf, 0), modf(inf) = (0.0, inf).
template <class Tuple, class F>
SIMT_INLINE Tuple simt_frexp(F x) {
    int e = 0;
    F m = x;
    if (x - x == 0) m = simt_real_frexp(x, &e);  // finite
    return Tuple{m, (int32_t)e};
}
template <class Tuple, class F>
SIMT_INLINE Tuple simt_modf(F x) {
    if (x != x) return Tuple{x, x};
    if (x - x != 0) return Tuple{simt_real_copysign((F)0, x), x};
    F whole;
    F frac = simt_real_modf(x, &whole);
    return Tuple{frac, whole};
}

// ---- helpers of cuda.fp16 (hexp10, hrsqrt, hrcp), computed in float ------------------------------
SIMT_INLINE float simt_exp10f(float x) { return powf(10.0f, x); }
SIMT_INLINE float simt_rsqrtf(float x) { return 1.0f / sqrtf(x); }
SIMT_INLINE float simt_rcpf(float x) { return 1.0f / x; }
// a * b + c of float16 values is exact in double for any finite float16 result, so converting it
// to float16 rounds once, like __hfma. (In float, the sum would be rounded twice.)
SIMT_INLINE double simt_hfma_exact(float a, float b, float c) { return (double)a * (double)b + (double)c; }
