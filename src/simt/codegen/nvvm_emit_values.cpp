// NVVM IR emitter: types, constants, conversions and scalar arithmetic, with the semantics of the
// CUDA C++ prelude (codegen/prelude/common.h): Python's floor division and modulo, integer power,
// NumPy's shifts, saturating float-to-int conversion, wrapping integer arithmetic.
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include "codegen/nvvm_emitter.h"
#include "support/half_float.h"
#include "types/promote.h"

namespace simt {

namespace {
bool is_signed_int(const Type* t) { return t->is_integer() && dtype_is_signed(t->dtype); }
bool is_half(const Type* t) { return t->dtype == DType::Float16; }
const Type* f32() { return scalar_type(DType::Float32); }

// A double's bits as LLVM writes floating constants (exact for float and double).
std::string float_literal(double x) {
    uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%016" PRIX64, bits);
    return buf;
}

// A float16 constant as the CUDA C++ emission writes it, simt_half(<float literal>): rounded to
// float, then to half.
std::string half_literal(double x) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0xH%04X", unsigned(half_from_double(double(float(x)))));
    return buf;
}
}  // namespace

std::string NvvmEmitter::mem_type(DType d) const {
    switch (d) {
        case DType::Bool: case DType::Int8: case DType::UInt8: return "i8";
        case DType::Int16: case DType::UInt16: return "i16";
        case DType::Int32: case DType::UInt32: return "i32";
        case DType::Int64: case DType::UInt64: return "i64";
        case DType::Float16: return "half";
        case DType::Float32: return "float";
        case DType::Float64: return "double";
        case DType::Complex64: return "{ float, float }";
        case DType::Complex128: return "{ double, double }";
        default: not_covered(std::string("values of type ") + dtype_name(d));
    }
}

std::string NvvmEmitter::ir_type(const Type* t) const {
    if (t->is_scalar()) return t->is_bool() ? "i1" : mem_type(t->dtype);
    if (t->is_array()) {
        std::string p = mem_type(t->dtype) + "*";
        if (t->ndim == 0) return "{ " + p + " }";  // a 0-d array is its data pointer (prelude/common.h)
        std::string n = "[" + std::to_string(t->ndim) + " x i64]";
        return "{ " + p + ", " + n + ", " + n + " }";
    }
    if (t->is_tuple() && !t->elems.empty()) {  // in locals, parameters and results of device functions
        std::string s = "{ ";
        for (size_t i = 0; i < t->elems.size(); ++i) s += (i ? ", " : "") + ir_type(t->elems[i]);
        return s + " }";
    }
    not_covered("values of type " + t->str());
}

// A tuple's aggregate from its parts (tuple expressions carry parts only).
std::string NvvmEmitter::packed(const IrValue& v) {
    if (!v.type->is_tuple() || !v.ref.empty()) return v.ref;
    if (v.parts.size() != v.type->elems.size()) not_covered("this tuple value");
    const std::string T = ir_type(v.type);
    std::string agg = "undef";
    for (size_t i = 0; i < v.parts.size(); ++i)
        agg = assign("insertvalue " + T + " " + agg + ", " + ir_type(v.type->elems[i]) + " " + packed(v.parts[i]) + ", " +
                     std::to_string(i));
    return agg;
}

// A value of type t read from an aggregate: a tuple gets its parts too (what tuple operations use).
IrValue NvvmEmitter::unpacked(const std::string& ref, const Type* t) {
    IrValue v{ref, t, {}};
    if (!t->is_tuple()) return v;
    for (size_t i = 0; i < t->elems.size(); ++i)
        v.parts.push_back(unpacked(assign("extractvalue " + ir_type(t) + " " + ref + ", " + std::to_string(i)), t->elems[i]));
    return v;
}

IrValue NvvmEmitter::int_constant(int64_t v, const Type* t) const {
    if (t->is_bool()) return {v ? "true" : "false", t, {}};
    if (t->is_complex()) return complex_constant(double(v), 0.0, t);
    if (is_half(t)) return {half_literal(double(v)), t, {}};
    if (t->is_float()) {
        double x = t->dtype == DType::Float32 ? double(float(v)) : double(v);
        return {float_literal(x), t, {}};
    }
    int bits = dtype_bits(t->dtype);
    // The value truncated to the type's width, written signed (LLVM reads the bits).
    int64_t w = bits == 64 ? v : bits == 32 ? int64_t(int32_t(v)) : bits == 16 ? int64_t(int16_t(v)) : int64_t(int8_t(v));
    return {std::to_string(w), t, {}};
}

