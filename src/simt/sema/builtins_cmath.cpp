// The `cmath` module in kernels, typed as numba types it: complex64 in gives complex64 out,
// complex128 gives complex128; real arguments convert to the complex type of their precision
// (float32 → complex64, float64 and integers → complex128). The functions are written in the
// prelude (prelude/complex_math.h).
#include <cmath>
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"

namespace simt {

namespace {

// cmath function → prelude function, for the complex → complex functions.
const std::pair<const char*, const char*> kComplexUnary[] = {
    {"sqrt", "simt_csqrt"},   {"exp", "simt_cexp"},     {"log10", "simt_clog10"}, {"sin", "simt_csin"},
    {"cos", "simt_ccos"},     {"tan", "simt_ctan"},     {"asin", "simt_casin"},   {"acos", "simt_cacos"},
    {"atan", "simt_catan"},   {"sinh", "simt_csinh"},   {"cosh", "simt_ccosh"},   {"tanh", "simt_ctanh"},
    {"asinh", "simt_casinh"}, {"acosh", "simt_cacosh"}, {"atanh", "simt_catanh"},
};
const std::pair<const char*, const char*> kPredicates[] = {
    {"isnan", "simt_isnan"}, {"isinf", "simt_isinf"}, {"isfinite", "simt_isfinite"}};

std::string short_name(const std::string& canonical) { return canonical.substr(canonical.find('.') + 1); }

const char* lookup(const std::pair<const char*, const char*>* table, size_t n, const std::string& name) {
    for (size_t i = 0; i < n; ++i) if (name == table[i].first) return table[i].second;
    return nullptr;
}

// complex64 when every argument is single precision (float16, float32, complex64), else complex128.
const Type* complex_domain(const std::vector<const Expr*>& args) {
    bool single = true;
    for (const Expr* a : args)
        if (a) single = single && (a->type->dtype == DType::Float16 || a->type->dtype == DType::Float32 || a->type->dtype == DType::Complex64);
    return scalar_type(single ? DType::Complex64 : DType::Complex128);
}
const Type* real_part_type(const Type* complex_type) {
    return scalar_type(complex_type->dtype == DType::Complex64 ? DType::Float32 : DType::Float64);
}

std::vector<const Expr*> numbers(Sema& s, Expr& call, const std::vector<const char*>& params, size_t required,
                                 bool real_only) {
    const std::string& canonical = call.resolved->builtin;
    std::vector<Expr*> a = s.bind(call, canonical, params, required);
    std::vector<const Expr*> out;
    for (Expr* e : a) {
        if (e && (!e->type->is_scalar() || (real_only && e->type->is_complex())))
            s.fail(e->loc, canonical + "() needs a " + (real_only ? "real number" : "number") + ", not " + e->type->str());
        out.push_back(e);
    }
    return out;
}

const Type* infer_unary(Sema& s, Expr& call) { return complex_domain(numbers(s, call, {"z"}, 1, false)); }
std::string emit_unary(Emitter& em, const Expr& call) {
    std::string name = short_name(call.resolved->builtin);
    const char* fn = lookup(kComplexUnary, std::size(kComplexUnary), name);
    return std::string(fn) + "(" + em.expr_as(*call.children[1], call.type) + ")";
}

// cmath.log(z) and cmath.log(z, base) = log(z) / log(base).
const Type* infer_log(Sema& s, Expr& call) { return complex_domain(numbers(s, call, {"x", "base"}, 1, false)); }
std::string emit_log(Emitter& em, const Expr& call) {
    std::string error;
    std::vector<const Expr*> a = match_call_args(call, {"x", "base"}, 1, error);
    std::string x = "simt_clog(" + em.expr_as(*a[0], call.type) + ")";
    if (!a[1]) return x;
    return "(" + x + " / simt_clog(" + em.expr_as(*a[1], call.type) + "))";
}

const Type* infer_predicate(Sema& s, Expr& call) {
    numbers(s, call, {"z"}, 1, false);
    return bool_type();
}
std::string emit_predicate(Emitter& em, const Expr& call) {
    const char* fn = lookup(kPredicates, std::size(kPredicates), short_name(call.resolved->builtin));
    const Expr& a = *call.children[1];
    return std::string(fn) + "(" + em.expr_as(a, complex_domain({&a})) + ")";
}

const Type* infer_phase(Sema& s, Expr& call) { return real_part_type(complex_domain(numbers(s, call, {"z"}, 1, false))); }
std::string emit_phase(Emitter& em, const Expr& call) {
    const Expr& a = *call.children[1];
    return "simt_cphase(" + em.expr_as(a, complex_domain({&a})) + ")";
}

const Type* infer_polar(Sema& s, Expr& call) {
    const Type* r = real_part_type(complex_domain(numbers(s, call, {"z"}, 1, false)));
    return tuple_type({r, r});
}
std::string emit_polar(Emitter& em, const Expr& call) {
    const Expr& a = *call.children[1];
    return "simt_cpolar<" + em.c_type(call.type) + ">(" + em.expr_as(a, complex_domain({&a})) + ")";
}

const Type* infer_rect(Sema& s, Expr& call) { return complex_domain(numbers(s, call, {"r", "phi"}, 2, true)); }
std::string emit_rect(Emitter& em, const Expr& call) {
    std::string error;
    std::vector<const Expr*> a = match_call_args(call, {"r", "phi"}, 2, error);
    const Type* real = real_part_type(call.type);
    return "simt_crect(" + em.expr_as(*a[0], real) + ", " + em.expr_as(*a[1], real) + ")";
}

}  // namespace

void register_cmath_builtins(BuiltinRegistry& r) {
    auto add = [&](const std::string& name, BuiltinFunction f) {
        f.name = "cmath." + name;
        r.add_member("cmath", name, member_function(f.name));
        r.add_function(std::move(f));
    };
    for (const auto& [name, fn] : kComplexUnary) add(name, {"", infer_unary, emit_unary});
    for (const auto& [name, fn] : kPredicates) add(name, {"", infer_predicate, emit_predicate});
    add("log", {"", infer_log, emit_log});
    add("phase", {"", infer_phase, emit_phase});
    add("polar", {"", infer_polar, emit_polar});
    add("rect", {"", infer_rect, emit_rect});
    r.add_member("cmath", "pi", member_constant(ConstValue::real(M_PI)));
    r.add_member("cmath", "e", member_constant(ConstValue::real(M_E)));
    r.add_member("cmath", "tau", member_constant(ConstValue::real(2 * M_PI)));
    r.add_member("cmath", "inf", member_constant(ConstValue::real(HUGE_VAL)));
    r.add_member("cmath", "nan", member_constant(ConstValue::real(std::nan(""))));
    r.add_member("cmath", "infj", member_constant(ConstValue::complex(0, HUGE_VAL)));
    r.add_member("cmath", "nanj", member_constant(ConstValue::complex(0, std::nan(""))));
}

}  // namespace simt
