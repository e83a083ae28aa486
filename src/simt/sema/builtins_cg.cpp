// Cooperative groups in kernels (numba's cuda.cg): `g = cuda.cg.this_grid()` and `g.sync()`, a
// barrier for every thread of the grid. A kernel that uses it is launched cooperatively (all of
// its blocks resident at once; a grid larger than the device can hold is CUDA's
// CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE). The grid group carries nothing at run time: its type
// is a compile-time value (Type::is_grid_group), so it may be stored in a variable.
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"

namespace simt {

void note_sync_site(Sema& s, Expr& call, bool warp);
std::string site_code(const Expr& call);

namespace {

const Type* infer_this_grid(Sema& s, Expr& call) {
    s.bind(call, "cuda.cg.this_grid", {}, 0);
    return module_type(kGridGroupType);
}
std::string emit_this_grid(Emitter&, const Expr&) { return "(void)0"; }

const Type* infer_grid_sync(Sema& s, Expr& call) {
    s.bind(call, "sync", {}, 0);
    note_sync_site(s, call, false);  // (a block barrier too: the block's threads run as fibers)
    s.unit().uses_grid_sync = true;
    return none_type();
}
std::string emit_grid_sync(Emitter&, const Expr& call) { return "simt_grid_sync(ctx, " + site_code(call) + ")"; }

}  // namespace

void register_cg_builtins(BuiltinRegistry& r) {
    r.add_member("cuda", "cg", member_module("cuda.cg"));
    r.add_function({"cuda.cg.this_grid", infer_this_grid, emit_this_grid});
    r.add_member("cuda.cg", "this_grid", member_function("cuda.cg.this_grid"));
    r.add_function({"cuda.cg.this_grid().sync", infer_grid_sync, emit_grid_sync});
    r.add_member(kGridGroupType, "sync", member_function("cuda.cg.this_grid().sync"));
}

}  // namespace simt
