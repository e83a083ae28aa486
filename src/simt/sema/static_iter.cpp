// cuTile's compile-time helpers that shape the code: static_eval(expr), the value of an expression
// known when the kernel compiles (a constant, or the value a constant condition selects:
// `static_eval(x if N % 2 == 0 else y)`), and `for v in static_iter(items):`, a loop unrolled
// while compiling: the body once per item, v replaced by the item (a constant, or an element of a
// tuple of values), so v may serve as a tile shape or a tuple index. Items: range() of constants,
// a constant tuple, or a tuple of values (read once, before the copies). As in cuTile the body
// may not break, continue or return; here it may not define functions or lambdas either (inline
// lambdas included), nor assign v.
#include <functional>
#include <map>
#include <set>
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"
#include "sema/tile_args.h"
#include "support/error.h"

namespace simt {

namespace {

using namespace tile_builtin;

constexpr size_t kMaxStaticIterations = 1000;  // cuTile's limit

// static_eval's argument may select between values, but not compute at run time.
bool selects_only(Sema& s, const Expr& e) {
    if (s.constant(e) || (e.type && e.type->compile_time_only())) return true;  // (dtypes, modules)
    switch (e.kind) {
        case ExprKind::Name: return true;
        case ExprKind::IfExp: {
            const ConstValue* c = s.constant(*e.children[0]);
            return c && selects_only(s, *e.children[c->truthy() ? 1 : 2]);
        }
        case ExprKind::Tuple:
            for (const ExprPtr& c : e.children)
                if (!selects_only(s, *c)) return false;
            return true;
        default: return false;
    }
}

const Type* infer_static_eval(Sema& s, Expr& call) {
    std::vector<Expr*> a = args(s, call, {"expr"}, 1);
    if (const ConstValue* c = s.constant(*a[0])) {
        s.set_constant(call, *c);
        return a[0]->type;
    }
    if (!selects_only(s, *a[0]))
        s.fail(a[0]->loc, "tile.static_eval() needs an expression known when the kernel compiles (a constant, or values "
                          "chosen by a constant condition), not one computed while it runs");
    return a[0]->type;
}

std::string emit_static_eval(Emitter& em, const Expr& call) {
    if (call.resolved->is_constant) return em.literal(call.resolved->constant, call.type);
    return em.expr(*emit_args(call, {"expr"})[0]);
}

const Type* infer_static_iter(Sema& s, Expr& call) {
    s.fail(call.loc, "tile.static_iter() can only be the iterable of a for loop (for v in tile.static_iter(...):)");
}
std::string emit_static_iter(Emitter&, const Expr&) { return ""; }

ExprPtr literal_expr(const ConstValue& v, Loc loc) {
    ExprPtr e;
    switch (v.kind) {
        case ConstValue::Kind::Bool: e = std::make_unique<Expr>(ExprKind::Bool, loc); e->bool_value = v.b; break;
        case ConstValue::Kind::Int: e = std::make_unique<Expr>(ExprKind::Int, loc); e->int_value = v.i; break;
        case ConstValue::Kind::Float: e = std::make_unique<Expr>(ExprKind::Float, loc); e->float_value = v.f; break;
        case ConstValue::Kind::Tuple:
            e = std::make_unique<Expr>(ExprKind::Tuple, loc);
            for (const ConstValue& c : v.elems) {
                ExprPtr item = literal_expr(c, loc);
                if (!item) return nullptr;
                e->children.push_back(std::move(item));
            }
            break;
        default: return nullptr;
    }
    return e;
}

// Replaces every occurrence of `name` in e (and below) by a copy of `item`: a value for the loop
// variable, or another name for a copy's own variable.
void substitute(ExprPtr& e, const std::string& name, const Expr& item) {
    if (!e) return;
    if (e->kind == ExprKind::Name && e->text == name) {
        Loc loc = e->loc;
        e = clone_expr(&item);
        e->loc = loc;
        return;
    }
    for (ExprPtr& c : e->children) substitute(c, name, item);
    for (Keyword& k : e->keywords) substitute(k.value, name, item);
}

void substitute(std::vector<StmtPtr>& body, const std::string& name, const Expr& item) {
    for (StmtPtr& s : body) {
        for (ExprPtr& t : s->targets) substitute(t, name, item);
        for (ExprPtr* e : {&s->value, &s->target, &s->test, &s->iter, &s->message}) substitute(*e, name, item);
        substitute(s->body, name, item);
        substitute(s->orelse, name, item);
    }
}

void names_in(const Expr* e, std::set<std::string>& out) {
    if (!e) return;
    if (e->kind == ExprKind::Name) out.insert(e->text);
    for (const ExprPtr& c : e->children) names_in(c.get(), out);
    for (const Keyword& k : e->keywords) names_in(k.value.get(), out);
}

void names_in(const std::vector<StmtPtr>& body, std::set<std::string>& out);

// Every name a statement mentions, its nested statements' and inner functions' included.
void names_in(const Stmt& s, std::set<std::string>& out) {
    for (const ExprPtr& t : s.targets) names_in(t.get(), out);
    for (const Expr* e : {s.value.get(), s.target.get(), s.test.get(), s.iter.get(), s.message.get()}) names_in(e, out);
    if (s.def) {
        for (const Param& p : s.def->params) names_in(p.default_value.get(), out);
        names_in(s.def->body, out);
    }
    names_in(s.body, out);
    names_in(s.orelse, out);
}

void names_in(const std::vector<StmtPtr>& body, std::set<std::string>& out) {
    for (const StmtPtr& s : body) names_in(*s, out);
}

bool binds(const Expr& target, const std::string& name) {
    std::set<std::string> bound;
    collect_targets(target, bound);
    return bound.count(name) > 0;
}

// Names each copy of `body` may keep to itself: bound in it, and first met in a statement at its
// top that assigns them without reading them (every copy then sets them before any read).
// *single: those of them bound exactly once, by that statement (its index in body): constants
// where its value is one.
std::vector<std::string> own_names(const std::vector<StmtPtr>& body, const std::set<std::string>& exclude,
                                   std::map<std::string, size_t>* single) {
    std::set<std::string> seen, own_set;
    std::vector<std::string> own;
    std::map<std::string, int> bindings;
    count_bindings(body, bindings);
    for (size_t i = 0; i < body.size(); ++i) {
        const StmtPtr& s = body[i];
        std::set<std::string> bound, mentioned;
        if (s->kind == StmtKind::Assign)
            for (const ExprPtr& t : s->targets) collect_targets(*t, bound);
        names_in(*s, mentioned);
        std::set<std::string> read;
        names_in(s->value.get(), read);
        for (const ExprPtr& t : s->targets)  // (an element's array and index are read)
            if (t->kind != ExprKind::Name && t->kind != ExprKind::Tuple && t->kind != ExprKind::List) names_in(t.get(), read);
        for (const std::string& n : bound)
            if (!seen.count(n) && !read.count(n) && !exclude.count(n) && own_set.insert(n).second) {
                own.push_back(n);
                if (single && bindings[n] == 1) (*single)[n] = i;
            }
        seen.insert(mentioned.begin(), mentioned.end());
    }
    return own;
}

// What the body may not do (the first offending statement), or null. Loops inside may break and
// continue themselves.
const Stmt* forbidden(const std::vector<StmtPtr>& body, const std::string& name, bool in_loop, std::string& why) {
    for (const StmtPtr& s : body) {
        switch (s->kind) {
            case StmtKind::Break: if (!in_loop) { why = "break"; return s.get(); } break;
            case StmtKind::Continue: if (!in_loop) { why = "continue"; return s.get(); } break;
            case StmtKind::Return: why = "return"; return s.get();
            case StmtKind::FunctionDef: why = "a function or lambda definition"; return s.get();
            default: break;
        }
        bool assigns = s->target && binds(*s->target, name);
        for (const ExprPtr& t : s->targets) assigns = assigns || binds(*t, name);
        if (assigns) { why = "an assignment to '" + name + "'"; return s.get(); }
        const bool loop = s->kind == StmtKind::For || s->kind == StmtKind::While;
        if (const Stmt* f = forbidden(s->body, name, in_loop || loop, why)) return f;
        if (const Stmt* f = forbidden(s->orelse, name, in_loop, why)) return f;
    }
    return nullptr;
}

}  // namespace

void register_tile_static_builtins(BuiltinRegistry& r) {
    add_tile_function(r, "static_eval", infer_static_eval, emit_static_eval);
    add_tile_function(r, "static_iter", infer_static_iter, emit_static_iter);
}

// Rewrites `for v in static_iter(items): body` as `if True:` holding the body once per item with
// v replaced by it, then `v = <last item>` where v is read elsewhere (Python leaves v bound to
// it). False while the items' types are not known yet.
bool Sema::unroll_static_iter(Stmt& s) {
    Expr& call = *s.iter;
    Expr& callee = *call.children[0];
    callee_name_ = &callee;
    type_of(callee);
    callee_name_ = nullptr;
    if (!callee.resolved || callee.resolved->builtin != "tile.static_iter") return false;
    if (call.children.size() != 2 || !call.keywords.empty())
        fail(call.loc, "tile.static_iter() takes one iterable: for v in tile.static_iter(items):");
    Expr& items = *call.children[1];
    const Type* t = type_of(items);
    if (!t) { incomplete_ = true; return true; }
    if (s.target->kind != ExprKind::Name)
        unsupported(s.target->loc, "a static_iter loop binds one name (unpack the item inside the body)");
    const std::string name = s.target->text;
    // (numbered, not placed: copies of an inner static_iter loop share their source position)
    const std::string tag = "_unrolled" + std::to_string(++static_iter_count_);
    std::vector<ExprPtr> values;
    StmtPtr keep_items;  // values of a tuple are read once, before the copies, as cuTile saves them
    if (items.kind == ExprKind::Call && items.resolved && items.resolved->builtin == "range") {
        int64_t bound[3] = {0, 0, 1};
        const size_t n = items.children.size() - 1;
        for (size_t i = 0; i < n; ++i) {
            const ConstValue* c = constant(*items.children[i + 1]);
            if (!c || !c->is_int()) fail(items.children[i + 1]->loc, "tile.static_iter(range(...)) needs constant bounds");
            bound[n == 1 ? 1 : i] = c->as_int();
        }
        if (bound[2] == 0) fail(items.loc, "range() arg 3 must not be zero");
        for (int64_t v = bound[0]; bound[2] > 0 ? v < bound[1] : v > bound[1];) {
            if (values.size() > kMaxStaticIterations) break;
            values.push_back(literal_expr(ConstValue::integer(v), s.loc));
            if (__builtin_add_overflow(v, bound[2], &v)) break;
        }
    } else if (const ConstValue* c = constant(items); c && c->kind == ConstValue::Kind::Tuple) {
        for (const ConstValue& v : c->elems) {
            ExprPtr e = literal_expr(v, s.loc);
            if (!e) fail(items.loc, "tile.static_iter() items must be numbers, tuples of them, or values, not " + v.str());
            values.push_back(std::move(e));
        }
    } else if (t->is_tuple()) {
        const std::string saved = "simt_static_items" + tag;
        local_names_.insert(saved);
        keep_items = std::make_unique<Stmt>(StmtKind::Assign, s.loc);
        auto target = std::make_unique<Expr>(ExprKind::Name, s.loc);
        target->text = saved;
        keep_items->targets.push_back(std::move(target));
        keep_items->value = clone_expr(&items);
        for (size_t k = 0; k < t->elems.size(); ++k) {
            auto base = std::make_unique<Expr>(ExprKind::Name, items.loc);
            base->text = saved;
            auto index = std::make_unique<Expr>(ExprKind::Int, items.loc);
            index->int_value = int64_t(k);
            auto item = std::make_unique<Expr>(ExprKind::Subscript, items.loc);
            item->children.push_back(std::move(base));
            item->children.push_back(std::move(index));
            values.push_back(std::move(item));
        }
    } else {
        fail(items.loc, "tile.static_iter() iterates over range() of constants or a tuple, not " + t->str());
    }
    if (values.size() > kMaxStaticIterations)
        fail(items.loc, "tile.static_iter() unrolls at most " + std::to_string(kMaxStaticIterations) + " iterations");
    std::string why;
    if (const Stmt* bad = forbidden(s.body, name, false, why))
        unsupported(bad->loc, "a static_iter loop's body cannot hold " + why + " (it is unrolled while compiling)");
    if (!s.orelse.empty()) unsupported(s.loc, "a static_iter loop cannot have an else block");

    // Variables each copy sets before reading and nothing else mentions are the copy's own
    // (renamed), so they may take another type in each (`t = load(..., shape=(w,))` for each
    // width w), and one set once from a constant is that constant (`h = w // 2` as a shape).
    std::set<std::string> outside, exclude = {name};
    for (const Param& p : fn_.def.params) exclude.insert(p.name);
    std::function<void(const std::vector<StmtPtr>&)> mentioned_outside = [&](const std::vector<StmtPtr>& body) {
        for (const StmtPtr& st : body) {
            if (st.get() == &s) continue;
            Stmt& other = *st;
            bool static_loop = false;
            if (other.kind == StmtKind::For && other.iter && other.iter->kind == ExprKind::Call) {
                Expr& c = *other.iter->children[0];
                callee_name_ = &c;
                try { type_of(c); } catch (const Error&) {}
                callee_name_ = nullptr;
                static_loop = c.resolved && c.resolved->builtin == "tile.static_iter";
            }
            if (!static_loop) {
                if (other.kind == StmtKind::For || other.kind == StmtKind::While || other.kind == StmtKind::If) {
                    std::set<std::string> head;  // this statement's own expressions, then its blocks
                    for (const Expr* e : {other.target.get(), other.test.get(), other.iter.get()}) names_in(e, head);
                    outside.insert(head.begin(), head.end());
                    mentioned_outside(other.body);
                    mentioned_outside(other.orelse);
                } else {
                    names_in(other, outside);
                }
                continue;
            }
            // Another static_iter loop: what its copies keep to themselves is not shared (its
            // items and loop variable are read and bound outside its copies).
            std::set<std::string> all, theirs;
            names_in(other.body, all);
            for (const std::string& n : own_names(other.body, {}, nullptr)) theirs.insert(n);
            if (other.target->kind == ExprKind::Name) theirs.insert(other.target->text);  // (replaced in its copies)
            for (const std::string& n : all)
                if (!theirs.count(n)) outside.insert(n);
            names_in(other.iter.get(), outside);
        }
    };
    mentioned_outside(fn_.def.body);
    std::map<std::string, size_t> single;
    std::vector<std::string> own;
    for (const std::string& n : own_names(s.body, exclude, &single))
        if (!outside.count(n)) own.push_back(n);

    std::vector<StmtPtr> unrolled;
    if (keep_items) unrolled.push_back(std::move(keep_items));
    for (size_t k = 0; k < values.size(); ++k) {
        std::vector<StmtPtr> copy = clone_block(s.body);
        substitute(copy, name, *values[k]);
        for (const std::string& n : own) {
            const std::string renamed = n + "__iteration" + std::to_string(k) + tag;
            Expr to(ExprKind::Name, s.loc);
            to.text = renamed;
            substitute(copy, n, to);  // (each occurrence keeps its own position)
            local_names_.insert(renamed);
            auto once = single.find(n);
            if (once != single.end()) single_assignments_[renamed] = copy[once->second].get();
        }
        for (StmtPtr& st : copy) unrolled.push_back(std::move(st));
    }
    if (!values.empty() && outside.count(name)) {  // (read after the loop: Python leaves it bound)
        auto last = std::make_unique<Stmt>(StmtKind::Assign, s.loc);
        last->targets.push_back(clone_expr(s.target.get()));
        last->value = clone_expr(values.back().get());
        unrolled.push_back(std::move(last));
    }
    // (the original statements stay alive: sema's annotations may still point into them)
    for (StmtPtr& st : s.body) fn_.pruned.push_back(std::move(st));
    s.kind = StmtKind::If;
    s.test = std::make_unique<Expr>(ExprKind::Bool, s.loc);
    s.test->bool_value = true;
    s.body = std::move(unrolled);
    s.iter.reset();
    s.target.reset();
    return true;
}

}  // namespace simt
