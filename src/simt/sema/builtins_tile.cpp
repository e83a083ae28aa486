// The simt.cuda.tile module in kernels (cuda.tile's names): block ids, loads and stores of tiles,
// factories, shape changes, elementwise math, reductions and matrix multiply-accumulate. Tile
// shapes are compile-time tuples of powers of two; the code is the prelude's tile.h.
#include <algorithm>
#include <cmath>
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"
#include "sema/tile.h"
#include "sema/tile_args.h"
#include "sema/tile_hints.h"
#include "types/promote.h"

namespace simt {

namespace {

using namespace tile_builtin;

// --- block ids and counts ------------------------------------------------------------------
const char* axis_letter(int64_t a) { return a == 0 ? "x" : a == 1 ? "y" : "z"; }

const Type* infer_block_axis(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"axis"}, 1);
    int64_t axis = axis_arg(s, a[0], call, 3);
    (void)axis;
    return scalar_type(DType::Int32);
}
std::string emit_block_axis(Emitter& em, const Expr& call) {
    (void)em;
    const ConstValue& c = emit_args(call, {"axis"})[0]->resolved->constant;
    int64_t axis = c.as_int() < 0 ? c.as_int() + 3 : c.as_int();
    return std::string(short_name(call) == "bid" ? "simt_blockIdx(ctx)." : "simt_gridDim(ctx).") + axis_letter(axis);
}

const Type* infer_cdiv(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"x", "y"}, 2);
    for (Expr* e : a) if (!e->type->is_integer()) s.fail(e->loc, "tile.cdiv() takes integers, not " + e->type->str());
    DType out;
    binop_result(BinOpKind::FloorDiv, a[0]->type->dtype, a[1]->type->dtype, out);
    const ConstValue* x = s.constant(*a[0]);
    const ConstValue* y = s.constant(*a[1]);
    if (x && y && y->as_int() > 0) {  // floor((x + y - 1) / y), as the code computes it
        int64_t n = x->as_int() + y->as_int() - 1, d = y->as_int();
        s.set_constant(call, ConstValue::integer(n / d - (n % d != 0 && n < 0), out));
    }
    return scalar_type(out);
}
std::string emit_cdiv(Emitter& em, const Expr& call) {
    const Type* t = call.type;
    std::string x = em.expr_as(*call.children[1], t), y = em.expr_as(*call.children[2], t);
    return "simt_floordiv(" + x + " + " + y + " - 1, " + y + ")";
}

// order= of load/store: the permutation applied to the array's axes before it is cut into tiles
// ('C' keeps them, 'F' reverses them, a tuple names them: axis k of the view is axis order[k]).
std::vector<int> axis_order(Sema* s, const Expr* e, const Expr& call, int ndim) {
    std::vector<int> perm(static_cast<size_t>(ndim));
    for (int k = 0; k < ndim; ++k) perm[size_t(k)] = k;
    if (!e) return perm;
    const ConstValue* c = s ? s->constant(*e) : &e->resolved->constant;
    const std::string what = display(call) + "() order";
    if (c && c->kind == ConstValue::Kind::String && (c->s == "C" || c->s == "F")) {
        if (c->s == "F") std::reverse(perm.begin(), perm.end());
        return perm;
    }
    if (!c || c->kind != ConstValue::Kind::Tuple) {
        if (s) s->fail(e->loc, what + " must be 'C', 'F' or a constant tuple of axes");
        return perm;
    }
    std::vector<bool> seen(size_t(ndim), false);
    if (int(c->elems.size()) != ndim && s)
        s->fail(e->loc, what + " names " + std::to_string(c->elems.size()) + " axes for an array of " + std::to_string(ndim));
    for (size_t k = 0; k < c->elems.size() && k < perm.size(); ++k) {
        int64_t axis = c->elems[k].is_int() ? c->elems[k].as_int() : -1;
        if (axis < 0 || axis >= ndim || seen[size_t(axis)]) {
            if (s) s->fail(e->loc, what + " must be a permutation of the array's axes 0.." + std::to_string(ndim - 1));
            return perm;
        }
        seen[size_t(axis)] = true;
        perm[k] = int(axis);
    }
    return perm;
}
// num_tiles(array, axis, shape, order='C'): tiles along axis of the array's view in `order`.
const Type* infer_num_tiles(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"array", "axis", "shape", "order"}, 3);
    if (!a[0]->type->is_array()) s.fail(a[0]->loc, "tile.num_tiles() needs an array, not " + a[0]->type->str());
    axis_arg(s, a[1], call, a[0]->type->ndim);
    std::vector<int64_t> dims = shape_arg(s, a[2], call, "shape");
    if (int(dims.size()) != a[0]->type->ndim) s.fail(a[2]->loc, "tile.num_tiles() shape needs one size per array axis");
    axis_order(&s, a[3], call, a[0]->type->ndim);
    return scalar_type(DType::Int32);
}
std::string emit_num_tiles(Emitter& em, const Expr& call) {
    std::vector<const Expr*> a = emit_args(call, {"array", "axis", "shape", "order"});
    int64_t ndim = a[0]->type->ndim;
    int64_t axis = a[1]->resolved->constant.as_int();
    if (axis < 0) axis += ndim;
    int64_t d = a[2]->resolved->constant.kind == ConstValue::Kind::Tuple ? a[2]->resolved->constant.elems[axis].as_int()
                                                                         : a[2]->resolved->constant.as_int();
    const int array_axis = axis_order(nullptr, a[3], call, int(ndim))[size_t(axis)];
    std::string n = std::to_string(d);
    return "(int32_t)((" + em.expr(*a[0]) + ".shape[" + std::to_string(array_axis) + "] + " + n + " - 1) / " + n + ")";
}

// --- loads and stores ----------------------------------------------------------------------
// tile.PaddingMode members are string constants; the padding value for each.
std::string pad_code(Sema* s, const Expr* e, const Expr& call, DType d) {
    return padding_code(padding_mode_arg(s, e, call, d, "zero"), d);
}

// The array as load/store see it: itself, or a strided view with its axes in `order`.
std::string ordered_array(Emitter& em, const Expr* array, const Expr* order, const Expr& call) {
    std::vector<int> perm = axis_order(nullptr, order, call, array->type->ndim);
    bool identity = true;
    for (size_t k = 0; k < perm.size(); ++k) identity = identity && perm[k] == int(k);
    if (identity) return em.expr(*array);
    std::string axes;
    for (size_t k = 0; k < perm.size(); ++k) axes += (k ? ", " : "") + std::to_string(perm[k]);
    return "simt_permute_axes<" + axes + ">(" + em.expr(*array) + ")";
}

