// NVVM IR emitter: statements, the kernel function and the module. Python's control flow becomes
// explicit blocks: `for ... in range` evaluates its bounds once and keeps its variable's last
// value, as the CUDA C++ emission does (emit_stmt.cpp).
#include <optional>
#include <set>
#include "codegen/ast_walk.h"
#include "codegen/loop_bounds.h"
#include "codegen/nonnegative.h"
#include "codegen/nvrtc_options.h"
#include "codegen/nvvm_emitter.h"
#include "sema/sema.h"

namespace simt {


// ---- text --------------------------------------------------------------------------------------

std::string NvvmEmitter::fresh() { return "%v" + std::to_string(registers_++); }

std::string NvvmEmitter::fresh_label(const char* hint) { return std::string(hint) + "." + std::to_string(labels_++); }

void NvvmEmitter::emit(const std::string& instruction) {
    if (terminated_) open_block(fresh_label("dead"));  // code after break/continue/return: unreachable
    body_ += "  " + instruction + "\n";
}

void NvvmEmitter::open_block(const std::string& label) {
    if (!terminated_) body_ += "  br label %" + label + "\n";  // falls through into the new block
    body_ += label + ":\n";
    current_ = label;
    terminated_ = false;
}

void NvvmEmitter::branch(const std::string& label) {
    emit("br label %" + label);
    terminated_ = true;
}

void NvvmEmitter::cond_branch(const std::string& test, const std::string& yes, const std::string& no) {
    emit("br i1 " + test + ", label %" + yes + ", label %" + no);
    terminated_ = true;
}

const NvvmEmitter::Local& NvvmEmitter::local(const std::string& name) const {
    auto it = locals_.find(name);
    if (it == locals_.end()) not_covered("the variable '" + name + "'");
    return it->second;
}

// ---- statements --------------------------------------------------------------------------------

void NvvmEmitter::block(const std::vector<StmtPtr>& body) {
    for (const StmtPtr& s : body) statement(*s);
}

void NvvmEmitter::assign_to(const Expr& target, const IrValue& v) {
    switch (target.kind) {
        case ExprKind::Name: {
            const Local& l = local(target.text);
            IrValue x = convert(v, l.type);
            emit("store " + ir_type(l.type) + " " + packed(x) + ", " + ir_type(l.type) + "* " + l.slot);
            return;
        }
        case ExprKind::Subscript:
            if (!target.children[0]->type->is_array() || (target.type && target.type->is_array()))
                not_covered("stores into array views");
            store(element(target), v);
            return;
        case ExprKind::Tuple: case ExprKind::List:
            if (v.parts.size() != target.children.size()) not_covered("this unpacking");
            for (size_t i = 0; i < target.children.size(); ++i) assign_to(*target.children[i], v.parts[i]);
            return;
        default: not_covered("this assignment target");
    }
}

void NvvmEmitter::aug_assign(const Stmt& s) {
    const Expr& t = *s.target;
    if (t.kind == ExprKind::Name) {
        IrValue current = expr(t);
        assign_to(t, binop(s.op, current, expr(*s.value)));
        return;
    }
    if (t.kind != ExprKind::Subscript || !t.children[0]->type->is_array()) not_covered("this augmented assignment");
    // A[i] op= v: the element is located once; only when it exists is it read, then v evaluated
    // (Python's order), then the result stored: the CUDA C++ emission's `if (ref) *ref = *ref op v`.
    Element el = element(t);
    std::string in = fresh_label("update"), done = fresh_label("update.done");
    if (el.ok != "true") {
        cond_branch(el.ok, in, done);
        open_block(in);
    }
    Element present{"true", el.ptr, el.dtype};
    IrValue old = load(present);
    store(present, binop(s.op, old, expr(*s.value)));
    if (el.ok != "true") open_block(done);
}

void NvvmEmitter::if_statement(const Stmt& s) {
    IrValue test = convert(expr(*s.test), bool_type());
    std::string yes = fresh_label("then"), no = fresh_label("else"), done = fresh_label("endif");
    cond_branch(test.ref, yes, s.orelse.empty() ? done : no);
    open_block(yes);
    block(s.body);
    if (!terminated_) branch(done);
    if (!s.orelse.empty()) {
        open_block(no);
        block(s.orelse);
        if (!terminated_) branch(done);
    }
    open_block(done);
}

void NvvmEmitter::while_loop(const Stmt& s) {
    if (!s.orelse.empty()) not_covered("while ... else");
    std::string head = fresh_label("while"), body = fresh_label("while.body"), exit = fresh_label("while.exit");
    open_block(head);
    IrValue test = convert(expr(*s.test), bool_type());
    cond_branch(test.ref, body, exit);
    open_block(body);
    loops_.push_back({head, exit});
    block(s.body);
    loops_.pop_back();
    if (!terminated_) branch(head);
    open_block(exit);
}

// The prelude's simt_invariant_in_range / simt_affine_in_range, once before a range() loop: every
// hoisted access is in range on every iteration of [start, stop).
std::string NvvmEmitter::hoisted_test(const std::vector<HoistedAccess>& accesses, const IrValue& start_v, const IrValue& stop_v) {
    std::string all = "true";
    auto both = [&](const std::string& a, const std::string& b) { return a == "true" ? b : assign("and i1 " + a + ", " + b); };
    auto at_most = [&](const IrValue& v, uint64_t limit) {  // (uint64)(int64)v <= limit
        return assign("icmp ule i64 " + convert(v, int64_type()).ref + ", " + std::to_string(int64_t(limit)));
    };
    const IrValue start = convert(start_v, int64_type()), stop = convert(stop_v, int64_type());
    for (const HoistedAccess& a : accesses) {
        IrValue array = expr(*a.array);
        for (size_t k = 0; k < a.indices.size(); ++k) {
            const HoistedIndex& h = a.indices[k];
            std::string extent = array_field(array, 1, int(k)).ref;
            if (!h.uses_var) {
                IrValue i = convert(expr(*h.index), int64_type());
                all = both(all, assign("icmp ult i64 " + i.ref + ", " + extent));
                continue;
            }
            const uint64_t small = 0x7fffffff, term_limit = uint64_t(1) << 40;
            IrValue coef = h.coef ? convert(expr(*h.coef), int64_type()) : int_constant(1, int64_type());
            std::string fits = both(both(at_most(coef, small), at_most(start, small)), at_most(stop, small));
            std::string terms = "0";
            for (const Expr* b : h.offsets) {
                IrValue t = convert(expr(*b), int64_type());
                fits = both(fits, at_most(t, term_limit));
                terms = assign("add i64 " + terms + ", " + t.ref);
            }
            std::string empty = assign("icmp sle i64 " + stop.ref + ", " + start.ref);
            std::string last = assign("sub i64 " + stop.ref + ", 1");
            std::string reach = assign("mul i64 " + coef.ref + ", " + last);
            reach = assign("add i64 " + reach + ", " + terms);
            std::string below = assign("icmp slt i64 " + reach + ", " + extent);
            all = both(all, assign("and i1 " + fits + ", " + assign("or i1 " + empty + ", " + below)));
        }
    }
    return all;
}

// Whether a range() loop's variable i (of type var) has another turn: i < stop for a step known
// positive (sign 1), i > stop for one known negative (-1), else (0) tested by the step's sign.
std::string NvvmEmitter::range_more(const Type* var, int sign, const std::string& i, const std::string& stop,
                                    const std::string& step) {
    const std::string T = ir_type(var);
    const bool is_signed = dtype_is_signed(var->dtype);
    const char* lt = is_signed ? "slt" : "ult";
    const char* gt = is_signed ? "sgt" : "ugt";
    if (sign > 0) return assign(std::string("icmp ") + lt + " " + T + " " + i + ", " + stop);
    if (sign < 0) return assign(std::string("icmp ") + gt + " " + T + " " + i + ", " + stop);
    std::string up = assign(std::string("icmp ") + gt + " " + T + " " + step + ", 0");
    std::string down = is_signed ? assign("icmp slt " + T + " " + step + ", 0") : "false";
    std::string below = assign(std::string("icmp ") + lt + " " + T + " " + i + ", " + stop);
    std::string above = assign(std::string("icmp ") + gt + " " + T + " " + i + ", " + stop);
    std::string rising = assign("and i1 " + up + ", " + below);
    std::string falling = assign("and i1 " + down + ", " + above);
    return assign("or i1 " + rising + ", " + falling);
}

void NvvmEmitter::for_range(const Stmt& s) {
    if (s.iter->type->kind != TypeKind::Range || s.target->kind != ExprKind::Name) return for_each(s);
    if (!s.orelse.empty()) return for_each(s);  // (for_each writes the else block)
    const Expr& call = *s.iter;
    const size_t n = call.children.size() - 1;
    const Type* var = s.target->type && s.target->type->is_scalar() ? s.target->type : int64_type();
    if (!var->is_integer()) not_covered("this loop variable");
    IrValue start = n >= 2 ? expr_as(*call.children[1], var) : int_constant(0, var);
    IrValue stop = expr_as(*call.children[n >= 2 ? 2 : 1], var);
    IrValue step = n == 3 ? expr_as(*call.children[3], var) : int_constant(1, var);
    const Resolved* sr = n == 3 ? call.children[3]->resolved.get() : nullptr;
    int sign = n < 3 ? 1 : (sr && sr->is_constant && !sr->is_local) ? (sr->constant.as_int() > 0 ? 1 : -1) : 0;
    const std::string T = ir_type(var);
    // The variable stays in [start, stop) unless the body assigns it (emit_stmt.cpp's rule); the
    // stop accesses may rely on is known only when the start is not negative.
    const std::string& name = s.target->text;
    const bool ranged = range_loop_nonnegative(s, nonnegative_) && !assigns_name(s.body, name);
    std::string known_stop;
    if (ranged) {
        known_stop = convert(stop, int64_type()).ref;
        const Resolved* st = n >= 2 ? call.children[1]->resolved.get() : nullptr;
        if (n >= 2 && !(st && st->is_constant && !st->is_local)) {
            std::string nonneg = assign("icmp sge i64 " + convert(start, int64_type()).ref + ", 0");
            known_stop = assign("select i1 " + nonneg + ", i64 " + known_stop + ", i64 -1");
        }
    }
    std::vector<HoistedAccess> hoisted;
    if (ranged && unit_.options.bounds == BoundsMode::Masked) hoisted = hoistable_accesses(s, name);
    std::string counter = "%i" + std::to_string(labels_++);
    allocas_ += "  " + counter + " = alloca " + T + "\n";
    auto loop = [&] {
        emit("store " + T + " " + start.ref + ", " + T + "* " + counter);
        std::string head = fresh_label("for"), body = fresh_label("for.body"), next = fresh_label("for.next"),
                    exit = fresh_label("for.exit");
        open_block(head);
        std::string i = assign("load " + T + ", " + T + "* " + counter);
        cond_branch(range_more(var, sign, i, stop.ref, step.ref), body, exit);
        open_block(body);
        assign_to(*s.target, IrValue{i, var, {}});
        loops_.push_back({next, exit});
        auto outer = ranged_vars_.find(name);
        std::optional<std::string> saved;
        if (outer != ranged_vars_.end()) saved = outer->second;
        if (ranged) ranged_vars_[name] = known_stop;
        block(s.body);
        if (saved) ranged_vars_[name] = *saved;
        else ranged_vars_.erase(name);
        loops_.pop_back();
        open_block(next);
        std::string current = assign("load " + T + ", " + T + "* " + counter);
        std::string advanced = assign("add " + T + " " + current + ", " + step.ref);
        emit("store " + T + " " + advanced + ", " + T + "* " + counter);
        branch(head);
        open_block(exit);
    };
    if (hoisted.empty()) {
        loop();
        return;
    }
    // Written twice, as the CUDA C++ emission does: untested accesses when the test holds.
    std::string test = hoisted_test(hoisted, start, stop);
    std::string fast = fresh_label("for.proven"), slow = fresh_label("for.tested"), done = fresh_label("for.done");
    cond_branch(test, fast, slow);
    open_block(fast);
    for (const HoistedAccess& a : hoisted) proven_.insert(a.subscript);
    loop();
    for (const HoistedAccess& a : hoisted) proven_.erase(a.subscript);
    branch(done);
    open_block(slow);
    loop();
    branch(done);
    open_block(done);
}

void NvvmEmitter::statement(const Stmt& s) {
    switch (s.kind) {
        case StmtKind::Expr:
            if (s.value->kind == ExprKind::String || s.value->kind == ExprKind::Ellipsis) return;  // docstring, `...`
            expr(*s.value);
            return;
        case StmtKind::Assign: {
            if (s.value->type->compile_time_only()) return;
            IrValue v = expr(*s.value);  // evaluated once, for every target
            for (const ExprPtr& t : s.targets) assign_to(*t, v);
            return;
        }
        case StmtKind::AugAssign: aug_assign(s); return;
        case StmtKind::If: if_statement(s); return;
        case StmtKind::While: while_loop(s); return;
        case StmtKind::For: for_range(s); return;
        case StmtKind::Break:
            if (loops_.empty()) not_covered("break outside a loop");
            branch(loops_.back().exit);
            return;
        case StmtKind::Continue:
            if (loops_.empty()) not_covered("continue outside a loop");
            branch(loops_.back().next);
            return;
        case StmtKind::Pass: case StmtKind::FunctionDef: return;  // (an inner function is a function of its own)
        case StmtKind::Return: {
            const Type* R = fn_->return_type;
            const bool returns_value = !fn_->is_kernel && R && R->kind != TypeKind::Void && R->kind != TypeKind::NoneType;
            if (returns_value) {
                IrValue v = expr_as(*s.value, R);
                emit("ret " + ir_type(R) + " " + packed(v));
            } else {
                if (s.value && s.value->kind != ExprKind::None) expr(*s.value);
                emit("ret void");
            }
            terminated_ = true;
            return;
        }
        case StmtKind::Assert:
            if (s.site < 0) return;  // checked only with debug=True
            not_covered("assert with debug=True");
        default: not_covered("this statement");
    }
}

// ---- the unit ----------------------------------------------------------------------------------

void NvvmEmitter::check_unit() const {
    const CompileOptions& o = unit_.options;
    if (!fn_->is_kernel) not_covered("a device function at the root (compile_ptx device=True)");
    if (o.bounds == BoundsMode::Checked) not_covered("boundscheck=True");
    if (o.debug) not_covered("debug=True");
    if (o.lineinfo) not_covered("lineinfo=True");
    if (o.fastmath) not_covered("fastmath=True");
    if (!o.opt) not_covered("opt=False");
    // (max_registers needs nothing here: the driver's JIT takes it as an option, see ptx_module.cpp)
    if (!o.constant_params.empty() || o.tile_kernel || unit_.uses_tiles) not_covered("tile kernels");
    if (unit_.uses_print) not_covered("print");
    if (!unit_.linked_sources.empty()) not_covered("linked CUDA C++ (link=)");
    if (unit_.uses_grid_sync) not_covered("cuda.cg grid sync");
}


std::string NvvmEmitter::function_text(const TypedFunction& f) {
    fn_ = &f;
    body_.clear();
    allocas_.clear();
    locals_.clear();
    loops_.clear();
    local_arrays_.clear();
    terminated_ = false;
    registers_ = 0;
    nonnegative_ = nonnegative_locals(f);
    const Type* R = f.return_type;
    const bool returns_value = !f.is_kernel && R && R->kind != TypeKind::Void && R->kind != TypeKind::NoneType;
    std::string params, entry;
    for (size_t i = 0; i < f.def.params.size(); ++i) {
        const Type* t = f.param_types[i];
        if (!t->is_scalar() && !t->is_array() && (f.is_kernel || !t->is_tuple())) not_covered("parameters of type " + t->str());
        // A kernel's bool travels as one byte (the host packs it so) and becomes i1 on entry.
        const bool byte = f.is_kernel && t->is_bool();
        const std::string p = "%p" + std::to_string(i), T = ir_type(t);
        params += (i ? ", " : "") + (byte ? std::string("i8") : T) + " " + p;
        std::string value = p;
        if (byte) {
            entry += "  " + p + ".bool = icmp ne i8 " + p + ", 0\n";
            value = p + ".bool";
        }
        const std::string slot = p + ".slot";
        allocas_ += "  " + slot + " = alloca " + T + "\n  store " + T + " " + value + ", " + T + "* " + slot + "\n";
        locals_[f.def.params[i].name] = {slot, t};
    }
    int n = 0;
    for (const auto& [name, type] : f.locals) {
        if (type->compile_time_only()) continue;
        const std::string slot = "%l" + std::to_string(n++), T = ir_type(type);
        allocas_ += "  " + slot + " = alloca " + T + "\n";
        allocas_ += "  store " + T + " " + (type->is_array() || type->is_tuple() ? "zeroinitializer" : int_constant(0, type).ref) + ", " + T + "* " +
                    slot + "\n";  // `T x = {};`
        locals_[name] = {slot, type};
    }
    if (returns_value && !R->is_scalar() && !R->is_tuple()) not_covered("device functions returning " + R->str());
    current_ = "body";
    body_ = "body:\n";
    block(f.def.body);
    if (!terminated_)  // `return {};`
        emit(returns_value ? "ret " + ir_type(R) + " " + (R->is_tuple() ? "zeroinitializer" : int_constant(0, R).ref) : "ret void");
    std::string head = f.is_kernel ? "define void @" + f.c_name + "(" + params + ")"
                                   : "define internal " + (returns_value ? ir_type(R) : std::string("void")) + " @" + f.c_name +
                                         "(" + params + ")" + (f.force_inline ? " alwaysinline" : "");
    return head + " {\nentry:\n" + entry + allocas_ + "  br label %body\n" + body_ + "}\n\n";
}

NvvmModule NvvmEmitter::run() {
    check_unit();
    const TypedFunction& kernel = *unit_.kernel;
    std::vector<const TypedFunction*> order;
    std::set<const TypedFunction*> seen;
    functions_in_call_order(&kernel, order, seen);
    std::string functions;
    for (const TypedFunction* f : order) functions += function_text(*f);
    std::string param_types;
    for (size_t i = 0; i < kernel.param_types.size(); ++i)
        param_types += (i ? ", " : "") + (kernel.param_types[i]->is_bool() ? std::string("i8") : ir_type(kernel.param_types[i]));
    NvvmModule m;
    m.entry = kernel.c_name;
    m.uses_libdevice = uses_libdevice_;
    std::string& ir = m.ir;
    ir = "; NVVM IR generated by simt for kernel '" + kernel.name + "' (" + kernel.source.filename + ")\n";
    ir += "target triple = \"nvptx64-nvidia-cuda\"\n";
    ir += "target datalayout = \"e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-"
          "f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64\"\n\n";
    ir += functions;
    for (const std::string& d : declarations_) ir += d + "\n";
    ir += "\n!nvvm.annotations = !{!0}\n!0 = !{void (" + param_types + ")* @" + m.entry + ", !\"kernel\", i32 1" +
          launch_bounds_annotations(unit_.options) + "}\n";
    ir += "!nvvmir.version = !{!1}\n!1 = !{i32 2, i32 0, i32 3, i32 2}\n";
    return m;
}

std::optional<NvvmModule> emit_nvvm_ir(const CompileUnit& unit, std::string* why) {
    try {
        return NvvmEmitter(unit).run();
    } catch (const NotCovered& e) {
        if (why) *why = e.what;
        return std::nullopt;
    } catch (const std::exception& e) {  // never in the way of the CUDA C++ path
        if (why) *why = std::string("internal: ") + e.what();
        return std::nullopt;
    }
}

}  // namespace simt
