// libdevice on the host (cpu target): simt_ld_<name> has the C signature of libdevice's
// __nv_<name> (sema/builtins_libdevice.cpp). Math comes from the host's libm; the _rn/_rz/_ru/_rd
// operations round as named without changing the host's rounding mode (the result is rounded to
// nearest, then stepped one ulp where the exact result lies on the other side, which error-free
// transformations decide); the fast_ functions compute the accurate result.
extern "C" {
double j0(double); double j1(double); double y0(double); double y1(double); double jn(int, double); double yn(int, double);
float j0f(float); float j1f(float); float y0f(float); float y1f(float); float jnf(int, float); float ynf(int, float);
}

#define SIMT_LD_F1(name, expr_d)                                                          \
    SIMT_INLINE double simt_ld_##name(double x) { return expr_d; }                       \
    SIMT_INLINE float simt_ld_##name##f(float xf) { double x = xf; return (float)(expr_d); }
// float versions computed by the float libm function (where double then round would be no better).
#define SIMT_LD_LIBM1(name)                                                               \
    SIMT_INLINE double simt_ld_##name(double x) { return __builtin_##name(x); }           \
    SIMT_INLINE float simt_ld_##name##f(float x) { return __builtin_##name##f(x); }
#define SIMT_LD_LIBM2(name)                                                                \
    SIMT_INLINE double simt_ld_##name(double x, double y) { return __builtin_##name(x, y); } \
    SIMT_INLINE float simt_ld_##name##f(float x, float y) { return __builtin_##name##f(x, y); }

SIMT_LD_LIBM1(acos) SIMT_LD_LIBM1(acosh) SIMT_LD_LIBM1(asin) SIMT_LD_LIBM1(asinh) SIMT_LD_LIBM1(atan)
SIMT_LD_LIBM1(atanh) SIMT_LD_LIBM1(cbrt) SIMT_LD_LIBM1(ceil) SIMT_LD_LIBM1(cos) SIMT_LD_LIBM1(cosh)
SIMT_LD_LIBM1(erf) SIMT_LD_LIBM1(erfc) SIMT_LD_LIBM1(exp) SIMT_LD_LIBM1(exp2) SIMT_LD_LIBM1(expm1)
SIMT_LD_LIBM1(fabs) SIMT_LD_LIBM1(floor) SIMT_LD_LIBM1(lgamma) SIMT_LD_LIBM1(log) SIMT_LD_LIBM1(log10)
SIMT_LD_LIBM1(log1p) SIMT_LD_LIBM1(log2) SIMT_LD_LIBM1(logb) SIMT_LD_LIBM1(nearbyint) SIMT_LD_LIBM1(rint)
SIMT_LD_LIBM1(round) SIMT_LD_LIBM1(sin) SIMT_LD_LIBM1(sinh) SIMT_LD_LIBM1(sqrt) SIMT_LD_LIBM1(tan)
SIMT_LD_LIBM1(tanh) SIMT_LD_LIBM1(tgamma) SIMT_LD_LIBM1(trunc)
SIMT_LD_LIBM2(atan2) SIMT_LD_LIBM2(copysign) SIMT_LD_LIBM2(fdim) SIMT_LD_LIBM2(fmax) SIMT_LD_LIBM2(fmin)
SIMT_LD_LIBM2(fmod) SIMT_LD_LIBM2(hypot) SIMT_LD_LIBM2(nextafter) SIMT_LD_LIBM2(pow) SIMT_LD_LIBM2(remainder)

SIMT_INLINE double simt_ld_j0(double x) { return j0(x); }
SIMT_INLINE float simt_ld_j0f(float x) { return j0f(x); }
SIMT_INLINE double simt_ld_j1(double x) { return j1(x); }
SIMT_INLINE float simt_ld_j1f(float x) { return j1f(x); }
SIMT_INLINE double simt_ld_y0(double x) { return y0(x); }
SIMT_INLINE float simt_ld_y0f(float x) { return y0f(x); }
SIMT_INLINE double simt_ld_y1(double x) { return y1(x); }
SIMT_INLINE float simt_ld_y1f(float x) { return y1f(x); }
SIMT_INLINE double simt_ld_jn(int32_t n, double x) { return jn(n, x); }
SIMT_INLINE float simt_ld_jnf(int32_t n, float x) { return jnf(n, x); }
SIMT_INLINE double simt_ld_yn(int32_t n, double x) { return yn(n, x); }
SIMT_INLINE float simt_ld_ynf(int32_t n, float x) { return ynf(n, x); }

SIMT_LD_F1(exp10, __builtin_pow(10.0, x))
SIMT_LD_F1(rsqrt, 1.0 / __builtin_sqrt(x))
SIMT_LD_F1(rcbrt, 1.0 / __builtin_cbrt(x))
SIMT_LD_F1(normcdf, 0.5 * __builtin_erfc(-x * 0.70710678118654752440))

