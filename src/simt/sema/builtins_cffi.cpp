// cffi's ffi.from_buffer(array) in kernels (numba's FFI idiom for passing an array to a
// cuda.declare_device function that takes a pointer): the call stands for the array itself,
// whose address a pointer parameter takes (sema/foreign_call.cpp).
#include "sema/builtins.h"
#include "sema/sema.h"
#include "support/error.h"

namespace simt {

namespace {

const Type* infer_from_buffer(Sema& s, Expr& call) {
    if (!call.keywords.empty() || call.children.size() != 2)
        s.fail(call.loc, "ffi.from_buffer() takes one array in kernels (the address passed to a cuda.declare_device function)");
    if (!call.children[1]->type->is_array())
        s.fail(call.children[1]->loc, "ffi.from_buffer() takes an array, not a value of type " + call.children[1]->type->str());
    ExprPtr array = std::move(call.children[1]);
    call = std::move(*array);  // the call is its argument from here on
    return s.type_of(call);
}

std::string emit_from_buffer(Emitter&, const Expr&) {
    throw Error(ErrorKind::Typing, "internal: ffi.from_buffer() was not rewritten into its array");
}

}  // namespace

void register_cffi_builtins(BuiltinRegistry& r) {
    r.add_function({"cffi.from_buffer", infer_from_buffer, emit_from_buffer});
    r.add_member("cffi", "from_buffer", member_function("cffi.from_buffer"));
}

}  // namespace simt
