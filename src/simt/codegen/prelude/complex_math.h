// simt prelude, both targets: the `cmath` module and complex power, written on the real math
// functions (CUDA has no complex library without headers). The inverse functions follow Kahan's
// "Branch Cuts for Complex Elementary Functions" (1987), which keeps signed zeros on the cuts.
// (Joined after scalar_math.h; see codegen/prelude.cpp.)

template <class R> SIMT_INLINE bool simt_isnan(simt_complex<R> z) { return z.re != z.re || z.im != z.im; }
template <class R> SIMT_INLINE bool simt_isinf(simt_complex<R> z) { return simt_isinf(z.re) || simt_isinf(z.im); }
template <class R> SIMT_INLINE bool simt_isfinite(simt_complex<R> z) { return simt_isfinite(z.re) && simt_isfinite(z.im); }

template <class R> SIMT_INLINE R simt_cphase(simt_complex<R> z) { return simt_real_atan2(z.im, z.re); }

template <class R> SIMT_INLINE simt_complex<R> simt_crect(R r, R phi) {
    if (phi == 0 && simt_isinf(r)) return {r, phi * simt_real_copysign((R)1, r)};
    return {r * simt_real_cos(phi), r * simt_real_sin(phi)};
}

// i*z and -i*z: the inverse and circular functions are written through their hyperbolic twins.
template <class R> SIMT_INLINE simt_complex<R> simt_times_i(simt_complex<R> z) { return {-z.im, z.re}; }
template <class R> SIMT_INLINE simt_complex<R> simt_times_minus_i(simt_complex<R> z) { return {z.im, -z.re}; }

// 1 - z and 1 + z with a real 1: the imaginary part keeps the sign of its zero (-z.im, z.im),
// which decides the side of a branch cut.
template <class R> SIMT_INLINE simt_complex<R> simt_one_minus(simt_complex<R> z) { return {1 - z.re, -z.im}; }
template <class R> SIMT_INLINE simt_complex<R> simt_one_plus(simt_complex<R> z) { return {1 + z.re, z.im}; }

template <class R> SIMT_INLINE simt_complex<R> simt_csqrt(simt_complex<R> z) {
    R x = z.re, y = z.im;
    if (simt_isinf(y)) return {(R)simt_inf(), y};
    if (simt_isinf(x)) {
        if (x > 0) return {x, y != y ? y : simt_real_copysign((R)0, y)};
        return {simt_real_fabs(y - y), simt_real_copysign(-x, y)};  // y NaN gives NaN real part
    }
    if (x != x || y != y) return {x + y, x + y};
    if (x == 0 && y == 0) return {(R)0, y};
    R scale = 1;
    if (simt_real_fabs(x) > simt_real_quarter_max(x) || simt_real_fabs(y) > simt_real_quarter_max(x)) {
        x *= (R)0.25;  // sqrt(z) = 2 sqrt(z / 4) keeps hypot below overflow
        y *= (R)0.25;
        scale = 2;
    }
    R t = simt_real_sqrt((simt_real_fabs(x) + simt_real_hypot(x, y)) * (R)0.5);
    if (x >= 0) return {scale * t, scale * (y / (2 * t))};
    return {scale * (simt_real_fabs(y) / (2 * t)), scale * simt_real_copysign(t, y)};
}

template <class R> SIMT_INLINE simt_complex<R> simt_cexp(simt_complex<R> z) {
    R x = z.re, y = z.im;
    if (y == 0) return {simt_real_exp(x), y};
    if (simt_isinf(x) && !simt_isfinite(y)) return x < 0 ? simt_complex<R>((R)0, (R)0) : simt_complex<R>(x, y - y);
    R c = simt_real_cos(y), s = simt_real_sin(y);
    if (x > (sizeof(R) == 4 ? (R)88 : (R)709)) {  // exp(x) overflows before the product does
        R h = simt_real_exp(x * (R)0.5);
        return {h * c * h, h * s * h};
    }
    R e = simt_real_exp(x);
    return {e * c, e * s};
}

template <class R> SIMT_INLINE simt_complex<R> simt_clog(simt_complex<R> z) {
    R ax = simt_real_fabs(z.re), ay = simt_real_fabs(z.im);
    R big = ax > ay ? ax : ay, small = ax > ay ? ay : ax;
    R modulus_log;
    if (big > (R)0.5 && big < (R)2)  // |z| near 1: log1p keeps the small result accurate
        modulus_log = (R)0.5 * simt_real_log1p((big - 1) * (big + 1) + small * small);
    else
        modulus_log = simt_real_log(simt_real_hypot(z.re, z.im));
    return {modulus_log, simt_real_atan2(z.im, z.re)};
}

template <class R> SIMT_INLINE simt_complex<R> simt_clog10(simt_complex<R> z) {
    simt_complex<R> l = simt_clog(z);
    const R inv_ln10 = (R)0.43429448190325182765;
    return {l.re * inv_ln10, l.im * inv_ln10};
}

template <class R> SIMT_INLINE simt_complex<R> simt_csinh(simt_complex<R> z) {
    R x = z.re, y = z.im;
    if (y == 0) return {simt_real_sinh(x), y};
    return {simt_real_sinh(x) * simt_real_cos(y), simt_real_cosh(x) * simt_real_sin(y)};
}

