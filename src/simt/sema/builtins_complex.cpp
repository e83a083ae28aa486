// Methods of numbers in kernels: x.conjugate() (complex conjugate; a real number is its own).
// `x.real` and `x.imag` are attributes typed in infer_expr.cpp.
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"

namespace simt {

namespace {

const Expr& receiver(const Expr& call) { return *call.children[0]->children[0]; }

const Type* infer_conjugate(Sema& s, Expr& call) {
    s.bind(call, "conjugate", {}, 0);
    const Type* t = receiver(call).type;
    return t->is_bool() ? int64_type() : t;
}
std::string emit_conjugate(Emitter& em, const Expr& call) {
    const Expr& x = receiver(call);
    if (x.type->is_complex()) return "simt_conj(" + em.expr(x) + ")";
    return em.expr_as(x, call.type);
}

}  // namespace

void register_complex_builtins(BuiltinRegistry& r) {
    r.add_function({"number.conjugate", infer_conjugate, emit_conjugate});
}

}  // namespace simt