IrValue NvvmEmitter::constant(const ConstValue& c, const Type* t) const {
    if (c.kind == ConstValue::Kind::Tuple && t->is_tuple()) {
        IrValue v{"", t, {}};
        for (size_t i = 0; i < c.elems.size(); ++i) v.parts.push_back(constant(c.elems[i], t->elems[i]));
        return v;
    }
    if (!t->is_scalar() || c.kind == ConstValue::Kind::String || c.kind == ConstValue::Kind::None ||
        c.kind == ConstValue::Kind::Tuple)
        not_covered("a constant of type " + t->str());
    ir_type(t);  // a covered type
    const bool is_int = c.is_int();
    if (t->is_complex()) return complex_constant(c.as_double(), c.kind == ConstValue::Kind::Complex ? c.imag : 0.0, t);
    if (c.kind == ConstValue::Kind::Complex && c.imag != 0 && !t->is_bool()) not_covered("complex constants");
    if (t->is_bool()) return {(is_int ? c.as_int() != 0 : c.f != 0 || c.imag != 0) ? "true" : "false", t, {}};
    if (t->is_integer()) return int_constant(is_int ? c.as_int() : int64_t(c.f), t);
    double x = c.as_double();  // a float
    if (is_half(t)) return {half_literal(x), t, {}};
    if (t->dtype == DType::Float32) x = double(float(x));
    return {float_literal(x), t, {}};
}

// simt_complex64(<float literal>, <float literal>) or complex128's doubles, as one constant.
IrValue NvvmEmitter::complex_constant(double re, double im, const Type* t) const {
    const bool single = t->dtype == DType::Complex64;
    auto part = [&](double x) { return std::string(single ? "float " : "double ") + float_literal(single ? double(float(x)) : x); };
    return {"{ " + part(re) + ", " + part(im) + " }", t, {}};
}

IrValue NvvmEmitter::select(const std::string& test, const IrValue& yes, const IrValue& no) {
    return {assign("select i1 " + test + ", " + ir_type(yes.type) + " " + yes.ref + ", " + ir_type(no.type) + " " + no.ref),
            yes.type, {}};
}

IrValue NvvmEmitter::float_to_int(const IrValue& v, const Type* to) {
    if (is_half(v.type)) return float_to_int(convert(v, f32()), to);  // through float, as the prelude does
    // simt_float_to_int: NaN gives 0; values at or beyond a limit give the limit (compared in the
    // source type, where an unrepresentable 2**k - 1 rounds to 2**k).
    const std::string F = ir_type(v.type), T = ir_type(to);
    const bool sign = dtype_is_signed(to->dtype);
    const int bits = dtype_bits(to->dtype);
    int64_t lo = sign ? (bits == 64 ? INT64_MIN : -(int64_t(1) << (bits - 1))) : 0;
    uint64_t hi = sign ? (bits == 64 ? uint64_t(INT64_MAX) : (uint64_t(1) << (bits - 1)) - 1)
                       : (bits == 64 ? UINT64_MAX : (uint64_t(1) << bits) - 1);
    auto as_source = [&](double x) { return v.type->dtype == DType::Float32 ? float_literal(double(float(x))) : float_literal(x); };
    std::string hi_f = as_source(double(hi)), lo_f = as_source(double(lo));
    std::string nan = assign("fcmp uno " + F + " " + v.ref + ", " + v.ref);
    std::string below = assign("fcmp ole " + F + " " + v.ref + ", " + lo_f);
    std::string above = assign("fcmp oge " + F + " " + v.ref + ", " + hi_f);
    IrValue raw{assign(std::string(sign ? "fptosi " : "fptoui ") + F + " " + v.ref + " to " + T), to, {}};
    IrValue hi_v = int_constant(int64_t(hi), to), lo_v = int_constant(lo, to), zero = int_constant(0, to);
    IrValue r = select(above, hi_v, raw);
    r = select(below, lo_v, r);
    return select(nan, zero, r);
}

