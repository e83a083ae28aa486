// numba.cuda's bit and arithmetic intrinsics: popc and clz (same integer type), ffs (uint32,
// 1-based position of the lowest set bit, 0 for none), brev (uint32 or uint64), fma and cbrt
// (float32 or float64).
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"
#include "types/promote.h"

namespace simt {

namespace {

const Type* integer_argument(Sema& s, Expr& call, const char* param) {
    const std::string& fname = call.resolved->builtin;
    std::vector<Expr*> a = s.bind(call, fname, {param}, 1);
    if (!call.keywords.empty()) s.fail(call.loc, fname + "() takes positional arguments only");
    const Type* t = a[0]->type;
    if (!t->is_integer()) s.fail(a[0]->loc, fname + "() needs an integer, not " + t->str());
    return t;
}

const Type* infer_same_integer(Sema& s, Expr& call) { return integer_argument(s, call, "x"); }
const Type* infer_ffs(Sema& s, Expr& call) {
    integer_argument(s, call, "x");
    return scalar_type(DType::UInt32);
}
const Type* infer_brev(Sema& s, Expr& call) {
    const Type* t = integer_argument(s, call, "x");
    return scalar_type(dtype_size(t->dtype) == 8 ? DType::UInt64 : DType::UInt32);
}
std::string emit_integer_intrinsic(Emitter& em, const Expr& call) {
    const std::string& fname = call.resolved->builtin;
    const Expr& x = *call.children[1];
    const Type* arg = fname == "cuda.brev" ? call.type : x.type;  // brev works on the unsigned form
    return "simt_" + fname.substr(fname.find('.') + 1) + "(" + em.cast(em.expr(x), x.type, arg) + ")";
}

// float32 when every argument is float32 (or float16), else float64, as numba's overloads resolve.
const Type* float_arguments(Sema& s, Expr& call, const std::vector<const char*>& params) {
    const std::string& fname = call.resolved->builtin;
    std::vector<Expr*> a = s.bind(call, fname, params, params.size());
    if (!call.keywords.empty()) s.fail(call.loc, fname + "() takes positional arguments only");
    bool single = true;
    for (Expr* e : a) {
        const Type* t = e->type;
        if (!t->is_scalar() || t->is_complex()) s.fail(e->loc, fname + "() needs real numbers, not " + t->str());
        single = single && (t->dtype == DType::Float32 || t->dtype == DType::Float16);
    }
    return scalar_type(single ? DType::Float32 : DType::Float64);
}
const Type* infer_fma(Sema& s, Expr& call) { return float_arguments(s, call, {"a", "b", "c"}); }
const Type* infer_cbrt(Sema& s, Expr& call) { return float_arguments(s, call, {"a"}); }
std::string emit_float_intrinsic(Emitter& em, const Expr& call) {
    const std::string& fname = call.resolved->builtin;
    std::string code = "simt_" + fname.substr(fname.find('.') + 1) + "(";
    for (size_t i = 1; i < call.children.size(); ++i)
        code += (i > 1 ? ", " : "") + em.expr_as(*call.children[i], call.type);
    return code + ")";
}

// selp(test, a, b): a where test holds, else b (numba.cuda.selp), in the type a and b unify to.
const Type* infer_selp(Sema& s, Expr& call) {
    std::vector<Expr*> a = s.bind(call, "cuda.selp", {"test", "a", "b"}, 3);
    if (!a[0]->type->is_scalar()) s.fail(a[0]->loc, "cuda.selp() test must be a number or a boolean, not " + a[0]->type->str());
    const Type* u = unify(a[1]->type, a[2]->type);
    if (!a[1]->type->is_scalar() || !a[2]->type->is_scalar() || !u)
        s.fail(call.loc, "cuda.selp() selects between two numbers, not " + a[1]->type->str() + " and " + a[2]->type->str());
    return u;
}
std::string emit_selp(Emitter& em, const Expr& call) {
    std::string error;
    std::vector<const Expr*> a = match_call_args(call, {"test", "a", "b"}, 3, error);
    return "(" + em.expr_as(*a[0], bool_type()) + " ? " + em.expr_as(*a[1], call.type) + " : " + em.expr_as(*a[2], call.type) + ")";
}

}  // namespace

void register_bit_builtins(BuiltinRegistry& r) {
    auto add = [&](const char* name, auto infer, auto emit) {
        r.add_function({std::string("cuda.") + name, infer, emit});
        r.add_member("cuda", name, member_function(std::string("cuda.") + name));
    };
    add("popc", infer_same_integer, emit_integer_intrinsic);
    add("clz", infer_same_integer, emit_integer_intrinsic);
    add("ffs", infer_ffs, emit_integer_intrinsic);
    add("brev", infer_brev, emit_integer_intrinsic);
    add("fma", infer_fma, emit_float_intrinsic);
    add("cbrt", infer_cbrt, emit_float_intrinsic);
    add("selp", infer_selp, emit_selp);
}

}  // namespace simt