// sin(pi x) and cos(pi x) with the argument reduced exactly: x = n/2 + r, |r| <= 1/4.
SIMT_DEVICE_FN void simt_ld_sincospi(double x, double* s, double* c) {
    if (!__builtin_isfinite(x)) { *s = *c = x - x; return; }
    double t = __builtin_fmod(x, 2.0);  // exact
    double n = __builtin_rint(2.0 * t);
    double r = t - 0.5 * n;  // exact
    const double pi = 3.14159265358979323846;
    double sr = __builtin_sin(pi * r), cr = __builtin_cos(pi * r);
    int q = (int)n & 3;
    double sv = q == 0 ? sr : q == 1 ? cr : q == 2 ? -sr : -cr;
    double cv = q == 0 ? cr : q == 1 ? -sr : q == 2 ? -cr : sr;
    if (r == 0) {
        if (q == 0 || q == 2) sv = __builtin_copysign(0.0, x);  // sin(pi n) is a signed zero
        else cv = 0.0;                                             // cos(pi (n + 1/2)) is +0
    }
    *s = sv;
    *c = cv;
}
SIMT_INLINE void simt_ld_sincospif(float x, float* s, float* c) {
    double sd, cd;
    simt_ld_sincospi(x, &sd, &cd);
    *s = (float)sd;
    *c = (float)cd;
}
SIMT_INLINE double simt_ld_sinpi(double x) { double s, c; simt_ld_sincospi(x, &s, &c); return s; }
SIMT_INLINE float simt_ld_sinpif(float x) { float s, c; simt_ld_sincospif(x, &s, &c); return s; }
SIMT_INLINE double simt_ld_cospi(double x) { double s, c; simt_ld_sincospi(x, &s, &c); return c; }
SIMT_INLINE float simt_ld_cospif(float x) { float s, c; simt_ld_sincospif(x, &s, &c); return c; }
SIMT_INLINE void simt_ld_sincos(double x, double* s, double* c) { *s = __builtin_sin(x); *c = __builtin_cos(x); }
SIMT_INLINE void simt_ld_sincosf(float x, float* s, float* c) { *s = __builtin_sinf(x); *c = __builtin_cosf(x); }

// erfcinv(y), 0 < y < 2: a first guess from the tail's asymptotics, then Newton steps on
// log(erfc(x)) = log(y) (well scaled over the whole range); erfinv(y) = erfcinv(1 - y) except near
// y = 0, where erfinv's own Newton steps on erf keep the relative accuracy.
SIMT_DEVICE_FN double simt_ld_erfcinv(double y) {
    if (!(y > 0.0 && y < 2.0)) {
        if (y == 0.0) return __builtin_inf();
        if (y == 2.0) return -__builtin_inf();
        return __builtin_nan("");
    }
    double sign = 1.0;
    if (y > 1.0) { sign = -1.0; y = 2.0 - y; }  // erfcinv(2 - y) = -erfcinv(y)
    const double sqrt_pi = 1.77245385090551602730, two_over_sqrt_pi = 1.12837916709551257390;
    double x;
    if (y > 0.3) {  // near the middle: invert the series erf(x) ~ 2/sqrt(pi) (x + x^3/3)
        double z = (1.0 - y) * sqrt_pi / 2.0;
        x = z + z * z * z / 3.0;
    } else {
        double l = -__builtin_log(y);
        x = __builtin_sqrt(l);
        for (int i = 0; i < 4; ++i) x = __builtin_sqrt(l - __builtin_log(x * sqrt_pi));
    }
    for (int i = 0; i < 60; ++i) {
        double e = __builtin_erfc(x);
        double step = (__builtin_log(e) - __builtin_log(y)) * e / (two_over_sqrt_pi * __builtin_exp(-x * x));
        x += step;
        if (__builtin_fabs(step) <= 1e-17 * __builtin_fabs(x)) break;
    }
    return sign * x;
}
SIMT_DEVICE_FN double simt_ld_erfinv(double y) {
    if (!(__builtin_fabs(y) < 1.0)) {
        if (y == 1.0) return __builtin_inf();
        if (y == -1.0) return -__builtin_inf();
        return __builtin_nan("");
    }
    if (__builtin_fabs(y) > 0.5) return simt_ld_erfcinv(1.0 - y);
    if (y == 0.0) return y;
    const double two_over_sqrt_pi = 1.12837916709551257390;
    double x = y / two_over_sqrt_pi;
    for (int i = 0; i < 60; ++i) {
        double step = (__builtin_erf(x) - y) / (two_over_sqrt_pi * __builtin_exp(-x * x));
        x -= step;
        if (__builtin_fabs(step) <= 1e-17 * __builtin_fabs(x)) break;
    }
    return x;
}
SIMT_INLINE float simt_ld_erfcinvf(float y) { return (float)simt_ld_erfcinv(y); }
SIMT_INLINE float simt_ld_erfinvf(float y) { return (float)simt_ld_erfinv(y); }
SIMT_INLINE double simt_ld_normcdfinv(double p) { return -1.41421356237309504880 * simt_ld_erfcinv(2.0 * p); }
SIMT_INLINE float simt_ld_normcdfinvf(float p) { return (float)simt_ld_normcdfinv(p); }

