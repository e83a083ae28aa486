// Typed host scalars and their conversions.
#include "array/scalar.h"
#include <cmath>
#include <cstring>

namespace simt {

namespace {
template <class T>
Scalar make(DType d, T v) {
    Scalar s;
    s.dtype = d;
    std::memcpy(s.bytes, &v, sizeof(T));
    return s;
}

template <class T>
T load(const unsigned char* b) {
    T v;
    std::memcpy(&v, b, sizeof(T));
    return v;
}

// Stores the low bits of a 64-bit integer in an integer dtype (two's complement wrap).
Scalar wrap_integer(uint64_t bits, DType d) {
    switch (d) {
        case DType::Bool: return make<uint8_t>(d, bits != 0);
        case DType::Int8: case DType::UInt8: return make<uint8_t>(d, uint8_t(bits));
        case DType::Int16: case DType::UInt16: return make<uint16_t>(d, uint16_t(bits));
        case DType::Int32: case DType::UInt32: return make<uint32_t>(d, uint32_t(bits));
        default: return make<uint64_t>(d, bits);
    }
}

// double → 64-bit pattern as x86's truncating conversion does (out of range: INT64_MIN).
uint64_t truncate_to_bits(double v, bool to_unsigned) {
    if (std::isnan(v)) return uint64_t(1) << 63;
    if (to_unsigned && v >= 9223372036854775808.0 && v < 18446744073709551616.0)
        return uint64_t(v - 9223372036854775808.0) + (uint64_t(1) << 63);
    if (v >= -9223372036854775808.0 && v < 9223372036854775808.0) return uint64_t(int64_t(v));
    return uint64_t(1) << 63;
}
}  // namespace

Scalar Scalar::from_int(int64_t v, DType d) {
    if (dtype_is_integer(d) || d == DType::Bool) return wrap_integer(uint64_t(v), d);
    return from_double(double(v), d);
}

Scalar Scalar::from_uint(uint64_t v, DType d) {
    if (dtype_is_integer(d) || d == DType::Bool) return wrap_integer(v, d);
    return from_double(double(v), d);
}

Scalar Scalar::from_double(double v, DType d) {
    switch (d) {
        case DType::Bool: return make<uint8_t>(d, v != 0);
        case DType::Float16: case DType::Float32: return make<float>(d, float(v));
        case DType::Float64: return make<double>(d, v);
        case DType::Complex64: { float c[2] = {float(v), 0.0f}; Scalar s; s.dtype = d; std::memcpy(s.bytes, c, 8); return s; }
        case DType::Complex128: { double c[2] = {v, 0.0}; Scalar s; s.dtype = d; std::memcpy(s.bytes, c, 16); return s; }
        default: {
            bool to_unsigned = !dtype_is_signed(d);
            uint64_t bits = truncate_to_bits(v, to_unsigned);
            // Narrow integers convert through int32 as C does for in-range values.
            if (dtype_size(d) < 8 && v > -2147483649.0 && v < 2147483648.0) bits = uint64_t(int64_t(int32_t(v)));
            return wrap_integer(bits, d);
        }
    }
}

Scalar Scalar::from_complex(double re, double im, DType d) {
    if (d == DType::Complex64) {
        float c[2] = {float(re), float(im)};
        Scalar s;
        s.dtype = d;
        std::memcpy(s.bytes, c, 8);
        return s;
    }
    if (d == DType::Complex128) {
        double c[2] = {re, im};
        Scalar s;
        s.dtype = d;
        std::memcpy(s.bytes, c, 16);
        return s;
    }
    if (d == DType::Bool) return make<uint8_t>(d, re != 0 || im != 0);
    return from_double(re, d);
}

double Scalar::real() const {
    switch (dtype) {
        case DType::Bool: return bytes[0] ? 1.0 : 0.0;
        case DType::Int8: return load<int8_t>(bytes);
        case DType::Int16: return load<int16_t>(bytes);
        case DType::Int32: return load<int32_t>(bytes);
        case DType::Int64: return double(load<int64_t>(bytes));
        case DType::UInt8: return load<uint8_t>(bytes);
        case DType::UInt16: return load<uint16_t>(bytes);
        case DType::UInt32: return load<uint32_t>(bytes);
        case DType::UInt64: return double(load<uint64_t>(bytes));
        case DType::Float16: case DType::Float32: case DType::Complex64: return load<float>(bytes);
        case DType::Float64: case DType::Complex128: return load<double>(bytes);
    }
    return 0;
}

double Scalar::imag() const {
    if (dtype == DType::Complex64) return load<float>(bytes + 4);
    if (dtype == DType::Complex128) return load<double>(bytes + 8);
    return 0;
}

Scalar Scalar::cast(DType d) const {
    if (d == dtype) return *this;
    if (dtype == DType::Bool) return from_int(bytes[0] ? 1 : 0, d);
    if (dtype_is_integer(dtype)) {
        uint64_t bits = 0;
        switch (dtype_size(dtype)) {
            case 1: bits = dtype_is_signed(dtype) ? uint64_t(int64_t(load<int8_t>(bytes))) : load<uint8_t>(bytes); break;
            case 2: bits = dtype_is_signed(dtype) ? uint64_t(int64_t(load<int16_t>(bytes))) : load<uint16_t>(bytes); break;
            case 4: bits = dtype_is_signed(dtype) ? uint64_t(int64_t(load<int32_t>(bytes))) : load<uint32_t>(bytes); break;
            default: bits = load<uint64_t>(bytes); break;
        }
        return dtype_is_signed(dtype) ? from_int(int64_t(bits), d) : from_uint(bits, d);
    }
    return from_complex(real(), imag(), d);
}

bool int_fits(int64_t v, DType d) {
    switch (d) {
        case DType::Bool: return v == 0 || v == 1;
        case DType::Int8: return v >= -128 && v <= 127;
        case DType::Int16: return v >= -32768 && v <= 32767;
        case DType::Int32: return v >= -2147483648LL && v <= 2147483647LL;
        case DType::Int64: return true;
        case DType::UInt8: return v >= 0 && v <= 255;
        case DType::UInt16: return v >= 0 && v <= 65535;
        case DType::UInt32: return v >= 0 && v <= 4294967295LL;
        case DType::UInt64: return v >= 0;
        default: return true;  // floats and complex hold every integer (perhaps rounded)
    }
}

bool uint_fits(uint64_t v, DType d) {
    if (v <= uint64_t(INT64_MAX)) return int_fits(int64_t(v), d);
    return d == DType::UInt64 || (!dtype_is_integer(d) && d != DType::Bool);
}

}  // namespace simt
