// Thread-indexing builtins of numba.cuda: threadIdx/blockIdx/blockDim/gridDim, grid(n),
// gridsize(n), laneid and warpsize. (Memory, synchronization, atomics and warp operations
// are registered by their own files.)
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"

namespace simt {

namespace {

int64_t grid_ndim(Sema& s, Expr& call, const char* name) {
    std::vector<Expr*> a = s.bind(call, name, {"ndim"}, 1);
    int64_t n = s.constant_int(*a[0], std::string(name) + "() argument");
    if (n < 1 || n > 3) s.fail(a[0]->loc, std::string(name) + "() argument must be 1, 2 or 3, not " + std::to_string(n));
    return n;
}

const Type* grid_result(int64_t n) {
    if (n == 1) return int64_type();
    return tuple_type(std::vector<const Type*>(size_t(n), int64_type()));
}

const Type* infer_grid(Sema& s, Expr& call) { return grid_result(grid_ndim(s, call, "cuda.grid")); }
const Type* infer_gridsize(Sema& s, Expr& call) { return grid_result(grid_ndim(s, call, "cuda.gridsize")); }

std::string emit_axes(Emitter& em, const Expr& call, const char* fn) {
    static const char* const kAxes[] = {"0", "1", "2"};
    if (call.type->is_scalar()) return std::string(fn) + "(ctx, 0)";
    std::string s = em.c_type(call.type) + "{";
    for (size_t i = 0; i < call.type->elems.size(); ++i) s += std::string(i ? ", " : "") + fn + "(ctx, " + kAxes[i] + ")";
    return s + "}";
}
std::string emit_grid(Emitter& em, const Expr& call) { return emit_axes(em, call, "simt_grid"); }
std::string emit_gridsize(Emitter& em, const Expr& call) { return emit_axes(em, call, "simt_gridsize"); }

}  // namespace

void register_cuda_builtins(BuiltinRegistry& r) {
    for (const char* reg : {"threadIdx", "blockIdx", "blockDim", "gridDim"})
        r.add_member("cuda", reg, {ModuleMember::Kind::Dim3, std::string("cuda.") + reg, DType::Int64, {}});
    r.add_function({"cuda.grid", infer_grid, emit_grid});
    r.add_member("cuda", "grid", member_function("cuda.grid"));
    r.add_function({"cuda.gridsize", infer_gridsize, emit_gridsize});
    r.add_member("cuda", "gridsize", member_function("cuda.gridsize"));
    r.add_member("cuda", "laneid", member_value("simt_laneid(ctx)", DType::Int32));
    r.add_member("cuda", "warpsize", member_constant(ConstValue::integer(32, DType::Int32)));
}

}  // namespace simt
