// Compile-time constant values: literals, frozen globals and closure variables, folded tuples.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "types/type.h"

namespace simt {

struct ConstValue {
    enum class Kind { None, Bool, Int, Float, Complex, String, Tuple } kind = Kind::None;
    bool b = false;
    int64_t i = 0;
    double f = 0, imag = 0;
    std::string s;
    std::vector<ConstValue> elems;
    // The scalar type this constant has in a kernel. Python ints are int64 and floats float64;
    // NumPy scalars (np.float32(2.5)) keep their own dtype.
    DType dtype = DType::Int64;

    static ConstValue none() { return {}; }
    static ConstValue boolean(bool v) { ConstValue c; c.kind = Kind::Bool; c.b = v; c.dtype = DType::Bool; return c; }
    static ConstValue integer(int64_t v, DType d = DType::Int64) { ConstValue c; c.kind = Kind::Int; c.i = v; c.dtype = d; return c; }
    static ConstValue real(double v, DType d = DType::Float64) { ConstValue c; c.kind = Kind::Float; c.f = v; c.dtype = d; return c; }
    static ConstValue complex(double re, double im, DType d = DType::Complex128) {
        ConstValue c; c.kind = Kind::Complex; c.f = re; c.imag = im; c.dtype = d; return c;
    }
    static ConstValue string(std::string v) { ConstValue c; c.kind = Kind::String; c.s = std::move(v); return c; }
    static ConstValue tuple(std::vector<ConstValue> e) { ConstValue c; c.kind = Kind::Tuple; c.elems = std::move(e); return c; }

    bool is_int() const { return kind == Kind::Int || kind == Kind::Bool; }
    // Python's truth value (None and empty strings and tuples are false).
    bool truthy() const {
        switch (kind) {
            case Kind::None: return false;
            case Kind::Bool: case Kind::Int: return as_int() != 0;
            case Kind::Float: return f != 0;
            case Kind::Complex: return f != 0 || imag != 0;
            case Kind::String: return !s.empty();
            case Kind::Tuple: return !elems.empty();
        }
        return true;
    }
    int64_t as_int() const { return kind == Kind::Bool ? int64_t(b) : i; }
    // A number's value as a double, as C++ converts it: a complex one's real part, a uint64 one
    // from its unsigned value.
    double as_double() const {
        if (!is_int()) return f;
        return dtype == DType::UInt64 ? double(uint64_t(as_int())) : double(as_int());
    }
    const Type* type() const;
    std::string str() const;
};

}  // namespace simt
