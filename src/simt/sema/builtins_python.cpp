// Python builtins usable in kernels: abs, min, max, int, float, bool, complex, len, range,
// round, pow, divmod (enumerate and zip: builtins_iteration.cpp).
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"
#include "support/error.h"
#include "types/promote.h"

namespace simt {

namespace {

std::vector<const Expr*> positional(const Expr& call) {
    std::vector<const Expr*> out;
    for (size_t i = 1; i < call.children.size(); ++i) out.push_back(call.children[i].get());
    return out;
}

const Type* infer_abs(Sema& s, Expr& call) {
    std::vector<Expr*> a = s.bind(call, "abs", {"x"}, 1);
    const Type* t = a[0]->type;
    if (!t->is_scalar()) s.fail(call.loc, "abs() needs a number, not " + t->str());
    if (t->is_complex()) return scalar_type(t->dtype == DType::Complex64 ? DType::Float32 : DType::Float64);
    if (t->is_bool()) return int64_type();
    return t;
}
std::string emit_abs(Emitter& em, const Expr& call) {
    const Expr& a = *call.children[1];
    return "simt_abs(" + em.cast(em.expr(a), a.type, a.type->is_bool() ? int64_type() : a.type) + ")";
}

// min/max over several numbers, or over the elements of one tuple.
std::vector<const Type*> minmax_operands(Sema& s, Expr& call, const char* name) {
    if (!call.keywords.empty()) s.fail(call.loc, std::string(name) + "() takes no keyword arguments in kernels");
    std::vector<const Type*> types;
    if (call.children.size() == 2) {
        const Type* t = call.children[1]->type;
        if (!t->is_tuple()) s.fail(call.loc, std::string(name) + "() of a single argument needs a tuple, not " + t->str());
        types = t->elems;
    } else {
        for (size_t i = 1; i < call.children.size(); ++i) types.push_back(call.children[i]->type);
    }
    if (types.empty()) s.fail(call.loc, std::string(name) + "() needs at least one value");
    for (const Type* t : types)
        if (!t->is_scalar() || t->is_complex()) s.fail(call.loc, std::string(name) + "() needs real numbers, not " + t->str());
    return types;
}
const Type* infer_minmax(Sema& s, Expr& call, const char* name) {
    // min(a, b) and max(a, b) with a tile: cuTile's spelling of tile.minimum / tile.maximum.
    if (call.children.size() == 3 && call.keywords.empty() &&
        (call.children[1]->type->is_tile() || call.children[2]->type->is_tile())) {
        call.resolved->builtin = std::string(name) == "min" ? "tile.minimum" : "tile.maximum";
        return builtins().function(call.resolved->builtin)->infer(s, call);
    }
    for (size_t i = 1; i < call.children.size(); ++i)
        if (call.children[i]->type->is_tile() && call.children.size() != 3)
            s.fail(call.loc, std::string(name) + "() of tiles takes two arguments (nest them: " + name + "(a, " + name + "(b, c)))");
    std::vector<const Type*> types = minmax_operands(s, call, name);
    DType d = types[0]->dtype;
    for (const Type* t : types) d = promote(d, t->dtype);
    return scalar_type(d);
}
const Type* infer_min(Sema& s, Expr& call) { return infer_minmax(s, call, "min"); }
const Type* infer_max(Sema& s, Expr& call) { return infer_minmax(s, call, "max"); }
std::string emit_minmax(Emitter& em, const Expr& call, const char* fn) {
    std::vector<std::string> values;
    const Type* R = call.type;
    if (call.children.size() == 2) {
        const Expr& tup = *call.children[1];
        std::string tmp = em.temp("tup");
        std::string acc = em.cast(tmp + ".f0", tup.type->elems[0], R);
        for (size_t i = 1; i < tup.type->elems.size(); ++i)
            acc = std::string(fn) + "(" + acc + ", " + em.cast(tmp + ".f" + std::to_string(i), tup.type->elems[i], R) + ")";
        return "([&]() { auto " + tmp + " = " + em.expr(tup) + "; return " + acc + "; }())";
    }
    std::string acc = em.expr_as(*call.children[1], R);
    for (size_t i = 2; i < call.children.size(); ++i) acc = std::string(fn) + "(" + acc + ", " + em.expr_as(*call.children[i], R) + ")";
    return acc;
}
std::string emit_min(Emitter& em, const Expr& call) { return emit_minmax(em, call, "simt_min"); }
std::string emit_max(Emitter& em, const Expr& call) { return emit_minmax(em, call, "simt_max"); }

const Type* infer_conversion(Sema& s, Expr& call, const char* name, DType to) {
    std::vector<Expr*> a = s.bind(call, name, {"x"}, 1);
    const Type* t = a[0]->type;
    if (!t->is_scalar()) s.fail(call.loc, std::string(name) + "() needs a number, not " + t->str());
    if (t->is_complex() && !dtype_is_complex(to)) s.fail(call.loc, std::string("cannot convert complex to ") + name);
    return scalar_type(to);
}
const Type* infer_int(Sema& s, Expr& call) { return infer_conversion(s, call, "int", DType::Int64); }
const Type* infer_float(Sema& s, Expr& call) { return infer_conversion(s, call, "float", DType::Float64); }
const Type* infer_bool(Sema& s, Expr& call) { return infer_conversion(s, call, "bool", DType::Bool); }
std::string emit_conversion(Emitter& em, const Expr& call) {
    const Expr& a = call.children.size() > 1 ? *call.children[1] : *call.keywords[0].value;
    return em.cast(em.expr(a), a.type, call.type);
}

const Type* infer_complex(Sema& s, Expr& call) {
    std::vector<Expr*> a = s.bind(call, "complex", {"real", "imag"}, 0);
    bool lone_complex = a[0] && !a[1] && a[0]->type->is_complex();  // complex(z) is z as complex128
    for (Expr* e : a)
        if (e && !lone_complex && (!e->type->is_scalar() || e->type->is_complex()))
            s.fail(e->loc, "complex() needs real numbers (or one complex number), not " + e->type->str());
    return scalar_type(DType::Complex128);
}
std::string emit_complex(Emitter& em, const Expr& call) {
    std::string error;
    std::vector<const Expr*> a = match_call_args(call, {"real", "imag"}, 0, error);
    if (a[0] && !a[1] && a[0]->type->is_complex()) return em.expr_as(*a[0], call.type);
    std::string re = a[0] ? em.expr_as(*a[0], float64_type()) : "0.0";
    std::string im = a[1] ? em.expr_as(*a[1], float64_type()) : "0.0";
    return "simt_complex128(" + re + ", " + im + ")";
}

const Type* infer_len(Sema& s, Expr& call) {
    std::vector<Expr*> a = s.bind(call, "len", {"obj"}, 1);
    const Type* t = a[0]->type;
    if (t->is_tuple()) return int64_type();
    if (t->is_array()) return int64_type();
    s.fail(call.loc, "len() is not defined for " + t->str());
}
std::string emit_len(Emitter& em, const Expr& call) {
    const Expr& a = *call.children[1];
    if (a.type->is_tuple()) return "(int64_t)" + std::to_string(a.type->elems.size());
    return em.expr(a) + ".shape[0]";
}

const Type* infer_range(Sema& s, Expr& call) {
    if (!call.keywords.empty()) s.fail(call.loc, "range() takes no keyword arguments");
    size_t n = call.children.size() - 1;
    if (n < 1 || n > 3) s.fail(call.loc, "range() takes 1 to 3 arguments, " + std::to_string(n) + " given");
    for (size_t i = 1; i <= n; ++i)
        if (!call.children[i]->type->is_integer() && !call.children[i]->type->is_bool())
            s.fail(call.children[i]->loc, "range() arguments must be integers, not " + call.children[i]->type->str());
    if (n == 3) {
        const ConstValue* step = s.constant(*call.children[3]);
        if (step && step->is_int() && step->as_int() == 0) s.fail(call.children[3]->loc, "range() step must not be zero");
    }
    // It yields int64, or uint64 when an argument is uint64 and none is signed (range(u, -1, -1)
    // counts down to 0 in int64, as numba does).
    bool any_uint64 = false, any_signed = false;
    for (size_t i = 1; i <= n; ++i) {
        const Type* t = call.children[i]->type;
        any_uint64 = any_uint64 || t->dtype == DType::UInt64;
        any_signed = any_signed || (t->is_integer() && dtype_is_signed(t->dtype));
    }
    return range_type(any_uint64 && !any_signed ? DType::UInt64 : DType::Int64);
}
std::string emit_range(Emitter&, const Expr&) {
    throw Error(ErrorKind::Unsupported, "range() can only be used as the iterable of a for loop");
}

const Type* infer_round(Sema& s, Expr& call) {
    std::vector<Expr*> a = s.bind(call, "round", {"number", "ndigits"}, 1);
    const Type* t = a[0]->type;
    if (!t->is_scalar() || t->is_complex()) s.fail(call.loc, "round() needs a real number, not " + t->str());
    if (a[1]) {
        if (!a[1]->type->is_integer()) s.fail(call.loc, "round() ndigits must be an integer");
        return t->is_float() ? t : float64_type();
    }
    return int64_type();
}
std::string emit_round(Emitter& em, const Expr& call) {
    std::string error;
    std::vector<const Expr*> a = match_call_args(call, {"number", "ndigits"}, 1, error);
    const Type* t = a[0]->type;
    const Type* ft = t->is_float() ? t : float64_type();
    std::string x = em.expr_as(*a[0], ft);
    if (a[1]) return "simt_round_digits(" + x + ", " + em.expr_as(*a[1], int64_type()) + ")";
    return "(int64_t)simt_rint(" + x + ")";  // round half to even, as Python does
}

const Type* infer_pow(Sema& s, Expr& call) {
    std::vector<Expr*> a = s.bind(call, "pow", {"base", "exp"}, 2);
    if (!a[0]->type->is_scalar() || !a[1]->type->is_scalar()) s.fail(call.loc, "pow() needs numbers");
    const Type* t = Emitter::binop_type(BinOpKind::Pow, a[0]->type, a[1]->type);
    if (!t) s.fail(call.loc, "unsupported operand types for pow()");
    return t;
}
std::string emit_pow(Emitter& em, const Expr& call) {
    std::vector<const Expr*> a = positional(call);
    std::string error;
    a = match_call_args(call, {"base", "exp"}, 2, error);
    return em.binop_code(BinOpKind::Pow, em.expr(*a[0]), a[0]->type, em.expr(*a[1]), a[1]->type);
}

// divmod(a, b) is (a // b, a % b): the operators' own typing and code, each operand evaluated once.
const Type* infer_divmod(Sema& s, Expr& call) {
    if (!call.keywords.empty()) s.fail(call.loc, "divmod() takes no keyword arguments");
    if (call.children.size() != 3)
        s.fail(call.loc, "divmod() takes exactly 2 arguments (" + std::to_string(call.children.size() - 1) + " given)");
    const Type* a = call.children[1]->type;
    const Type* b = call.children[2]->type;
    const Type* q = a->is_scalar() && b->is_scalar() ? Emitter::binop_type(BinOpKind::FloorDiv, a, b) : nullptr;
    const Type* r = a->is_scalar() && b->is_scalar() ? Emitter::binop_type(BinOpKind::Mod, a, b) : nullptr;
    if (!q || !r) s.fail(call.loc, "unsupported operand types for divmod(): " + a->str() + " and " + b->str());
    return tuple_type({q, r});
}
std::string emit_divmod(Emitter& em, const Expr& call) {
    const Expr& a = *call.children[1];
    const Expr& b = *call.children[2];
    std::string x = em.temp("x"), y = em.temp("y");
    return "([&]() { auto " + x + " = " + em.expr(a) + "; auto " + y + " = " + em.expr(b) + "; return " + em.c_type(call.type) +
           "{" + em.binop_code(BinOpKind::FloorDiv, x, a.type, y, b.type) + ", " +
           em.binop_code(BinOpKind::Mod, x, a.type, y, b.type) + "}; }())";
}

}  // namespace

void register_python_builtins(BuiltinRegistry& r) {
    r.add_function({"abs", infer_abs, emit_abs});
    r.add_function({"min", infer_min, emit_min});
    r.add_function({"max", infer_max, emit_max});
    r.add_function({"int", infer_int, emit_conversion});
    r.add_function({"float", infer_float, emit_conversion});
    r.add_function({"bool", infer_bool, emit_conversion});
    r.add_function({"complex", infer_complex, emit_complex});
    r.add_function({"len", infer_len, emit_len});
    r.add_function({"range", infer_range, emit_range});
    r.add_function({"round", infer_round, emit_round});
    r.add_function({"pow", infer_pow, emit_pow});
    r.add_function({"divmod", infer_divmod, emit_divmod});
}

}  // namespace simt