// erfcx(x) = exp(x^2) erfc(x): directly (with x^2 split exactly) below 26, else its asymptotic series.
SIMT_DEVICE_FN double simt_ld_erfcx(double x) {
    if (x != x) return x;
    if (x < 26.0) {
        double hi = x * x, lo = __builtin_fma(x, x, -hi);
        return __builtin_exp(hi) * (1.0 + lo) * __builtin_erfc(x);
    }
    if (x > 1e100) return 0.56418958354775628695 / x;
    double r = 1.0 / (2.0 * x * x), term = 1.0, sum = 1.0;
    for (int k = 1; k < 12; ++k) {
        term *= -(2.0 * k - 1.0) * r;
        sum += term;
    }
    return 0.56418958354775628695 / x * sum;
}
SIMT_INLINE float simt_ld_erfcxf(float x) { return (float)simt_ld_erfcx(x); }

// Modified Bessel functions of the first kind, orders 0 and 1: the power series (positive terms)
// up to 30, the asymptotic expansion e^x / sqrt(2 pi x) sum(...) beyond.
SIMT_DEVICE_FN double simt_ld_bessel_i(int order, double x) {
    double ax = __builtin_fabs(x);
    double sign = order == 1 && x < 0 ? -1.0 : 1.0;
    if (x != x) return x;
    if (ax <= 30.0) {
        double q = ax * ax / 4.0, term = order == 0 ? 1.0 : ax / 2.0, sum = term;
        for (int k = 1; k < 200 && term > sum * 1e-18; ++k) {
            term *= q / ((double)k * (double)(k + order));
            sum += term;
        }
        return sign * sum;
    }
    if (ax > 800.0) return sign * __builtin_inf();
    double mu = 4.0 * order * order, term = 1.0, sum = 1.0;
    for (int k = 1; k < 40; ++k) {
        term *= -(mu - (2.0 * k - 1.0) * (2.0 * k - 1.0)) / (k * 8.0 * ax);
        sum += term;
        if (__builtin_fabs(term) < 1e-18 * sum) break;
    }
    double half = __builtin_exp(ax / 2.0);  // e^x in two halves: finite up to the true overflow
    return sign * (half * (sum / __builtin_sqrt(2.0 * 3.14159265358979323846 * ax)) * half);
}
SIMT_INLINE double simt_ld_cyl_bessel_i0(double x) { return simt_ld_bessel_i(0, x); }
SIMT_INLINE float simt_ld_cyl_bessel_i0f(float x) { return (float)simt_ld_bessel_i(0, x); }
SIMT_INLINE double simt_ld_cyl_bessel_i1(double x) { return simt_ld_bessel_i(1, x); }
SIMT_INLINE float simt_ld_cyl_bessel_i1f(float x) { return (float)simt_ld_bessel_i(1, x); }

// Norms without overflow: scaled by the largest magnitude.
SIMT_DEVICE_FN double simt_ld_norm_n(const double* v, int n) {
    double m = 0.0;
    bool inf = false, nan = false;
    for (int i = 0; i < n; ++i) {
        double a = __builtin_fabs(v[i]);
        inf = inf || a == __builtin_inf();
        nan = nan || a != a;
        m = a > m ? a : m;
    }
    if (inf) return __builtin_inf();
    if (nan) return __builtin_nan("");
    if (m == 0.0) return 0.0;
    double s = 0.0;
    for (int i = 0; i < n; ++i) s += (v[i] / m) * (v[i] / m);
    return m * __builtin_sqrt(s);
}
SIMT_INLINE double simt_ld_rhypot(double a, double b) { return 1.0 / __builtin_hypot(a, b); }
SIMT_INLINE float simt_ld_rhypotf(float a, float b) { return (float)(1.0 / __builtin_hypot(a, b)); }
SIMT_INLINE double simt_ld_norm3d(double a, double b, double c) { double v[3] = {a, b, c}; return simt_ld_norm_n(v, 3); }
SIMT_INLINE float simt_ld_norm3df(float a, float b, float c) { return (float)simt_ld_norm3d(a, b, c); }
SIMT_INLINE double simt_ld_rnorm3d(double a, double b, double c) { return 1.0 / simt_ld_norm3d(a, b, c); }
SIMT_INLINE float simt_ld_rnorm3df(float a, float b, float c) { return (float)(1.0 / simt_ld_norm3d(a, b, c)); }
SIMT_INLINE double simt_ld_norm4d(double a, double b, double c, double d) { double v[4] = {a, b, c, d}; return simt_ld_norm_n(v, 4); }
SIMT_INLINE float simt_ld_norm4df(float a, float b, float c, float d) { return (float)simt_ld_norm4d(a, b, c, d); }
SIMT_INLINE double simt_ld_rnorm4d(double a, double b, double c, double d) { return 1.0 / simt_ld_norm4d(a, b, c, d); }
SIMT_INLINE float simt_ld_rnorm4df(float a, float b, float c, float d) { return (float)(1.0 / simt_ld_norm4d(a, b, c, d)); }

