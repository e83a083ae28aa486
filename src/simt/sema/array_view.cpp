// Views inside kernels: basic indexing that keeps axes (A[i] of a 2-D A, A[i, :], A[a:b:c]),
// typed as numba types them: the result keeps the array's dtype, loses one axis per integer
// index, and is C-contiguous only where that is certain from the index's shape.
#include "sema/sema.h"
#include "sema/typed_function.h"

namespace simt {

namespace {

bool absent_or_none(const Expr* e) {
    return !e || (e->resolved && e->resolved->is_constant && e->resolved->constant.kind == ConstValue::Kind::None);
}

bool constant_one(const Expr* e) {
    return e && e->resolved && e->resolved->is_constant && e->resolved->constant.is_int() &&
           e->resolved->constant.as_int() == 1;
}

// The layout a view keeps. Row-major stays row-major when the integers come first and, after
// the first slice (which may take a range with step 1), every axis is kept whole; anything else
// is described by its strides (layout A), which is always right.
Layout view_layout(const Type* base, const std::vector<Expr*>& parts) {
    bool all_whole = true;
    for (const Expr* p : parts) all_whole = all_whole && p->kind == ExprKind::Slice && is_whole_slice(*p);
    if (all_whole) return base->layout;
    if (base->layout != Layout::C) return Layout::A;
    bool seen_slice = false;
    for (const Expr* p : parts) {
        if (p->kind != ExprKind::Slice) {
            if (seen_slice) return Layout::A;  // A[:, j]: a column
            continue;
        }
        if (seen_slice && !is_whole_slice(*p)) return Layout::A;  // A[:, a:b]
        if (!seen_slice && !absent_or_none(p->children[2].get()) && !constant_one(p->children[2].get())) return Layout::A;
        seen_slice = true;
    }
    return Layout::C;
}

}  // namespace

const Expr* given_slice_bound(const Expr& slice, size_t k) {
    const Expr* b = slice.children[k].get();
    if (!b || (b->type && b->type->kind == TypeKind::NoneType)) return nullptr;
    return b;
}

bool is_whole_slice(const Expr& slice) {
    for (const ExprPtr& c : slice.children)
        if (!absent_or_none(c.get())) return false;
    return true;
}

const Type* Sema::infer_array_view(Expr& e, const Type* base, const std::vector<Expr*>& parts) {
    bool incomplete = false;
    int integers = 0;
    for (Expr* p : parts) {
        if (p->kind != ExprKind::Slice) {
            const Type* t = type_of(*p);
            if (!t) { incomplete = true; continue; }
            if (!t->is_integer()) fail(p->loc, "array index must be an integer or a slice, not " + t->str());
            ++integers;
            continue;
        }
        static const char* const kBound[] = {"start", "stop", "step"};
        for (size_t k = 0; k < 3; ++k) {
            Expr* b = p->children[k].get();
            if (!b) continue;
            const Type* t = type_of(*b);
            if (!t) { incomplete = true; continue; }
            if (t->kind == TypeKind::NoneType) continue;
            if (!t->is_integer()) fail(b->loc, std::string("slice ") + kBound[k] + " must be an integer or None, not " + t->str());
            if (k == 2 && constant(*b) && constant(*b)->as_int() == 0) fail(b->loc, "slice step cannot be zero");
        }
    }
    if (incomplete) return nullptr;
    if (int(parts.size()) > base->ndim)
        fail(e.children[1]->loc, "too many indices for array: array is " + std::to_string(base->ndim) +
                                     "-dimensional, but " + std::to_string(parts.size()) + " were indexed");
    if (final_ && resolved(e).site < 0) {  // where an integer index out of range is reported
        resolved(e).site = int(unit_.bounds_sites.size());
        unit_.bounds_sites.push_back({fn_.name, fn_.source.filename, e.loc.line, expr_text(*e.children[0]), "", ""});
    }
    return array_type(base->dtype, base->ndim - integers, view_layout(base, parts), base->readonly);
}

}  // namespace simt