// Array.slice(axis, start, stop): a view of the array over [start, stop) along axis.
const Type* infer_array_slice(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"array", "axis", "start", "stop"}, 4);
    const Type* arr = a[0]->type;
    int64_t axis = axis_arg(s, a[1], call, arr->ndim);
    for (const Expr* e : {a[2], a[3]})
        if (!e->type->is_integer()) s.fail(e->loc, display(call) + "() start and stop must be integers, not " + e->type->str());
    // Rows of a C-ordered array (columns of an F-ordered one) stay contiguous.
    Layout l = (arr->layout == Layout::C && axis == 0) || (arr->layout == Layout::F && axis == arr->ndim - 1) ? arr->layout
                                                                                                               : Layout::A;
    return array_type(arr->dtype, arr->ndim, l, arr->readonly);
}
std::string emit_array_slice(Emitter& em, const Expr& call) {
    std::vector<const Expr*> a = emit_args(call, {"array", "axis", "start", "stop"});
    int64_t axis = a[1]->resolved->constant.as_int();
    if (axis < 0) axis += a[0]->type->ndim;
    return "simt_array_slice<" + em.c_type(call.type) + ", " + std::to_string(axis) + ">(" + em.expr(*a[0]) +
           ", (int64_t)(" + em.expr(*a[2]) + "), (int64_t)(" + em.expr(*a[3]) + "))";
}

const Type* infer_load(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"array", "index", "shape", "order", "padding_mode", "latency", "allow_tma"}, 3);
    const Type* arr = a[0]->type;
    if (!arr->is_array()) s.fail(a[0]->loc, "tile.load() reads an array, not " + arr->str());
    if (dtype_is_complex(arr->dtype)) s.fail(a[0]->loc, "tiles cannot hold complex numbers");
    check_index(s, a[1], call, arr->ndim);
    std::vector<int64_t> dims = shape_arg(s, a[2], call, "shape");
    if (int(dims.size()) != arr->ndim)
        s.fail(a[2]->loc, "tile.load() shape has " + std::to_string(dims.size()) + " dimension(s) for an array of " + std::to_string(arr->ndim));
    axis_order(&s, a[3], call, arr->ndim);
    pad_code(&s, a[4], call, arr->dtype);
    check_performance_hints(s, a[5], a[6], short_name(call), display(call));
    s.unit().uses_tiles = true;
    return tile_type(arr->dtype, dims);
}
std::string emit_load(Emitter& em, const Expr& call) {
    std::vector<const Expr*> a = emit_args(call, {"array", "index", "shape", "order", "padding_mode", "latency", "allow_tma"});
    return "simt_tile_load<" + em.c_type(call.type) + ">(" + ordered_array(em, a[0], a[3], call) + ", " +
           pad_code(nullptr, a[4], call, call.type->dtype) + index_codes(em, *a[1]) + ")";
}

const Type* infer_store(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"array", "index", "tile", "order", "latency", "allow_tma"}, 3);
    const Type* arr = a[0]->type;
    if (!arr->is_array()) s.fail(a[0]->loc, "tile.store() writes an array, not " + arr->str());
    if (arr->readonly) s.fail(a[0]->loc, "tile.store() cannot write a read-only array");
    check_index(s, a[1], call, arr->ndim);
    const Type* t = a[2]->type;
    if (t->is_tile()) {
        if (int(t->dims.size()) != arr->ndim)
            s.fail(a[2]->loc, "tile.store() of a " + t->str() + " into an array of " + std::to_string(arr->ndim) + " dimension(s)");
        if (t->dtype != arr->dtype)
            s.fail(a[2]->loc, "tile.store() of a " + t->str() + " into an array of " + dtype_name(arr->dtype) +
                              " (convert it first: tile.astype(t, array.dtype))");
    } else if (!t->is_scalar() || t->is_complex()) {
        s.fail(a[2]->loc, "tile.store() stores a tile or a number, not " + t->str());
    }
    axis_order(&s, a[3], call, arr->ndim);
    check_performance_hints(s, a[4], a[5], short_name(call), display(call));
    s.unit().uses_tiles = true;
    return void_type();
}
std::string emit_store(Emitter& em, const Expr& call) {
    std::vector<const Expr*> a = emit_args(call, {"array", "index", "tile", "order", "latency", "allow_tma"});
    const Type* t = a[2]->type;
    std::string array = ordered_array(em, a[0], a[3], call);
    if (t->is_tile()) return "simt_tile_store(" + array + ", " + em.expr(*a[2]) + index_codes(em, *a[1]) + ")";
    return "simt_tile_store_scalar(" + array + ", " + em.expr_as(*a[2], scalar_type(a[0]->type->dtype)) +
           index_codes(em, *a[1]) + ")";
}

// gather(array, indices, padding_value=0) / scatter(array, indices, value): indices is a tile of
// integers (1-D arrays) or a tuple with one integer tile or number per axis, broadcast together.
std::vector<const Expr*> index_parts(const Expr* e) {
    std::vector<const Expr*> out;
    if (e->kind == ExprKind::Tuple) for (const ExprPtr& c : e->children) out.push_back(c.get());
    else out.push_back(e);
    return out;
}
std::vector<int64_t> gather_dims(Sema& s, const Expr* idx, const Expr& call, const Type* arr) {
    std::vector<const Expr*> parts = index_parts(idx);
    if (idx->kind != ExprKind::Tuple && idx->type->is_tuple())
        s.fail(idx->loc, display(call) + "() indices: write the tuple out, (i, j)");
    if (int(parts.size()) != arr->ndim)
        s.fail(idx->loc, display(call) + "() needs one index per array axis (" + std::to_string(arr->ndim) + ")");
    std::vector<const Type*> types;
    bool tile = false;
    for (const Expr* p : parts) {
        if (!(p->type->is_tile() || p->type->is_scalar()) || dtype_is_float(p->type->dtype) || p->type->is_complex() || p->type->is_bool())
            s.fail(p->loc, display(call) + "() indices must be integer tiles or integers, not " + p->type->str());
        tile = tile || p->type->is_tile();
        types.push_back(p->type);
    }
    if (!tile) s.fail(idx->loc, display(call) + "() needs at least one tile of indices");
    std::vector<int64_t> dims = broadcast_tile_dims(s, idx->loc, types, display(call) + "()");
    for (const Type* t : types)
        if (t->is_tile() && t->dims != dims) note_tile_scratch(s, idx->loc, tile_bytes(t), display(call) + "() broadcasting its indices");
    return dims;
}
std::string index_tile_codes(Emitter& em, const Expr* idx, const std::vector<int64_t>& dims) {
    std::string s;
    for (const Expr* p : index_parts(idx)) {
        std::string code = em.expr(*p);
        if (p->type->is_tile() && p->type->dims != dims)
            code = "simt_tile_broadcast<" + em.c_type(tile_type(p->type->dtype, dims)) + ">(" + code + ", " + scratch() + ")";
        else if (!p->type->is_tile())
            code = "(int64_t)(" + code + ")";
        s += ", " + code;
    }
    return s;
}