SIMT_INLINE double simt_ld_fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
SIMT_INLINE float simt_ld_fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
SIMT_INLINE double simt_ld_ldexp(double x, int32_t e) { return __builtin_ldexp(x, e); }
SIMT_INLINE float simt_ld_ldexpf(float x, int32_t e) { return __builtin_ldexpf(x, e); }
SIMT_INLINE double simt_ld_scalbn(double x, int32_t e) { return __builtin_scalbn(x, e); }
SIMT_INLINE float simt_ld_scalbnf(float x, int32_t e) { return __builtin_scalbnf(x, e); }
SIMT_INLINE double simt_ld_powi(double x, int32_t e) { return __builtin_pow(x, (double)e); }
SIMT_INLINE float simt_ld_powif(float x, int32_t e) { return __builtin_powf(x, (float)e); }
// ilogb: INT_MIN for 0 and NaN, INT_MAX for infinities (as libdevice and glibc give).
SIMT_INLINE int32_t simt_ld_ilogb(double x) { return __builtin_ilogb(x); }
SIMT_INLINE int32_t simt_ld_ilogbf(float x) { return __builtin_ilogbf(x); }
SIMT_INLINE double simt_ld_frexp(double x, int32_t* e) { int k = 0; double m = __builtin_frexp(x, &k); *e = k; return m; }
SIMT_INLINE float simt_ld_frexpf(float x, int32_t* e) { int k = 0; float m = __builtin_frexpf(x, &k); *e = k; return m; }
SIMT_INLINE double simt_ld_modf(double x, double* i) { return __builtin_modf(x, i); }
SIMT_INLINE float simt_ld_modff(float x, float* i) { return __builtin_modff(x, i); }
SIMT_INLINE double simt_ld_remquo(double x, double y, int32_t* q) { int k = 0; double r = __builtin_remquo(x, y, &k); *q = k; return r; }
SIMT_INLINE float simt_ld_remquof(float x, float y, int32_t* q) { int k = 0; float r = __builtin_remquof(x, y, &k); *q = k; return r; }

// Classification: nonzero (1) when the property holds.
SIMT_INLINE int32_t simt_ld_isnand(double x) { return x != x; }
SIMT_INLINE int32_t simt_ld_isnanf(float x) { return x != x; }
SIMT_INLINE int32_t simt_ld_isinfd(double x) { return __builtin_fabs(x) == __builtin_inf(); }
SIMT_INLINE int32_t simt_ld_isinff(float x) { return __builtin_fabsf(x) == __builtin_inff(); }
SIMT_INLINE int32_t simt_ld_isfinited(double x) { return x - x == 0.0; }
SIMT_INLINE int32_t simt_ld_finitef(float x) { return x - x == 0.0f; }
SIMT_INLINE int32_t simt_ld_signbitd(double x) { return (int32_t)(__builtin_bit_cast(uint64_t, x) >> 63); }
SIMT_INLINE int32_t simt_ld_signbitf(float x) { return (int32_t)(__builtin_bit_cast(uint32_t, x) >> 31); }

// Fast float32 functions: the accurate results on the host.
SIMT_INLINE float simt_ld_fast_cosf(float x) { return __builtin_cosf(x); }
SIMT_INLINE float simt_ld_fast_sinf(float x) { return __builtin_sinf(x); }
SIMT_INLINE float simt_ld_fast_tanf(float x) { return __builtin_tanf(x); }
SIMT_INLINE float simt_ld_fast_expf(float x) { return __builtin_expf(x); }
SIMT_INLINE float simt_ld_fast_exp10f(float x) { return (float)__builtin_pow(10.0, x); }
SIMT_INLINE float simt_ld_fast_logf(float x) { return __builtin_logf(x); }
SIMT_INLINE float simt_ld_fast_log2f(float x) { return __builtin_log2f(x); }
SIMT_INLINE float simt_ld_fast_log10f(float x) { return __builtin_log10f(x); }
SIMT_INLINE float simt_ld_fast_powf(float x, float y) { return __builtin_powf(x, y); }
SIMT_INLINE float simt_ld_fast_fdividef(float x, float y) { return x / y; }
SIMT_INLINE void simt_ld_fast_sincosf(float x, float* s, float* c) { simt_ld_sincosf(x, s, c); }
SIMT_INLINE float simt_ld_saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }  // NaN -> 0