IrValue NvvmEmitter::convert(const IrValue& v, const Type* to) {
    const Type* from = v.type;
    if (!to || from == to) return v;
    if (from->is_array() && to->is_array() && from->dtype == to->dtype && from->ndim == to->ndim)
        return {v.ref, to, {}};  // a layout change only: the same fields
    if (from->is_tuple() && to->is_tuple() && from->elems.size() == to->elems.size() && v.parts.size() == to->elems.size()) {
        IrValue t{"", to, {}};  // element by element
        for (size_t i = 0; i < v.parts.size(); ++i) t.parts.push_back(convert(v.parts[i], to->elems[i]));
        return t;
    }
    if (!from->is_scalar() || !to->is_scalar()) not_covered("a conversion from " + from->str() + " to " + to->str());
    if (from->is_complex() || to->is_complex()) return complex_convert(v, to);
    // float16 meets bools and integers through float32, as simt_half's conversions do (exact both
    // ways: every integer that float rounds is beyond half's range either way).
    if (is_half(from) && !to->is_float()) return convert(convert(v, f32()), to);
    if (is_half(to) && !from->is_float()) return convert(convert(v, f32()), to);
    const std::string F = ir_type(from), T = ir_type(to);
    if (to->is_bool()) {
        if (from->is_float()) return {assign("fcmp une " + F + " " + v.ref + ", 0.0"), to, {}};
        return {assign("icmp ne " + F + " " + v.ref + ", 0"), to, {}};
    }
    if (from->is_bool()) {
        if (to->is_float()) return {assign("uitofp i1 " + v.ref + " to " + T), to, {}};
        return {assign("zext i1 " + v.ref + " to " + T), to, {}};
    }
    if (from->is_integer() && to->is_integer()) {
        int fb = dtype_bits(from->dtype), tb = dtype_bits(to->dtype);
        if (fb == tb) return {v.ref, to, {}};
        if (fb > tb) return {assign("trunc " + F + " " + v.ref + " to " + T), to, {}};
        return {assign(std::string(is_signed_int(from) ? "sext " : "zext ") + F + " " + v.ref + " to " + T), to, {}};
    }
    if (from->is_integer() && to->is_float())
        return {assign(std::string(is_signed_int(from) ? "sitofp " : "uitofp ") + F + " " + v.ref + " to " + T), to, {}};
    if (from->is_float() && to->is_integer()) return float_to_int(v, to);
    if (from->is_float() && is_half(to)) {
        // Rounded by the instruction simt_half uses, in inline assembly: an fptrunc would let the
        // optimizer narrow the arithmetic before it to float16 instructions, which ptxas may
        // contract (a * b + c as one fma, not NumPy's two roundings).
        const bool single = from->dtype == DType::Float32;
        std::string bits = assign(std::string("call i16 asm \"cvt.rn.f16.") + (single ? "f32" : "f64") + " $0, $1;\", \"=h," +
                                  (single ? "f" : "d") + "\"(" + F + " " + v.ref + ")");
        return {assign("bitcast i16 " + bits + " to half"), to, {}};
    }
    if (from->is_float() && to->is_float()) {
        bool widen = dtype_bits(to->dtype) > dtype_bits(from->dtype);
        return {assign(std::string(widen ? "fpext " : "fptrunc ") + F + " " + v.ref + " to " + T), to, {}};
    }
    not_covered("a conversion from " + from->str() + " to " + to->str());
}