// The values scatter and the atomics write at the indices: a tile of the array's dtype that
// broadcasts to the indices' shape, or a number.
void check_values(Sema& s, const Expr* value, const Expr& call, DType d, const std::vector<int64_t>& dims) {
    const Type* v = value->type;
    if (v->is_tile()) {
        if (v->dtype != d) s.fail(value->loc, display(call) + "() values of " + v->str() + " for an array of " + dtype_name(d));
        std::vector<int64_t> both = broadcast_tile_dims(s, value->loc, {v, tile_type(d, dims)}, display(call) + "()");
        if (both != dims) s.fail(value->loc, display(call) + "() values of shape " + v->str() + " do not fit the indices' shape");
        if (v->dims != dims) note_tile_scratch(s, value->loc, tile_bytes(v), display(call) + "() broadcasting its values");
    } else if (!v->is_scalar() || v->is_complex()) {
        s.fail(value->loc, display(call) + "() writes a tile or a number, not " + v->str());
    }
}
// Their code: a tile of `shaped`'s shape, or the number in the array's dtype.
std::string values_code(Emitter& em, const Expr* value, const Type* shaped) {
    if (!value->type->is_tile()) return em.expr_as(*value, scalar_type(shaped->dtype));
    if (value->type->dims != shaped->dims)
        return "simt_tile_broadcast<" + em.c_type(shaped) + ">(" + em.expr(*value) + ", " + scratch() + ")";
    return em.expr(*value);
}

const Type* infer_gather(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"array", "indices", "padding_value"}, 2);
    const Type* arr = a[0]->type;
    if (!arr->is_array() || dtype_is_complex(arr->dtype)) s.fail(a[0]->loc, "tile.gather() reads an array of numbers, not " + arr->str());
    std::vector<int64_t> dims = gather_dims(s, a[1], call, arr);
    if (a[2] && (!a[2]->type->is_scalar() || !s.constant(*a[2])))
        s.fail(a[2]->loc, "tile.gather() padding_value must be a constant number");
    s.unit().uses_tiles = true;
    return tile_type(arr->dtype, dims);
}
std::string emit_gather(Emitter& em, const Expr& call) {
    std::vector<const Expr*> a = emit_args(call, {"array", "indices", "padding_value"});
    const Type* elem = scalar_type(call.type->dtype);
    std::string pad = a[2] ? em.expr_as(*a[2], elem) : em.cast("0", int64_type(), elem);
    return "simt_tile_gather<" + em.c_type(call.type) + ">(" + em.expr(*a[0]) + ", " + pad + index_tile_codes(em, a[1], call.type->dims) + ")";
}

const Type* infer_scatter(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"array", "indices", "value"}, 3);
    const Type* arr = a[0]->type;
    if (!arr->is_array() || dtype_is_complex(arr->dtype)) s.fail(a[0]->loc, "tile.scatter() writes an array of numbers, not " + arr->str());
    if (arr->readonly) s.fail(a[0]->loc, "tile.scatter() cannot write a read-only array");
    std::vector<int64_t> dims = gather_dims(s, a[1], call, arr);
    check_values(s, a[2], call, arr->dtype, dims);
    s.unit().uses_tiles = true;
    return void_type();
}
std::string emit_scatter(Emitter& em, const Expr& call) {
    std::vector<const Expr*> a = emit_args(call, {"array", "indices", "value"});
    const Type* arr = a[0]->type;
    std::vector<const Type*> types;
    for (const Expr* p : index_parts(a[1])) types.push_back(p->type);
    std::vector<int64_t> dims = tile_broadcast_shape(types);
    const Type* vt = tile_type(arr->dtype, dims);
    std::string value = values_code(em, a[2], vt);
    if (!a[2]->type->is_tile()) value = "simt_tile_full<" + em.c_type(vt) + ">(" + value + ")";
    return "simt_tile_scatter(" + em.expr(*a[0]) + ", " + value + index_tile_codes(em, a[1], dims) + ")";
}

// --- factories -----------------------------------------------------------------------------
const Type* infer_full(Sema& s, Expr& call) {
    const std::string n = short_name(call);
    if (n == "full") {
        std::vector<Expr*> a = args(s, call, {"shape", "fill_value", "dtype"}, 2);
        std::vector<int64_t> dims = shape_arg(s, a[0], call, "shape");
        if (!a[1]->type->is_scalar() || a[1]->type->is_complex()) s.fail(a[1]->loc, "tile.full() fill_value must be a number");
        DType d = a[2] ? dtype_arg(s, a[2], call, DType::Float32)
                       : (a[1]->type->is_float() ? DType::Float32 : a[1]->type->is_bool() ? DType::Bool : DType::Int32);
        s.unit().uses_tiles = true;
        return tile_type(d, dims);
    }
    std::vector<Expr*> a = args(s, call, {"shape", "dtype"}, 1);
    std::vector<int64_t> dims = shape_arg(s, a[0], call, "shape");
    s.unit().uses_tiles = true;
    return tile_type(dtype_arg(s, a[1], call, DType::Float32), dims);
}
std::string emit_full(Emitter& em, const Expr& call) {
    const std::string n = short_name(call);
    const Type* elem = scalar_type(call.type->dtype);
    std::string value = n == "full" ? em.expr_as(*emit_args(call, {"shape", "fill_value", "dtype"})[1], elem)
                                    : em.cast(n == "ones" ? "1" : "0", int64_type(), elem);
    return "simt_tile_full<" + em.c_type(call.type) + ">(" + value + ")";
}

const Type* infer_arange(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"size", "dtype"}, 1);
    std::vector<int64_t> dims = shape_arg(s, a[0], call, "size");
    if (dims.size() != 1) s.fail(a[0]->loc, "tile.arange() size is one integer");
    DType d = dtype_arg(s, a[1], call, DType::Int32);
    s.unit().uses_tiles = true;
    return tile_type(d, dims);
}
std::string emit_arange(Emitter& em, const Expr& call) { return "simt_tile_arange<" + em.c_type(call.type) + ">()"; }

// --- shapes and dtypes ---------------------------------------------------------------------
const Type* infer_astype(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"x", "dtype"}, 2);
    DType d = dtype_arg(s, a[1], call, DType::Float32);
    if (a[0]->type->is_scalar()) {
        if (a[0]->type->is_complex()) s.fail(a[0]->loc, "tiles cannot hold complex numbers");
        return scalar_type(d);
    }
    return tile_type(d, need_tile(s, a[0], call, "x")->dims);
}
std::string emit_astype(Emitter& em, const Expr& call) {
    const Expr* x = emit_args(call, {"x", "dtype"})[0];
    if (!x->type->is_tile()) return em.expr_as(*x, call.type);
    return emit_tile_cast(em, em.expr(*x), x->type, call.type);
}

