// Scans of tiles along one axis: cumsum(x, axis=0, reverse=False) and cumprod (cuTile's, inclusive).
// Result types follow NumPy's cumsum/cumprod (small integers widen to 64 bits, as sum does); the
// code is the prelude's simt_tile_scan.
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"
#include "sema/tile.h"
#include "sema/tile_args.h"

namespace simt {

namespace {

using namespace tile_builtin;

// "sum" or "prod": the reduction whose types the scan takes.
std::string reduction_of(const Expr& call) { return short_name(call) == "cumsum" ? "sum" : "prod"; }

const Type* infer_scan(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"x", "axis", "reverse"}, 1);
    const Type* t = need_tile(s, a[0], call, "x");
    if (t->dims.empty()) s.fail(a[0]->loc, display(call) + "() needs a tile of at least one dimension");
    if (a[1]) axis_arg(s, a[1], call, int64_t(t->dims.size()));
    bool_arg(s, a[2], call, "reverse");
    if (t->dtype == DType::Bool && reduction_of(call) == "prod") s.fail(a[0]->loc, "tile.cumprod() of a boolean tile");
    DType d = reduce_dtype(reduction_of(call), t->dtype);
    const Type* acc = tile_type(reduce_acc_dtype(reduction_of(call), t->dtype, d), t->dims);
    note_tile_scratch(s, call.loc, tile_bytes(acc), display(call) + "()");
    s.unit().uses_tiles = true;
    return tile_type(d, t->dims);
}

std::string emit_scan(Emitter& em, const Expr& call) {
    std::vector<const Expr*> a = emit_args(call, {"x", "axis", "reverse"});
    const Type* t = a[0]->type;
    int64_t axis = a[1] ? a[1]->resolved->constant.as_int() : 0;
    if (axis < 0) axis += int64_t(t->dims.size());
    const bool reverse = a[2] && a[2]->resolved->constant.as_int() != 0;
    const std::string n = reduction_of(call);
    const Type* acc = scalar_type(reduce_acc_dtype(n, t->dtype, call.type->dtype));
    const Type* acc_tile = tile_type(acc->dtype, t->dims);
    std::string r = "simt_tile_scan<" + em.c_type(acc_tile) + ", " + std::to_string(axis) + ", " + (reverse ? "true" : "false") +
                    ">(" + em.expr(*a[0]) + ", " + reduce_op(em, n, acc, false) + ", " + scratch() + ")";
    return emit_tile_cast(em, r, acc_tile, call.type);
}

}  // namespace

void register_tile_scan_builtins(BuiltinRegistry& r) {
    for (const char* name : {"cumsum", "cumprod"}) add_tile_function(r, name, infer_scan, emit_scan);
}

}  // namespace simt