// simt_floordiv / simt_mod on integers: division by zero gives 0, x // -1 wraps, and the quotient
// rounds toward negative infinity (the remainder takes the divisor's sign).
IrValue NvvmEmitter::int_divmod(BinOpKind op, const IrValue& a, const IrValue& b) {
    const Type* R = a.type;
    const std::string T = ir_type(R);
    const bool floor = op == BinOpKind::FloorDiv;
    IrValue zero = int_constant(0, R);
    std::string by_zero = assign("icmp eq " + T + " " + b.ref + ", 0");
    if (!is_signed_int(R)) {
        IrValue safe = select(by_zero, int_constant(1, R), b);
        IrValue r{assign(std::string(floor ? "udiv " : "urem ") + T + " " + a.ref + ", " + safe.ref), R, {}};
        return select(by_zero, zero, r);
    }
    std::string by_minus_one = assign("icmp eq " + T + " " + b.ref + ", -1");
    std::string special = assign("or i1 " + by_zero + ", " + by_minus_one);
    IrValue safe = select(special, int_constant(1, R), b);
    std::string q = assign("sdiv " + T + " " + a.ref + ", " + safe.ref);
    std::string r = assign("srem " + T + " " + a.ref + ", " + safe.ref);
    std::string inexact = assign("icmp ne " + T + " " + r + ", 0");
    std::string b_negative = assign("icmp slt " + T + " " + b.ref + ", 0");
    IrValue result;
    if (floor) {
        std::string a_negative = assign("icmp slt " + T + " " + a.ref + ", 0");
        std::string signs_differ = assign("xor i1 " + a_negative + ", " + b_negative);
        std::string adjust = assign("and i1 " + inexact + ", " + signs_differ);
        std::string one = assign("zext i1 " + adjust + " to " + T);
        result = {assign("sub " + T + " " + q + ", " + one), R, {}};
        IrValue negated{assign("sub " + T + " 0, " + a.ref), R, {}};
        result = select(by_minus_one, negated, result);
    } else {
        std::string r_negative = assign("icmp slt " + T + " " + r + ", 0");
        std::string signs_differ = assign("xor i1 " + r_negative + ", " + b_negative);
        std::string adjust = assign("and i1 " + inexact + ", " + signs_differ);
        IrValue moved{assign("add " + T + " " + r + ", " + b.ref), R, {}};
        result = select(adjust, moved, IrValue{r, R, {}});
        result = select(by_minus_one, zero, result);
    }
    return select(by_zero, zero, result);
}

// simt_floordiv / simt_mod on floats (prelude/common.h): Python's results from fmod, the remainder
// taking the divisor's sign (a zero one too), the quotient rounded as Python rounds it; division
// by zero gives a / b for // and NaN for %. Every part is computed and the right one selected.
IrValue NvvmEmitter::float_divmod(BinOpKind op, const IrValue& a, const IrValue& b) {
    const Type* R = a.type;
    const std::string T = ir_type(R);
    const bool single = R->dtype == DType::Float32;
    auto fp = [&](const std::string& instruction, const std::string& x, const std::string& y) {
        return IrValue{assign(instruction + " " + T + " " + x + ", " + y), R, {}};
    };
    auto test = [&](const char* pred, const std::string& x, const std::string& y) {
        return assign(std::string("fcmp ") + pred + " " + T + " " + x + ", " + y);
    };
    const std::string zero = float_literal(0.0);
    IrValue quotient = fp("fdiv", a.ref, b.ref);
    IrValue m = libdevice(single ? "__nv_fmodf" : "__nv_fmod", {a, b}, R);
    std::string by_zero = test("oeq", b.ref, zero);
    std::string m_nonzero = test("une", m.ref, zero);
    std::string signs_differ = assign("xor i1 " + test("olt", b.ref, zero) + ", " + test("olt", m.ref, zero));
    std::string adjust = assign("and i1 " + m_nonzero + ", " + signs_differ);
    const std::string copysign = single ? "__nv_copysignf" : "__nv_copysign";
    IrValue zero_v{zero, R, {}};
    if (op == BinOpKind::Mod) {
        IrValue moved = select(adjust, fp("fadd", m.ref, b.ref), m);
        IrValue r = select(m_nonzero, moved, libdevice(copysign, {zero_v, b}, R));
        return select(by_zero, fp("fmul", quotient.ref, zero), r);
    }
    IrValue d = fp("fdiv", fp("fsub", a.ref, m.ref).ref, b.ref);
    d = select(adjust, fp("fsub", d.ref, float_literal(1.0)), d);
    IrValue f{call_intrinsic(T, std::string("llvm.nvvm.floor.") + (single ? "f" : "d"), T + " " + d.ref), R, {}};
    std::string round_up = test("ogt", fp("fsub", d.ref, f.ref).ref, float_literal(0.5));
    IrValue r = select(round_up, fp("fadd", f.ref, float_literal(1.0)), f);
    r = select(test("oeq", d.ref, zero), libdevice(copysign, {zero_v, quotient}, R), r);
    return select(by_zero, quotient, r);
}