const Type* infer_reshape(Sema& s, Expr& call) {
    const std::string n = short_name(call);
    if (n == "expand_dims") {
        std::vector<Expr*> a = args(s, call, {"x", "axis"}, 2);
        const Type* t = need_tile(s, a[0], call, "x");
        int64_t axis = axis_arg(s, a[1], call, int64_t(t->dims.size()) + 1);
        std::vector<int64_t> dims = t->dims;
        dims.insert(dims.begin() + axis, 1);
        return tile_type(t->dtype, dims);
    }
    std::vector<Expr*> a = args(s, call, {"x", "shape"}, 2);
    const Type* t = need_tile(s, a[0], call, "x");
    std::vector<int64_t> dims = shape_arg(s, a[1], call, "shape", n == "reshape" ? t->tile_size() : 0);
    if (n == "reshape") {
        const Type* out = tile_type(t->dtype, dims);
        if (out->tile_size() != t->tile_size())
            s.fail(a[1]->loc, "tile.reshape() cannot reshape " + t->str() + " to " + out->str() + " (the sizes differ)");
        return out;
    }
    // broadcast_to
    const Type* out = tile_type(t->dtype, dims);
    std::vector<int64_t> both = broadcast_tile_dims(s, call.loc, {t, out}, "tile.broadcast_to()");
    if (both != dims) s.fail(call.loc, "tile.broadcast_to() cannot broadcast " + t->str() + " to shape of " + out->str());
    if (t->dims != dims) note_tile_scratch(s, call.loc, tile_bytes(t), "tile.broadcast_to()");
    return out;
}
std::string emit_reshape(Emitter& em, const Expr& call) {
    const Expr* x = emit_args(call, {"x", "shape"})[0];
    if (x->type == call.type) return em.expr(*x);
    if (short_name(call) == "broadcast_to")
        return "simt_tile_broadcast<" + em.c_type(call.type) + ">(" + em.expr(*x) + ", " + scratch() + ")";
    return "simt_tile_reshape<" + em.c_type(call.type) + ">(" + em.expr(*x) + ")";
}

// permute(x, axes) and transpose(x, axis0=-2, axis1=-1): the permutation is stored on the call.
std::vector<int64_t> permutation(const Expr& call, const std::vector<const Expr*>& a, const Type* t) {
    int64_t rank = int64_t(t->dims.size());
    std::vector<int64_t> perm;
    if (short_name(call) == "permute") {
        const ConstValue& c = a[1]->resolved->constant;
        for (const ConstValue& v : c.elems) perm.push_back(v.as_int() < 0 ? v.as_int() + rank : v.as_int());
        return perm;
    }
    for (int64_t i = 0; i < rank; ++i) perm.push_back(i);
    auto axis = [&](const Expr* e, int64_t fallback) {
        if (!e) return fallback;
        int64_t v = e->resolved->constant.as_int();
        return v < 0 ? v + rank : v;
    };
    int64_t x = axis(a[1], rank - 2), y = axis(a[2], rank - 1);
    std::swap(perm[x], perm[y]);
    return perm;
}
const Type* infer_permute(Sema& s, Expr& call) {
    const bool permute = short_name(call) == "permute";
    std::vector<Expr*> a = permute ? args(s, call, {"x", "axes"}, 2) : args(s, call, {"x", "axis0", "axis1"}, 1);
    const Type* t = need_tile(s, a[0], call, "x");
    int64_t rank = int64_t(t->dims.size());
    if (permute) {
        const ConstValue* c = s.constant(*a[1]);
        if (!c || c->kind != ConstValue::Kind::Tuple || int64_t(c->elems.size()) != rank)
            s.fail(a[1]->loc, "tile.permute() axes must be a constant tuple naming each of the tile's " + std::to_string(rank) + " axes once");
        std::vector<bool> seen(size_t(rank), false);
        for (const ConstValue& v : c->elems) {
            int64_t ax = v.is_int() ? (v.as_int() < 0 ? v.as_int() + rank : v.as_int()) : -1;
            if (ax < 0 || ax >= rank || seen[size_t(ax)]) s.fail(a[1]->loc, "tile.permute() axes must name each axis once");
            seen[size_t(ax)] = true;
        }
    } else {
        if (rank < 2) s.fail(call.loc, "tile.transpose() needs a tile of at least 2 dimensions");
        if (a[1]) axis_arg(s, a[1], call, rank);
        if (a[2]) axis_arg(s, a[2], call, rank);
    }
    std::vector<const Expr*> ca(a.begin(), a.end());
    std::vector<int64_t> perm = permutation(call, ca, t);
    std::vector<int64_t> dims;
    for (int64_t p : perm) dims.push_back(t->dims[size_t(p)]);
    bool identity = true;
    for (size_t i = 0; i < perm.size(); ++i) identity = identity && perm[i] == int64_t(i);
    if (!identity) note_tile_scratch(s, call.loc, tile_bytes(t), display(call) + "()");
    return tile_type(t->dtype, dims);
}
std::string emit_permute(Emitter& em, const Expr& call) {
    const bool permute = short_name(call) == "permute";
    std::vector<const Expr*> a = permute ? emit_args(call, {"x", "axes"}) : emit_args(call, {"x", "axis0", "axis1"});
    std::vector<int64_t> perm = permutation(call, a, a[0]->type);
    bool identity = true;
    std::string p;
    for (size_t i = 0; i < perm.size(); ++i) { identity = identity && perm[i] == int64_t(i); p += ", " + std::to_string(perm[i]); }
    if (identity) return em.expr(*a[0]);
    return "simt_tile_permute<" + em.c_type(call.type) + p + ">(" + em.expr(*a[0]) + ", " + scratch() + ")";
}

// --- reductions ----------------------------------------------------------------------------
// The axes a reduction's axis argument names, sorted (empty: every axis).
std::vector<int64_t> reduce_axes(Sema* s, const Expr& call, const Expr* axis, int64_t rank) {
    std::vector<int64_t> axes;
    if (!axis || axis->type->kind == TypeKind::NoneType) return axes;
    const ConstValue* c = s ? s->constant(*axis) : &axis->resolved->constant;
    if (!c || !(c->is_int() || c->kind == ConstValue::Kind::Tuple)) {
        if (s) s->fail(axis->loc, display(call) + "() axis must be a constant integer, tuple of integers or None");
        return axes;
    }
    std::vector<ConstValue> items = c->kind == ConstValue::Kind::Tuple ? c->elems : std::vector<ConstValue>{*c};
    for (const ConstValue& v : items) {
        int64_t a = v.is_int() ? v.as_int() : rank;
        if (a < -rank || a >= rank) {
            if (s) s->fail(axis->loc, display(call) + "() axis " + std::to_string(a) + " is out of range for a tile of " +
                                          std::to_string(rank) + " dimensions");
            continue;
        }
        a = a < 0 ? a + rank : a;
        if (std::find(axes.begin(), axes.end(), a) != axes.end()) {
            if (s) s->fail(axis->loc, display(call) + "() names axis " + std::to_string(a) + " twice");
            continue;
        }
        axes.push_back(a);
    }
    std::sort(axes.begin(), axes.end());
    if (int64_t(axes.size()) == rank) axes.clear();  // every axis: a whole reduction
    return axes;
}

