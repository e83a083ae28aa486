// print(...) in kernels, formatted as numba.cuda does: integers with %lld/%llu, floats with %f,
// string constants as they are, separated by spaces and ended by a newline. The cpu backend
// writes the text on the host when the launch finishes (by the next synchronize), as CUDA does.
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"

namespace simt {

namespace {

constexpr size_t kMaxPrintItems = 32;  // CUDA's printf takes at most 32 arguments

const Type* infer_print(Sema& s, Expr& call) {
    if (!call.keywords.empty())
        s.fail(call.keywords[0].value->loc, "print() in a kernel takes no keyword arguments ('" + call.keywords[0].name + "')");
    if (call.children.size() - 1 > kMaxPrintItems)
        s.fail(call.loc, "print() in a kernel prints at most 32 values (CUDA's printf limit)");
    for (size_t i = 1; i < call.children.size(); ++i) {
        Expr& a = *call.children[i];
        const Type* t = a.type;
        if (t->kind == TypeKind::String) continue;  // always a constant in kernels
        if (!t->is_scalar() || t->is_complex())
            s.fail(a.loc, "print() in a kernel prints integers, floats, booleans and string constants, not " + t->str());
    }
    s.unit().uses_print = true;
    return none_type();
}

std::string emit_print(Emitter& em, const Expr& call) {
    std::string format, args;
    for (size_t i = 1; i < call.children.size(); ++i) {
        const Expr& a = *call.children[i];
        const Type* t = a.type;
        std::string code = em.expr(a);
        const char* spec;
        if (t->kind == TypeKind::String) {
            spec = "%s";
        } else if (t->is_bool()) {
            spec = "%s";
            code = "((" + code + ") ? \"True\" : \"False\")";
        } else if (t->is_integer()) {
            bool is_unsigned = !dtype_is_signed(t->dtype);
            spec = is_unsigned ? "%llu" : "%lld";
            code = std::string(is_unsigned ? "(unsigned long long)" : "(long long)") + "(" + code + ")";
        } else {
            spec = "%f";
            code = t->dtype == DType::Float16 ? "(double)(float)(" + code + ")" : "(double)(" + code + ")";
        }
        format += (i > 1 ? " " : "") + std::string(spec);
        args += ", " + code;
    }
    return "simt_print(ctx, " + em.literal(ConstValue::string(format + "\n"), string_type()) + args + ")";
}

}  // namespace

void register_print_builtins(BuiltinRegistry& r) { r.add_function({"print", infer_print, emit_print}); }

}  // namespace simt
