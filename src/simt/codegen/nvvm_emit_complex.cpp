// NVVM IR emitter: complex64/complex128 values as { float, float } / { double, double } pairs, with
// the CUDA C++ prelude's simt_complex semantics (codegen/prelude/numeric.h): + - * as written
// there, division by Smith's algorithm with its branches turned into selects, equality part by
// part, truthiness (either part nonzero), conversions part by part, abs by hypot, conjugate.
// Complex math (cmath) and powers keep the CUDA C++ path.
#include "codegen/nvvm_emitter.h"

namespace simt {

const Type* NvvmEmitter::complex_part_type(const Type* t) const {
    return scalar_type(t->dtype == DType::Complex64 ? DType::Float32 : DType::Float64);
}

IrValue NvvmEmitter::complex_part(const IrValue& z, int k) {
    const Type* P = complex_part_type(z.type);
    return {assign("extractvalue " + ir_type(z.type) + " " + z.ref + ", " + std::to_string(k)), P, {}};
}

IrValue NvvmEmitter::make_complex(const IrValue& re, const IrValue& im, const Type* t) {
    const std::string C = ir_type(t), P = ir_type(complex_part_type(t));
    std::string v = assign("insertvalue " + C + " undef, " + P + " " + re.ref + ", 0");
    return {assign("insertvalue " + C + " " + v + ", " + P + " " + im.ref + ", 1"), t, {}};
}

IrValue NvvmEmitter::complex_convert(const IrValue& v, const Type* to) {
    const Type* from = v.type;
    if (from->is_complex() && to->is_complex()) {  // simt_complex<R>(const simt_complex<S>&): each part cast
        const Type* P = complex_part_type(to);
        return make_complex(convert(complex_part(v, 0), P), convert(complex_part(v, 1), P), to);
    }
    if (from->is_complex() && to->is_bool()) {  // simt_truthy: either part nonzero (NaN counts)
        IrValue re = convert(complex_part(v, 0), bool_type()), im = convert(complex_part(v, 1), bool_type());
        return {assign("or i1 " + re.ref + ", " + im.ref), to, {}};
    }
    if (to->is_complex() && (from->is_integer() || from->is_float() || from->is_bool())) {  // re((R)r), im(0)
        const Type* P = complex_part_type(to);
        return make_complex(convert(v, P), int_constant(0, P), to);
    }
    not_covered("a conversion from " + from->str() + " to " + to->str());
}

IrValue NvvmEmitter::complex_binop(BinOpKind op, const IrValue& a, const IrValue& b) {
    const Type* R = a.type;
    const Type* P = complex_part_type(R);
    const std::string T = ir_type(P);
    auto fp = [&](const char* instruction, const IrValue& x, const IrValue& y) {
        return IrValue{assign(std::string(instruction) + " " + T + " " + x.ref + ", " + y.ref), P, {}};
    };
    IrValue ar = complex_part(a, 0), ai = complex_part(a, 1), br = complex_part(b, 0), bi = complex_part(b, 1);
    switch (op) {
        case BinOpKind::Add: return make_complex(fp("fadd", ar, br), fp("fadd", ai, bi), R);
        case BinOpKind::Sub: return make_complex(fp("fsub", ar, br), fp("fsub", ai, bi), R);
        case BinOpKind::Mul:
            return make_complex(fp("fsub", fp("fmul", ar, br), fp("fmul", ai, bi)),
                                fp("fadd", fp("fmul", ar, bi), fp("fmul", ai, br)), R);
        case BinOpKind::Div: {
            IrValue mr = float_abs(br), mi = float_abs(bi);  // |b|'s parts by fabs, as the prelude (and NumPy) take them
            std::string real_larger = assign("fcmp oge " + T + " " + mr.ref + ", " + mi.ref);
            std::string by_zero = assign("fcmp oeq " + T + " " + mr.ref + ", " + int_constant(0, P).ref);
            // ar >= ai, ar == 0: division by zero gives inf/nan parts
            IrValue zero_re = fp("fdiv", ar, mr), zero_im = fp("fdiv", ai, mr);
            // ar >= ai: r = b.im / b.re, d = b.re + b.im * r
            IrValue r1 = fp("fdiv", bi, br), d1 = fp("fadd", br, fp("fmul", bi, r1));
            IrValue re1 = fp("fdiv", fp("fadd", ar, fp("fmul", ai, r1)), d1);
            IrValue im1 = fp("fdiv", fp("fsub", ai, fp("fmul", ar, r1)), d1);
            // else: r = b.re / b.im, d = b.im + b.re * r
            IrValue r2 = fp("fdiv", br, bi), d2 = fp("fadd", bi, fp("fmul", br, r2));
            IrValue re2 = fp("fdiv", fp("fadd", fp("fmul", ar, r2), ai), d2);
            IrValue im2 = fp("fdiv", fp("fsub", fp("fmul", ai, r2), ar), d2);
            IrValue re = select(real_larger, select(by_zero, zero_re, re1), re2);
            IrValue im = select(real_larger, select(by_zero, zero_im, im1), im2);
            return make_complex(re, im, R);
        }
        default: not_covered(std::string("the operator ") + binop_symbol(op) + " on complex values");
    }
}

IrValue NvvmEmitter::complex_equal(CmpOpKind op, const IrValue& a, const IrValue& b) {
    if (op != CmpOpKind::Eq && op != CmpOpKind::Ne) not_covered(std::string("the comparison ") + cmpop_symbol(op) + " of complex values");
    const std::string T = ir_type(complex_part_type(a.type));
    std::string re = assign("fcmp oeq " + T + " " + complex_part(a, 0).ref + ", " + complex_part(b, 0).ref);
    std::string im = assign("fcmp oeq " + T + " " + complex_part(a, 1).ref + ", " + complex_part(b, 1).ref);
    std::string equal = assign("and i1 " + re + ", " + im);
    if (op == CmpOpKind::Eq) return {equal, bool_type(), {}};
    return {assign("xor i1 " + equal + ", true"), bool_type(), {}};
}

IrValue NvvmEmitter::negate_float(const IrValue& x) {
    return {assign("fsub " + ir_type(x.type) + " -0.0, " + x.ref), x.type, {}};
}

IrValue NvvmEmitter::complex_negate(const IrValue& z) {
    return make_complex(negate_float(complex_part(z, 0)), negate_float(complex_part(z, 1)), z.type);
}

IrValue NvvmEmitter::complex_abs(const IrValue& z) {
    // simt_abs: hypotf for complex64, hypot for complex128
    const Type* P = complex_part_type(z.type);
    return libdevice(P->dtype == DType::Float32 ? "__nv_hypotf" : "__nv_hypot", {complex_part(z, 0), complex_part(z, 1)}, P);
}

}  // namespace simt