template <class R> SIMT_INLINE simt_complex<R> simt_ccosh(simt_complex<R> z) {
    R x = z.re, y = z.im;
    if (y == 0) return {simt_real_cosh(x), simt_real_copysign((R)0, x) * y};
    return {simt_real_cosh(x) * simt_real_cos(y), simt_real_sinh(x) * simt_real_sin(y)};
}

template <class R> SIMT_INLINE simt_complex<R> simt_ctanh(simt_complex<R> z) {
    R x = z.re, y = z.im;
    if (simt_real_fabs(x) > (sizeof(R) == 4 ? (R)9 : (R)22)) {  // tanh(x) rounds to +-1
        R tiny = 2 * simt_real_sin(2 * y) * simt_real_exp(-2 * simt_real_fabs(x));
        return {simt_real_copysign((R)1, x), y == 0 ? y : tiny};
    }
    R t = simt_real_tan(y), b = 1 + t * t, s = simt_real_sinh(x);
    R rho = simt_real_sqrt(1 + s * s), d = 1 + b * s * s;
    return {b * rho * s / d, t / d};
}

template <class R> SIMT_INLINE simt_complex<R> simt_csin(simt_complex<R> z) { return simt_times_minus_i(simt_csinh(simt_times_i(z))); }
template <class R> SIMT_INLINE simt_complex<R> simt_ccos(simt_complex<R> z) { return simt_ccosh(simt_times_i(z)); }
template <class R> SIMT_INLINE simt_complex<R> simt_ctan(simt_complex<R> z) { return simt_times_minus_i(simt_ctanh(simt_times_i(z))); }

template <class R> SIMT_INLINE simt_complex<R> simt_casin(simt_complex<R> z) {
    simt_complex<R> a = simt_csqrt(simt_one_minus(z)), b = simt_csqrt(simt_one_plus(z));
    return {simt_real_atan2(z.re, a.re * b.re - a.im * b.im), simt_real_asinh(a.re * b.im - a.im * b.re)};
}

template <class R> SIMT_INLINE simt_complex<R> simt_cacos(simt_complex<R> z) {
    simt_complex<R> a = simt_csqrt(simt_one_minus(z)), b = simt_csqrt(simt_one_plus(z));
    return {2 * simt_real_atan2(a.re, b.re), simt_real_asinh(b.re * a.im - b.im * a.re)};
}

template <class R> SIMT_INLINE simt_complex<R> simt_cacosh(simt_complex<R> z) {
    simt_complex<R> a = simt_csqrt(simt_complex<R>(z.re - 1, z.im)), b = simt_csqrt(simt_one_plus(z));
    return {simt_real_asinh(a.re * b.re + a.im * b.im), 2 * simt_real_atan2(a.im, b.re)};
}

template <class R> SIMT_INLINE simt_complex<R> simt_casinh(simt_complex<R> z) { return simt_times_minus_i(simt_casin(simt_times_i(z))); }

template <class R> SIMT_INLINE simt_complex<R> simt_catanh(simt_complex<R> z) {
    // Re atanh is odd in x: computing it for |x| keeps log1p's argument >= 0 (near -1 it would
    // lose all precision).
    R x = z.re, y = z.im, ax = simt_real_fabs(x);
    R one_minus = 1 - ax;
    R re = (R)0.25 * simt_real_log1p(4 * ax / (one_minus * one_minus + y * y));
    R im = (R)0.5 * simt_real_atan2(2 * y, (1 - x) * (1 + x) - y * y);
    return {simt_real_copysign(re, x), im};
}

template <class R> SIMT_INLINE simt_complex<R> simt_catan(simt_complex<R> z) { return simt_times_minus_i(simt_catanh(simt_times_i(z))); }

// ---- complex ** complex -------------------------------------------------------------------------
// Integral exponents up to 100 in magnitude multiply exactly (as CPython does); others go through
// the polar form.
template <class R> SIMT_INLINE simt_complex<R> simt_cpowu(simt_complex<R> base, unsigned n) {
    simt_complex<R> result((R)1, (R)0);
    while (n) {
        if (n & 1u) result = result * base;
        base = base * base;
        n >>= 1;
    }
    return result;
}

template <class R> SIMT_INLINE simt_complex<R> simt_pow(simt_complex<R> a, simt_complex<R> b) {
    if (b.im == 0 && b.re == simt_real_floor(b.re) && simt_real_fabs(b.re) <= 100) {
        int n = (int)b.re;
        if (n >= 0) return simt_cpowu(a, (unsigned)n);
        return simt_complex<R>((R)1, (R)0) / simt_cpowu(a, (unsigned)-n);
    }
    if (a.re == 0 && a.im == 0) {
        if (b.im != 0 || b.re < 0) return {(R)simt_nan(), (R)simt_nan()};  // CPython: ZeroDivisionError
        return {(R)0, (R)0};
    }
    R modulus = simt_real_hypot(a.re, a.im), angle = simt_real_atan2(a.im, a.re);
    R len = simt_real_pow(modulus, b.re), phase = angle * b.re;
    if (b.im != 0) {
        len /= simt_real_exp(angle * b.im);
        phase += b.im * simt_real_log(modulus);
    }
    return {len * simt_real_cos(phase), len * simt_real_sin(phase)};
}

// cmath.polar(z) -> (abs(z), phase(z)) as the kernel's tuple type.
template <class Tuple, class R> SIMT_INLINE Tuple simt_cpolar(simt_complex<R> z) { return Tuple{(R)simt_abs(z), simt_cphase(z)}; }
