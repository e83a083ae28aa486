// numba.cuda's arithmetic intrinsics: cuda.popc, cuda.clz, cuda.ffs, cuda.brev (bit counting and
// reversal) and cuda.fma, cuda.cbrt, typed as numba types them: popc and clz keep the integer
// type, ffs gives uint32, brev works on uint32 or uint64, fma and cbrt keep float32 or float64.
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"

namespace simt {

namespace {

std::string short_name(const std::string& canonical) { return canonical.substr(canonical.rfind('.') + 1); }

const Type* infer_bits(Sema& s, Expr& call) {
    std::string name = short_name(call.resolved->builtin);
    std::vector<Expr*> a = s.bind(call, "cuda." + name, {"x"}, 1);
    const Type* t = a[0]->type;
    if (!t->is_integer()) s.fail(a[0]->loc, "cuda." + name + "() needs an integer, not " + t->str());
    if (name == "ffs") return scalar_type(DType::UInt32);
    if (name == "brev") return scalar_type(dtype_size(t->dtype) == 8 ? DType::UInt64 : DType::UInt32);
    return t;
}
std::string emit_bits(Emitter& em, const Expr& call) {
    std::string name = short_name(call.resolved->builtin);
    const Expr& x = call.children.size() > 1 ? *call.children[1] : *call.keywords[0].value;
    if (name == "brev") return "simt_brev(" + em.expr_as(x, call.type) + ")";
    return "simt_" + name + "(" + em.expr(x) + ")";
}

const Type* infer_fma(Sema& s, Expr& call) {
    std::vector<Expr*> a = s.bind(call, "cuda.fma", {"a", "b", "c"}, 3);
    bool single = true;
    for (Expr* e : a) {
        if (!e->type->is_scalar() || e->type->is_complex())
            s.fail(e->loc, "cuda.fma() needs real numbers, not " + e->type->str());
        single = single && (e->type->dtype == DType::Float32 || e->type->dtype == DType::Float16);
    }
    return scalar_type(single ? DType::Float32 : DType::Float64);
}
std::string emit_fma(Emitter& em, const Expr& call) {
    std::string error;
    std::vector<const Expr*> a = match_call_args(call, {"a", "b", "c"}, 3, error);
    std::string fn = call.type->dtype == DType::Float32 ? "fmaf(" : "fma(";
    return fn + em.expr_as(*a[0], call.type) + ", " + em.expr_as(*a[1], call.type) + ", " + em.expr_as(*a[2], call.type) + ")";
}

}  // namespace

void register_intrinsic_builtins(BuiltinRegistry& r) {
    for (const char* name : {"popc", "clz", "ffs", "brev"}) {
        std::string canonical = std::string("cuda.") + name;
        r.add_function({canonical, infer_bits, emit_bits});
        r.add_member("cuda", name, member_function(canonical));
    }
    r.add_function({"cuda.fma", infer_fma, emit_fma});
    r.add_member("cuda", "fma", member_function("cuda.fma"));
    r.add_member("cuda", "cbrt", member_function("math.cbrt"));  // the same function and typing
}

}  // namespace simt