// max, min, argmax and argmin take propagate_nan (cuTile's default False: NaN gives way to numbers).
std::vector<const char*> reduce_params(const std::string& n) {
    if (n == "sum" || n == "prod") return {"x", "axis", "keepdims"};
    return {"x", "axis", "keepdims", "propagate_nan"};
}
bool propagates_nan(const Expr* e) { return e && e->resolved->constant.as_int() != 0; }

const Type* infer_reduce(Sema& s, Expr& call) {
    const std::string n = short_name(call);
    std::vector<Expr*> a = args(s, call, reduce_params(n), 1);
    const Type* t = need_tile(s, a[0], call, "x");
    bool keep = bool_arg(s, a[2], call, "keepdims");
    if (a.size() > 3) bool_arg(s, a[3], call, "propagate_nan");
    const bool arg = n == "argmax" || n == "argmin";
    DType d = arg ? DType::Int64 : reduce_dtype(n, t->dtype);
    int64_t rank = int64_t(t->dims.size());
    if (arg && a[1] && a[1]->type->is_tuple()) s.fail(a[1]->loc, display(call) + "() takes one axis or None, as NumPy's does");
    if (a[1] && a[1]->type->is_tuple() && a[1]->type->elems.empty()) return tile_type(d, t->dims);  // axis=(): none
    std::vector<int64_t> axes = reduce_axes(&s, call, a[1], rank);
    if (axes.empty()) {  // every axis: one number every thread holds
        note_tile_scratch(s, call.loc, 4 * 16 + 4 * 8, display(call) + "()");
        if (!keep) return scalar_type(d);
        return tile_type(d, std::vector<int64_t>(t->dims.size(), 1));
    }
    // One axis after another: the first publishes t, the later ones the partial results in the
    // accumulator's type (int64 for sums of int8, say), which may take more room.
    DType acc = reduce_acc_dtype(n, t->dtype, d);
    std::vector<int64_t> kept = t->dims;
    int64_t bytes = tile_bytes(t);
    for (size_t i = 0; i + 1 < axes.size(); ++i) {
        kept[size_t(axes[i])] = 1;
        bytes = std::max(bytes, tile_bytes(tile_type(acc, kept)));
    }
    note_tile_scratch(s, call.loc, bytes, display(call) + "()");
    std::vector<int64_t> dims;
    for (int64_t i = 0; i < rank; ++i) {
        bool reduced = std::find(axes.begin(), axes.end(), i) != axes.end();
        if (!reduced) dims.push_back(t->dims[size_t(i)]);
        else if (keep) dims.push_back(1);
    }
    return tile_type(d, dims);
}

std::string reduce_init(Emitter& em, const std::string& n, const Type* acc, bool nan) {
    std::string T = em.c_type(acc);
    // (spelled in the accumulator's type: the prelude deduces the accumulator from it)
    if (n == "sum") return T + "(" + em.cast("0", int64_type(), acc) + ")";
    if (n == "prod") return T + "(" + em.cast("1", int64_type(), acc) + ")";
    // Where NaN gives way, starting from NaN makes an all-NaN tile give NaN (from -inf it would give -inf).
    if (!nan && acc->is_float()) return T + "(simt_nan())";
    return std::string(n == "max" ? "simt_tile_lowest<" : "simt_tile_highest<") + T + ">()";
}

std::string emit_reduce(Emitter& em, const Expr& call) {
    const std::string n = short_name(call);
    std::vector<const Expr*> a = emit_args(call, reduce_params(n));
    const Type* t = a[0]->type;
    const bool arg = n == "argmax" || n == "argmin";
    const bool nan = a.size() > 3 && propagates_nan(a[3]);
    const std::string nan_arg = nan ? "true" : "false";
    const bool keep = a[2] && a[2]->resolved->constant.as_int() != 0;
    const Type* elem = scalar_type(call.type->dtype);
    const Type* acc = scalar_type(reduce_acc_dtype(n, t->dtype, elem->dtype));
    std::string x = em.expr(*a[0]);
    if (a[1] && a[1]->type->is_tuple() && a[1]->type->elems.empty()) return emit_tile_cast(em, x, t, call.type);
    std::vector<int64_t> axes = reduce_axes(nullptr, call, a[1], int64_t(t->dims.size()));
    if (axes.empty()) {
        std::string v = arg ? std::string("simt_tile_argbest<") + (n == "argmax" ? "true" : "false") + ", " + nan_arg + ">(" + x +
                                  ", " + scratch() + ")"
                            : "simt_tile_fold<" + em.c_type(acc) + ">(" + x + ", " + reduce_op(em, n, acc, nan) + ", " +
                                  reduce_init(em, n, acc, nan) + ", " + scratch() + ")";
        v = em.cast(v, arg ? int64_type() : acc, elem);
        if (!keep) return v;
        return "simt_tile_full<" + em.c_type(call.type) + ">(" + v + ")";
    }
    // One axis after another, each kept as length 1 (the others' positions do not move).
    std::vector<int64_t> kept = t->dims;
    std::string r = x;
    for (int64_t axis : axes) {
        kept[size_t(axis)] = 1;
        const Type* step = tile_type(arg ? DType::Int64 : acc->dtype, kept);
        r = arg ? "simt_tile_argbest_axis<" + em.c_type(step) + ", " + std::to_string(axis) + ", " +
                      (n == "argmax" ? "true" : "false") + ", " + nan_arg + ">(" + r + ", " + scratch() + ")"
                : "simt_tile_reduce_axis<" + em.c_type(step) + ", " + std::to_string(axis) + ">(" + r + ", " +
                      reduce_op(em, n, acc, nan) + ", " + reduce_init(em, n, acc, nan) + ", " + scratch() + ")";
    }
    const Type* kept_acc = tile_type(arg ? DType::Int64 : acc->dtype, kept);
    if (acc != elem) r = emit_tile_cast(em, r, kept_acc, tile_type(elem->dtype, kept));
    if (call.type->dims == kept) return r;
    return "simt_tile_reshape<" + em.c_type(call.type) + ">(" + r + ")";
}

