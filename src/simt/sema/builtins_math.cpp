// The `math` module in kernels, typed as numba's CUDA target types it: float32 arguments keep
// float32 (the `f` C functions), integer arguments compute in float64, float16 stays float16 for
// the functions cuda_fp16 provides (sin, cos, exp, log, sqrt, ...) and becomes float32 for the
// others. Constants: pi, e, tau, inf, nan. With fastmath on the cuda target, float32 calls use
// the fast hardware intrinsics (__sinf, __expf, ...).
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
    bool half = false;   // float16 in gives float16 out (numba's fp16 math set)
    const char* fast = nullptr;  // CUDA fast intrinsic for float32 under fastmath
};

// Every entry maps onto a C99 <math.h> function available both in CUDA and on the host.
const MathFunction kMath[] = {
    {"sin", 1, Result::SameFloat, "sin", true, "__sinf"},   {"cos", 1, Result::SameFloat, "cos", true, "__cosf"},
    {"tan", 1, Result::SameFloat, "tan", false, "__tanf"},  {"asin", 1, Result::SameFloat, "asin"},
    {"acos", 1, Result::SameFloat, "acos"},   {"atan", 1, Result::SameFloat, "atan"},
    {"sinh", 1, Result::SameFloat, "sinh"},   {"cosh", 1, Result::SameFloat, "cosh"},
    {"tanh", 1, Result::SameFloat, "tanh"},   {"asinh", 1, Result::SameFloat, "asinh"},
    {"acosh", 1, Result::SameFloat, "acosh"}, {"atanh", 1, Result::SameFloat, "atanh"},
    {"exp", 1, Result::SameFloat, "exp", true, "__expf"},   {"expm1", 1, Result::SameFloat, "expm1"},
    {"exp2", 1, Result::SameFloat, "exp2", true},           {"log2", 1, Result::SameFloat, "log2", true, "__log2f"},
    {"log10", 1, Result::SameFloat, "log10", true, "__log10f"}, {"log1p", 1, Result::SameFloat, "log1p"},
    {"sqrt", 1, Result::SameFloat, "sqrt", true},           {"cbrt", 1, Result::SameFloat, "cbrt"},
    {"fabs", 1, Result::SameFloat, "fabs", true},           {"erf", 1, Result::SameFloat, "erf"},
    {"erfc", 1, Result::SameFloat, "erfc"},   {"gamma", 1, Result::SameFloat, "tgamma"},
    {"lgamma", 1, Result::SameFloat, "lgamma"},
    {"atan2", 2, Result::SameFloat, "atan2"}, {"pow", 2, Result::SameFloat, "pow", false, "__powf"},
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

bool is_single(const Type* t) { return t->dtype == DType::Float32 || t->dtype == DType::Float16; }

// The float type a math function computes in for these arguments: float32 when every argument
// is float32 or float16 (float16 itself for the half-precision set), else float64. math.pow
// keeps float32 for an integer exponent, as numba's (float32, int32) signature does.
const Type* compute_type(const MathFunction* f, const std::vector<const Type*>& args) {
    bool all_half = true, all_single = true;
    for (const Type* t : args) {
        all_half = all_half && t->dtype == DType::Float16;
        all_single = all_single && is_single(t);
    }
    if (f && f->half && all_half) return scalar_type(DType::Float16);
    if (f && std::string(f->name) == "pow" && is_single(args[0]) && args[1]->is_integer()) all_single = true;
    return scalar_type(all_single ? DType::Float32 : DType::Float64);
}

void require_real(Sema& s, const Expr& arg, const std::string& fname) {
    const Type* t = arg.type;
    if (!t->is_scalar() || t->is_complex())
        s.fail(arg.loc, fname + "() needs a real number, not " + t->str() + (t->is_complex() ? " (use cmath for complex numbers)" : ""));
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
        require_real(s, *call.children[i], canonical);
        args.push_back(call.children[i]->type);
    }
    if (f->result == Result::Bool) return bool_type();
    if (f->result == Result::Int64) return int64_type();
    return compute_type(f, args);
}

// The C function for computing in `ct`: the double name, the float `f` name, or the fast
// intrinsic under fastmath on the cuda target.
std::string c_function(Emitter& em, const MathFunction* f, const Type* ct) {
    if (ct->dtype == DType::Float64) return f->c_name;
    if (f->fast && em.target() == Target::Cuda && em.unit().options.fastmath) return f->fast;
    return std::string(f->c_name) + "f";
}

std::string emit_math(Emitter& em, const Expr& call) {
    const MathFunction* f = find(call.resolved->builtin);
    std::vector<const Type*> args;
    for (size_t i = 1; i < call.children.size(); ++i) args.push_back(call.children[i]->type);
    const Type* ct = compute_type(f, args);
    // float16 math computes in float32 and rounds once (the result type says float16).
    const Type* work = ct->dtype == DType::Float16 ? scalar_type(DType::Float32) : ct;
    bool pow_int = std::string(f->name) == "pow" && args[1]->is_integer() && work->dtype == DType::Float32;
    std::string fn = f->result == Result::Bool ? f->c_name : c_function(em, f, work);
    std::string s = fn + "(";
    for (size_t i = 1; i < call.children.size(); ++i) {
        const Expr& a = *call.children[i];
        // Integer arguments of isnan/isinf/isfinite stay integers (always finite).
        const Type* to = f->result == Result::Bool && a.type->is_integer() ? float64_type() : work;
        if (f->result == Result::Bool && a.type->dtype == DType::Float16) to = scalar_type(DType::Float32);
        if (pow_int && i == 2) to = work;  // powf(x, (float)n)
        s += (i > 1 ? ", " : "") + em.expr_as(a, to);
    }
    s += ")";
    if (f->result == Result::Int64) return "(int64_t)" + s;
    if (ct->dtype == DType::Float16) return "simt_half(" + s + ")";
    return s;
}

