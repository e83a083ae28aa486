// Which accesses of a range() loop can have their bounds test made once (see loop_bounds.h).
#include "codegen/loop_bounds.h"
#include <optional>
#include <set>
#include "codegen/ast_walk.h"
#include "sema/typed_function.h"
#include "types/type.h"

namespace simt {

namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }
bool integer(const Expr& e) { return e.type && e.type->is_integer(); }
bool integer64(const Expr& e) { return integer(e) && dtype_size(e.type->dtype) == 8; }

template <class F> void each_expr(const Expr* e, F& f) {
    if (!e) return;
    f(*e);
    for (const ExprPtr& c : e->children) each_expr(c.get(), f);
    for (const Keyword& k : e->keywords) each_expr(k.value.get(), f);
}
template <class F> void each_expr_of(const Stmt& s, F& f) {
    for (const ExprPtr& t : s.targets) each_expr(t.get(), f);
    each_expr(s.value.get(), f);
    each_expr(s.target.get(), f);
    each_expr(s.test.get(), f);
    each_expr(s.iter.get(), f);
}

class Analysis {
public:
    Analysis(const std::vector<StmtPtr>& body, const std::string& var) : var_(var) {
        each_statement(body, [&](const Stmt& s) {
            std::vector<std::string> names;
            for (const ExprPtr& t : s.targets) assigned_names(*t, names);
            if (s.target) assigned_names(*s.target, names);
            assigned_.insert(names.begin(), names.end());
        });
    }

    // Same value on every iteration, and free of effects and faults (so it may be evaluated
    // before the loop even when the body would not reach it): constants, locals the body does
    // not assign, thread and block indices, array extents, and + - * & | ^ unary - ~ of those.
    bool invariant(const Expr& e) const {
        if (e.resolved && e.resolved->is_constant) return e.resolved->constant.is_int();
        if (!integer(e)) return false;
        switch (e.kind) {
            case ExprKind::Name: return e.resolved && e.resolved->is_local && e.text != var_ && !assigned_.count(e.text);
            case ExprKind::Attribute: {
                const std::string& b = e.resolved ? e.resolved->builtin : e.text;
                return starts_with(b, "cuda.threadIdx.") || starts_with(b, "cuda.blockIdx.") ||
                       starts_with(b, "cuda.blockDim.") || starts_with(b, "cuda.gridDim.");
            }
            case ExprKind::Subscript: {  // A.shape[k]
                const Expr& base = *e.children[0];
                const Expr& k = *e.children[1];
                return base.kind == ExprKind::Attribute && base.text == "shape" && stable_array(*base.children[0]) &&
                       k.resolved && k.resolved->is_constant && k.resolved->constant.is_int();
            }
            case ExprKind::BinOp:
                switch (e.binop) {
                    case BinOpKind::Add: case BinOpKind::Sub: case BinOpKind::Mul:
                    case BinOpKind::BitAnd: case BinOpKind::BitOr: case BinOpKind::BitXor:
                        return invariant(*e.children[0]) && invariant(*e.children[1]);
                    default: return false;  // division may fault; shifts past the width are undefined
                }
            case ExprKind::UnaryOp:
                return (e.unop == UnaryOpKind::Neg || e.unop == UnaryOpKind::Pos || e.unop == UnaryOpKind::Invert) &&
                       invariant(*e.children[0]);
            default: return false;
        }
    }

    // An array the body cannot rebind: a local name it does not assign.
    bool stable_array(const Expr& e) const {
        return e.kind == ExprKind::Name && e.type && e.type->is_array() && e.resolved && e.resolved->is_local &&
               !assigned_.count(e.text);
    }

    // `e` as c*v + b1 + b2 ..., with the arithmetic around v done in 64-bit integers (so the
    // hoisted test, made in int64, sees the values the body computes).
    std::optional<HoistedIndex> affine(const Expr& e) const {
        HoistedIndex h;
        h.index = &e;
        if (invariant(e)) return h;
        if (!integer(e)) return std::nullopt;
        if (e.kind == ExprKind::Name && e.text == var_) {
            h.uses_var = true;
            return h;
        }
        if (e.kind != ExprKind::BinOp || !integer64(e)) return std::nullopt;
        const Expr& l = *e.children[0];
        const Expr& r = *e.children[1];
        if (e.binop == BinOpKind::Mul) {
            bool var_left = l.kind == ExprKind::Name && l.text == var_;
            bool var_right = r.kind == ExprKind::Name && r.text == var_;
            if (var_left == var_right || !invariant(var_left ? r : l)) return std::nullopt;
            h.uses_var = true;
            h.coef = var_left ? &r : &l;
            return h;
        }
        if (e.binop != BinOpKind::Add) return std::nullopt;
        std::optional<HoistedIndex> a = affine(l), b = affine(r);
        if (!a || !b || (a->uses_var && b->uses_var)) return std::nullopt;
        if (!a->uses_var) std::swap(a, b);  // a holds v
        h.uses_var = true;
        h.coef = a->coef;
        h.offsets = a->offsets;
        h.offsets.push_back(b->index);
        return h;
    }

    // The access `e` (a subscript of an array) if every index component is affine in v.
    std::optional<HoistedAccess> access(const Expr& e) const {
        // (a store target has no type of its own; a slice among the indices fails below)
        if (e.kind != ExprKind::Subscript || (e.type && !e.type->is_scalar())) return std::nullopt;
        const Expr& base = *e.children[0];
        if (!stable_array(base)) return std::nullopt;
        std::vector<const Expr*> parts = full_index(e);
        if (parts.empty()) return std::nullopt;  // (0-d: nothing to test)
        HoistedAccess out;
        out.subscript = &e;
        out.array = &base;
        for (const Expr* p : parts) {
            std::optional<HoistedIndex> h = affine(*p);
            if (!h) return std::nullopt;
            out.indices.push_back(std::move(*h));
        }
        return out;
    }

private:
    std::string var_;
    std::set<std::string> assigned_;
};

// Innermost, no else block, and nothing that must not run twice in the source: barriers and
// warp operations (every thread must reach the same one), device functions (they may hold them).
bool loop_qualifies(const Stmt& loop) {
    if (!loop.orelse.empty()) return false;
    bool ok = true;
    auto check = [&](const Expr& e) {
        if (e.kind == ExprKind::Call && e.resolved && (e.resolved->sync_site >= 0 || e.resolved->callee)) ok = false;
    };
    each_statement(loop.body, [&](const Stmt& s) {
        if (s.kind == StmtKind::For || s.kind == StmtKind::While) ok = false;
        each_expr_of(s, check);
    });
    return ok;
}

}  // namespace

std::vector<HoistedAccess> hoistable_accesses(const Stmt& loop, const std::string& var) {
    std::vector<HoistedAccess> out;
    if (!loop_qualifies(loop)) return out;
    Analysis analysis(loop.body, var);
    auto collect = [&](const Expr& e) {
        if (e.kind != ExprKind::Subscript || !e.children[0]->type || !e.children[0]->type->is_array()) return;
        if (std::optional<HoistedAccess> a = analysis.access(e)) out.push_back(std::move(*a));
    };
    each_statement(loop.body, [&](const Stmt& s) { each_expr_of(s, collect); });
    return out;
}

}  // namespace simt