// cat((a, b), axis): two tiles of one dtype side by side along axis (the result's length there
// must stay a power of two).
const Type* infer_cat(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"tiles", "axis"}, 2);
    if (a[0]->kind != ExprKind::Tuple || a[0]->children.size() != 2)
        s.fail(a[0]->loc, "tile.cat() takes a tuple of two tiles, written out: tile.cat((a, b), axis)");
    const Type* x = need_tile(s, a[0]->children[0].get(), call, "tiles[0]");
    const Type* y = need_tile(s, a[0]->children[1].get(), call, "tiles[1]");
    if (x->dtype != y->dtype) s.fail(a[0]->loc, "tile.cat() of tiles of " + std::string(dtype_name(x->dtype)) + " and " + dtype_name(y->dtype));
    int64_t rank = int64_t(x->dims.size());
    int64_t axis = axis_arg(s, a[1], call, rank);
    std::vector<int64_t> dims = x->dims;
    bool fits = y->dims.size() == x->dims.size();
    for (int64_t i = 0; fits && i < rank; ++i) fits = i == axis || x->dims[size_t(i)] == y->dims[size_t(i)];
    if (!fits) s.fail(call.loc, "tile.cat() of " + x->str() + " and " + y->str() + ": the shapes differ off axis " + std::to_string(axis));
    dims[size_t(axis)] += y->dims[size_t(axis)];
    if (!power_of_two(dims[size_t(axis)]))
        s.fail(call.loc, "tile.cat() would make a tile of length " + std::to_string(dims[size_t(axis)]) + " along axis " +
                         std::to_string(axis) + ": tile dimensions are powers of two");
    note_tile_scratch(s, call.loc, tile_pair_bytes(x, y), "tile.cat()");
    return tile_type(x->dtype, dims);
}
std::string emit_cat(Emitter& em, const Expr& call) {
    std::vector<const Expr*> a = emit_args(call, {"tiles", "axis"});
    int64_t axis = a[1]->resolved->constant.as_int();
    if (axis < 0) axis += int64_t(call.type->dims.size());
    return "simt_tile_cat<" + em.c_type(call.type) + ", " + std::to_string(axis) + ">(" + em.expr(*a[0]->children[0]) + ", " +
           em.expr(*a[0]->children[1]) + ", " + scratch() + ")";
}

// atomic_add/max/min/and/or/xor/xchg(array, indices, update): read-modify-write of the elements
// the indices name (as gather's), giving the old values; indices outside the array are skipped.
const Type* infer_atomic(Sema& s, Expr& call) {
    const std::string n = short_name(call);
    std::vector<Expr*> a = args(s, call, {"array", "indices", "update", "check_bounds", "memory_order", "memory_scope"}, 3);
    const Type* arr = a[0]->type;
    if (!arr->is_array() || arr->readonly) s.fail(a[0]->loc, display(call) + "() updates a writable array, not " + arr->str());
    DType d = arr->dtype;
    bool wide = dtype_size(d) == 4 || dtype_size(d) == 8;
    bool integer = dtype_is_integer(d) && wide;
    bool ok = n == "atomic_add" || n == "atomic_max" || n == "atomic_min" ? integer || d == DType::Float32 || d == DType::Float64
                                                                          : integer;
    if (!ok) s.fail(a[0]->loc, display(call) + "() does not apply to arrays of " + dtype_name(d));
    std::vector<int64_t> dims = gather_dims(s, a[1], call, arr);
    check_values(s, a[2], call, d, dims);
    s.unit().uses_tiles = true;
    return tile_type(d, dims);
}
std::string emit_atomic(Emitter& em, const Expr& call) {
    std::vector<const Expr*> a = emit_args(call, {"array", "indices", "update", "check_bounds", "memory_order", "memory_scope"});
    std::string T = em.c_type(scalar_type(a[0]->type->dtype));
    std::string fn = "simt_" + std::string(short_name(call) == "atomic_xchg" ? "atomic_exch" : short_name(call));
    return "simt_tile_atomic<" + em.c_type(call.type) + ">(" + em.expr(*a[0]) + ", [&](" + T + "* p, " + T + " v) -> " + T +
           " { return " + fn + "(p, v); }, " + values_code(em, a[2], call.type) + index_tile_codes(em, a[1], call.type->dims) + ")";
}

// atomic_cas(array, indices, expected, desired): compare-and-swap of each element the indices
// name (32- and 64-bit integers and floats, compared bitwise), giving the old values.
const std::vector<const char*> kCasParams = {"array", "indices", "expected", "desired", "check_bounds", "memory_order",
                                             "memory_scope"};
const Type* infer_atomic_cas(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, kCasParams, 4);
    const Type* arr = a[0]->type;
    if (!arr->is_array() || arr->readonly) s.fail(a[0]->loc, display(call) + "() updates a writable array, not " + arr->str());
    DType d = arr->dtype;
    if (!((dtype_is_integer(d) || dtype_is_float(d)) && (dtype_size(d) == 4 || dtype_size(d) == 8)))
        s.fail(a[0]->loc, display(call) + "() does not apply to arrays of " + dtype_name(d) + " (32- and 64-bit numbers only)");
    if (a[4]) bool_arg(s, a[4], call, "check_bounds");
    for (size_t i = 5; i < 7; ++i) if (a[i]) check_tile_hint(s, "atomic_cas", kCasParams[i], *a[i], display(call));
    std::vector<int64_t> dims = gather_dims(s, a[1], call, arr);
    check_values(s, a[2], call, d, dims);
    check_values(s, a[3], call, d, dims);
    s.unit().uses_tiles = true;
    return tile_type(d, dims);
}
std::string emit_atomic_cas(Emitter& em, const Expr& call) {
    std::vector<const Expr*> a = emit_args(call, kCasParams);
    return "simt_tile_atomic_cas<" + em.c_type(call.type) + ">(" + em.expr(*a[0]) + ", " + values_code(em, a[2], call.type) +
           ", " + values_code(em, a[3], call.type) + index_tile_codes(em, a[1], call.type->dims) + ")";
}