// ---- integer functions (unsigned libdevice operands arrive as the signed type of their width) ----
SIMT_INLINE int32_t simt_ld_abs(int32_t x) { return x < 0 ? (int32_t)(0u - (uint32_t)x) : x; }
SIMT_INLINE int64_t simt_ld_llabs(int64_t x) { return x < 0 ? (int64_t)(0ull - (uint64_t)x) : x; }
SIMT_INLINE int32_t simt_ld_brev(int32_t x) {
    uint32_t v = (uint32_t)x, r = 0;
    for (int i = 0; i < 32; ++i) r |= ((v >> i) & 1u) << (31 - i);
    return (int32_t)r;
}
SIMT_INLINE int64_t simt_ld_brevll(int64_t x) {
    uint64_t v = (uint64_t)x, r = 0;
    for (int i = 0; i < 64; ++i) r |= ((v >> i) & 1ull) << (63 - i);
    return (int64_t)r;
}
// Byte n of the result is byte (s >> 4n) & 7 of the eight bytes y:x (x the low four).
SIMT_INLINE int32_t simt_ld_byte_perm(int32_t x, int32_t y, int32_t s) {
    uint64_t bytes = ((uint64_t)(uint32_t)y << 32) | (uint32_t)x;
    uint32_t r = 0;
    for (int n = 0; n < 4; ++n) r |= (uint32_t)((bytes >> (8 * (((uint32_t)s >> (4 * n)) & 7u))) & 0xffu) << (8 * n);
    return (int32_t)r;
}
SIMT_INLINE int32_t simt_ld_clz(int32_t x) { return x == 0 ? 32 : __builtin_clz((uint32_t)x); }
SIMT_INLINE int32_t simt_ld_clzll(int64_t x) { return x == 0 ? 64 : __builtin_clzll((uint64_t)x); }
SIMT_INLINE int32_t simt_ld_ffs(int32_t x) { return __builtin_ffs(x); }
SIMT_INLINE int32_t simt_ld_ffsll(int64_t x) { return __builtin_ffsll(x); }
SIMT_INLINE int32_t simt_ld_popc(int32_t x) { return __builtin_popcount((uint32_t)x); }
SIMT_INLINE int32_t simt_ld_popcll(int64_t x) { return __builtin_popcountll((uint64_t)x); }
SIMT_INLINE int32_t simt_ld_hadd(int32_t x, int32_t y) { return (int32_t)(((int64_t)x + y) >> 1); }
SIMT_INLINE int32_t simt_ld_rhadd(int32_t x, int32_t y) { return (int32_t)(((int64_t)x + y + 1) >> 1); }
SIMT_INLINE int32_t simt_ld_uhadd(int32_t x, int32_t y) { return (int32_t)(uint32_t)(((uint64_t)(uint32_t)x + (uint32_t)y) >> 1); }
SIMT_INLINE int32_t simt_ld_urhadd(int32_t x, int32_t y) { return (int32_t)(uint32_t)(((uint64_t)(uint32_t)x + (uint32_t)y + 1) >> 1); }
SIMT_INLINE int32_t simt_ld_mulhi(int32_t x, int32_t y) { return (int32_t)(((int64_t)x * y) >> 32); }
SIMT_INLINE int32_t simt_ld_umulhi(int32_t x, int32_t y) { return (int32_t)(uint32_t)(((uint64_t)(uint32_t)x * (uint32_t)y) >> 32); }
SIMT_INLINE int64_t simt_ld_mul64hi(int64_t x, int64_t y) { return (int64_t)(((__int128)x * y) >> 64); }
SIMT_INLINE int64_t simt_ld_umul64hi(int64_t x, int64_t y) {
    return (int64_t)(uint64_t)(((unsigned __int128)(uint64_t)x * (uint64_t)y) >> 64);
}
// mul24: the low 32 bits of the product of the low 24 bits (sign-extended for the signed one).
SIMT_INLINE int32_t simt_ld_mul24(int32_t x, int32_t y) {
    int64_t a = (int64_t)((uint32_t)x << 8) >> 8, b = (int64_t)((uint32_t)y << 8) >> 8;
    a = (int32_t)((uint32_t)x << 8) >> 8;
    b = (int32_t)((uint32_t)y << 8) >> 8;
    return (int32_t)(uint32_t)(uint64_t)(a * b);
}
SIMT_INLINE int32_t simt_ld_umul24(int32_t x, int32_t y) {
    return (int32_t)(uint32_t)((uint64_t)((uint32_t)x & 0xffffffu) * ((uint32_t)y & 0xffffffu));
}
SIMT_INLINE int32_t simt_ld_sad(int32_t x, int32_t y, int32_t z) {
    uint32_t d = x > y ? (uint32_t)((int64_t)x - y) : (uint32_t)((int64_t)y - x);
    return (int32_t)(d + (uint32_t)z);
}
SIMT_INLINE int32_t simt_ld_usad(int32_t x, int32_t y, int32_t z) {
    uint32_t a = (uint32_t)x, b = (uint32_t)y;
    return (int32_t)((a > b ? a - b : b - a) + (uint32_t)z);
}
SIMT_INLINE int32_t simt_ld_max(int32_t x, int32_t y) { return x > y ? x : y; }
SIMT_INLINE int32_t simt_ld_min(int32_t x, int32_t y) { return x < y ? x : y; }
SIMT_INLINE int32_t simt_ld_umax(int32_t x, int32_t y) { return (uint32_t)x > (uint32_t)y ? x : y; }
SIMT_INLINE int32_t simt_ld_umin(int32_t x, int32_t y) { return (uint32_t)x < (uint32_t)y ? x : y; }
SIMT_INLINE int64_t simt_ld_llmax(int64_t x, int64_t y) { return x > y ? x : y; }
SIMT_INLINE int64_t simt_ld_llmin(int64_t x, int64_t y) { return x < y ? x : y; }
SIMT_INLINE int64_t simt_ld_ullmax(int64_t x, int64_t y) { return (uint64_t)x > (uint64_t)y ? x : y; }
SIMT_INLINE int64_t simt_ld_ullmin(int64_t x, int64_t y) { return (uint64_t)x < (uint64_t)y ? x : y; }

