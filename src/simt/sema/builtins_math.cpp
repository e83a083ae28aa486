// The `math` module in kernels. Float32 arguments keep float32 (the `f` C functions), integer
// arguments compute in float64, as numba does. Constants: pi, e, tau, inf, nan.
#include <cmath>
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"

namespace simt {

namespace {

enum class Result { SameFloat, Int64, Bool };

struct MathFunction {
    const char* name;  // Python name under math.
    int arity;
    Result result;
    const char* c_name;  // C function for double; the float version appends 'f'
};

// Every entry maps onto a C99 <math.h> function available both in CUDA and on the host.
const MathFunction kMath[] = {
    {"sin", 1, Result::SameFloat, "sin"},     {"cos", 1, Result::SameFloat, "cos"},
    {"tan", 1, Result::SameFloat, "tan"},     {"asin", 1, Result::SameFloat, "asin"},
    {"acos", 1, Result::SameFloat, "acos"},   {"atan", 1, Result::SameFloat, "atan"},
    {"sinh", 1, Result::SameFloat, "sinh"},   {"cosh", 1, Result::SameFloat, "cosh"},
    {"tanh", 1, Result::SameFloat, "tanh"},   {"asinh", 1, Result::SameFloat, "asinh"},
    {"acosh", 1, Result::SameFloat, "acosh"}, {"atanh", 1, Result::SameFloat, "atanh"},
    {"exp", 1, Result::SameFloat, "exp"},     {"expm1", 1, Result::SameFloat, "expm1"},
    {"exp2", 1, Result::SameFloat, "exp2"},   {"log2", 1, Result::SameFloat, "log2"},
    {"log10", 1, Result::SameFloat, "log10"}, {"log1p", 1, Result::SameFloat, "log1p"},
    {"sqrt", 1, Result::SameFloat, "sqrt"},   {"cbrt", 1, Result::SameFloat, "cbrt"},
    {"fabs", 1, Result::SameFloat, "fabs"},   {"erf", 1, Result::SameFloat, "erf"},
    {"erfc", 1, Result::SameFloat, "erfc"},   {"gamma", 1, Result::SameFloat, "tgamma"},
    {"lgamma", 1, Result::SameFloat, "lgamma"},
    {"atan2", 2, Result::SameFloat, "atan2"}, {"pow", 2, Result::SameFloat, "pow"},
    {"fmod", 2, Result::SameFloat, "fmod"},   {"hypot", 2, Result::SameFloat, "hypot"},
    {"copysign", 2, Result::SameFloat, "copysign"}, {"remainder", 2, Result::SameFloat, "remainder"},
    {"nextafter", 2, Result::SameFloat, "nextafter"},
    {"floor", 1, Result::Int64, "floor"},     {"ceil", 1, Result::Int64, "ceil"},
    {"trunc", 1, Result::Int64, "trunc"},
    {"isnan", 1, Result::Bool, "simt_isnan"}, {"isinf", 1, Result::Bool, "simt_isinf"},
    {"isfinite", 1, Result::Bool, "simt_isfinite"},
};

const MathFunction* find(const std::string& canonical) {
    std::string name = canonical.substr(canonical.find('.') + 1);
    for (const MathFunction& f : kMath) if (name == f.name) return &f;
    return nullptr;
}

// The float type a math function computes in for these arguments.
const Type* compute_type(const std::vector<const Type*>& args) {
    bool all_f32 = true;
    for (const Type* t : args) all_f32 = all_f32 && (t->dtype == DType::Float32 || t->dtype == DType::Float16);
    return scalar_type(all_f32 ? DType::Float32 : DType::Float64);
}

const Type* infer_math(Sema& s, Expr& call) {
    const std::string& canonical = call.resolved->builtin;
    const MathFunction* f = find(canonical);
    if (!call.keywords.empty()) s.fail(call.loc, canonical + "() takes no keyword arguments");
    size_t n = call.children.size() - 1;
    if (int(n) != f->arity)
        s.fail(call.loc, canonical + "() takes exactly " + std::to_string(f->arity) + " argument" + (f->arity == 1 ? "" : "s") +
                             " (" + std::to_string(n) + " given)");
    std::vector<const Type*> args;
    for (size_t i = 1; i <= n; ++i) {
        const Type* t = call.children[i]->type;
        if (!t->is_scalar() || t->is_complex())
            s.fail(call.children[i]->loc, canonical + "() needs a real number, not " + t->str() + (t->is_complex() ? " (use cmath)" : ""));
        args.push_back(t);
    }
    if (f->result == Result::Bool) return bool_type();
    if (f->result == Result::Int64) return int64_type();
    return compute_type(args);
}

std::string emit_math(Emitter& em, const Expr& call) {
    const MathFunction* f = find(call.resolved->builtin);
    std::vector<const Type*> args;
    for (size_t i = 1; i < call.children.size(); ++i) args.push_back(call.children[i]->type);
    const Type* ct = compute_type(args);
    std::string fn = f->c_name;
    if (f->result != Result::Bool && ct->dtype == DType::Float32) fn += "f";
    std::string s = fn + "(";
    for (size_t i = 1; i < call.children.size(); ++i) {
        const Expr& a = *call.children[i];
        // Integer arguments of isnan/isinf/isfinite stay integers (always finite).
        const Type* to = f->result == Result::Bool && a.type->is_integer() ? float64_type() : ct;
        s += (i > 1 ? ", " : "") + em.expr_as(a, to);
    }
    s += ")";
    if (f->result == Result::Int64) return "(int64_t)" + s;
    return s;
}

// math.log(x) and math.log(x, base).
const Type* infer_log(Sema& s, Expr& call) {
    std::vector<Expr*> a = s.bind(call, "math.log", {"x", "base"}, 1);
    std::vector<const Type*> types;
    for (Expr* e : a) {
        if (!e) continue;
        if (!e->type->is_scalar() || e->type->is_complex()) s.fail(e->loc, "math.log() needs a real number, not " + e->type->str());
        types.push_back(e->type);
    }
    return compute_type(types);
}
std::string emit_log(Emitter& em, const Expr& call) {
    std::string error;
    std::vector<const Expr*> a = match_call_args(call, {"x", "base"}, 1, error);
    const char* fn = call.type->dtype == DType::Float32 ? "logf" : "log";
    std::string x = std::string(fn) + "(" + em.expr_as(*a[0], call.type) + ")";
    if (!a[1]) return x;
    return "(" + x + " / " + fn + "(" + em.expr_as(*a[1], call.type) + "))";
}

// math.radians / math.degrees.
const Type* infer_angle(Sema& s, Expr& call) {
    std::vector<Expr*> a = s.bind(call, call.resolved->builtin, {"x"}, 1);
    if (!a[0]->type->is_scalar() || a[0]->type->is_complex()) s.fail(call.loc, call.resolved->builtin + "() needs a real number");
    return compute_type({a[0]->type});
}
std::string emit_angle(Emitter& em, const Expr& call) {
    bool to_radians = call.resolved->builtin == "math.radians";
    std::string factor = to_radians ? "0.017453292519943295" : "57.295779513082323";
    std::string x = em.expr_as(*call.children[1], call.type);
    return "(" + x + " * " + em.cast(factor, float64_type(), call.type) + ")";
}

// math.ldexp(x, i) and math.copysign handled above; ldexp needs an integer exponent.
const Type* infer_ldexp(Sema& s, Expr& call) {
    std::vector<Expr*> a = s.bind(call, "math.ldexp", {"x", "i"}, 2);
    if (!a[0]->type->is_scalar() || a[0]->type->is_complex()) s.fail(call.loc, "math.ldexp() needs a real number");
    if (!a[1]->type->is_integer()) s.fail(call.loc, "math.ldexp() exponent must be an integer");
    return compute_type({a[0]->type});
}
std::string emit_ldexp(Emitter& em, const Expr& call) {
    const char* fn = call.type->dtype == DType::Float32 ? "ldexpf" : "ldexp";
    return std::string(fn) + "(" + em.expr_as(*call.children[1], call.type) + ", (int)(" + em.expr(*call.children[2]) + "))";
}

}  // namespace

void register_math_builtins(BuiltinRegistry& r) {
    for (const MathFunction& f : kMath) {
        std::string canonical = std::string("math.") + f.name;
        r.add_function({canonical, infer_math, emit_math});
        r.add_member("math", f.name, member_function(canonical));
    }
    r.add_function({"math.log", infer_log, emit_log});
    r.add_member("math", "log", member_function("math.log"));
    r.add_function({"math.radians", infer_angle, emit_angle});
    r.add_member("math", "radians", member_function("math.radians"));
    r.add_function({"math.degrees", infer_angle, emit_angle});
    r.add_member("math", "degrees", member_function("math.degrees"));
    r.add_function({"math.ldexp", infer_ldexp, emit_ldexp});
    r.add_member("math", "ldexp", member_function("math.ldexp"));
    r.add_member("math", "pi", member_constant(ConstValue::real(M_PI)));
    r.add_member("math", "e", member_constant(ConstValue::real(M_E)));
    r.add_member("math", "tau", member_constant(ConstValue::real(2 * M_PI)));
    r.add_member("math", "inf", member_constant(ConstValue::real(HUGE_VAL)));
    r.add_member("math", "nan", member_constant(ConstValue::real(std::nan(""))));
}

}  // namespace simt
