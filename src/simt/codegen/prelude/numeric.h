// simt prelude, both targets: wrapping integer arithmetic, the float16 and complex scalar types
// and their arithmetic. (Joined after the target prelude and before common.h; see codegen/prelude.cpp.)

// ---- integers ---------------------------------------------------------------------------------
template <class T> struct simt_unsigned_of;
template <> struct simt_unsigned_of<int8_t> { typedef uint8_t type; };
template <> struct simt_unsigned_of<uint8_t> { typedef uint8_t type; };
template <> struct simt_unsigned_of<int16_t> { typedef uint16_t type; };
template <> struct simt_unsigned_of<uint16_t> { typedef uint16_t type; };
template <> struct simt_unsigned_of<int32_t> { typedef uint32_t type; };
template <> struct simt_unsigned_of<uint32_t> { typedef uint32_t type; };
template <> struct simt_unsigned_of<int64_t> { typedef uint64_t type; };
template <> struct simt_unsigned_of<uint64_t> { typedef uint64_t type; };

// Signed + - * and negation that wrap around, as NumPy's and numba's integers do. C++ leaves
// signed overflow undefined and NVRTC has no -fwrapv, so it folded `x + 1 > x` to true; the cuda
// emitter writes signed arithmetic through these (the cpu backend compiles with -fwrapv).
template <class T> SIMT_INLINE T simt_wrap_add(T a, T b) {
    typedef typename simt_unsigned_of<T>::type U;
    return (T)(U)((U)a + (U)b);
}
template <class T> SIMT_INLINE T simt_wrap_sub(T a, T b) {
    typedef typename simt_unsigned_of<T>::type U;
    return (T)(U)((U)a - (U)b);
}
template <class T> SIMT_INLINE T simt_wrap_mul(T a, T b) {
    typedef typename simt_unsigned_of<T>::type U;
    return (T)(U)((U)a * (U)b);
}
template <class T> SIMT_INLINE T simt_wrap_neg(T a) {
    typedef typename simt_unsigned_of<T>::type U;
    return (T)(U)((U)0 - (U)a);
}

// ---- float16 ----------------------------------------------------------------------------------
// IEEE binary16 stored as bits. Every operation computes in float and rounds once to half: that
// is the correctly rounded result cuda_fp16 gives for + - * / (float's 24-bit significand makes
// the double rounding harmless), so both targets produce the same bits.
#ifdef SIMT_TARGET_CUDA
SIMT_INLINE uint16_t simt_half_from_float(float f) {
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
}
SIMT_INLINE uint16_t simt_half_from_double(double d) {
    unsigned short h;
    asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(d));
    return h;
}
SIMT_INLINE float simt_half_to_float(uint16_t h) {
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"((unsigned short)h));
    return f;
}
#else
SIMT_INLINE uint16_t simt_half_from_float(float f) {
    uint32_t x = simt_float_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t mag = x & 0x7fffffffu;
    if (mag >= 0x7f800000u) return (uint16_t)(sign | 0x7c00u | (mag > 0x7f800000u ? 0x200u : 0u));
    if (mag >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);  // rounds to infinity
    if (mag < 0x38800000u) {  // subnormal half (or zero)
        if (mag < 0x33000000u) return (uint16_t)sign;
        uint32_t m = (mag & 0x007fffffu) | 0x00800000u;
        int shift = 125 - (int)(mag >> 23);  // half units are 2^-24: keep (24 - 1 - shift) bits
        uint32_t half_m = m >> (shift + 1);
        uint32_t rem = m & ((1u << (shift + 1)) - 1u), mid = 1u << shift;
        if (rem > mid || (rem == mid && (half_m & 1u))) ++half_m;
        return (uint16_t)(sign | half_m);
    }
    uint32_t h = ((mag - 0x38000000u) >> 13);
    uint32_t rem = mag & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
    return (uint16_t)(sign | h);
}
// double → half in one rounding: round to float with "round to odd" first, which keeps the
// final rounding to half correct (float has more than two bits beyond half's significand).
SIMT_INLINE uint16_t simt_half_from_double(double d) {
    float f = (float)d;
    if ((double)f != d && f == f && f - f == 0.0f) {
        uint32_t bits = simt_float_bits(f);
        bool away = (f < 0 ? -(double)f : (double)f) > (d < 0 ? -d : d);  // rounded up in magnitude
        if (away) bits -= 1u;   // the neighbour toward zero
        f = simt_bits_float(bits | 1u);
    }
    return simt_half_from_float(f);
}
SIMT_INLINE float simt_half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    uint32_t bits;
    if (exp == 0x1fu) bits = sign | 0x7f800000u | (man << 13);
    else if (exp != 0) bits = sign | ((exp + 112u) << 23) | (man << 13);
    else if (man == 0) bits = sign;
    else {
        int e = -1;
        do { ++e; man <<= 1; } while ((man & 0x400u) == 0);
        bits = sign | ((uint32_t)(112 - e) << 23) | ((man & 0x3ffu) << 13);
    }
    return simt_bits_float(bits);
}
#endif

