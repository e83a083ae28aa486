// Facts about array extents that an if statement's test establishes (see guards.h).
#include "codegen/guards.h"
#include <set>
#include "codegen/ast_walk.h"
#include "sema/typed_function.h"
#include "types/type.h"

namespace simt {

namespace {

// The array and dimension whose extent `e` reads: A.shape[k], len(A), A.size of a 1-D A.
bool extent_of(const Expr& e, std::string& array, int& dim) {
    auto array_name = [](const Expr& a) { return a.kind == ExprKind::Name && a.type && a.type->is_array(); };
    if (e.kind == ExprKind::Subscript) {
        const Expr& base = *e.children[0];
        const Expr& k = *e.children[1];
        if (base.kind != ExprKind::Attribute || base.text != "shape" || !array_name(*base.children[0])) return false;
        if (!k.resolved || !k.resolved->is_constant || !k.resolved->constant.is_int()) return false;
        int64_t d = k.resolved->constant.as_int();
        int ndim = base.children[0]->type->ndim;
        if (d < 0) d += ndim;
        if (d < 0 || d >= ndim) return false;
        array = base.children[0]->text;
        dim = int(d);
        return true;
    }
    if (e.kind == ExprKind::Attribute && e.text == "size" && array_name(*e.children[0]) && e.children[0]->type->ndim == 1) {
        array = e.children[0]->text;
        dim = 0;
        return true;
    }
    if (e.kind == ExprKind::Call && e.resolved && e.resolved->builtin == "len" && e.children.size() == 2 &&
        array_name(*e.children[1])) {
        array = e.children[1]->text;
        dim = 0;
        return true;
    }
    return false;
}

bool pure(const Expr& e) {
    if (e.resolved && e.resolved->is_constant) return true;
    switch (e.kind) {
        case ExprKind::Name: return e.resolved && e.resolved->is_local;
        case ExprKind::Attribute: return e.resolved && !e.resolved->builtin.empty();  // threadIdx.x and the like
        case ExprKind::Subscript: {
            std::string a;
            int d;
            return extent_of(e, a, d);
        }
        case ExprKind::BinOp:
            return e.binop != BinOpKind::Div && e.binop != BinOpKind::Pow && e.binop != BinOpKind::MatMul &&
                   pure(*e.children[0]) && pure(*e.children[1]);
        case ExprKind::UnaryOp: return pure(*e.children[0]);
        default: return false;
    }
}

bool is_zero(const Expr& e) {
    return e.resolved && e.resolved->is_constant && e.resolved->constant.is_int() && e.resolved->constant.as_int() == 0;
}

void names_in(const Expr& e, std::set<std::string>& out) {
    if (e.kind == ExprKind::Name) out.insert(e.text);
    for (const ExprPtr& c : e.children) names_in(*c, out);
}

void collect(const Expr& test, std::vector<GuardFact>& out) {
    if (test.kind == ExprKind::BoolOp && test.boolop == BoolOpKind::And) {
        for (const ExprPtr& c : test.children) collect(*c, out);
        return;
    }
    if (test.kind != ExprKind::Compare) return;
    for (size_t i = 0; i < test.cmpops.size(); ++i) {
        const Expr& l = *test.children[i];
        const Expr& r = *test.children[i + 1];
        GuardFact f;
        if (test.cmpops[i] == CmpOpKind::Lt && extent_of(r, f.array, f.dim)) f.index = &l;
        else if (test.cmpops[i] == CmpOpKind::Gt && extent_of(l, f.array, f.dim)) f.index = &r;
        else if (test.cmpops[i] == CmpOpKind::Le && is_zero(l)) f.index = &r;   // 0 <= x
        else if (test.cmpops[i] == CmpOpKind::Ge && is_zero(r)) f.index = &l;   // x >= 0
        if (f.index && f.index->type && f.index->type->is_integer() && pure(*f.index)) out.push_back(f);
    }
}

}  // namespace

std::vector<GuardFact> guard_facts(const Expr& test, const std::vector<StmtPtr>& body) {
    std::vector<GuardFact> facts, kept;
    collect(test, facts);
    for (const GuardFact& f : facts) {
        std::set<std::string> names;
        if (!f.array.empty()) names.insert(f.array);
        names_in(*f.index, names);
        bool stable = true;
        for (const std::string& n : names) stable = stable && !assigns_name(body, n);
        if (stable) kept.push_back(f);
    }
    return kept;
}

bool same_pure_expr(const Expr& a, const Expr& b) {
    if (a.kind != b.kind || a.type != b.type || a.children.size() != b.children.size()) return false;
    if (!pure(a) || !pure(b)) return false;
    bool ca = a.resolved && a.resolved->is_constant, cb = b.resolved && b.resolved->is_constant;
    if (ca || cb) return ca && cb && a.resolved->constant.is_int() && b.resolved->constant.is_int() &&
                         a.resolved->constant.as_int() == b.resolved->constant.as_int();
    if (a.text != b.text) return false;
    if (a.kind == ExprKind::BinOp && a.binop != b.binop) return false;
    if (a.kind == ExprKind::UnaryOp && a.unop != b.unop) return false;
    for (size_t i = 0; i < a.children.size(); ++i)
        if (!same_pure_expr(*a.children[i], *b.children[i])) return false;
    return true;
}

}  // namespace simt
