// cuTile's function spellings of operators and a few elementwise functions: equal, not_equal,
// greater, greater_equal, less, less_equal (comparisons, as the operators), bitwise_not (~),
// isnan, atan2, Tile.item(), and the compile-time helpers ensure_constant, static_assert and
// assume_divisible_by. They broadcast and promote as the operators do.
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"
#include "sema/tile.h"
#include "sema/tile_args.h"

namespace simt {

namespace {

using namespace tile_builtin;

struct Comparison { const char* name; CmpOpKind op; };
const Comparison kComparisons[] = {{"equal", CmpOpKind::Eq},   {"not_equal", CmpOpKind::Ne},
                                   {"greater", CmpOpKind::Gt}, {"greater_equal", CmpOpKind::Ge},
                                   {"less", CmpOpKind::Lt},    {"less_equal", CmpOpKind::Le}};
CmpOpKind comparison_of(const std::string& name) {
    for (const Comparison& c : kComparisons) if (name == c.name) return c.op;
    return CmpOpKind::Eq;
}

const Type* infer_comparison(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"x", "y"}, 2);
    for (Expr* e : a) check_operand(s, e, call);
    if (a[0]->type->is_tile() || a[1]->type->is_tile()) s.unit().uses_tiles = true;
    return tile_compare_type(s, call.loc, comparison_of(short_name(call)), a[0]->type, a[1]->type);
}
std::string emit_comparison(Emitter& em, const Expr& call) {
    std::vector<const Expr*> a = emit_args(call, {"x", "y"});
    return emit_tile_compare_of(em, comparison_of(short_name(call)), *a[0], *a[1], call.type);
}

// bitwise_not(x) and isnan(x): one operand, a tile or a number.
const Type* infer_unary_named(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"x"}, 1);
    check_operand(s, a[0], call);
    s.unit().uses_tiles = true;  // (numbers too: the code is the tile prelude's)
    const Type* t = a[0]->type;
    const bool isnan = short_name(call) == "isnan";
    if (!isnan && dtype_is_float(t->dtype)) s.fail(a[0]->loc, display(call) + "() needs an integer or boolean tile, not " + t->str());
    DType d = isnan ? DType::Bool : t->dtype;
    if (!t->is_tile()) return scalar_type(d);
    return tile_type(d, t->dims);
}
std::string emit_unary_named(Emitter& em, const Expr& call) {
    const Expr* x = emit_args(call, {"x"})[0];
    const Type* t = scalar_type(x->type->dtype);
    const bool isnan = short_name(call) == "isnan";
    return emit_tile_elementwise(em, call.type, {em.expr(*x)}, {x->type}, [&](const std::vector<std::string>& v) -> std::string {
        if (isnan) return t->is_float() ? "simt_tile_isnan(" + v[0] + ")" : "false";
        return t->is_bool() ? "(!" + v[0] + ")" : em.cast("(~" + v[0] + ")", t, t);
    });
}

// atan2(y, x): the angle of (x, y) in [-pi, pi]; integers compute in float64, float16 in float32.
const Type* infer_atan2(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"x1", "x2"}, 2);
    for (Expr* e : a) check_operand(s, e, call);
    DType d = tile_common_dtype({a[0]->type, a[1]->type});
    if (!dtype_is_float(d)) d = DType::Float64;
    if (!a[0]->type->is_tile() && !a[1]->type->is_tile()) return scalar_type(d);
    std::vector<int64_t> dims = broadcast_tile_dims(s, call.loc, {a[0]->type, a[1]->type}, "tile.atan2()");
    for (Expr* e : a)
        if (e->type->is_tile() && e->type->dims != dims) note_tile_scratch(s, call.loc, tile_bytes(e->type), "tile.atan2() broadcasting");
    s.unit().uses_tiles = true;
    return tile_type(d, dims);
}
std::string emit_atan2(Emitter& em, const Expr& call) {
    std::vector<const Expr*> a = emit_args(call, {"x1", "x2"});
    const Type* out = scalar_type(call.type->dtype);
    const Type* math = out->dtype == DType::Float64 ? out : scalar_type(DType::Float32);
    return emit_tile_elementwise(em, call.type, {em.expr(*a[0]), em.expr(*a[1])}, {a[0]->type, a[1]->type},
                                 [&](const std::vector<std::string>& v) {
                                     std::string y = em.cast(v[0], scalar_type(a[0]->type->dtype), math);
                                     std::string x = em.cast(v[1], scalar_type(a[1]->type->dtype), math);
                                     std::string r = (math == out && out->dtype == DType::Float64 ? "atan2(" : "atan2f(") + y + ", " + x + ")";
                                     return em.cast(r, math, out);
                                 });
}