// ---- reinterpretation ----
SIMT_INLINE int32_t simt_ld_float_as_int(float x) { return __builtin_bit_cast(int32_t, x); }
SIMT_INLINE float simt_ld_int_as_float(int32_t x) { return __builtin_bit_cast(float, x); }
SIMT_INLINE int64_t simt_ld_double_as_longlong(double x) { return __builtin_bit_cast(int64_t, x); }
SIMT_INLINE double simt_ld_longlong_as_double(int64_t x) { return __builtin_bit_cast(double, x); }
SIMT_INLINE double simt_ld_hiloint2double(int32_t hi, int32_t lo) {
    return __builtin_bit_cast(double, ((uint64_t)(uint32_t)hi << 32) | (uint32_t)lo);
}
SIMT_INLINE int32_t simt_ld_double2hiint(double x) { return (int32_t)(uint32_t)(__builtin_bit_cast(uint64_t, x) >> 32); }
SIMT_INLINE int32_t simt_ld_double2loint(double x) { return (int32_t)(uint32_t)__builtin_bit_cast(uint64_t, x); }
SIMT_INLINE int16_t simt_ld_float2half_rn(float x) { return (int16_t)simt_half_from_float(x); }
SIMT_INLINE float simt_ld_half2float(int16_t h) { return simt_half_to_float((uint16_t)h); }
SIMT_INLINE double simt_ld_int2double_rn(int32_t i) { return (double)i; }
SIMT_INLINE double simt_ld_uint2double_rn(int32_t i) { return (double)(uint32_t)i; }

// ---- rounding modes ----
// `n` is the result rounded to nearest and `above` says where the exact result lies relative to
// it (1 above, -1 below, 0 equal); mode 0 rn, 1 rz, 2 ru, 3 rd.
SIMT_INLINE float simt_ld_step(float x, float toward) { return __builtin_nextafterf(x, toward); }
SIMT_INLINE double simt_ld_step(double x, double toward) { return __builtin_nextafter(x, toward); }
template <class F> SIMT_INLINE int simt_ld_sign(F v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }
template <class F>
SIMT_INLINE F simt_ld_directed(F n, int above, int mode) {
    if (above == 0 || mode == 0 || n != n) return n;
    if (mode == 1) {
        if (n == 0) return n;
        mode = n > 0 ? 3 : 2;  // toward zero: down for positive results, up for negative ones
    }
    if (mode == 2 && above > 0) return simt_ld_step(n, (F)__builtin_inf());
    if (mode == 3 && above < 0) return simt_ld_step(n, (F)-__builtin_inf());
    return n;
}
// A float result of the exact value s + e (s a double, e exact or of the right sign).
SIMT_INLINE float simt_ld_to_float(double s, double e, int mode) {
    float n = (float)s;
    int above = (double)n != s ? simt_ld_sign(s - (double)n) : simt_ld_sign(e);
    return simt_ld_directed(n, above, mode);
}
// A double result s of finite inputs, e the exact remainder (or of its sign).
SIMT_INLINE double simt_ld_to_double(double s, double e, bool finite_inputs, int mode) {
    int above = simt_ld_sign(e);
    if (s - s != 0 && finite_inputs) above = s > 0 ? -1 : 1;  // overflowed: the exact value is finite
    return simt_ld_directed(s, above, mode);
}
SIMT_INLINE double simt_ld_two_sum_err(double a, double b, double s) {
    double bb = s - a;
    return (a - (s - bb)) + (b - bb);
}
SIMT_INLINE bool simt_ld_fin(double a) { return a - a == 0; }
SIMT_INLINE double simt_ld_add_m(double a, double b, int m) {
    double s = a + b;
    return simt_ld_to_double(s, simt_ld_two_sum_err(a, b, s), simt_ld_fin(a) && simt_ld_fin(b), m);
}
SIMT_INLINE double simt_ld_mul_m(double a, double b, int m) {
    double s = a * b;
    return simt_ld_to_double(s, __builtin_fma(a, b, -s), simt_ld_fin(a) && simt_ld_fin(b), m);
}
SIMT_INLINE double simt_ld_div_m(double a, double b, int m) {
    double s = a / b;
    double r = __builtin_fma(-s, b, a);  // a - s b, exact
    return simt_ld_to_double(s, simt_ld_fin(s) ? r * simt_ld_sign(b) : 0.0, simt_ld_fin(a) && simt_ld_fin(b) && b != 0, m);
}
SIMT_INLINE double simt_ld_sqrt_m(double a, int m) {
    double s = __builtin_sqrt(a);
    return simt_ld_to_double(s, simt_ld_fin(s) ? __builtin_fma(-s, s, a) : 0.0, false, m);
}
// a b + c: the remainder by Boldo and Muller's error-free transformation of the fma.
SIMT_INLINE double simt_ld_fma_m(double a, double b, double c, int m) {
    double r1 = __builtin_fma(a, b, c);
    double u1 = a * b, u2 = __builtin_fma(a, b, -u1);
    double a1 = c + u2, z = simt_ld_two_sum_err(c, u2, a1);
    double b1 = u1 + a1, b2 = simt_ld_two_sum_err(u1, a1, b1);
    double e = simt_ld_fin(r1) ? ((b1 - r1) + b2) + z : 0.0;
    return simt_ld_to_double(r1, e, simt_ld_fin(a) && simt_ld_fin(b) && simt_ld_fin(c), m);
}
SIMT_INLINE float simt_ld_fadd_m(float a, float b, int m) { double s = (double)a + b; return simt_ld_to_float(s, simt_ld_two_sum_err(a, b, s), m); }
SIMT_INLINE float simt_ld_fsub_m(float a, float b, int m) { return simt_ld_fadd_m(a, -b, m); }
SIMT_INLINE float simt_ld_fmul_m(float a, float b, int m) { return simt_ld_to_float((double)a * b, 0.0, m); }  // exact in double
SIMT_INLINE float simt_ld_fdiv_m(float a, float b, int m) {
    double s = (double)a / b;
    double r = simt_ld_fin(s) ? __builtin_fma(-s, (double)b, (double)a) * simt_ld_sign(b) : 0.0;
    return simt_ld_to_float(s, r, m);
}
SIMT_INLINE float simt_ld_frcp_m(float a, int m) { return simt_ld_fdiv_m(1.0f, a, m); }
SIMT_INLINE float simt_ld_fsqrt_m(float a, int m) {
    double s = __builtin_sqrt((double)a);
    return simt_ld_to_float(s, simt_ld_fin(s) ? __builtin_fma(-s, s, (double)a) : 0.0, m);
}
SIMT_INLINE float simt_ld_fmaf_m(float a, float b, float c, int m) {
    double p = (double)a * b, s = p + c;  // p exact
    return simt_ld_to_float(s, simt_ld_two_sum_err(p, c, s), m);
}
SIMT_INLINE double simt_ld_dadd_m(double a, double b, int m) { return simt_ld_add_m(a, b, m); }
SIMT_INLINE double simt_ld_dsub_m(double a, double b, int m) { return simt_ld_add_m(a, -b, m); }
SIMT_INLINE double simt_ld_dmul_m(double a, double b, int m) { return simt_ld_mul_m(a, b, m); }
SIMT_INLINE double simt_ld_ddiv_m(double a, double b, int m) { return simt_ld_div_m(a, b, m); }
SIMT_INLINE double simt_ld_drcp_m(double a, int m) { return simt_ld_div_m(1.0, a, m); }
SIMT_INLINE double simt_ld_dsqrt_m(double a, int m) { return simt_ld_sqrt_m(a, m); }

