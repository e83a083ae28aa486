// Functions passed to builtins that call them (tile.reduce(t, axis, func, identity)): the call
// `func(v0, v1, ...)` is built as an expression of its own and typed like any call written in
// the kernel, so func may be a lambda, an inner def, a device function or a builtin. The values
// v0, v1, ... are names that exist only in that expression: the emitter makes them the parameters
// of the C++ lambda it wraps around the call.
#include "sema/sema.h"

namespace simt {

std::vector<std::string> Sema::function_argument_names(const Expr& site, size_t count) {
    std::vector<std::string> names;
    for (size_t i = 0; i < count; ++i)
        names.push_back("fnarg_" + std::to_string(site.loc.line) + "_" + std::to_string(site.loc.col) + "_" + std::to_string(i));
    return names;
}

const Type* Sema::type_function_argument_call(Expr& site, const Expr& func, const std::vector<const Type*>& types) {
    Resolved& r = resolved(site);
    const std::vector<std::string> names = function_argument_names(site, types.size());
    if (!r.synthetic) {
        auto call = std::make_shared<Expr>(ExprKind::Call, func.loc);
        call->children.push_back(clone_expr(&func));
        for (const std::string& n : names) {
            auto arg = std::make_unique<Expr>(ExprKind::Name, func.loc);
            arg->text = n;
            call->children.push_back(std::move(arg));
        }
        r.synthetic = call;
    }
    // The values are locals of this one expression: typed, never declared in the function.
    for (size_t i = 0; i < names.size(); ++i) {
        local_names_.insert(names[i]);
        local_types_[names[i]] = types[i];
    }
    return type_of(*r.synthetic);
}

}  // namespace simt
