// Methods of numbers in kernels: x.conjugate() (complex conjugate; a real number is its own) and
// x.view(np.uint32) (numba's bitcast: the same bits read as another integer or float type of the
// same size, e.g. to order floats by their bits).
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

const Type* infer_view(Sema& s, Expr& call) {
    std::vector<Expr*> a = s.bind(call, "view", {"dtype"}, 1);
    const Type* from = receiver(call).type;
    const Type* to = a[0]->type;
    if (to->kind != TypeKind::DTypeObj)
        s.fail(a[0]->loc, "view() takes a NumPy scalar type such as np.uint32, not " + to->str());
    auto bit_type = [](DType d) { return dtype_is_integer(d) || dtype_is_float(d); };
    if (!bit_type(from->dtype) || !bit_type(to->dtype))
        s.fail(call.loc, std::string("view() reinterprets integers and real floats, not ") +
                             (bit_type(from->dtype) ? dtype_name(to->dtype) : from->str()));
    if (dtype_size(from->dtype) != dtype_size(to->dtype))
        s.fail(call.loc, std::string("view() needs a type of the same size: ") + from->str() + " has " +
                             std::to_string(dtype_size(from->dtype)) + " bytes, " + dtype_name(to->dtype) + " has " +
                             std::to_string(dtype_size(to->dtype)));
    return scalar_type(to->dtype);
}
std::string emit_view(Emitter& em, const Expr& call) {
    return "simt_bit_cast<" + em.c_type(call.type) + ">(" + em.expr(receiver(call)) + ")";
}

}  // namespace

void register_complex_builtins(BuiltinRegistry& r) {
    r.add_function({"number.conjugate", infer_conjugate, emit_conjugate});
    r.add_function({"number.view", infer_view, emit_view});
}

}  // namespace simt
