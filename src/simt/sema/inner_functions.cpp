// Inner functions: a `def` or `name = lambda ...` nested in a kernel or device function. Each is
// a device function of its own, specialized per argument types, whose source is the nested
// definition. The enclosing function's variables it reads become trailing hidden parameters,
// passed by value at every call: the body sees each variable's value at the time of the call, as
// Python's late-binding closures do for functions that are only called (never stored, returned
// or passed) and never assign an enclosing variable (`nonlocal` is rejected by the parser).
#include <functional>
#include "sema/sema.h"
#include "types/type.h"

namespace simt {

namespace {

bool before(Loc a, Loc b) { return a.line < b.line || (a.line == b.line && a.col < b.col); }

void expr_names(const Expr* e, std::set<std::string>& out) {
    if (!e) return;
    if (e->kind == ExprKind::Name) out.insert(e->text);
    for (const ExprPtr& c : e->children) expr_names(c.get(), out);
    for (const Keyword& k : e->keywords) expr_names(k.value.get(), out);
}

void target_names(const Expr& e, std::set<std::string>& out) {
    if (e.kind == ExprKind::Name) out.insert(e.text);
    if (e.kind == ExprKind::Tuple || e.kind == ExprKind::List)
        for (const ExprPtr& c : e.children) target_names(*c, out);
}

std::set<std::string> free_names(const FunctionDef& f);

// Names a body reads (nested definitions' free names included) and names it binds.
void scan(const std::vector<StmtPtr>& body, std::set<std::string>& used, std::set<std::string>& bound) {
    for (const StmtPtr& s : body) {
        for (const ExprPtr& t : s->targets) { expr_names(t.get(), used); target_names(*t, bound); }
        if (s->target) { expr_names(s->target.get(), used); target_names(*s->target, bound); }
        for (const Expr* e : {s->value.get(), s->test.get(), s->iter.get(), s->message.get()}) expr_names(e, used);
        if (s->def) {
            bound.insert(s->def->name);
            for (const Param& p : s->def->params) expr_names(p.default_value.get(), used);
            for (const std::string& n : free_names(*s->def)) used.insert(n);
        }
        scan(s->body, used, bound);
        scan(s->orelse, used, bound);
    }
}

std::set<std::string> bound_names(const FunctionDef& f) {
    std::set<std::string> used, bound;
    scan(f.body, used, bound);
    for (const Param& p : f.params) bound.insert(p.name);
    return bound;
}

// Names the function's body reads that it does not bind: enclosing variables, inner functions
// of enclosing scopes, globals.
std::set<std::string> free_names(const FunctionDef& f) {
    std::set<std::string> used, bound, out;
    scan(f.body, used, bound);
    for (const Param& p : f.params) bound.insert(p.name);
    for (const std::string& n : used) if (!bound.count(n)) out.insert(n);
    return out;
}

void find_definitions(const std::vector<StmtPtr>& body, std::vector<const Stmt*>& out) {
    for (const StmtPtr& s : body) {
        if (s->kind == StmtKind::FunctionDef) out.push_back(s.get());
        find_definitions(s->body, out);
        find_definitions(s->orelse, out);
    }
}

}  // namespace

void Sema::inherit_inner_functions(const DeviceFunctionRef& ref) {
    for (const auto& [name, weak] : ref.visible)
        if (auto r = weak.lock()) inner_functions_[name] = r;
}

// The statements stay alive (inner functions point into them) but leave the function; an inner
// function defined there is undefined afterwards, as in Python.
void Sema::prune(std::vector<StmtPtr>& branch) {
    std::vector<const Stmt*> defs;
    find_definitions(branch, defs);
    for (const Stmt* d : defs) {
        auto it = inner_functions_.find(d->def->name);
        if (it != inner_functions_.end() && it->second->inner == d->def.get()) inner_functions_.erase(it);
    }
    for (StmtPtr& st : branch) fn_.pruned.push_back(std::move(st));
    branch.clear();
}

void Sema::collect_inner_functions() {
    std::vector<const Stmt*> defs;
    find_definitions(fn_.def.body, defs);
    if (defs.empty()) return;
    const std::string scope = fn_.is_kernel ? "kernel:" + fn_.name : fn_.device_key;
    std::map<std::string, std::shared_ptr<DeviceFunctionRef>> own;
    for (const Stmt* s : defs) {
        const FunctionDef& d = *s->def;
        auto seen = own.find(d.name);
        if (seen != own.end())
            fail(d.loc, "inner function '" + d.name + "' is defined twice in " + fn_.name + " (first on line " +
                            std::to_string(seen->second->inner->loc.line) + "); inner functions cannot be redefined");
        if (local_names_.count(d.name))
            fail(d.loc, "'" + d.name + "' names an inner function and a variable of " + fn_.name +
                            "; inner functions cannot be rebound, stored or assigned");
        auto ref = std::make_shared<DeviceFunctionRef>();
        ref->key = scope + "@" + std::to_string(d.loc.line) + "." + std::to_string(d.loc.col) + ":" + d.name;
        ref->name = d.name;
        ref->source = fn_.source;
        ref->resolve = resolve_;
        ref->inner = &d;
        own[d.name] = ref;
    }
    for (const auto& [name, ref] : own) inner_functions_[name] = ref;  // these shadow the enclosing scopes' ones
    // In definition order, so that the captures of the inner functions one calls are known.
    for (const Stmt* s : defs) {
        const FunctionDef& d = *s->def;
        DeviceFunctionRef& ref = *own[d.name];
        for (const auto& [name, r] : inner_functions_) ref.visible[name] = r;
        const std::set<std::string> bound = bound_names(d);
        std::set<std::string> captures;
        for (const std::string& n : free_names(d)) {
            if (local_names_.count(n)) { captures.insert(n); continue; }
            auto it = inner_functions_.find(n);
            if (it == inner_functions_.end() || !before(it->second->inner->loc, d.loc)) continue;  // calls report it
            // Calling another inner function passes on what that one reads.
            for (const std::string& c : it->second->captures) {
                if (bound.count(c))
                    fail(d.loc, "inner function '" + d.name + "' binds '" + c + "', which the inner function '" + n +
                                    "' it calls reads from " + fn_.name + "; rename one of them");
                captures.insert(c);
            }
        }
        ref.captures.assign(captures.begin(), captures.end());
    }
}

const Type* Sema::infer_inner_function_name(Expr& e, const std::shared_ptr<DeviceFunctionRef>& ref) {
    if (&e != callee_name_ && !function_values_.count(&e)) {
        const bool written_inline = ref->inner && ref->inner->is_lambda && e.text.rfind("lambda_at_", 0) == 0;
        fail(e.loc, (written_inline ? std::string("a lambda") : "inner function '" + e.text + "'") +
                        " can only be called, or given to a function that takes one (tile.reduce, tile.scan): it cannot "
                        "be stored, returned or passed as a value");
    }
    resolved(e).device_function = ref;
    return device_function_type(ref->key);
}

// The types of the hidden arguments of a call of an inner function: the enclosing variables it
// reads, as they are typed at the call. False while one of them is not typed yet.
bool Sema::inner_call_arguments(Expr& e, const DeviceFunctionRef& ref, std::vector<const Type*>& types) {
    if (before(e.loc, ref.inner->loc))
        fail(e.loc, "inner function '" + ref.name + "' is called before its definition (line " +
                        std::to_string(ref.inner->loc.line) + ")");
    for (const std::string& c : ref.captures) {
        auto it = local_types_.find(c);
        if (it == local_types_.end() || !it->second) {
            if (final_ || !local_names_.count(c))
                fail(e.loc, "inner function '" + ref.name + "' reads '" + c + "' of " + fn_.name +
                                ", which is not assigned before this call");
            incomplete_ = true;
            return false;
        }
        if (it->second->compile_time_only())
            fail(e.loc, "inner function '" + ref.name + "' reads '" + c + "', a variable that exists only while compiling (a " +
                            it->second->str() + "); use the value itself in the inner function");
        types.push_back(it->second);
    }
    return true;
}

}  // namespace simt
