// Emitter: tuple values built from other tuples (concatenation, slicing with constant bounds).
// Each operand is evaluated once, into a temporary, then the result is built field by field.
#include "codegen/emitter.h"
#include "sema/tuple_slice.h"
#include "support/error.h"

namespace simt {

std::string Emitter::tuple_concat_expr(const Expr& e) {
    const Expr& a = *e.children[0];
    const Expr& b = *e.children[1];
    std::string ta = temp("tup"), tb = temp("tup");
    std::string s = "([&]() { auto " + ta + " = " + expr(a) + "; auto " + tb + " = " + expr(b) + "; return " + c_type(e.type) + "{";
    size_t k = 0;
    for (size_t i = 0; i < a.type->elems.size(); ++i, ++k)
        s += (k ? ", " : "") + cast(ta + ".f" + std::to_string(i), a.type->elems[i], e.type->elems[k]);
    for (size_t i = 0; i < b.type->elems.size(); ++i, ++k)
        s += (k ? ", " : "") + cast(tb + ".f" + std::to_string(i), b.type->elems[i], e.type->elems[k]);
    return s + "}; }())";
}

std::string Emitter::tuple_slice_expr(const Expr& e) {
    const Expr& base = *e.children[0];
    std::vector<size_t> picked;
    std::string error;
    if (!tuple_slice_indices(*e.children[1], base.type->elems.size(), picked, error))
        throw Error(ErrorKind::Typing, "internal: tuple slice was not checked: " + error);
    std::string t = temp("tup");
    std::string s = "([&]() { auto " + t + " = " + expr(base) + "; return " + c_type(e.type) + "{";
    for (size_t k = 0; k < picked.size(); ++k) s += (k ? ", " : "") + t + ".f" + std::to_string(picked[k]);
    return s + "}; }())";
}

}  // namespace simt
