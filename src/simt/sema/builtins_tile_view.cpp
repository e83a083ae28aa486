// cuda.tile's tiled views: array.tiled_view(tile_shape, padding_mode=) names an array cut into
// tiles of one shape; tv.load(index) and tv.store(index, tile) read and write those tiles (stores
// broadcast and convert the tile to the view's shape and dtype), tv.num_tiles(axis) counts them,
// tv.tile_shape and tv.dtype describe them. A view costs nothing: in the generated code it is the
// array, and its tile shape and padding live in its type.
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"
#include "sema/tile.h"
#include "sema/tile_args.h"
#include "sema/tile_hints.h"

namespace simt {

namespace {

using namespace tile_builtin;


// x.tiled_view(tile_shape, padding_mode=PaddingMode.UNDETERMINED)
const std::vector<const char*> kViewParams = {"array", "tile_shape", "padding_mode", "traversal_steps"};
const Type* infer_tiled_view(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, kViewParams, 2);
    const Type* arr = a[0]->type;
    if (dtype_is_complex(arr->dtype)) s.fail(a[0]->loc, "tiles cannot hold complex numbers");
    std::vector<int64_t> dims = shape_arg(s, a[1], call, "tile_shape");
    if (int(dims.size()) != arr->ndim)
        s.fail(a[1]->loc, display(call) + "() tile_shape has " + std::to_string(dims.size()) + " dimension(s) for an array of " +
                          std::to_string(arr->ndim));
    if (a[3] && a[3]->type->kind != TypeKind::NoneType)
        s.unsupported(a[3]->loc, display(call) + "() traversal_steps is not supported (views step one tile at a time)");
    s.unit().uses_tiles = true;
    return tiled_view_type(arr, dims, padding_mode_arg(&s, a[2], call, arr->dtype, "undetermined"));
}
std::string emit_tiled_view(Emitter& em, const Expr& call) {
    return em.expr(*emit_args(call, kViewParams)[0]);
}

const Type* view_tile(const Type* view) { return tile_type(view->dtype, view->dims); }

// tv.load(index, *, latency=, allow_tma=) (check_bounds= and the memory keywords are load's hints)
const std::vector<const char*> kLoadParams = {"view", "index", "latency", "allow_tma"};
const Type* infer_view_load(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, kLoadParams, 2);
    check_index(s, a[1], call, a[0]->type->ndim);
    check_performance_hints(s, a[2], a[3], "load", display(call));
    return view_tile(a[0]->type);
}
std::string emit_view_load(Emitter& em, const Expr& call) {
    std::vector<const Expr*> a = emit_args(call, kLoadParams);
    const Type* v = a[0]->type;
    return "simt_tile_load<" + em.c_type(call.type) + ">(" + em.expr(*a[0]) + ", " + padding_code(v->name, v->dtype) +
           index_codes(em, *a[1]) + ")";
}

// tv.store(index, tile, *, latency=, allow_tma=): tile broadcast to the view's tile shape and
// converted to its dtype (a number fills the whole tile).
const std::vector<const char*> kStoreParams = {"view", "index", "tile", "latency", "allow_tma"};
const Type* infer_view_store(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, kStoreParams, 3);
    const Type* v = a[0]->type;
    if (v->elems[0]->readonly) s.fail(a[0]->loc, display(call) + "() cannot write a read-only array");
    check_index(s, a[1], call, v->ndim);
    const Type* t = a[2]->type;
    if (!(t->is_tile() || t->is_scalar()) || t->is_complex())
        s.fail(a[2]->loc, display(call) + "() stores a tile or a number, not " + t->str());
    if (t->is_tile() && t->dims != v->dims) {
        std::vector<int64_t> both = broadcast_tile_dims(s, call.loc, {t, view_tile(v)}, display(call) + "()");
        if (both != v->dims) s.fail(a[2]->loc, display(call) + "() cannot broadcast " + t->str() + " to the view's tiles, " + view_tile(v)->str());
        note_tile_scratch(s, call.loc, tile_bytes(tile_type(v->dtype, t->dims)), display(call) + "() broadcasting");
    }
    check_performance_hints(s, a[3], a[4], "store", display(call));
    return void_type();
}
std::string emit_view_store(Emitter& em, const Expr& call) {
    std::vector<const Expr*> a = emit_args(call, kStoreParams);
    const Type* v = a[0]->type;
    const Type* out = view_tile(v);
    const Type* t = a[2]->type;
    std::string tile;
    if (!t->is_tile()) {
        tile = "simt_tile_full<" + em.c_type(out) + ">(" + em.expr_as(*a[2], scalar_type(v->dtype)) + ")";
    } else {
        const Type* same_dtype = tile_type(v->dtype, t->dims);
        tile = emit_tile_cast(em, em.expr(*a[2]), t, same_dtype);
        if (t->dims != v->dims) tile = "simt_tile_broadcast<" + em.c_type(out) + ">(" + tile + ", " + scratch() + ")";
    }
    return "simt_tile_store(" + em.expr(*a[0]) + ", " + tile + index_codes(em, *a[1]) + ")";
}

// tv.num_tiles(axis): the tiles along axis (the last one may be partial).
const Type* infer_view_num_tiles(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"view", "axis"}, 2);
    axis_arg(s, a[1], call, a[0]->type->ndim);
    return scalar_type(DType::Int32);
}
std::string emit_view_num_tiles(Emitter& em, const Expr& call) {
    std::vector<const Expr*> a = emit_args(call, {"view", "axis"});
    int64_t axis = a[1]->resolved->constant.as_int();
    if (axis < 0) axis += a[0]->type->ndim;
    std::string n = std::to_string(a[0]->type->dims[size_t(axis)]);
    return "(int32_t)((" + em.expr(*a[0]) + ".shape[" + std::to_string(axis) + "] + " + n + " - 1) / " + n + ")";
}

}  // namespace

const Type* infer_tiled_view_attribute(Sema& s, Expr& e) {
    const Type* v = e.children[0]->type;
    const std::string& attr = e.text;
    if (attr == "dtype") return dtype_obj_type(v->dtype);
    if (attr == "tile_shape") {
        std::vector<ConstValue> dims;
        for (int64_t d : v->dims) dims.push_back(ConstValue::integer(d));
        s.set_constant(e, ConstValue::tuple(dims));
        return tuple_type(std::vector<const Type*>(v->dims.size(), int64_type()));
    }
    s.fail(e.loc, "TiledView has no attribute '" + attr + "' (it has load, store, num_tiles, tile_shape and dtype)");
}

void register_tile_view_builtins(BuiltinRegistry& r) {
    r.add_function({"arraymethod.tiled_view", infer_tiled_view, emit_tiled_view});
    r.add_function({"tiledview.load", infer_view_load, emit_view_load});
    r.add_function({"tiledview.store", infer_view_store, emit_view_store});
    r.add_function({"tiledview.num_tiles", infer_view_num_tiles, emit_view_num_tiles});
}

}  // namespace simt
