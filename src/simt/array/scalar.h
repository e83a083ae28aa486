// Host-side typed scalars: a value stored in the bytes of one array element of a dtype, made
// from Python-style numbers (the operands and fill values of array operations). A float16
// scalar is held as a float32 (kernels take it as float32 and round it where it is used), so
// the host never converts to half precision itself.
#pragma once
#include <cstdint>
#include "types/type.h"

namespace simt {

struct Scalar {
    DType dtype = DType::Float64;
    alignas(8) unsigned char bytes[16] = {};

    // Conversions as C / NumPy's unsafe casting does them (integers wrap, floats truncate).
    static Scalar from_int(int64_t v, DType d);
    static Scalar from_uint(uint64_t v, DType d);
    static Scalar from_double(double v, DType d);
    static Scalar from_complex(double re, double im, DType d);
    static Scalar from_bool(bool v, DType d) { return from_int(v ? 1 : 0, d); }

    // The value converted to double (real part for complex) and to the other dtype.
    double real() const;
    double imag() const;
    Scalar cast(DType d) const;
};

// Whether a (signed or unsigned) integer value fits an integer dtype; bool holds 0 and 1.
bool int_fits(int64_t v, DType d);
bool uint_fits(uint64_t v, DType d);

// The dtype a scalar of dtype `d` is passed to kernels as (float16 travels as float32).
inline DType scalar_carrier(DType d) { return d == DType::Float16 ? DType::Float32 : d; }

}  // namespace simt
