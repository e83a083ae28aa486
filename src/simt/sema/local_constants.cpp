// Locals that hold one compile-time number for the whole function: `half = TILE // 2` or
// `bm, bn = 64, 32` as a top-level statement, the only assignment to those names. Reads after
// that statement carry the value, so tile shapes, cuda.local.array sizes and other arguments that
// must be known while compiling can name them (cuTile programs derive shapes this way). The
// variable itself is still emitted: only what the compiler knows about its reads changes.
#include "sema/sema.h"

namespace simt {

namespace {

void count_targets(const Expr& e, std::map<std::string, int>& count) {
    if (e.kind == ExprKind::Name) ++count[e.text];
    if (e.kind == ExprKind::Tuple || e.kind == ExprKind::List)
        for (const ExprPtr& c : e.children) count_targets(*c, count);
}

}  // namespace

void count_bindings(const std::vector<StmtPtr>& body, std::map<std::string, int>& count) {
    for (const StmtPtr& s : body) {
        for (const ExprPtr& t : s->targets) count_targets(*t, count);
        if (s->target) count_targets(*s->target, count);
        if (s->kind == StmtKind::FunctionDef && s->def) ++count[s->def->name];
        count_bindings(s->body, count);
        count_bindings(s->orelse, count);
    }
}

namespace {

bool is_number_or_numbers(const ConstValue& v) {
    switch (v.kind) {
        case ConstValue::Kind::Bool: case ConstValue::Kind::Int: case ConstValue::Kind::Float: return true;
        case ConstValue::Kind::Tuple:
            for (const ConstValue& e : v.elems)
                if (!is_number_or_numbers(e)) return false;
            return true;
        default: return false;
    }
}

bool after(Loc a, Loc b) { return a.line > b.line || (a.line == b.line && a.col > b.col); }

}  // namespace

void Sema::find_single_assignments() {
    std::map<std::string, int> count;
    count_bindings(fn_.def.body, count);
    for (const Param& p : fn_.def.params) count[p.name] += 2;  // a parameter is bound by the call
    for (const StmtPtr& s : fn_.def.body) {
        if (s->kind != StmtKind::Assign || s->targets.size() != 1) continue;
        std::map<std::string, int> here;
        count_targets(*s->targets[0], here);
        for (const auto& [name, n] : here)
            if (n == 1 && count[name] == 1) single_assignments_[name] = s.get();
    }
}

void Sema::note_local_constants(const Stmt& s) {
    if (s.kind != StmtKind::Assign || s.targets.size() != 1) return;
    const ConstValue* value = constant(*s.value);
    if (!value || !is_number_or_numbers(*value)) return;
    const Expr& target = *s.targets[0];
    auto note = [&](const Expr& name, const ConstValue& v) {
        auto single = single_assignments_.find(name.text);
        if (name.kind == ExprKind::Name && single != single_assignments_.end() && single->second == &s &&
            is_number_or_numbers(v))
            local_constants_[name.text] = {v, s.loc};
    };
    if (target.kind == ExprKind::Name) {
        note(target, *value);
    } else if ((target.kind == ExprKind::Tuple || target.kind == ExprKind::List) &&
               value->kind == ConstValue::Kind::Tuple && value->elems.size() == target.children.size()) {
        for (size_t i = 0; i < target.children.size(); ++i) note(*target.children[i], value->elems[i]);
    }
}

void Sema::read_local_constant(Expr& e) {
    auto known = local_constants_.find(e.text);
    if (known != local_constants_.end() && after(e.loc, known->second.second)) set_constant(e, known->second.first);
}

}  // namespace simt
