// Scalar functions with NumPy's semantics that generated elementwise kernels use and the
// Python-facing kernel language lacks (module "elementwise", reachable only from generated
// source): rounding functions that keep the argument's dtype (math.floor returns an int).
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"

namespace simt {

namespace {

const char* c_function(const std::string& canonical) {
    std::string name = canonical.substr(canonical.find('.') + 1);
    if (name == "floor") return "floor";
    if (name == "ceil") return "ceil";
    if (name == "trunc") return "trunc";
    return "rint";
}

const Type* infer_rounding(Sema& s, Expr& call) {
    std::vector<Expr*> a = s.bind(call, call.resolved->builtin, {"x"}, 1);
    const Type* t = a[0]->type;
    if (!t->is_scalar() || t->is_complex()) s.fail(call.loc, call.resolved->builtin + "() needs a real number, not " + t->str());
    return t;
}

std::string emit_rounding(Emitter& em, const Expr& call) {
    const Expr& a = *call.children[1];
    std::string x = em.expr(a);
    std::string fn = c_function(call.resolved->builtin);
    switch (a.type->dtype) {
        case DType::Float64: return fn + "(" + x + ")";
        case DType::Float32: return fn + "f(" + x + ")";
        case DType::Float16: return "simt_half(" + fn + "f((float)(" + x + ")))";
        default: return x;  // integers and bools are already whole
    }
}

}  // namespace

void register_elementwise_builtins(BuiltinRegistry& r) {
    for (const char* name : {"floor", "ceil", "trunc", "rint"}) {
        std::string canonical = std::string("elementwise.") + name;
        r.add_function({canonical, infer_rounding, emit_rounding});
        r.add_member("elementwise", name, member_function(canonical));
    }
}

}  // namespace simt