struct simt_half {
    uint16_t bits;
    SIMT_INLINE simt_half() : bits(0) {}
    SIMT_INLINE simt_half(float f) : bits(simt_half_from_float(f)) {}
    SIMT_INLINE simt_half(double d) : bits(simt_half_from_double(d)) {}
    // One constructor per integer type, so that no conversion is ambiguous.
    SIMT_INLINE simt_half(bool b) : bits(b ? 0x3c00u : 0u) {}
    SIMT_INLINE simt_half(signed char i) : bits(simt_half_from_float((float)i)) {}
    SIMT_INLINE simt_half(short i) : bits(simt_half_from_float((float)i)) {}
    SIMT_INLINE simt_half(int i) : bits(simt_half_from_float((float)i)) {}
    SIMT_INLINE simt_half(long i) : bits(simt_half_from_double((double)i)) {}
    SIMT_INLINE simt_half(long long i) : bits(simt_half_from_double((double)i)) {}
    SIMT_INLINE simt_half(unsigned char i) : bits(simt_half_from_float((float)i)) {}
    SIMT_INLINE simt_half(unsigned short i) : bits(simt_half_from_float((float)i)) {}
    SIMT_INLINE simt_half(unsigned int i) : bits(simt_half_from_double((double)i)) {}
    SIMT_INLINE simt_half(unsigned long i) : bits(simt_half_from_double((double)i)) {}
    SIMT_INLINE simt_half(unsigned long long i) : bits(simt_half_from_double((double)i)) {}
    SIMT_INLINE operator float() const { return simt_half_to_float(bits); }
};
SIMT_INLINE simt_half operator+(simt_half a, simt_half b) { return simt_half((float)a + (float)b); }
SIMT_INLINE simt_half operator-(simt_half a, simt_half b) { return simt_half((float)a - (float)b); }
SIMT_INLINE simt_half operator*(simt_half a, simt_half b) { return simt_half((float)a * (float)b); }
SIMT_INLINE simt_half operator/(simt_half a, simt_half b) { return simt_half((float)a / (float)b); }
SIMT_INLINE simt_half operator-(simt_half a) { simt_half r; r.bits = (uint16_t)(a.bits ^ 0x8000u); return r; }
SIMT_INLINE simt_half operator+(simt_half a) { return a; }

// ---- complex ----------------------------------------------------------------------------------
template <class R>
struct simt_complex {
    R re, im;
    SIMT_INLINE simt_complex() : re(0), im(0) {}
    SIMT_INLINE simt_complex(R r, R i) : re(r), im(i) {}
    template <class S> SIMT_INLINE simt_complex(S r) : re((R)r), im(0) {}
    template <class S> SIMT_INLINE simt_complex(const simt_complex<S>& o) : re((R)o.re), im((R)o.im) {}
};
typedef simt_complex<float> simt_complex64;
typedef simt_complex<double> simt_complex128;
template <class R> SIMT_INLINE simt_complex<R> operator+(simt_complex<R> a, simt_complex<R> b) { return {a.re + b.re, a.im + b.im}; }
template <class R> SIMT_INLINE simt_complex<R> operator-(simt_complex<R> a, simt_complex<R> b) { return {a.re - b.re, a.im - b.im}; }
template <class R> SIMT_INLINE simt_complex<R> operator-(simt_complex<R> a) { return {-a.re, -a.im}; }
template <class R> SIMT_INLINE simt_complex<R> operator+(simt_complex<R> a) { return a; }
template <class R> SIMT_INLINE simt_complex<R> operator*(simt_complex<R> a, simt_complex<R> b) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <class R> SIMT_INLINE simt_complex<R> operator/(simt_complex<R> a, simt_complex<R> b) {
    // Smith's algorithm: avoids overflow in |b|^2. |b|'s parts by fabs, as NumPy takes them (a
    // -0.0 part counts as +0.0, so x / (-0.0 + 0j) has NumPy's signs).
    R ar = (R)fabs(b.re), ai = (R)fabs(b.im);
    if (ar >= ai) {
        if (ar == 0) return {a.re / ar, a.im / ar};  // division by zero: inf/nan components
        R r = b.im / b.re, d = b.re + b.im * r;
        return {(a.re + a.im * r) / d, (a.im - a.re * r) / d};
    }
    R r = b.re / b.im, d = b.im + b.re * r;
    return {(a.re * r + a.im) / d, (a.im * r - a.re) / d};
}
template <class R> SIMT_INLINE bool operator==(simt_complex<R> a, simt_complex<R> b) { return a.re == b.re && a.im == b.im; }
template <class R> SIMT_INLINE bool operator!=(simt_complex<R> a, simt_complex<R> b) { return !(a == b); }
template <class R> SIMT_INLINE simt_complex<R> simt_conj(simt_complex<R> a) { return {a.re, -a.im}; }
