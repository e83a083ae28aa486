// NVVM IR emitter: statements, the kernel function and the module. Python's control flow becomes
// explicit blocks: `for ... in range` evaluates its bounds once and keeps its variable's last
// value, as the CUDA C++ emission does (emit_stmt.cpp).
#include <set>
#include "codegen/nonnegative.h"
#include "codegen/nvvm_emitter.h"
#include "sema/sema.h"

namespace simt {

namespace {
bool has_subscript(const Expr& e) {
    if (e.kind == ExprKind::Subscript && e.children[0]->type && e.children[0]->type->is_array()) return true;
    for (const ExprPtr& c : e.children)
        if (c && has_subscript(*c)) return true;
    for (const Keyword& k : e.keywords)
        if (k.value && has_subscript(*k.value)) return true;
    return false;
}
bool accesses_arrays(const std::vector<StmtPtr>& body) {
    for (const StmtPtr& s : body) {
        for (const ExprPtr& t : s->targets) if (has_subscript(*t)) return true;
        for (const Expr* e : {s->value.get(), s->target.get(), s->test.get(), s->iter.get()})
            if (e && has_subscript(*e)) return true;
        if (accesses_arrays(s->body) || accesses_arrays(s->orelse)) return true;
    }
    return false;
}
}  // namespace

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
            emit("store " + ir_type(l.type) + " " + x.ref + ", " + ir_type(l.type) + "* " + l.slot);
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
    // A[i] op= v: the element is located once; v is evaluated whether or not it exists (simt_ref).
    Element el = element(t);
    IrValue v = expr(*s.value);
    std::string in = fresh_label("update"), done = fresh_label("update.done");
    if (el.ok != "true") {
        cond_branch(el.ok, in, done);
        open_block(in);
    }
    Element present{"true", el.ptr, el.dtype};
    store(present, binop(s.op, load(present), v));
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

void NvvmEmitter::for_range(const Stmt& s) {
    if (s.iter->type->kind != TypeKind::Range || s.target->kind != ExprKind::Name) not_covered("this for loop");
    if (!s.orelse.empty()) not_covered("for ... else");
    // Loops over array elements keep the CUDA C++ path, which tests their bounds once before the
    // loop (codegen/loop_bounds.h) rather than on every iteration.
    if (accesses_arrays(s.body)) not_covered("a range loop that accesses arrays");
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
    const bool is_signed = dtype_is_signed(var->dtype);
    std::string counter = "%i" + std::to_string(labels_++);
    allocas_ += "  " + counter + " = alloca " + T + "\n";
    emit("store " + T + " " + start.ref + ", " + T + "* " + counter);
    std::string head = fresh_label("for"), body = fresh_label("for.body"), next = fresh_label("for.next"),
                exit = fresh_label("for.exit");
    open_block(head);
    std::string i = assign("load " + T + ", " + T + "* " + counter);
    const char* lt = is_signed ? "slt" : "ult";
    const char* gt = is_signed ? "sgt" : "ugt";
    std::string more;
    if (sign > 0) more = assign(std::string("icmp ") + lt + " " + T + " " + i + ", " + stop.ref);
    else if (sign < 0) more = assign(std::string("icmp ") + gt + " " + T + " " + i + ", " + stop.ref);
    else {  // step > 0 ? i < stop : step < 0 && i > stop
        std::string up = assign(std::string("icmp ") + gt + " " + T + " " + step.ref + ", 0");
        std::string down = is_signed ? assign("icmp slt " + T + " " + step.ref + ", 0") : "false";
        std::string below = assign(std::string("icmp ") + lt + " " + T + " " + i + ", " + stop.ref);
        std::string above = assign(std::string("icmp ") + gt + " " + T + " " + i + ", " + stop.ref);
        std::string rising = assign("and i1 " + up + ", " + below);
        std::string falling = assign("and i1 " + down + ", " + above);
        more = assign("or i1 " + rising + ", " + falling);
    }
    cond_branch(more, body, exit);
    open_block(body);
    assign_to(*s.target, IrValue{i, var, {}});
    loops_.push_back({next, exit});
    block(s.body);
    loops_.pop_back();
    open_block(next);
    std::string current = assign("load " + T + ", " + T + "* " + counter);
    std::string advanced = assign("add " + T + " " + current + ", " + step.ref);
    emit("store " + T + " " + advanced + ", " + T + "* " + counter);
    branch(head);
    open_block(exit);
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
                emit("ret " + ir_type(R) + " " + v.ref);
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
    if (o.max_registers > 0) not_covered("max_registers");
    if (!o.constant_params.empty() || o.tile_kernel || unit_.uses_tiles) not_covered("tile kernels");
    if (unit_.uses_print || unit_.uses_warp || !unit_.memory_arrays.empty()) not_covered("print, warp operations or array storage");
}

namespace {
// Functions reachable from the kernel, callees before callers.
void reachable(const TypedFunction* f, std::vector<const TypedFunction*>& order, std::set<const TypedFunction*>& seen) {
    if (!seen.insert(f).second) return;
    for (const TypedFunction* c : f->callees) reachable(c, order, seen);
    order.push_back(f);
}
}  // namespace

std::string NvvmEmitter::function_text(const TypedFunction& f) {
    fn_ = &f;
    body_.clear();
    allocas_.clear();
    locals_.clear();
    loops_.clear();
    terminated_ = false;
    registers_ = 0;
    nonnegative_ = nonnegative_locals(f);
    const Type* R = f.return_type;
    const bool returns_value = !f.is_kernel && R && R->kind != TypeKind::Void && R->kind != TypeKind::NoneType;
    std::string params, entry;
    for (size_t i = 0; i < f.def.params.size(); ++i) {
        const Type* t = f.param_types[i];
        if (!t->is_scalar() && !t->is_array()) not_covered("parameters of type " + t->str());
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
        allocas_ += "  store " + T + " " + (type->is_array() ? "zeroinitializer" : int_constant(0, type).ref) + ", " + T + "* " +
                    slot + "\n";  // `T x = {};`
        locals_[name] = {slot, type};
    }
    if (returns_value && !R->is_scalar()) not_covered("device functions returning " + R->str());
    current_ = "body";
    body_ = "body:\n";
    block(f.def.body);
    if (!terminated_) emit(returns_value ? "ret " + ir_type(R) + " " + int_constant(0, R).ref : "ret void");  // `return {};`
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
    reachable(&kernel, order, seen);
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
    ir += "\n!nvvm.annotations = !{!0}\n!0 = !{void (" + param_types + ")* @" + m.entry + ", !\"kernel\", i32 1}\n";
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