// --- matrix multiply -----------------------------------------------------------------------
const Type* infer_mma(Sema& s, Expr& call) {
    const bool mma = short_name(call) == "mma";
    std::vector<Expr*> a = mma ? args(s, call, {"x", "y", "acc"}, 3) : args(s, call, {"x", "y"}, 2);
    const Type* x = need_tile(s, a[0], call, "x");
    const Type* y = need_tile(s, a[1], call, "y");
    if (x->dims.size() != 2 || y->dims.size() != 2 || x->dims[1] != y->dims[0])
        s.fail(call.loc, display(call) + "() multiplies an (M, K) tile by a (K, N) tile, not " + x->str() + " and " + y->str());
    if (x->dtype == DType::Bool || y->dtype == DType::Bool) s.fail(call.loc, display(call) + "() on boolean tiles");
    if (!mma) return tile_binop_type(s, call.loc, BinOpKind::MatMul, x, y);
    const Type* acc = need_tile(s, a[2], call, "acc");
    if (acc->dims != std::vector<int64_t>{x->dims[0], y->dims[1]})
        s.fail(a[2]->loc, "tile.mma() acc must be a tile of shape (" + std::to_string(x->dims[0]) + ", " +
                          std::to_string(y->dims[1]) + "), not " + acc->str());
    if (acc->dtype == DType::Bool) s.fail(a[2]->loc, "tile.mma() acc must hold numbers");
    note_tile_scratch(s, call.loc, tile_pair_bytes(x, y), "tile.mma()");
    return acc;
}
std::string emit_mma(Emitter& em, const Expr& call) {
    const bool mma = short_name(call) == "mma";
    std::vector<const Expr*> a = mma ? emit_args(call, {"x", "y", "acc"}) : emit_args(call, {"x", "y"});
    if (!mma) return emit_tile_binop(em, BinOpKind::MatMul, em.expr(*a[0]), a[0]->type, em.expr(*a[1]), a[1]->type, call.type);
    return "simt_tile_mma(" + em.expr(*a[0]) + ", " + em.expr(*a[1]) + ", " + em.expr(*a[2]) + ", " + scratch() + ")";
}

// --- elementwise functions -----------------------------------------------------------------
struct BinaryFn { const char* name; BinOpKind op; };
const BinaryFn kBinary[] = {{"add", BinOpKind::Add},          {"sub", BinOpKind::Sub},       {"mul", BinOpKind::Mul},
                            {"truediv", BinOpKind::Div},      {"floordiv", BinOpKind::FloorDiv}, {"mod", BinOpKind::Mod},
                            {"pow", BinOpKind::Pow},          {"bitwise_and", BinOpKind::BitAnd},
                            {"bitwise_or", BinOpKind::BitOr}, {"bitwise_xor", BinOpKind::BitXor},
                            {"bitwise_lshift", BinOpKind::LShift}, {"bitwise_rshift", BinOpKind::RShift}};
const BinaryFn* binary_fn(const std::string& n) {
    for (const BinaryFn& f : kBinary) if (n == f.name) return &f;
    return nullptr;
}

std::vector<const char*> binary_params(const std::string& n) {
    if (n == "maximum" || n == "minimum") return {"x", "y", "propagate_nan"};
    return {"x", "y"};
}

const Type* infer_binary(Sema& s, Expr& call) {
    const std::string n = short_name(call);
    std::vector<Expr*> a = args(s, call, binary_params(n), 2);
    if (a.size() > 2) {
        bool_arg(s, a[2], call, "propagate_nan");
        a.pop_back();
    }
    for (Expr* e : a) check_operand(s, e, call);
    if (const BinaryFn* f = binary_fn(n)) {
        if (!a[0]->type->is_tile() && !a[1]->type->is_tile()) {
            DType out;
            if (!binop_result(f->op, a[0]->type->dtype, a[1]->type->dtype, out)) s.fail(call.loc, display(call) + "() does not apply to these numbers");
            return scalar_type(out);
        }
        check_weak_integer(s, *a[0], a[1]->type);
        check_weak_integer(s, *a[1], a[0]->type);
        return tile_binop_type(s, call.loc, f->op, a[0]->type, a[1]->type);
    }
    // maximum, minimum (numbers too use the tile prelude's functions)
    s.unit().uses_tiles = true;
    DType d = tile_common_dtype({a[0]->type, a[1]->type});
    std::vector<int64_t> dims = broadcast_tile_dims(s, call.loc, {a[0]->type, a[1]->type}, display(call) + "()");
    if (!a[0]->type->is_tile() && !a[1]->type->is_tile()) return scalar_type(d);
    for (Expr* e : a)
        if (e->type->is_tile() && e->type->dims != dims) note_tile_scratch(s, call.loc, tile_bytes(e->type), display(call) + "() broadcasting");
    s.unit().uses_tiles = true;
    return tile_type(d, dims);
}
std::string emit_binary(Emitter& em, const Expr& call) {
    const std::string n = short_name(call);
    std::vector<const Expr*> a = emit_args(call, binary_params(n));
    if (const BinaryFn* f = binary_fn(n)) {
        if (!call.type->is_tile())
            return em.cast(em.binop_code(f->op, em.expr(*a[0]), a[0]->type, em.expr(*a[1]), a[1]->type),
                           Emitter::binop_type(f->op, a[0]->type, a[1]->type), call.type);
        return emit_tile_binop(em, f->op, em.expr(*a[0]), a[0]->type, em.expr(*a[1]), a[1]->type, call.type);
    }
    const Type* d = scalar_type(call.type->dtype);
    const Type* t0 = scalar_type(a[0]->type->dtype);
    const Type* t1 = scalar_type(a[1]->type->dtype);
    const char* fn = max_min_fn(n, a.size() > 2 && propagates_nan(a[2]));
    return emit_tile_elementwise(em, call.type, {em.expr(*a[0]), em.expr(*a[1])}, {a[0]->type, a[1]->type},
                                 [&](const std::vector<std::string>& x) {
                                     return std::string(fn) + "(" + em.cast(x[0], t0, d) + ", " + em.cast(x[1], t1, d) + ")";
                                 });
}

const Type* infer_where(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"cond", "x", "y"}, 3);
    for (Expr* e : a) check_operand(s, e, call);
    std::vector<const Type*> ts = {a[0]->type, a[1]->type, a[2]->type};
    std::vector<int64_t> dims = broadcast_tile_dims(s, call.loc, ts, "tile.where()");
    DType d = tile_common_dtype({a[1]->type, a[2]->type});
    if (!a[0]->type->is_tile() && !a[1]->type->is_tile() && !a[2]->type->is_tile()) return scalar_type(d);
    for (const Type* t : ts)
        if (t->is_tile() && t->dims != dims) note_tile_scratch(s, call.loc, tile_bytes(t), "tile.where() broadcasting");
    s.unit().uses_tiles = true;
    return tile_type(d, dims);
}
std::string emit_where(Emitter& em, const Expr& call) {
    std::vector<const Expr*> a = emit_args(call, {"cond", "x", "y"});
    const Type* d = scalar_type(call.type->dtype);
    std::vector<const Type*> ts = {a[0]->type, a[1]->type, a[2]->type};
    return emit_tile_elementwise(em, call.type, {em.expr(*a[0]), em.expr(*a[1]), em.expr(*a[2])}, ts,
                                 [&](const std::vector<std::string>& x) {
                                     return "(" + em.cast(x[0], scalar_type(ts[0]->dtype), bool_type()) + " ? " +
                                            em.cast(x[1], scalar_type(ts[1]->dtype), d) + " : " +
                                            em.cast(x[2], scalar_type(ts[2]->dtype), d) + ")";
                                 });
}