// simt_lshift / simt_rshift: shifts by the width or more give 0 (or the sign, for >>).
IrValue NvvmEmitter::shift(BinOpKind op, const IrValue& a, const IrValue& b) {
    const Type* R = a.type;
    const std::string T = ir_type(R);
    std::string too_far = assign("icmp uge " + T + " " + b.ref + ", " + std::to_string(dtype_bits(R->dtype)));
    IrValue amount = select(too_far, int_constant(0, R), b);
    if (op == BinOpKind::LShift) {
        IrValue r{assign("shl " + T + " " + a.ref + ", " + amount.ref), R, {}};
        return select(too_far, int_constant(0, R), r);
    }
    const bool sign = is_signed_int(R);
    IrValue r{assign(std::string(sign ? "ashr " : "lshr ") + T + " " + a.ref + ", " + amount.ref), R, {}};
    IrValue fill = int_constant(0, R);
    if (sign) fill = {assign("ashr " + T + " " + a.ref + ", " + std::to_string(dtype_bits(R->dtype) - 1)), R, {}};
    return select(too_far, fill, r);
}

IrValue NvvmEmitter::binop(BinOpKind op, const IrValue& l, const IrValue& r) {
    if (!l.type->is_scalar() || !r.type->is_scalar()) not_covered(std::string("the operator ") + binop_symbol(op) + " on these types");
    DType out;
    if (!binop_result(op, l.type->dtype, r.type->dtype, out)) not_covered(std::string("the operator ") + binop_symbol(op));
    const Type* R = scalar_type(out);
    if (op == BinOpKind::Pow) {
        if (is_half(R) || R->is_complex()) not_covered("** on " + R->str());
        return power(convert(l, R), r, r.type);
    }
    IrValue a = convert(l, R), b = convert(r, R);
    if (R->is_complex()) return complex_binop(op, a, b);
    if (is_half(R)) {
        // simt_half's + - * / // %: computed in float and rounded once to half.
        if (op != BinOpKind::Add && op != BinOpKind::Sub && op != BinOpKind::Mul && op != BinOpKind::Div &&
            op != BinOpKind::FloorDiv && op != BinOpKind::Mod)
            not_covered(std::string("the operator ") + binop_symbol(op) + " on float16");
        return convert(binop(op, convert(a, f32()), convert(b, f32())), R);
    }
    const std::string T = ir_type(R);
    const bool fp = R->is_float();
    auto simple = [&](const char* int_op, const char* float_op) {
        return IrValue{assign(std::string(fp ? float_op : int_op) + " " + T + " " + a.ref + ", " + b.ref), R, {}};
    };
    switch (op) {
        case BinOpKind::Add: return simple("add", "fadd");
        case BinOpKind::Sub: return simple("sub", "fsub");
        case BinOpKind::Mul: return simple("mul", "fmul");
        case BinOpKind::Div:
            if (!fp) not_covered("integer true division");
            return simple("", "fdiv");
        case BinOpKind::FloorDiv: case BinOpKind::Mod:
            return fp ? float_divmod(op, a, b) : int_divmod(op, a, b);
        case BinOpKind::LShift: case BinOpKind::RShift:
            if (fp || R->is_bool()) not_covered("these shift operands");
            return shift(op, a, b);
        case BinOpKind::BitAnd: return simple("and", "");
        case BinOpKind::BitOr: return simple("or", "");
        case BinOpKind::BitXor: return simple("xor", "");
        default: not_covered(std::string("the operator ") + binop_symbol(op));
    }
}

