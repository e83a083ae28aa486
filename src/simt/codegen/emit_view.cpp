// Emitter: views of arrays (A[i] of a 2-D A, A[i, a:b], A[::2], A.T) and assignment to them,
// through the prelude's simt_view / simt_view_fill / simt_view_copy (prelude/views.h).
#include "codegen/emitter.h"
#include "sema/sema.h"

namespace simt {

// The opening of a view's construction; the axes' indices follow, then ")".
std::string Emitter::view_call(const Type* view, const std::string& array, int site) {
    return "simt_view<" + std::to_string(view->ndim) + ", " + layout_name(view->layout) + ">(ctx, " + array + ", " +
           std::to_string(site);
}

std::string Emitter::view_expr(const Expr& e) {
    const Expr& base = *e.children[0];
    const Expr& index = *e.children[1];
    std::string s = view_call(e.type, expr(base), e.resolved ? e.resolved->site : -1);
    std::vector<const Expr*> parts;
    if (index.kind == ExprKind::Tuple)
        for (const ExprPtr& c : index.children) parts.push_back(c.get());
    else
        parts.push_back(&index);
    for (const Expr* p : parts) {
        if (p->kind != ExprKind::Slice) {
            s += ", simt_take_of(" + index_code(*p) + ")";
            continue;
        }
        if (is_whole_slice(*p)) {
            s += ", simt_all{}";
            continue;
        }
        std::string bounds[3] = {"0", "0", "1"};
        int given = 0;
        for (size_t k = 0; k < 3; ++k) {
            const Expr* b = given_slice_bound(*p, k);
            if (!b) continue;
            bounds[k] = cast(expr(*b), b->type, int64_type());
            given |= 1 << k;
        }
        s += ", simt_span{" + bounds[0] + ", " + bounds[1] + ", " + bounds[2] + ", " + std::to_string(given) + "}";
    }
    return s + ")";
}

void Emitter::view_store(const Expr& target, const std::string& value_code, const Type* value_type) {
    const Type* view = target.type;
    const Type* elem = scalar_type(view->dtype);
    std::string dest = view_expr(target);
    if (!value_type->is_array()) {
        line("simt_view_fill(" + dest + ", " + cast(value_code, value_type, elem) + ");");
        return;
    }
    const Type* from = scalar_type(value_type->dtype);
    int site = target.resolved ? target.resolved->site : -1;
    std::string convert = "[](" + c_type(from) + " x) { return " + cast("x", from, elem) + "; }";
    line("simt_view_copy(ctx, " + dest + ", " + value_code + ", " + std::to_string(site) + ", " + convert + ");");
}

}  // namespace simt