// Float to integer: rounded as named, saturated to the integer's range. NaN gives what the H200's
// cvt gave (2026-12-01): 0 from float to 32 bits, the sign bit alone (0x80000000...) from double to
// 32 bits and from either to 64 bits.
template <class I>
SIMT_INLINE I simt_ld_to_int(double x, int m, I lo, I hi, I nan) {
    if (x != x) return nan;
    double r = m == 0 ? __builtin_rint(x) : m == 1 ? __builtin_trunc(x) : m == 2 ? __builtin_ceil(x) : __builtin_floor(x);
    if (r <= (double)lo) return lo;
    if (r >= (double)hi) return hi;
    return (I)r;
}
SIMT_INLINE int32_t simt_ld_float2int_m(float x, int m) { return simt_ld_to_int<int32_t>(x, m, -2147483647 - 1, 2147483647, 0); }
SIMT_INLINE int32_t simt_ld_float2uint_m(float x, int m) { return (int32_t)simt_ld_to_int<uint32_t>(x, m, 0u, 4294967295u, 0u); }
SIMT_INLINE int64_t simt_ld_float2ll_m(float x, int m) { return simt_ld_to_int<int64_t>(x, m, -9223372036854775807L - 1, 9223372036854775807L, -9223372036854775807L - 1); }
SIMT_INLINE int64_t simt_ld_float2ull_m(float x, int m) { return (int64_t)simt_ld_to_int<uint64_t>(x, m, 0ul, 18446744073709551615ul, 1ul << 63); }
SIMT_INLINE int32_t simt_ld_double2int_m(double x, int m) { return simt_ld_to_int<int32_t>(x, m, -2147483647 - 1, 2147483647, -2147483647 - 1); }
SIMT_INLINE int32_t simt_ld_double2uint_m(double x, int m) { return (int32_t)simt_ld_to_int<uint32_t>(x, m, 0u, 4294967295u, 1u << 31); }
SIMT_INLINE int64_t simt_ld_double2ll_m(double x, int m) { return simt_ld_to_int<int64_t>(x, m, -9223372036854775807L - 1, 9223372036854775807L, -9223372036854775807L - 1); }
SIMT_INLINE int64_t simt_ld_double2ull_m(double x, int m) { return (int64_t)simt_ld_to_int<uint64_t>(x, m, 0ul, 18446744073709551615ul, 1ul << 63); }
// llrint / llround: to nearest (ties to even / away from zero), saturated as the conversions are.
SIMT_INLINE int64_t simt_ld_llrint(double x) { return simt_ld_double2ll_m(x, 0); }
SIMT_INLINE int64_t simt_ld_llrintf(float x) { return simt_ld_double2ll_m(x, 0); }
SIMT_INLINE int64_t simt_ld_llround(double x) { return simt_ld_double2ll_m(__builtin_round(x), 1); }
SIMT_INLINE int64_t simt_ld_llroundf(float x) { return simt_ld_double2ll_m(__builtin_round((double)x), 1); }
SIMT_INLINE float simt_ld_double2float_m(double x, int m) { return simt_ld_to_float(x, 0.0, m); }
// Integer to float: the nearest value, then compared with the integer exactly (in 128 bits).
template <class F, class I>
SIMT_INLINE F simt_ld_from_int(I v, int m) {
    F n = (F)v;
    __int128 back = (__int128)n, exact = (__int128)v;
    return simt_ld_directed(n, exact > back ? 1 : exact < back ? -1 : 0, m);
}
SIMT_INLINE float simt_ld_int2float_m(int32_t v, int m) { return simt_ld_from_int<float>(v, m); }
SIMT_INLINE float simt_ld_uint2float_m(int32_t v, int m) { return simt_ld_from_int<float>((uint32_t)v, m); }
SIMT_INLINE float simt_ld_ll2float_m(int64_t v, int m) { return simt_ld_from_int<float>(v, m); }
SIMT_INLINE float simt_ld_ull2float_m(int64_t v, int m) { return simt_ld_from_int<float>((uint64_t)v, m); }
SIMT_INLINE double simt_ld_ll2double_m(int64_t v, int m) { return simt_ld_from_int<double>(v, m); }
SIMT_INLINE double simt_ld_ull2double_m(int64_t v, int m) { return simt_ld_from_int<double>((uint64_t)v, m); }