// math.log(x) and math.log(x, base).
const MathFunction kLog = {"log", 1, Result::SameFloat, "log", true, "__logf"};

const Type* infer_log(Sema& s, Expr& call) {
    std::vector<Expr*> a = s.bind(call, "math.log", {"x", "base"}, 1);
    std::vector<const Type*> types;
    for (Expr* e : a) {
        if (!e) continue;
        require_real(s, *e, "math.log");
        types.push_back(e->type);
    }
    return compute_type(types.size() == 1 ? &kLog : nullptr, types);
}
std::string emit_log(Emitter& em, const Expr& call) {
    std::string error;
    std::vector<const Expr*> a = match_call_args(call, {"x", "base"}, 1, error);
    bool half = call.type->dtype == DType::Float16;
    const Type* work = half ? scalar_type(DType::Float32) : call.type;
    std::string fn = c_function(em, &kLog, work);
    std::string x = fn + "(" + em.expr_as(*a[0], work) + ")";
    if (a[1]) x = "(" + x + " / " + fn + "(" + em.expr_as(*a[1], work) + "))";
    return half ? "simt_half(" + x + ")" : x;
}

// math.radians / math.degrees.
const Type* infer_angle(Sema& s, Expr& call) {
    std::vector<Expr*> a = s.bind(call, call.resolved->builtin, {"x"}, 1);
    require_real(s, *a[0], call.resolved->builtin);
    return compute_type(nullptr, {a[0]->type});
}
std::string emit_angle(Emitter& em, const Expr& call) {
    bool to_radians = call.resolved->builtin == "math.radians";
    std::string factor = to_radians ? "0.017453292519943295" : "57.295779513082323";
    std::string x = em.expr_as(*call.children[1], call.type);
    return "(" + x + " * " + em.cast(factor, float64_type(), call.type) + ")";
}

// math.ldexp(x, i): the exponent must be an integer.
const Type* infer_ldexp(Sema& s, Expr& call) {
    std::vector<Expr*> a = s.bind(call, "math.ldexp", {"x", "i"}, 2);
    require_real(s, *a[0], "math.ldexp");
    if (!a[1]->type->is_integer()) s.fail(a[1]->loc, "math.ldexp() exponent must be an integer, not " + a[1]->type->str());
    return compute_type(nullptr, {a[0]->type});
}
std::string emit_ldexp(Emitter& em, const Expr& call) {
    const char* fn = call.type->dtype == DType::Float32 ? "ldexpf" : "ldexp";
    return std::string(fn) + "(" + em.expr_as(*call.children[1], call.type) + ", (int)(" + em.expr(*call.children[2]) + "))";
}

// math.frexp(x) -> (mantissa, int32 exponent) and math.modf(x) -> (fractional, integral part).
const Type* infer_frexp(Sema& s, Expr& call) {
    std::vector<Expr*> a = s.bind(call, call.resolved->builtin, {"x"}, 1);
    require_real(s, *a[0], call.resolved->builtin);
    const Type* ft = compute_type(nullptr, {a[0]->type});
    if (call.resolved->builtin == "math.frexp") return tuple_type({ft, scalar_type(DType::Int32)});
    return tuple_type({ft, ft});
}
std::string emit_frexp(Emitter& em, const Expr& call) {
    const char* fn = call.resolved->builtin == "math.frexp" ? "simt_frexp<" : "simt_modf<";
    const Type* ft = call.type->elems[0];
    return fn + em.c_type(call.type) + ">(" + em.expr_as(*call.children[1], ft) + ")";
}

}  // namespace

void register_math_builtins(BuiltinRegistry& r) {
    for (const MathFunction& f : kMath) {
        std::string canonical = std::string("math.") + f.name;
        r.add_function({canonical, infer_math, emit_math});
        r.add_member("math", f.name, member_function(canonical));
    }
    const std::pair<const char*, std::pair<decltype(&infer_log), decltype(&emit_log)>> kSpecial[] = {
        {"log", {infer_log, emit_log}},         {"radians", {infer_angle, emit_angle}},
        {"degrees", {infer_angle, emit_angle}}, {"ldexp", {infer_ldexp, emit_ldexp}},
        {"frexp", {infer_frexp, emit_frexp}},   {"modf", {infer_frexp, emit_frexp}},
    };
    for (const auto& [name, fns] : kSpecial) {
        std::string canonical = std::string("math.") + name;
        r.add_function({canonical, fns.first, fns.second});
        r.add_member("math", name, member_function(canonical));
    }
    r.add_member("math", "pi", member_constant(ConstValue::real(M_PI)));
    r.add_member("math", "e", member_constant(ConstValue::real(M_E)));
    r.add_member("math", "tau", member_constant(ConstValue::real(2 * M_PI)));
    r.add_member("math", "inf", member_constant(ConstValue::real(HUGE_VAL)));
    r.add_member("math", "nan", member_constant(ConstValue::real(std::nan(""))));
}

}  // namespace simt
