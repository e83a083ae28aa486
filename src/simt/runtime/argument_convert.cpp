// Conversion of packed launch arguments between scalar types.
#include "runtime/argument_convert.h"
#include <cmath>
#include <algorithm>
#include <cstring>
#include "support/error.h"

namespace simt {

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

size_t argument_alignment(const Type* t) {
    if (t->is_scalar()) return size_t(t->is_complex() ? dtype_size(t->dtype) / 2 : dtype_size(t->dtype));
    if (t->kind == TypeKind::Tuple) {
        size_t a = 1;
        for (const Type* e : t->elems) a = std::max(a, argument_alignment(e));
        return a;
    }
    return 8;
}

namespace {
size_t round_up(size_t n, size_t align) { return (n + align - 1) / align * align; }
}  // namespace

size_t argument_size(const Type* t) {
    if (t->is_scalar()) return size_t(dtype_size(t->dtype));
    if (t->is_array()) return sizeof(int64_t) * size_t(t->ndim == 0 ? 1 : 1 + 2 * t->ndim);
    SIMT_ASSERT(t->kind == TypeKind::Tuple);
    size_t n = 0;
    for (const Type* e : t->elems) n = round_up(n, argument_alignment(e)) + argument_size(e);
    return round_up(n, argument_alignment(t));
}

namespace {
// Appends the value at `src` (of type `from`) converted to `to`, at `to`'s alignment from the
// start of `out` (a parameter, or a tuple struct being built).
void append_converted(const Type* from, const Type* to, const unsigned char* src, std::vector<unsigned char>& out) {
    out.resize(round_up(out.size(), argument_alignment(to)));
    if (from->is_array()) {  // data pointer, shape, strides: the same bytes whatever layout a kernel declares
        out.insert(out.end(), src, src + argument_size(from));
        return;
    }
    if (from->kind == TypeKind::Tuple) {
        SIMT_ASSERT(to->kind == TypeKind::Tuple && to->elems.size() == from->elems.size());
        std::vector<unsigned char> fields;
        size_t at = 0;
        for (size_t i = 0; i < from->elems.size(); ++i) {
            at = round_up(at, argument_alignment(from->elems[i]));
            append_converted(from->elems[i], to->elems[i], src + at, fields);
            at += argument_size(from->elems[i]);
        }
        fields.resize(round_up(fields.size(), argument_alignment(to)));
        out.insert(out.end(), fields.begin(), fields.end());
        return;
    }
    SIMT_ASSERT(from->is_scalar() && to->is_scalar());
    unsigned char bytes[16] = {};
    write(to->dtype, read(from->dtype, src), bytes);
    out.insert(out.end(), bytes, bytes + dtype_size(to->dtype));
}
}  // namespace

ArgumentPack convert_arguments(const ArgumentPack& pack, const std::vector<const Type*>& from,
                               const std::vector<const Type*>& to) {
    SIMT_ASSERT(from.size() == to.size() && pack.offsets.size() == from.size());
    ArgumentPack out;
    out.keep_alive = pack.keep_alive;
    std::vector<unsigned char> bytes;
    for (size_t i = 0; i < from.size(); ++i) {
        bytes.clear();
        append_converted(from[i], to[i], pack.data.data() + pack.offsets[i], bytes);
        out.add(bytes.data(), bytes.size(), argument_alignment(to[i]));
    }
    return out;
}

}  // namespace simt

