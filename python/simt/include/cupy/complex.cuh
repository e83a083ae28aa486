// simt's <cupy/complex.cuh>: the complex<float> / complex<double> type that CuPy's kernels use
// (thrust::complex's interface, also reachable unqualified), with its arithmetic and math
// functions, written for simt. Raw kernels that include it compile on both backends: NVRTC on
// the cuda backend (no C++ standard library there: only CUDA's built-in math is called) and the
// host compiler over simt's raw prelude on the cpu backend (math.h's functions).
// Arithmetic follows NumPy: products as (ac - bd, ad + bc), quotients by Smith's algorithm, so
// kernels give NumPy's results bit for bit where NumPy's own formulas are this simple.
#pragma once
#ifndef SIMT_CUPY_COMPLEX_CUH
#define SIMT_CUPY_COMPLEX_CUH

namespace thrust {

// ---- real math on float and double (fully qualified: thrust's complex overloads would hide them)
namespace simt_real {
#define SIMT_REAL_1(NAME)                                                              \
    __host__ __device__ __forceinline__ float NAME(float x) { return ::NAME##f(x); } \
    __host__ __device__ __forceinline__ double NAME(double x) { return ::NAME(x); }
#define SIMT_REAL_2(NAME)                                                                           \
    __host__ __device__ __forceinline__ float NAME(float x, float y) { return ::NAME##f(x, y); }  \
    __host__ __device__ __forceinline__ double NAME(double x, double y) { return ::NAME(x, y); }
SIMT_REAL_1(sqrt) SIMT_REAL_1(exp) SIMT_REAL_1(log) SIMT_REAL_1(log1p) SIMT_REAL_1(sin) SIMT_REAL_1(cos)
SIMT_REAL_1(tan) SIMT_REAL_1(sinh) SIMT_REAL_1(cosh) SIMT_REAL_1(asinh) SIMT_REAL_1(fabs) SIMT_REAL_1(floor)
SIMT_REAL_1(rint) SIMT_REAL_1(expm1)
SIMT_REAL_2(atan2) SIMT_REAL_2(hypot) SIMT_REAL_2(copysign) SIMT_REAL_2(pow)
#undef SIMT_REAL_1
#undef SIMT_REAL_2
template <class T> __host__ __device__ __forceinline__ bool isnan(T x) { return x != x; }
template <class T> __host__ __device__ __forceinline__ bool isinf(T x) { return x - x != x - x && x == x; }
template <class T> __host__ __device__ __forceinline__ bool isfinite(T x) { return x - x == x - x; }
__host__ __device__ __forceinline__ float infinity(float) { return __int_as_float(0x7f800000); }
__host__ __device__ __forceinline__ double infinity(double) { return __longlong_as_double(0x7ff0000000000000ll); }
// |x| beyond which squaring overflows (sqrt(max) / 2, roughly): sqrt rescales such arguments.
__host__ __device__ __forceinline__ float quarter_max(float) { return 8.5e37f; }
__host__ __device__ __forceinline__ double quarter_max(double) { return 4.4e307; }
// exp(x) overflows past this, though exp(x) * cos(y) might not.
__host__ __device__ __forceinline__ float exp_overflow(float) { return 88.0f; }
__host__ __device__ __forceinline__ double exp_overflow(double) { return 709.0; }
}  // namespace simt_real

template <class T>
struct alignas(2 * sizeof(T)) complex {
    typedef T value_type;
    T re_, im_;

    __host__ __device__ complex(const T& re = T(), const T& im = T()) : re_(re), im_(im) {}
    template <class U>
    __host__ __device__ complex(const complex<U>& z) : re_(T(z.real())), im_(T(z.imag())) {}

    __host__ __device__ T real() const { return re_; }
    __host__ __device__ T imag() const { return im_; }
    __host__ __device__ void real(T re) { re_ = re; }
    __host__ __device__ void imag(T im) { im_ = im; }

    __host__ __device__ complex& operator=(const T& x) { re_ = x; im_ = T(); return *this; }
    template <class U>
    __host__ __device__ complex& operator=(const complex<U>& z) { re_ = T(z.real()); im_ = T(z.imag()); return *this; }

    template <class U> __host__ __device__ complex& operator+=(const complex<U>& z) { return *this = *this + z; }
    template <class U> __host__ __device__ complex& operator-=(const complex<U>& z) { return *this = *this - z; }
    template <class U> __host__ __device__ complex& operator*=(const complex<U>& z) { return *this = *this * z; }
    template <class U> __host__ __device__ complex& operator/=(const complex<U>& z) { return *this = *this / z; }
    __host__ __device__ complex& operator+=(const T& x) { re_ += x; return *this; }
    __host__ __device__ complex& operator-=(const T& x) { re_ -= x; return *this; }
    __host__ __device__ complex& operator*=(const T& x) { re_ *= x; im_ *= x; return *this; }
    __host__ __device__ complex& operator/=(const T& x) { re_ /= x; im_ /= x; return *this; }
};

// ---- arithmetic: mixed precisions promote as the real types do (complex<float> * double is
// complex<double>); scalar operands act as complex numbers with a zero imaginary part.
template <class A, class B>
__host__ __device__ complex<decltype(A() + B())> operator+(const complex<A>& a, const complex<B>& b) {
    return complex<decltype(A() + B())>(a.real() + b.real(), a.imag() + b.imag());
}
template <class A, class B>
__host__ __device__ complex<decltype(A() + B())> operator+(const complex<A>& a, const B& b) {
    return complex<decltype(A() + B())>(a.real() + b, a.imag());
}
template <class A, class B>
__host__ __device__ complex<decltype(A() + B())> operator+(const A& a, const complex<B>& b) {
    return complex<decltype(A() + B())>(a + b.real(), b.imag());
}
template <class A, class B>
__host__ __device__ complex<decltype(A() - B())> operator-(const complex<A>& a, const complex<B>& b) {
    return complex<decltype(A() - B())>(a.real() - b.real(), a.imag() - b.imag());
}
template <class A, class B>
__host__ __device__ complex<decltype(A() - B())> operator-(const complex<A>& a, const B& b) {
    return complex<decltype(A() - B())>(a.real() - b, a.imag());
}
template <class A, class B>
__host__ __device__ complex<decltype(A() - B())> operator-(const A& a, const complex<B>& b) {
    return complex<decltype(A() - B())>(a - b.real(), -b.imag());
}
template <class A, class B>
__host__ __device__ complex<decltype(A() * B())> operator*(const complex<A>& a, const complex<B>& b) {
    typedef decltype(A() * B()) R;
    const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    return complex<R>(ar * br - ai * bi, ar * bi + ai * br);
}
template <class A, class B>
__host__ __device__ complex<decltype(A() * B())> operator*(const complex<A>& a, const B& b) {
    return complex<decltype(A() * B())>(a.real() * b, a.imag() * b);
}
template <class A, class B>
__host__ __device__ complex<decltype(A() * B())> operator*(const A& a, const complex<B>& b) {
    return complex<decltype(A() * B())>(a * b.real(), a * b.imag());
}
template <class A, class B>
__host__ __device__ complex<decltype(A() / B())> operator/(const complex<A>& a, const complex<B>& b) {
    // Smith's algorithm (as NumPy divides): no overflow in |b|^2.
    typedef decltype(A() / B()) R;
    const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    const R abs_r = simt_real::fabs(br), abs_i = simt_real::fabs(bi);
    if (abs_r >= abs_i) {
        if (abs_r == 0) return complex<R>(ar / abs_r, ai / abs_r);  // division by zero: inf / nan parts
        const R r = bi / br, d = br + bi * r;
        return complex<R>((ar + ai * r) / d, (ai - ar * r) / d);
    }
    const R r = br / bi, d = bi + br * r;
    return complex<R>((ar * r + ai) / d, (ai * r - ar) / d);
}
template <class A, class B>
__host__ __device__ complex<decltype(A() / B())> operator/(const complex<A>& a, const B& b) {
    return complex<decltype(A() / B())>(a.real() / b, a.imag() / b);
}
template <class A, class B>
__host__ __device__ complex<decltype(A() / B())> operator/(const A& a, const complex<B>& b) {
    return complex<decltype(A() / B())>(a, 0) / b;
}
template <class T> __host__ __device__ complex<T> operator+(const complex<T>& z) { return z; }
template <class T> __host__ __device__ complex<T> operator-(const complex<T>& z) { return complex<T>(-z.real(), -z.imag()); }

template <class A, class B> __host__ __device__ bool operator==(const complex<A>& a, const complex<B>& b) {
    return a.real() == b.real() && a.imag() == b.imag();
}
template <class A, class B> __host__ __device__ bool operator==(const complex<A>& a, const B& b) {
    return a.real() == b && a.imag() == 0;
}
template <class A, class B> __host__ __device__ bool operator==(const A& a, const complex<B>& b) { return b == a; }
template <class A, class B> __host__ __device__ bool operator!=(const complex<A>& a, const complex<B>& b) { return !(a == b); }
template <class A, class B> __host__ __device__ bool operator!=(const complex<A>& a, const B& b) { return !(a == b); }
template <class A, class B> __host__ __device__ bool operator!=(const A& a, const complex<B>& b) { return !(b == a); }

// ---- parts, modulus, phase ----------------------------------------------------------------------
template <class T> __host__ __device__ T real(const complex<T>& z) { return z.real(); }
template <class T> __host__ __device__ T imag(const complex<T>& z) { return z.imag(); }
template <class T> __host__ __device__ complex<T> conj(const complex<T>& z) { return complex<T>(z.real(), -z.imag()); }
template <class T> __host__ __device__ T abs(const complex<T>& z) { return simt_real::hypot(z.real(), z.imag()); }
template <class T> __host__ __device__ T arg(const complex<T>& z) { return simt_real::atan2(z.imag(), z.real()); }
template <class T> __host__ __device__ T norm(const complex<T>& z) { return z.real() * z.real() + z.imag() * z.imag(); }
template <class T> __host__ __device__ complex<T> polar(const T& m, const T& theta = T()) {
    return complex<T>(m * simt_real::cos(theta), m * simt_real::sin(theta));
}
// The projection onto the Riemann sphere: every infinity becomes (+inf, +-0).
template <class T> __host__ __device__ complex<T> proj(const complex<T>& z) {
    if (simt_real::isinf(z.real()) || simt_real::isinf(z.imag()))
        return complex<T>(simt_real::infinity(T()), simt_real::copysign(T(0), z.imag()));
    return z;
}

// ---- exponential and logarithms ------------------------------------------------------------------
template <class T> __host__ __device__ complex<T> exp(const complex<T>& z) {
    const T x = z.real(), y = z.imag();
    if (y == 0) return complex<T>(simt_real::exp(x), y);
    if (simt_real::isinf(x) && !simt_real::isfinite(y)) return x < 0 ? complex<T>(0, 0) : complex<T>(x, y - y);
    const T c = simt_real::cos(y), s = simt_real::sin(y);
    if (x > simt_real::exp_overflow(T())) {  // exp(x) overflows before the products do
        const T h = simt_real::exp(x / 2);
        return complex<T>(h * c * h, h * s * h);
    }
    const T e = simt_real::exp(x);
    return complex<T>(e * c, e * s);
}
template <class T> __host__ __device__ complex<T> log(const complex<T>& z) {
    const T ax = simt_real::fabs(z.real()), ay = simt_real::fabs(z.imag());
    const T big = ax > ay ? ax : ay, small = ax > ay ? ay : ax;
    T modulus_log;
    if (big > T(0.5) && big < T(2))  // |z| near 1: log1p keeps the small result accurate
        modulus_log = T(0.5) * simt_real::log1p((big - 1) * (big + 1) + small * small);
    else
        modulus_log = simt_real::log(simt_real::hypot(z.real(), z.imag()));
    return complex<T>(modulus_log, simt_real::atan2(z.imag(), z.real()));
}
template <class T> __host__ __device__ complex<T> log10(const complex<T>& z) {
    const complex<T> l = log(z);
    const T inv_ln10 = T(0.43429448190325182765);
    return complex<T>(l.real() * inv_ln10, l.imag() * inv_ln10);
}
template <class T> __host__ __device__ complex<T> sqrt(const complex<T>& z) {
    T x = z.real(), y = z.imag();
    if (simt_real::isinf(y)) return complex<T>(simt_real::infinity(T()), y);
    if (simt_real::isinf(x)) {
        if (x > 0) return complex<T>(x, y != y ? y : simt_real::copysign(T(0), y));
        return complex<T>(simt_real::fabs(y - y), simt_real::copysign(-x, y));
    }
    if (x != x || y != y) return complex<T>(x + y, x + y);
    if (x == 0 && y == 0) return complex<T>(0, y);
    T scale = 1;
    if (simt_real::fabs(x) > simt_real::quarter_max(T()) || simt_real::fabs(y) > simt_real::quarter_max(T())) {
        x /= 4;  // sqrt(z) = 2 sqrt(z / 4) keeps hypot from overflowing
        y /= 4;
        scale = 2;
    }
    const T t = simt_real::sqrt((simt_real::fabs(x) + simt_real::hypot(x, y)) / 2);
    if (x >= 0) return complex<T>(scale * t, scale * (y / (2 * t)));
    return complex<T>(scale * (simt_real::fabs(y) / (2 * t)), scale * simt_real::copysign(t, y));
}

// ---- powers: integral exponents up to 100 multiply exactly, others go through exp(w log z) -------
template <class T> __host__ __device__ complex<T> pow(const complex<T>& z, const complex<T>& w) {
    if (w.imag() == 0 && w.real() == simt_real::floor(w.real()) && simt_real::fabs(w.real()) <= 100) {
        int n = int(w.real());
        unsigned k = unsigned(n < 0 ? -n : n);
        complex<T> result(1, 0), base = z;
        while (k) {
            if (k & 1u) result = result * base;
            base = base * base;
            k >>= 1;
        }
        return n < 0 ? complex<T>(1, 0) / result : result;
    }
    if (z.real() == 0 && z.imag() == 0) {
        if (w.imag() != 0 || w.real() < 0) return complex<T>(T(0) / T(0), T(0) / T(0));
        return complex<T>(0, 0);
    }
    return exp(w * log(z));
}
template <class A, class B>
__host__ __device__ complex<decltype(A() + B())> pow(const complex<A>& z, const complex<B>& w) {
    typedef decltype(A() + B()) R;
    return pow(complex<R>(z), complex<R>(w));
}
template <class A, class B>
__host__ __device__ complex<decltype(A() + B())> pow(const complex<A>& z, const B& x) {
    typedef decltype(A() + B()) R;
    return pow(complex<R>(z), complex<R>(x));
}
template <class A, class B>
__host__ __device__ complex<decltype(A() + B())> pow(const A& x, const complex<B>& w) {
    typedef decltype(A() + B()) R;
    return pow(complex<R>(x), complex<R>(w));
}

// ---- hyperbolic and circular functions (the circular ones through i z) --------------------------
template <class T> __host__ __device__ complex<T> simt_times_i(const complex<T>& z) { return complex<T>(-z.imag(), z.real()); }
template <class T> __host__ __device__ complex<T> simt_times_minus_i(const complex<T>& z) { return complex<T>(z.imag(), -z.real()); }

template <class T> __host__ __device__ complex<T> sinh(const complex<T>& z) {
    const T x = z.real(), y = z.imag();
    if (y == 0) return complex<T>(simt_real::sinh(x), y);
    return complex<T>(simt_real::sinh(x) * simt_real::cos(y), simt_real::cosh(x) * simt_real::sin(y));
}
template <class T> __host__ __device__ complex<T> cosh(const complex<T>& z) {
    const T x = z.real(), y = z.imag();
    if (y == 0) return complex<T>(simt_real::cosh(x), simt_real::copysign(T(0), x) * y);
    return complex<T>(simt_real::cosh(x) * simt_real::cos(y), simt_real::sinh(x) * simt_real::sin(y));
}
template <class T> __host__ __device__ complex<T> tanh(const complex<T>& z) {
    const T x = z.real(), y = z.imag();
    if (simt_real::fabs(x) > (sizeof(T) == 4 ? T(9) : T(22))) {  // tanh(x) rounds to +-1
        const T tiny = 2 * simt_real::sin(2 * y) * simt_real::exp(-2 * simt_real::fabs(x));
        return complex<T>(simt_real::copysign(T(1), x), y == 0 ? y : tiny);
    }
    const T t = simt_real::tan(y), b = 1 + t * t, s = simt_real::sinh(x);
    const T rho = simt_real::sqrt(1 + s * s), d = 1 + b * s * s;
    return complex<T>(b * rho * s / d, t / d);
}
template <class T> __host__ __device__ complex<T> sin(const complex<T>& z) { return simt_times_minus_i(sinh(simt_times_i(z))); }
template <class T> __host__ __device__ complex<T> cos(const complex<T>& z) { return cosh(simt_times_i(z)); }
template <class T> __host__ __device__ complex<T> tan(const complex<T>& z) { return simt_times_minus_i(tanh(simt_times_i(z))); }

// ---- inverse functions: Kahan's formulas ("Branch Cuts for Complex Elementary Functions"), which
// keep the signs of zeros on the branch cuts.
template <class T> __host__ __device__ complex<T> asin(const complex<T>& z) {
    const complex<T> a = sqrt(complex<T>(1 - z.real(), -z.imag())), b = sqrt(complex<T>(1 + z.real(), z.imag()));
    return complex<T>(simt_real::atan2(z.real(), a.real() * b.real() - a.imag() * b.imag()),
                      simt_real::asinh(a.real() * b.imag() - a.imag() * b.real()));
}
template <class T> __host__ __device__ complex<T> acos(const complex<T>& z) {
    const complex<T> a = sqrt(complex<T>(1 - z.real(), -z.imag())), b = sqrt(complex<T>(1 + z.real(), z.imag()));
    return complex<T>(2 * simt_real::atan2(a.real(), b.real()), simt_real::asinh(b.real() * a.imag() - b.imag() * a.real()));
}
template <class T> __host__ __device__ complex<T> acosh(const complex<T>& z) {
    const complex<T> a = sqrt(complex<T>(z.real() - 1, z.imag())), b = sqrt(complex<T>(z.real() + 1, z.imag()));
    return complex<T>(simt_real::asinh(a.real() * b.real() + a.imag() * b.imag()), 2 * simt_real::atan2(a.imag(), b.real()));
}
template <class T> __host__ __device__ complex<T> asinh(const complex<T>& z) { return simt_times_minus_i(asin(simt_times_i(z))); }
template <class T> __host__ __device__ complex<T> atanh(const complex<T>& z) {
    // Re atanh is odd in x: computed for |x|, log1p's argument stays >= 0.
    const T x = z.real(), y = z.imag(), ax = simt_real::fabs(x), one_minus = 1 - ax;
    const T re = T(0.25) * simt_real::log1p(4 * ax / (one_minus * one_minus + y * y));
    const T im = T(0.5) * simt_real::atan2(2 * y, (1 - x) * (1 + x) - y * y);
    return complex<T>(simt_real::copysign(re, x), im);
}
template <class T> __host__ __device__ complex<T> atan(const complex<T>& z) { return simt_times_minus_i(atanh(simt_times_i(z))); }

}  // namespace thrust

// ---- CuPy's spellings: complex<T> and its functions unqualified, and the extras CuPy's elementwise
// kernels use (NaN-aware min/max order complex numbers lexicographically, as NumPy does).
using thrust::complex;
using thrust::real;
using thrust::imag;
using thrust::conj;
using thrust::arg;
using thrust::norm;
using thrust::polar;
using thrust::proj;
using thrust::exp;
using thrust::log;
using thrust::log10;
using thrust::sqrt;
using thrust::pow;
using thrust::sin;
using thrust::cos;
using thrust::tan;
using thrust::sinh;
using thrust::cosh;
using thrust::tanh;
using thrust::asin;
using thrust::acos;
using thrust::atan;
using thrust::asinh;
using thrust::acosh;
using thrust::atanh;

template <class T> __host__ __device__ bool isnan(complex<T> z) { return z.real() != z.real() || z.imag() != z.imag(); }
template <class T> __host__ __device__ bool isinf(complex<T> z) {
    return thrust::simt_real::isinf(z.real()) || thrust::simt_real::isinf(z.imag());
}
template <class T> __host__ __device__ bool isfinite(complex<T> z) {
    return thrust::simt_real::isfinite(z.real()) && thrust::simt_real::isfinite(z.imag());
}
template <class T> __host__ __device__ complex<T> log1p(complex<T> z) { return thrust::log(z + T(1)); }
template <class T> __host__ __device__ complex<T> log2(complex<T> z) {
    const complex<T> l = thrust::log(z);
    const T inv_ln2 = T(1.44269504088896340736);
    return complex<T>(l.real() * inv_ln2, l.imag() * inv_ln2);
}
template <class T> __host__ __device__ complex<T> expm1(complex<T> z) { return thrust::exp(z) - T(1); }
template <class T> __host__ __device__ complex<T> rint(complex<T> z) {
    return complex<T>(thrust::simt_real::rint(z.real()), thrust::simt_real::rint(z.imag()));
}
template <class T> __host__ __device__ complex<T> min(complex<T> a, complex<T> b) {
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    if (a.real() != b.real()) return a.real() < b.real() ? a : b;
    return a.imag() < b.imag() ? a : b;
}
template <class T> __host__ __device__ complex<T> max(complex<T> a, complex<T> b) {
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    if (a.real() != b.real()) return a.real() < b.real() ? b : a;
    return a.imag() < b.imag() ? b : a;
}

#endif  // SIMT_CUPY_COMPLEX_CUH
