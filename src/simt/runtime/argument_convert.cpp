// Conversion of packed launch arguments between scalar types.
#include "runtime/argument_convert.h"
#include <cmath>
#include <algorithm>
#include <cstring>
#include "support/error.h"

namespace simt {

uint16_t half_from_double(double value) {
    uint16_t sign = std::signbit(value) ? 0x8000u : 0u;
    double a = std::fabs(value);
    if (std::isnan(value)) return uint16_t(sign | 0x7e00u);
    if (a >= 65520.0) return uint16_t(sign | 0x7c00u);  // beyond the largest half after rounding
    if (a < 6.103515625e-05) {  // below 2^-14: subnormal, in units of 2^-24
        auto q = uint16_t(std::nearbyint(a * 16777216.0));  // may round up to the smallest normal
        return uint16_t(sign | q);
    }
    int e;
    double m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
    auto q = uint32_t(std::nearbyint(m * 2048.0));  // 11 significant bits, in [1024, 2048]
    if (q == 2048) { q = 1024; ++e; }
    uint32_t biased = uint32_t(e + 14);
    if (biased >= 31) return uint16_t(sign | 0x7c00u);
    return uint16_t(sign | (biased << 10) | (q - 1024));
}

double half_to_double(uint16_t bits) {
    double sign = (bits & 0x8000u) ? -1.0 : 1.0;
    int exponent = (bits >> 10) & 0x1f;
    int mantissa = bits & 0x3ff;
    if (exponent == 31) return mantissa ? std::nan("") : sign * HUGE_VAL;
    if (exponent == 0) return sign * std::ldexp(double(mantissa), -24);
    return sign * std::ldexp(double(mantissa + 1024), exponent - 25);
}

namespace {

// A number read from argument bytes: integers exactly, floats as double, complex as two doubles.
struct Number {
    bool is_unsigned = false, is_integer = false;
    int64_t i = 0;
    uint64_t u = 0;
    double re = 0, im = 0;
};

template <class T> T load(const unsigned char* p) { T v; std::memcpy(&v, p, sizeof v); return v; }

Number read(DType d, const unsigned char* p) {
    Number n;
    auto integer = [&](int64_t v) { n.is_integer = true; n.i = v; n.u = uint64_t(v); n.re = double(v); };
    switch (d) {
        case DType::Bool: integer(p[0] != 0); break;
        case DType::Int8: integer(load<int8_t>(p)); break;
        case DType::Int16: integer(load<int16_t>(p)); break;
        case DType::Int32: integer(load<int32_t>(p)); break;
        case DType::Int64: integer(load<int64_t>(p)); break;
        case DType::UInt8: integer(load<uint8_t>(p)); break;
        case DType::UInt16: integer(load<uint16_t>(p)); break;
        case DType::UInt32: integer(load<uint32_t>(p)); break;
        case DType::UInt64:
            n.is_integer = n.is_unsigned = true;
            n.u = load<uint64_t>(p);
            n.i = int64_t(n.u);
            n.re = double(n.u);
            break;
        case DType::Float16: n.re = half_to_double(load<uint16_t>(p)); break;
        case DType::Float32: n.re = load<float>(p); break;
        case DType::Float64: n.re = load<double>(p); break;
        case DType::Complex64: n.re = load<float>(p); n.im = load<float>(p + 4); break;
        case DType::Complex128: n.re = load<double>(p); n.im = load<double>(p + 8); break;
    }
    return n;
}

// The integer a number converts to: itself, or a float truncated toward zero (saturating,
// where C would leave the result undefined).
uint64_t integer_bits(const Number& n) {
    if (n.is_integer) return n.u;
    double t = std::trunc(n.re);
    if (std::isnan(t)) return 0;
    if (t >= 18446744073709551615.0) return ~uint64_t(0);
    if (t >= 9223372036854775807.0) return uint64_t(t);
    if (t <= -9223372036854775808.0) return uint64_t(INT64_MIN);
    return uint64_t(int64_t(t));
}

template <class T> void store(unsigned char* p, T v) { std::memcpy(p, &v, sizeof v); }

void write(DType d, const Number& n, unsigned char* p) {
    uint64_t bits = integer_bits(n);
    switch (d) {
        case DType::Bool: p[0] = (n.is_integer ? n.u != 0 : (n.re != 0 || n.im != 0)) ? 1 : 0; break;
        case DType::Int8: case DType::UInt8: store(p, uint8_t(bits)); break;
        case DType::Int16: case DType::UInt16: store(p, uint16_t(bits)); break;
        case DType::Int32: case DType::UInt32: store(p, uint32_t(bits)); break;
        case DType::Int64: case DType::UInt64: store(p, bits); break;
        case DType::Float16: store(p, half_from_double(n.re)); break;
        case DType::Float32: store(p, float(n.re)); break;
        case DType::Float64: store(p, n.re); break;
        case DType::Complex64: store(p, float(n.re)); store(p + 4, float(n.im)); break;
        case DType::Complex128: store(p, n.re); store(p + 8, n.im); break;
    }
}

}  // namespace

ArgumentPack convert_arguments(const ArgumentPack& pack, const std::vector<const Type*>& from,
                               const std::vector<const Type*>& to) {
    SIMT_ASSERT(from.size() == to.size() && pack.offsets.size() == from.size());
    ArgumentPack out;
    out.keep_alive = pack.keep_alive;
    for (size_t i = 0; i < from.size(); ++i) {
        const unsigned char* src = pack.data.data() + pack.offsets[i];
        if (from[i]->is_array()) {  // data pointer, shape, strides
            out.add(src, sizeof(int64_t) * size_t(1 + 2 * from[i]->ndim), 8);
            continue;
        }
        SIMT_ASSERT(from[i]->is_scalar() && to[i]->is_scalar());
        unsigned char bytes[16] = {};
        write(to[i]->dtype, read(from[i]->dtype, src), bytes);
        int size = dtype_size(to[i]->dtype);
        out.add(bytes, size_t(size), size_t(std::min(size, 8)));
    }
    return out;
}

}  // namespace simt