// a ** b: integers by repeated squaring (negative exponents as simt_pow: 1, -1 or 0); a float
// to an integer power exactly the same way (then 1 / r for a negative one); floats by pow().
IrValue NvvmEmitter::power(const IrValue& a, const IrValue& exponent, const Type* rhs_type) {
    const Type* R = a.type;
    const std::string T = ir_type(R);
    if (R->is_float() && !rhs_type->is_integer())
        return libdevice(R->dtype == DType::Float32 ? "__nv_powf" : "__nv_pow", {a, convert(exponent, R)}, R);
    if (R->is_bool()) not_covered("** on booleans");
    const bool fp = R->is_float();
    const Type* E = fp ? int64_type() : R;  // the exponent's type in the loop
    IrValue n = convert(exponent, E);
    const std::string ET = ir_type(E);
    // m = |n| (as unsigned bits) for floats; for integers the loop runs only when n >= 0.
    std::string negative = is_signed_int(E) ? assign("icmp slt " + ET + " " + n.ref + ", 0") : "false";
    std::string m = n.ref;
    if (fp) {
        std::string neg = assign("sub i64 0, " + n.ref);
        m = assign("select i1 " + negative + ", i64 " + neg + ", i64 " + n.ref);
    }
    const std::string one = int_constant(1, R).ref;
    std::string head = fresh_label("pow.head"), body = fresh_label("pow.body"), done = fresh_label("pow.done");
    std::string before = current_;
    std::string start_m = fp ? m : assign("select i1 " + negative + ", " + ET + " 0, " + ET + " " + m);
    branch(head);
    open_block(head);
    std::string acc = fresh(), base = fresh(), rest = fresh();
    std::string acc2 = fresh(), base2 = fresh(), rest2 = fresh();
    emit(acc + " = phi " + T + " [ " + one + ", %" + before + " ], [ " + acc2 + ", %" + body + " ]");
    emit(base + " = phi " + T + " [ " + a.ref + ", %" + before + " ], [ " + base2 + ", %" + body + " ]");
    emit(rest + " = phi " + ET + " [ " + start_m + ", %" + before + " ], [ " + rest2 + ", %" + body + " ]");
    std::string more = assign("icmp ne " + ET + " " + rest + ", 0");
    cond_branch(more, body, done);
    open_block(body);
    std::string bit = assign("and " + ET + " " + rest + ", 1");
    std::string odd = assign("icmp ne " + ET + " " + bit + ", 0");
    std::string product = assign(std::string(fp ? "fmul " : "mul ") + T + " " + acc + ", " + base);
    emit(acc2 + " = select i1 " + odd + ", " + T + " " + product + ", " + T + " " + acc);
    emit(base2 + " = " + (fp ? "fmul " : "mul ") + T + " " + base + ", " + base);
    emit(rest2 + " = lshr " + ET + " " + rest + ", 1");
    branch(head);
    open_block(done);
    IrValue r{acc, R, {}};
    if (fp) {
        IrValue inverse{assign("fdiv " + T + " " + one + ", " + acc), R, {}};
        return select(negative, inverse, r);
    }
    if (!is_signed_int(R)) return r;
    // negative exponents: 1 for a == 1, +-1 for a == -1, else 0
    std::string is_one = assign("icmp eq " + T + " " + a.ref + ", 1");
    std::string is_minus_one = assign("icmp eq " + T + " " + a.ref + ", -1");
    std::string odd_n = assign("trunc " + T + " " + n.ref + " to i1");
    IrValue sign = select(odd_n, int_constant(-1, R), int_constant(1, R));
    IrValue small = select(is_minus_one, sign, int_constant(0, R));
    small = select(is_one, int_constant(1, R), small);
    return select(negative, small, r);
}

IrValue NvvmEmitter::compare(CmpOpKind op, const IrValue& l, const IrValue& r) {
    if (!l.type->is_scalar() || !r.type->is_scalar()) not_covered("comparisons of these types");
    const Type* P = scalar_type(promote(l.type->dtype, r.type->dtype));
    IrValue a = convert(l, P), b = convert(r, P);
    if (P->is_complex()) return complex_equal(op, a, b);
    if (is_half(P)) return compare(op, convert(a, f32()), convert(b, f32()));  // as simt_half's float conversion
    const std::string T = ir_type(P);
    const char* pred = nullptr;
    if (P->is_float()) {
        switch (op) {
            case CmpOpKind::Lt: pred = "olt"; break;
            case CmpOpKind::Le: pred = "ole"; break;
            case CmpOpKind::Gt: pred = "ogt"; break;
            case CmpOpKind::Ge: pred = "oge"; break;
            case CmpOpKind::Eq: pred = "oeq"; break;
            case CmpOpKind::Ne: pred = "une"; break;
            default: not_covered(std::string("the comparison ") + cmpop_symbol(op));
        }
        return {assign(std::string("fcmp ") + pred + " " + T + " " + a.ref + ", " + b.ref), bool_type(), {}};
    }
    const bool sign = is_signed_int(P);
    switch (op) {
        case CmpOpKind::Lt: pred = sign ? "slt" : "ult"; break;
        case CmpOpKind::Le: pred = sign ? "sle" : "ule"; break;
        case CmpOpKind::Gt: pred = sign ? "sgt" : "ugt"; break;
        case CmpOpKind::Ge: pred = sign ? "sge" : "uge"; break;
        case CmpOpKind::Eq: pred = "eq"; break;
        case CmpOpKind::Ne: pred = "ne"; break;
        default: not_covered(std::string("the comparison ") + cmpop_symbol(op));
    }
    return {assign(std::string("icmp ") + pred + " " + T + " " + a.ref + ", " + b.ref), bool_type(), {}};
}

}  // namespace simt
