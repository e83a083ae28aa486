// cuda.tile's extract(x, index, shape) and insert(x, index, value) (a piece of a tile cut into
// pieces of one shape: read, or replaced) and bitcast(x, dtype) (the same bits read as another
// type of the same width).
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"
#include "sema/tile.h"
#include "sema/tile_args.h"

namespace simt {

namespace {

using namespace tile_builtin;

const Type* infer_extract(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"x", "index", "shape"}, 3);
    const Type* t = need_tile(s, a[0], call, "x");
    std::vector<int64_t> dims = shape_arg(s, a[2], call, "shape");
    if (dims.size() != t->dims.size())
        s.fail(a[2]->loc, display(call) + "() shape has " + std::to_string(dims.size()) + " dimension(s) for a tile of " +
                          std::to_string(t->dims.size()));
    for (size_t i = 0; i < dims.size(); ++i)
        if (t->dims[i] % dims[i] != 0)
            s.fail(a[2]->loc, display(call) + "() shape " + tile_type(t->dtype, dims)->str() + " does not divide " + t->str());
    check_index(s, a[1], call, int(dims.size()));
    note_tile_scratch(s, call.loc, tile_bytes(t), display(call) + "()");
    return tile_type(t->dtype, dims);
}
std::string emit_extract(Emitter& em, const Expr& call) {
    std::vector<const Expr*> a = emit_args(call, {"x", "index", "shape"});
    if (a[0]->type == call.type) return em.expr(*a[0]);  // one piece: the tile itself
    return "simt_tile_extract<" + em.c_type(call.type) + ">(" + em.expr(*a[0]) + ", " + scratch() + index_codes(em, *a[1]) + ")";
}

// insert(x, index, value): x with piece `index` (of value's shape; a number is a piece of one
// element) replaced by value, converted to x's dtype.
const Type* piece_of(const Type* x, const Type* value) {
    return value->is_tile() ? tile_type(x->dtype, value->dims) : tile_type(x->dtype, std::vector<int64_t>(x->dims.size(), 1));
}
const Type* infer_insert(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"x", "index", "value"}, 3);
    const Type* t = need_tile(s, a[0], call, "x");
    const Type* v = a[2]->type;
    if (!(v->is_tile() || v->is_scalar()) || v->is_complex()) s.fail(a[2]->loc, display(call) + "() value must be a tile or a number");
    const Type* piece = piece_of(t, v);
    if (piece->dims.size() != t->dims.size())
        s.fail(a[2]->loc, display(call) + "() value " + v->str() + " has another number of dimensions than " + t->str());
    for (size_t i = 0; i < piece->dims.size(); ++i)
        if (t->dims[i] % piece->dims[i] != 0) s.fail(a[2]->loc, display(call) + "() value " + v->str() + " does not divide " + t->str());
    check_index(s, a[1], call, int(t->dims.size()));
    note_tile_scratch(s, call.loc, tile_bytes(piece), display(call) + "()");
    return t;
}
std::string emit_insert(Emitter& em, const Expr& call) {
    std::vector<const Expr*> a = emit_args(call, {"x", "index", "value"});
    const Type* v = a[2]->type;
    const Type* piece = piece_of(call.type, v);
    std::string value = v->is_tile() ? emit_tile_cast(em, em.expr(*a[2]), v, piece)
                                     : "simt_tile_full<" + em.c_type(piece) + ">(" + em.expr_as(*a[2], scalar_type(call.type->dtype)) + ")";
    return "simt_tile_insert(" + em.expr(*a[0]) + ", " + value + ", " + scratch() + index_codes(em, *a[1]) + ")";
}

const Type* infer_bitcast(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"x", "dtype"}, 2);
    const Type* t = a[0]->type;
    if (!(t->is_tile() || t->is_scalar()) || t->is_complex())
        s.fail(a[0]->loc, display(call) + "() takes a tile or a number, not " + t->str());
    DType to = dtype_arg(s, a[1], call, t->dtype);
    if (t->dtype == DType::Bool || to == DType::Bool || dtype_size(to) != dtype_size(t->dtype))
        s.fail(call.loc, display(call) + "() from " + dtype_name(t->dtype) + " to " + dtype_name(to) +
                         ": it reads the bits as a type of the same width (not bool)");
    s.unit().uses_tiles = true;
    return t->is_tile() ? tile_type(to, t->dims) : scalar_type(to);
}
std::string emit_bitcast(Emitter& em, const Expr& call) {
    const Expr* x = emit_args(call, {"x", "dtype"})[0];
    const std::string to = em.c_type(scalar_type(call.type->dtype));
    return emit_tile_elementwise(em, call.type, {em.expr(*x)}, {x->type}, [&](const std::vector<std::string>& v) {
        return "simt_bit_cast<" + to + ">(" + v[0] + ")";
    });
}

}  // namespace

void register_tile_select_builtins(BuiltinRegistry& r) {
    add_tile_function(r, "extract", infer_extract, emit_extract, true);
    add_tile_function(r, "insert", infer_insert, emit_insert, true);
    add_tile_function(r, "bitcast", infer_bitcast, emit_bitcast);
}

}  // namespace simt