#define SIMT_LD_MODES(name, R, P, ...)                                                  \
    SIMT_INLINE R simt_ld_##name##_rn P { return simt_ld_##name##_m(__VA_ARGS__, 0); } \
    SIMT_INLINE R simt_ld_##name##_rz P { return simt_ld_##name##_m(__VA_ARGS__, 1); } \
    SIMT_INLINE R simt_ld_##name##_ru P { return simt_ld_##name##_m(__VA_ARGS__, 2); } \
    SIMT_INLINE R simt_ld_##name##_rd P { return simt_ld_##name##_m(__VA_ARGS__, 3); }
SIMT_LD_MODES(fadd, float, (float a, float b), a, b) SIMT_LD_MODES(fsub, float, (float a, float b), a, b)
SIMT_LD_MODES(fmul, float, (float a, float b), a, b) SIMT_LD_MODES(fdiv, float, (float a, float b), a, b)
SIMT_LD_MODES(frcp, float, (float a), a) SIMT_LD_MODES(fsqrt, float, (float a), a)
SIMT_LD_MODES(fmaf, float, (float a, float b, float c), a, b, c)
SIMT_LD_MODES(dadd, double, (double a, double b), a, b) SIMT_LD_MODES(dsub, double, (double a, double b), a, b)
SIMT_LD_MODES(dmul, double, (double a, double b), a, b) SIMT_LD_MODES(ddiv, double, (double a, double b), a, b)
SIMT_LD_MODES(drcp, double, (double a), a) SIMT_LD_MODES(dsqrt, double, (double a), a)
SIMT_LD_MODES(fma, double, (double a, double b, double c), a, b, c)
SIMT_LD_MODES(float2int, int32_t, (float x), x) SIMT_LD_MODES(float2uint, int32_t, (float x), x)
SIMT_LD_MODES(float2ll, int64_t, (float x), x) SIMT_LD_MODES(float2ull, int64_t, (float x), x)
SIMT_LD_MODES(double2int, int32_t, (double x), x) SIMT_LD_MODES(double2uint, int32_t, (double x), x)
SIMT_LD_MODES(double2ll, int64_t, (double x), x) SIMT_LD_MODES(double2ull, int64_t, (double x), x)
SIMT_LD_MODES(double2float, float, (double x), x)
SIMT_LD_MODES(int2float, float, (int32_t v), v) SIMT_LD_MODES(uint2float, float, (int32_t v), v)
SIMT_LD_MODES(ll2float, float, (int64_t v), v) SIMT_LD_MODES(ull2float, float, (int64_t v), v)
SIMT_LD_MODES(ll2double, double, (int64_t v), v) SIMT_LD_MODES(ull2double, double, (int64_t v), v)

// 1/sqrt(x) correctly rounded: the double estimate, then the midpoints on either side tested
// exactly (y > m exactly when m^2 x < 1; m^2 is exact, the fma rounds once).
SIMT_INLINE float simt_ld_frsqrt_rn(float x) {
    float n = (float)(1.0 / __builtin_sqrt((double)x));
    if (!(x > 0) || x - x != 0) return n;
    double up = ((double)n + (double)__builtin_nextafterf(n, __builtin_inff())) / 2;
    if (__builtin_fma(up * up, (double)x, -1.0) < 0) return __builtin_nextafterf(n, __builtin_inff());
    double dn = ((double)n + (double)__builtin_nextafterf(n, 0.0f)) / 2;
    if (__builtin_fma(dn * dn, (double)x, -1.0) > 0) return __builtin_nextafterf(n, 0.0f);
    return n;
}