// t.item(): the element of a one-element tile, as a number.
const Type* infer_item(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"x"}, 1);
    const Type* t = need_tile(s, a[0], call, "x");
    if (t->tile_size() != 1) s.fail(call.loc, "Tile.item() of " + t->str() + ": it needs a tile of one element");
    note_tile_scratch(s, call.loc, 16, "Tile.item()");
    return scalar_type(t->dtype);
}
std::string emit_item(Emitter& em, const Expr& call) {
    return "simt_tile_item(" + em.expr(*emit_args(call, {"x"})[0]) + ", " + scratch() + ")";
}

// n.item() of a number: itself (a whole-tile reduction gives a number where cuTile gives a 0-d
// tile, whose item() is its value).
const Type* infer_number_item(Sema& s, Expr& call) {
    if (call.children.size() != 1 || !call.keywords.empty()) s.fail(call.loc, "item() takes no arguments");
    return call.children[0]->children[0]->type;
}
std::string emit_number_item(Emitter& em, const Expr& call) { return em.expr(*call.children[0]->children[0]); }

// ensure_constant(value): value, which must be known when the kernel compiles.
// static_assert(condition, message=None): a compile error naming message where condition is false.
// assume_divisible_by(x, divisor): x (a hint simt does not need).
const Type* infer_compile_time(Sema& s, Expr& call) {
    const std::string n = short_name(call);
    if (n == "assume_divisible_by") {
        std::vector<Expr*> a = args(s, call, {"x", "divisor"}, 2);
        const ConstValue* d = s.constant(*a[1]);
        if (!d || !d->is_int() || d->as_int() <= 0) s.fail(a[1]->loc, display(call) + "() divisor must be a positive constant integer");
        if (!a[0]->type->is_integer()) s.fail(a[0]->loc, display(call) + "() x must be an integer, not " + a[0]->type->str());
        return a[0]->type;
    }
    std::vector<Expr*> a = args(s, call, n == "static_assert" ? std::vector<const char*>{"condition", "message"}
                                                                : std::vector<const char*>{"value"}, 1);
    const ConstValue* c = s.constant(*a[0]);
    if (!c) s.fail(a[0]->loc, display(call) + "() needs a value known when the kernel compiles");
    if (n == "ensure_constant") {
        s.set_constant(call, *c);
        return a[0]->type;
    }
    if (!c->truthy()) {
        const ConstValue* m = a[1] ? s.constant(*a[1]) : nullptr;
        s.fail(call.loc, "tile.static_assert failed" + (m && m->kind == ConstValue::Kind::String ? ": " + m->s : std::string()));
    }
    return none_type();
}
std::string emit_compile_time(Emitter& em, const Expr& call) {
    const std::string n = short_name(call);
    if (n == "static_assert") return "((void)0)";
    if (n == "ensure_constant") return em.literal(call.resolved->constant, call.type);
    return em.expr(*emit_args(call, {"x", "divisor"})[0]);
}

}  // namespace

void register_tile_named_builtins(BuiltinRegistry& r) {
    auto add = [&](const std::string& name, decltype(&infer_atan2) infer, decltype(&emit_atan2) emit) {
        add_tile_function(r, name, infer, emit);
    };
    for (const Comparison& c : kComparisons) add(c.name, infer_comparison, emit_comparison);
    add("bitwise_not", infer_unary_named, emit_unary_named);
    add("isnan", infer_unary_named, emit_unary_named);
    add("atan2", infer_atan2, emit_atan2);
    r.add_function({"tilemethod.item", infer_item, emit_item});
    r.add_function({"number.item", infer_number_item, emit_number_item});
    for (const char* n : {"ensure_constant", "static_assert", "assume_divisible_by"}) add(n, infer_compile_time, emit_compile_time);
}

}  // namespace simt
