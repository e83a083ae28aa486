// NVVM IR emitter: for loops over 1-D arrays (elements), N-d arrays (rows), tuples, enumerate()
// and zip() of these and of range(), as codegen/emit_iterate.cpp writes them in CUDA C++ (a bare
// range() loop is for_range's). Each iterable becomes a cursor: what Python evaluates once is
// evaluated before the loop, its position lives in an alloca, and the loop header tests every
// cursor (zip stops at its shortest iterable), the latch steps every cursor (so `continue` does).
#include "codegen/nvvm_emitter.h"
#include "sema/builtins.h"
#include "sema/iteration.h"

namespace simt {

NvvmEmitter::Cursor NvvmEmitter::cursor(const Expr& iterable) {
    const Type* t = iterable.type;
    Cursor c;
    c.type = iteration_type(t);
    if (!c.type) not_covered("this for loop");
    if (t->kind == TypeKind::Iterator && t->name == "enumerate") {
        if (!iterable.keywords.empty() || iterable.children.size() < 2 || iterable.children.size() > 3)
            not_covered("this enumerate()");
        Cursor source = cursor(*iterable.children[1]);
        Cursor counter;
        counter.type = int64_type();
        std::string slot = "%n" + std::to_string(labels_++);
        allocas_ += "  " + slot + " = alloca i64\n";
        IrValue start = iterable.children.size() == 3 ? expr_as(*iterable.children[2], int64_type()) : int_constant(0, int64_type());
        emit("store i64 " + start.ref + ", i64* " + slot);
        counter.item = [this, slot] { return IrValue{assign("load i64, i64* " + slot), int64_type(), {}}; };
        counter.more = [] { return std::string("true"); };
        counter.advance = [this, slot] {
            std::string n = assign("load i64, i64* " + slot);
            emit("store i64 " + assign("add i64 " + n + ", 1") + ", i64* " + slot);
        };
        c.parts = {counter, source};
        return c;
    }
    if (t->kind == TypeKind::Iterator && t->name == "zip") {
        if (!iterable.keywords.empty()) not_covered("this zip()");
        for (size_t i = 1; i < iterable.children.size(); ++i) c.parts.push_back(cursor(*iterable.children[i]));
        return c;
    }
    if (t->kind == TypeKind::Iterator) not_covered("this for loop");
    if (t->kind == TypeKind::Range) return range_cursor(iterable, c.type);
    // An array or a tuple: an index k from 0 to the length, which is valid, so items are read untested.
    std::string k = "%k" + std::to_string(labels_++);
    allocas_ += "  " + k + " = alloca i64\n";
    std::string count;
    if (t->is_tuple()) {
        std::vector<IrValue> parts = tuple_parts(iterable);
        const std::string T = ir_type(c.type), storage = "[" + std::to_string(parts.size()) + " x " + T + "]";
        std::string items = "%items" + std::to_string(labels_++);
        allocas_ += "  " + items + " = alloca " + storage + "\n";
        for (size_t e = 0; e < parts.size(); ++e) {
            std::string at = assign("getelementptr " + storage + ", " + storage + "* " + items + ", i64 0, i64 " + std::to_string(e));
            emit("store " + T + " " + packed(convert(parts[e], c.type)) + ", " + T + "* " + at);
        }
        count = std::to_string(parts.size());
        c.item = [this, k, items, storage, T, type = c.type] {
            std::string i = assign("load i64, i64* " + k);
            std::string at = assign("getelementptr " + storage + ", " + storage + "* " + items + ", i64 0, i64 " + i);
            return unpacked(assign("load " + T + ", " + T + "* " + at), type);
        };
    } else if (t->is_array() && t->ndim >= 1) {
        IrValue array = expr(iterable);
        count = array_field(array, 1, 0).ref;
        c.item = [this, k, array, type = c.type] {
            std::string i = assign("load i64, i64* " + k);
            const Type* at = array.type;
            const std::string E = mem_type(at->dtype);
            std::string data = assign("extractvalue " + ir_type(at) + " " + array.ref + ", 0");
            std::string bytes = assign("bitcast " + E + "* " + data + " to i8*");
            std::string offset = assign("mul i64 " + i + ", " + array_field(array, 2, 0).ref);
            std::string moved = assign("getelementptr i8, i8* " + bytes + ", i64 " + offset);
            std::string ptr = assign("bitcast i8* " + moved + " to " + E + "*");
            if (at->ndim == 1) return load(Element{"true", ptr, at->dtype});
            std::vector<std::string> shape, strides;  // a row: the other axes
            for (int a = 1; a < at->ndim; ++a) {
                shape.push_back(array_field(array, 1, a).ref);
                strides.push_back(array_field(array, 2, a).ref);
            }
            return make_array(type, ptr, shape, strides);
        };
    } else {
        not_covered("this for loop");
    }
    emit("store i64 0, i64* " + k);
    c.more = [this, k, count] { return assign("icmp slt i64 " + assign("load i64, i64* " + k) + ", " + count); };
    c.advance = [this, k] { emit("store i64 " + assign("add i64 " + assign("load i64, i64* " + k) + ", 1") + ", i64* " + k); };
    return c;
}

// range(...) inside enumerate() or zip(): its bounds evaluated once, its variable in an alloca.
NvvmEmitter::Cursor NvvmEmitter::range_cursor(const Expr& call, const Type* var) {
    if (!var->is_integer() || !call.keywords.empty()) not_covered("this for loop");
    const size_t n = call.children.size() - 1;
    IrValue start = n >= 2 ? expr_as(*call.children[1], var) : int_constant(0, var);
    IrValue stop = expr_as(*call.children[n >= 2 ? 2 : 1], var);
    IrValue step = n == 3 ? expr_as(*call.children[3], var) : int_constant(1, var);
    const std::string T = ir_type(var);
    std::string slot = "%r" + std::to_string(labels_++);
    allocas_ += "  " + slot + " = alloca " + T + "\n";
    emit("store " + T + " " + start.ref + ", " + T + "* " + slot);
    Cursor c;
    c.type = var;
    c.item = [this, slot, T, var] { return IrValue{assign("load " + T + ", " + T + "* " + slot), var, {}}; };
    c.more = [this, slot, T, var, stop, step] {
        return range_more(var, 0, assign("load " + T + ", " + T + "* " + slot), stop.ref, step.ref);
    };
    c.advance = [this, slot, T, step] {
        std::string i = assign("load " + T + ", " + T + "* " + slot);
        emit("store " + T + " " + assign("add " + T + " " + i + ", " + step.ref) + ", " + T + "* " + slot);
    };
    return c;
}

// enumerate()'s and zip()'s items are tuples of their parts' items.
IrValue NvvmEmitter::cursor_item(const Cursor& c) {
    if (c.parts.empty()) return c.item();
    IrValue t{"", c.type, {}};
    for (const Cursor& p : c.parts) t.parts.push_back(cursor_item(p));
    return t;
}

std::string NvvmEmitter::cursor_more(const Cursor& c) {
    if (c.parts.empty()) return c.more();
    std::string all = "true";
    for (const Cursor& p : c.parts) {
        std::string m = cursor_more(p);
        if (m != "true") all = all == "true" ? m : assign("and i1 " + all + ", " + m);
    }
    return all;
}

void NvvmEmitter::cursor_advance(const Cursor& c) {
    if (c.parts.empty()) return c.advance();
    for (const Cursor& p : c.parts) cursor_advance(p);
}

// A target unpacking enumerate()'s or zip()'s item takes each part directly.
void NvvmEmitter::bind_item(const Expr& target, const Cursor& c) {
    const bool unpacks = (target.kind == ExprKind::Tuple || target.kind == ExprKind::List) && !c.parts.empty() &&
                         target.children.size() == c.parts.size();
    if (!unpacks) return assign_to(target, cursor_item(c));
    for (size_t i = 0; i < c.parts.size(); ++i) bind_item(*target.children[i], c.parts[i]);
}

// Also range() loops with an else block: it runs when the items run out, not after a break.
void NvvmEmitter::for_each(const Stmt& s) {
    Cursor c = cursor(*s.iter);
    std::string head = fresh_label("each"), body = fresh_label("each.body"), next = fresh_label("each.next"),
                done = fresh_label("each.done"), exit = fresh_label("each.exit");
    open_block(head);
    cond_branch(cursor_more(c), body, done);
    open_block(body);
    bind_item(*s.target, c);
    loops_.push_back({next, exit});
    block(s.body);
    loops_.pop_back();
    open_block(next);
    cursor_advance(c);
    branch(head);
    open_block(done);
    block(s.orelse);
    open_block(exit);
}

}  // namespace simt
