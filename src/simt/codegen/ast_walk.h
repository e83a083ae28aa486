// Walking statement trees: every statement of a body, and the names a target binds.
#pragma once
#include <string>
#include <vector>
#include "frontend/ast.h"
#include "types/type.h"

namespace simt {

template <class F> void each_statement(const std::vector<StmtPtr>& body, F f) {
    for (const StmtPtr& s : body) {
        f(*s);
        each_statement(s->body, f);
        each_statement(s->orelse, f);
    }
}

// The names an assignment or loop target binds (a, (a, b), [a, b]).
inline void assigned_names(const Expr& target, std::vector<std::string>& out) {
    if (target.kind == ExprKind::Name) out.push_back(target.text);
    if (target.kind == ExprKind::Tuple || target.kind == ExprKind::List)
        for (const ExprPtr& c : target.children) assigned_names(*c, out);
}

// The index components of element access `subscript` (A[i, j] -> i, j; A[i] -> i; A[()] -> none)
// when there is one per dimension of its array; empty otherwise and for 0-d arrays.
inline std::vector<const Expr*> full_index(const Expr& subscript) {
    const Expr& base = *subscript.children[0];
    const Expr& index = *subscript.children[1];
    std::vector<const Expr*> parts;
    if (index.kind == ExprKind::Tuple)
        for (const ExprPtr& c : index.children) parts.push_back(c.get());
    else
        parts.push_back(&index);
    if (!base.type || !base.type->is_array() || int(parts.size()) != base.type->ndim) parts.clear();
    return parts;
}

// Whether any statement of `body` (nested ones included) assigns `name`.
inline bool assigns_name(const std::vector<StmtPtr>& body, const std::string& name) {
    bool found = false;
    each_statement(body, [&](const Stmt& s) {
        std::vector<std::string> names;
        for (const ExprPtr& t : s.targets) assigned_names(*t, names);
        if (s.target) assigned_names(*s.target, names);
        for (const std::string& n : names) found = found || n == name;
    });
    return found;
}

}  // namespace simt