// Unary math: floats keep their type (float16 computes in float32), integers compute in float64.
struct UnaryFn { const char* name; const char* c; bool keeps_integers; };
const UnaryFn kUnary[] = {
    {"exp", "exp", false},     {"exp2", "exp2", false},   {"log", "log", false},     {"log2", "log2", false},
    {"log10", "log10", false}, {"log1p", "log1p", false}, {"expm1", "expm1", false}, {"sqrt", "sqrt", false},
    {"rsqrt", "simt_tile_rsqrt", false}, {"sin", "sin", false}, {"cos", "cos", false}, {"tan", "tan", false},
    {"asin", "asin", false},   {"acos", "acos", false},   {"atan", "atan", false},   {"sinh", "sinh", false},
    {"cosh", "cosh", false},   {"tanh", "tanh", false},   {"erf", "erf", false},     {"floor", "floor", true},
    {"ceil", "ceil", true},    {"trunc", "trunc", true},  {"abs", "fabs", true},     {"negative", "", true},
};
const UnaryFn* unary_fn(const std::string& n) {
    for (const UnaryFn& f : kUnary) if (n == f.name) return &f;
    return nullptr;
}

const Type* infer_unary_fn(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"x"}, 1);
    check_operand(s, a[0], call);
    const UnaryFn* f = unary_fn(short_name(call));
    DType in = a[0]->type->dtype;
    DType d = dtype_is_float(in) || f->keeps_integers ? in : DType::Float64;
    if (f->keeps_integers && in == DType::Bool && std::string(f->name) != "abs") d = DType::Int64;
    if (!a[0]->type->is_tile()) return scalar_type(d);
    s.unit().uses_tiles = true;
    return tile_type(d, a[0]->type->dims);
}
std::string emit_unary_fn(Emitter& em, const Expr& call) {
    const Expr* x = emit_args(call, {"x"})[0];
    const UnaryFn* f = unary_fn(short_name(call));
    const Type* in = scalar_type(x->type->dtype);
    const Type* out = scalar_type(call.type->dtype);
    return emit_tile_elementwise(em, call.type, {em.expr(*x)}, {x->type}, [&](const std::vector<std::string>& v) {
        std::string name = f->name;
        if (name == "negative") return em.cast("(-" + em.cast(v[0], in, out) + ")", out, out);
        if (!out->is_float()) {  // integers: floor/ceil/trunc keep them; abs flips negatives
            if (name == "abs") return in->is_bool() ? v[0] : em.cast("(" + v[0] + " < 0 ? -" + v[0] + " : " + v[0] + ")", in, out);
            return em.cast(v[0], in, out);
        }
        std::string c = f->c;
        if (out->dtype == DType::Float64) return c + "(" + em.cast(v[0], in, out) + ")";
        std::string fn = c.rfind("simt_", 0) == 0 ? c : c + "f";
        std::string r = fn + "((float)(" + v[0] + "))";
        return out->dtype == DType::Float16 ? "simt_half(" + r + ")" : r;
    });
}

}  // namespace

void register_tile_builtins(BuiltinRegistry& r) {
    auto add = [&](const char* name, decltype(&infer_load) infer, decltype(&emit_load) emit, bool method = false) {
        add_tile_function(r, name, infer, emit, method);
    };
    add("bid", infer_block_axis, emit_block_axis);
    add("num_blocks", infer_block_axis, emit_block_axis);
    add("cdiv", infer_cdiv, emit_cdiv);
    add("num_tiles", infer_num_tiles, emit_num_tiles);
    r.add_function({"arraymethod.slice", infer_array_slice, emit_array_slice});
    add("load", infer_load, emit_load);
    add("store", infer_store, emit_store);
    add("gather", infer_gather, emit_gather);
    add("scatter", infer_scatter, emit_scatter);
    for (const char* n : {"full", "zeros", "ones"}) add(n, infer_full, emit_full);
    add("arange", infer_arange, emit_arange);
    add("astype", infer_astype, emit_astype, true);
    for (const char* n : {"reshape", "broadcast_to", "expand_dims"}) add(n, infer_reshape, emit_reshape, true);
    for (const char* n : {"permute", "transpose"}) add(n, infer_permute, emit_permute, true);
    for (const char* n : {"sum", "prod", "max", "min", "argmax", "argmin"}) add(n, infer_reduce, emit_reduce, true);
    for (const char* n : {"mma", "matmul"}) add(n, infer_mma, emit_mma);
    add("cat", infer_cat, emit_cat);
    for (const char* n : {"atomic_add", "atomic_max", "atomic_min", "atomic_and", "atomic_or", "atomic_xor", "atomic_xchg"})
        add(n, infer_atomic, emit_atomic);
    add("atomic_cas", infer_atomic_cas, emit_atomic_cas);
    for (const BinaryFn& f : kBinary) add(f.name, infer_binary, emit_binary);
    for (const char* n : {"maximum", "minimum"}) add(n, infer_binary, emit_binary);
    add("where", infer_where, emit_where);
    register_tile_named_builtins(r);
    register_tile_scan_builtins(r);
    register_tile_custom_builtins(r);
    register_tile_static_builtins(r);
    register_tile_view_builtins(r);
    register_tile_select_builtins(r);
    for (const UnaryFn& f : kUnary) add(f.name, infer_unary_fn, emit_unary_fn);
    // Element types, by cuda.tile's names (tfloat32 computes as float32 here).
    const std::pair<const char*, DType> kTypes[] = {
        {"bool_", DType::Bool},     {"int8", DType::Int8},       {"int16", DType::Int16},     {"int32", DType::Int32},
        {"int64", DType::Int64},    {"uint8", DType::UInt8},     {"uint16", DType::UInt16},   {"uint32", DType::UInt32},
        {"uint64", DType::UInt64},  {"float16", DType::Float16}, {"float32", DType::Float32}, {"float64", DType::Float64},
        {"tfloat32", DType::Float32}};
    for (const auto& [name, d] : kTypes) {
        ModuleMember m{ModuleMember::Kind::DTypeObj, "", d, {}};
        r.add_member("tile", name, m);
    }
    for (const TileEnumeration& e : tile_enumerations()) {
        const std::string module = std::string("tile.") + e.name;
        r.add_member("tile", e.name, member_module(module));
        for (const auto& [member, value] : e.members) r.add_member(module, member, member_constant(ConstValue::string(value)));
    }
}

}  // namespace simt
