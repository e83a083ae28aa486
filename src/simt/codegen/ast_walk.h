// Walking statement trees: every statement of a body, and the names a target binds.
#pragma once
#include <string>
#include <vector>
#include "frontend/ast.h"

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
