// Emitter: for loops over 1-D arrays, tuples, enumerate() and zip() (a bare range() loop is
// for_statement's). Each iterable becomes a cursor: locals declared before the loop (what Python
// evaluates once: the array, the tuple, range()'s bounds, enumerate()'s start), a test that
// another item exists, and a step; zip() stops at its shortest iterable, as Python's does. The
// loop header tests and steps every cursor, so `continue` steps them too.
#include "codegen/ast_walk.h"
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/iteration.h"

namespace simt {

Emitter::Cursor Emitter::cursor(const Expr& iterable) {
    const Type* t = iterable.type;
    if (t->kind == TypeKind::Iterator)
        return t->name == "enumerate" ? enumerate_cursor(iterable) : zip_cursor(iterable);
    Cursor c;
    c.type = iteration_type(t);
    if (t->kind == TypeKind::Range) {
        RangeBounds r = range_bounds(iterable, c.type);
        std::string i = temp("i");
        line(r.type + " " + i + " = " + r.start + ";");
        c.more = r.more(i);
        c.advance = i + " += " + r.step;
        c.item = i;
        return c;
    }
    std::string items = temp("items"), k = temp("k");
    if (t->is_tuple()) {  // copied into an array, which the loop indexes
        std::string tup = temp("tuple"), init;
        line("auto " + tup + " = " + expr(iterable) + ";");
        for (size_t e = 0; e < t->elems.size(); ++e) init += (e ? ", " : "") + cast(tup + ".f" + std::to_string(e), t->elems[e], c.type);
        c.count = "(int64_t)" + std::to_string(t->elems.size());
        line(c_type(c.type) + " " + items + "[" + std::to_string(t->elems.size()) + "] = {" + init + "};");
        c.item = items + "[" + k + "]";
    } else {  // an array: k is a valid index, so the element (or row) is read untested
        line("auto " + items + " = " + expr(iterable) + ";");
        c.count = items + ".shape[0]";
        if (t->ndim == 1) {
            c.item = "simt_load_unchecked(" + items + ", " + k + ")";
        } else {
            c.item = view_call(c.type, items, -1) + ", simt_take_of(" + k + "))";  // a row, as items[k]
        }
    }
    line("int64_t " + k + " = 0;");
    c.more = k + " < " + c.count;
    c.advance = "++" + k;
    return c;
}

// enumerate(iterable, start): an int64 counter beside the iterable's cursor, wrapping as numba's
// intp does.
Emitter::Cursor Emitter::enumerate_cursor(const Expr& call) {
    std::string error;
    std::vector<const Expr*> a = match_call_args(call, {"iterable", "start"}, 1, error);
    Cursor source = cursor(*a[0]);
    Cursor counter;
    counter.type = int64_type();
    counter.item = temp("n");
    line("int64_t " + counter.item + " = " + (a[1] ? expr_as(*a[1], int64_type()) : "0") + ";");
    Cursor c;
    c.type = iteration_type(call.type);
    c.more = source.more;
    c.advance = source.advance + ", " + counter.item + " = " +
                binop_code(BinOpKind::Add, counter.item, int64_type(), literal(ConstValue::integer(1), int64_type()), int64_type());
    // Counting from 0, the counter stays below the source's length.
    if (!a[1] || (a[1]->resolved && a[1]->resolved->is_constant && a[1]->resolved->constant.as_int() == 0)) c.count = source.count;
    c.parts = {counter, source};
    return c;
}

Emitter::Cursor Emitter::zip_cursor(const Expr& call) {
    Cursor c;
    c.type = iteration_type(call.type);
    bool counted = true;
    for (size_t i = 1; i < call.children.size(); ++i) {
        Cursor part = cursor(*call.children[i]);
        c.more += (c.more.empty() ? "" : " && ") + part.more;
        c.advance += (c.advance.empty() ? "" : ", ") + part.advance;
        counted = counted && !part.count.empty();
        c.count = c.count.empty() ? part.count : "simt_min(" + c.count + ", " + part.count + ")";
        c.parts.push_back(part);
    }
    if (!counted) c.count.clear();
    return c;
}

// The current item: a tuple of the parts' items for enumerate() and zip().
std::string Emitter::item_code(const Cursor& c) {
    if (c.parts.empty()) return c.item;
    std::string s = c_type(c.type) + "{";
    for (size_t i = 0; i < c.parts.size(); ++i) s += (i ? ", " : "") + item_code(c.parts[i]);
    return s + "}";
}

// A target unpacking enumerate()'s or zip()'s item takes each part directly (no tuple is built).
void Emitter::bind_item(const Expr& target, const Cursor& c) {
    bool unpacks = (target.kind == ExprKind::Tuple || target.kind == ExprKind::List) && !c.parts.empty() &&
                   target.children.size() == c.parts.size();
    if (!unpacks) {
        assign_to(target, item_code(c), c.type);
        return;
    }
    for (size_t i = 0; i < c.parts.size(); ++i) bind_item(*target.children[i], c.parts[i]);
}

void Emitter::for_each_item(const Stmt& s) {
    line("{");
    ++indent_;
    Cursor c = cursor(*s.iter);
    // `for i, v in enumerate(a)`: i lies in [0, len(a)) while the body does not assign it, which
    // the bounds tests of accesses indexed by i use (as for a range() loop's variable).
    const Expr& target = *s.target;
    std::string counter;
    if (s.iter->type->kind == TypeKind::Iterator && s.iter->type->name == "enumerate" && !c.count.empty() &&
        target.kind == ExprKind::Tuple && target.children.size() == 2 && target.children[0]->kind == ExprKind::Name &&
        !assigns_name(s.body, target.children[0]->text) && !ranged_vars_.count(target.children[0]->text))
        counter = target.children[0]->text;
    loop_with_else(s, "for (; " + c.more + "; " + c.advance + ")", [&] {
        bind_item(target, c);
        if (!counter.empty()) ranged_vars_[counter] = c.count;
        block(s.body);
        if (!counter.empty()) ranged_vars_.erase(counter);
    });
    --indent_;
    line("}");
}

}  // namespace simt
