// enumerate() and zip(): typed as iterators over their arguments (numba's EnumerateType and
// ZipType), which only a for loop can iterate; codegen/emit_iterate.cpp writes the loop.
#include "sema/builtins.h"
#include "sema/iteration.h"
#include "sema/sema.h"
#include "support/error.h"

namespace simt {

namespace {

const Type* infer_enumerate(Sema& s, Expr& call) {
    std::vector<Expr*> a = s.bind(call, "enumerate", {"iterable", "start"}, 1);
    s.item_type(*a[0]);
    if (a[1] && !a[1]->type->is_integer() && !a[1]->type->is_bool())
        s.fail(a[1]->loc, "enumerate() start must be an integer, not " + a[1]->type->str());
    return iterator_type("enumerate", {a[0]->type});
}

const Type* infer_zip(Sema& s, Expr& call) {
    if (!call.keywords.empty()) s.fail(call.loc, "zip() takes no keyword arguments in kernels");
    if (call.children.size() < 2) s.unsupported(call.loc, "zip() needs at least one iterable in a kernel");
    std::vector<const Type*> sources;
    for (size_t i = 1; i < call.children.size(); ++i) {
        s.item_type(*call.children[i]);
        sources.push_back(call.children[i]->type);
    }
    return iterator_type("zip", sources);
}

std::string emit_iterator(Emitter&, const Expr& call) {
    throw Error(ErrorKind::Unsupported, call.resolved->builtin + "() can only be used as the iterable of a for loop");
}

}  // namespace

void register_iteration_builtins(BuiltinRegistry& r) {
    r.add_function({"enumerate", infer_enumerate, emit_iterator});
    r.add_function({"zip", infer_zip, emit_iterator});
}

}  // namespace simt
