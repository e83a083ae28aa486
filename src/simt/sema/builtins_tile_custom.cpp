// Reductions and scans with the user's own function, as cuTile writes them:
// reduce(x, axis, func, identity, keepdims=False) and scan(x, axis, func, identity, reverse=False).
// func combines two elements (numbers here, cuTile's 0-d tiles) into one of the tile's dtype: a
// lambda, an inner def, a device function or a builtin such as tile.maximum; the earlier operand
// comes first. reduce folds each line in order, starting from identity; scan combines in
// Hillis-Steele rounds on the GPU, so func must be associative, and it does not use identity.
// The code is the prelude's reduce_axis and scan with func wrapped in a C++ lambda.
#include <cmath>
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"
#include "sema/tile.h"
#include "sema/tile_args.h"

namespace simt {

namespace {

using namespace tile_builtin;

bool is_scan(const Expr& call) { return short_name(call) == "scan"; }

std::vector<const char*> params(const Expr& call) {
    return {"x", "axis", "func", "identity", is_scan(call) ? "reverse" : "keepdims"};
}

// An identity the tile's dtype cannot hold would change the result silently (int32(2**40) is 0).
void check_identity_fits(Sema& s, const Expr& e, const ConstValue& v, DType d, const Expr& call) {
    if (dtype_is_float(d)) return;  // every number has a float nearest it (inf included)
    bool whole = v.is_int();
    const double x = v.as_double();
    if (!whole) whole = std::isfinite(x) && std::floor(x) == x;
    const int bits = dtype_bits(d);
    const double lo = d == DType::Bool ? 0 : dtype_is_signed(d) ? -std::ldexp(1.0, bits - 1) : 0;
    const double hi = d == DType::Bool ? 1 : dtype_is_signed(d) ? std::ldexp(1.0, bits - 1) - 1 : std::ldexp(1.0, bits) - 1;
    const bool fits = whole && x >= lo && x <= hi;
    if (!fits)
        s.fail(e.loc, display(call) + "() identity " + v.str() + " is not a value of the tile's dtype (" + dtype_name(d) + ")");
}

const Type* infer_custom(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, params(call), 4);
    if (a[0]->type->is_tuple())
        s.fail(a[0]->loc, display(call) + "() of a tuple of tiles is not supported yet: call it on each tile");
    const Type* t = need_tile(s, a[0], call, "x");
    if (t->dims.empty()) s.fail(a[0]->loc, display(call) + "() needs a tile of at least one dimension");
    const int64_t axis = axis_arg(s, a[1], call, int64_t(t->dims.size()));
    const bool flag = bool_arg(s, a[4], call, is_scan(call) ? "reverse" : "keepdims");
    const Type* id = a[3]->type;
    const ConstValue* idv = s.constant(*a[3]);
    if (!idv || !id->is_scalar() || id->is_complex())
        s.fail(a[3]->loc, display(call) + "() identity must be a number known when the kernel compiles (the value func "
                                          "combines with any x to give x), not " + id->str());
    check_identity_fits(s, *a[3], *idv, t->dtype, call);
    const Type* elem = scalar_type(t->dtype);
    const Type* r = s.type_function_argument_call(call, *a[2], {elem, elem});
    if (!r) return nullptr;
    // (integers of another width wrap into the tile's, as its own arithmetic would; a float
    // result for an integer tile would be cut at every step)
    if (!r->is_scalar() || r->is_complex() || (r->is_float() && !dtype_is_float(t->dtype)))
        s.fail(a[2]->loc, display(call) + "() func must return one number of the tile's kind (" + dtype_name(t->dtype) +
                              ") for two of them, not " + r->str() +
                              (r->is_float() ? " (it would be cut at every step; convert it in func if that is meant)" : ""));
    note_tile_scratch(s, call.loc, tile_bytes(t), display(call) + "()");
    s.unit().uses_tiles = true;
    if (is_scan(call)) return t;
    std::vector<int64_t> dims;
    for (size_t i = 0; i < t->dims.size(); ++i)
        if (int64_t(i) != axis) dims.push_back(t->dims[i]);
        else if (flag) dims.push_back(1);
    return tile_type(t->dtype, dims);
}

// func as a C++ lambda over two elements of the tile's type.
std::string combine(Emitter& em, const Expr& call, const Type* elem) {
    const Expr& f = *call.resolved->synthetic;
    std::vector<std::string> names = Sema::function_argument_names(call, 2);
    const std::string T = em.c_type(elem);
    return "[&](" + T + " " + c_identifier(names[0]) + ", " + T + " " + c_identifier(names[1]) + ") -> " + T + " { return " +
           em.cast(em.expr(f), f.type, elem) + "; }";
}

std::string emit_custom(Emitter& em, const Expr& call) {
    std::vector<const Expr*> a = emit_args(call, params(call));
    const Type* t = a[0]->type;
    const Type* elem = scalar_type(t->dtype);
    int64_t axis = a[1]->resolved->constant.as_int();
    if (axis < 0) axis += int64_t(t->dims.size());
    const bool flag = a[4] && a[4]->resolved->constant.as_int() != 0;
    const std::string x = em.expr(*a[0]), op = combine(em, call, elem);
    if (is_scan(call))
        return "simt_tile_scan<" + em.c_type(t) + ", " + std::to_string(axis) + ", " + (flag ? "true" : "false") + ">(" + x +
               ", " + op + ", " + scratch() + ")";
    std::vector<int64_t> kept = t->dims;
    kept[size_t(axis)] = 1;
    const Type* step = tile_type(t->dtype, kept);
    const std::string identity = em.c_type(elem) + "(" + em.cast(em.expr(*a[3]), a[3]->type, elem) + ")";
    std::string r = "simt_tile_reduce_axis<" + em.c_type(step) + ", " + std::to_string(axis) + ">(" + x + ", " + op + ", " +
                    identity + ", " + scratch() + ")";
    if (call.type->dims == kept) return r;
    return "simt_tile_reshape<" + em.c_type(call.type) + ">(" + r + ")";
}

}  // namespace

void register_tile_custom_builtins(BuiltinRegistry& r) {
    for (const char* name : {"reduce", "scan"}) {
        const std::string canonical = std::string("tile.") + name;
        r.add_function({canonical, infer_custom, emit_custom, /*takes_functions=*/true});
        r.add_member("tile", name, member_function(canonical));
    }
}

}  // namespace simt
