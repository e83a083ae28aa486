// Emitter: statements. Python control flow maps onto C++ directly; `for ... in range` keeps
// Python's semantics (bounds evaluated once, loop variable keeps its last value), and loop
// `else:` blocks run unless the loop was left by `break`.
#include <algorithm>
#include <functional>
#include <optional>
#include "codegen/ast_walk.h"
#include "codegen/emitter.h"
#include "sema/tile.h"
#include "codegen/nonnegative.h"
#include "sema/sema.h"
#include "support/error.h"

namespace simt {

void Emitter::block(const std::vector<StmtPtr>& body) {
    for (const StmtPtr& s : body) statement(*s);
}

void Emitter::assign_to(const Expr& target, const std::string& value_code, const Type* value_type) {
    switch (target.kind) {
        case ExprKind::Name:
            line(c_identifier(target.text) + " = " + cast(value_code, value_type, target.type) + ";");
            return;
        case ExprKind::Subscript: {
            if (target.type && target.type->is_array()) return view_store(target, value_code, value_type);
            const Type* arr = target.children[0]->type;
            const Type* elem = scalar_type(arr->dtype);
            line(element_access("simt_store", target, cast(value_code, value_type, elem)) + ";");
            return;
        }
        case ExprKind::Tuple: case ExprKind::List: {
            std::string tmp = temp("unpack");
            line("{");
            ++indent_;
            line("auto " + tmp + " = " + value_code + ";");
            for (size_t i = 0; i < target.children.size(); ++i)
                assign_to(*target.children[i], tmp + ".f" + std::to_string(i), value_type->elems[i]);
            --indent_;
            line("}");
            return;
        }
        default:
            throw Error(ErrorKind::Unsupported, "internal: cannot emit assignment target");
    }
}

void Emitter::statement(const Stmt& s) {
    if (region_skip_.count(&s)) return;  // hoisted out of the thread loops (emit_regions.cpp)
    line_directive(s.loc);
    switch (s.kind) {
        case StmtKind::Expr:
            if (s.value->kind == ExprKind::String || s.value->kind == ExprKind::Ellipsis) return;  // docstring, `...` body
            line(expr(*s.value) + ";");
            return;
        case StmtKind::Assign: {
            if (s.value->type->compile_time_only()) return;
            if (s.targets.size() == 1 && s.targets[0]->kind != ExprKind::Tuple && s.targets[0]->kind != ExprKind::List) {
                assign_to(*s.targets[0], expr(*s.value), s.value->type);
                return;
            }
            // a = b = value, or unpacking: evaluate the value once.
            std::string tmp = temp("value");
            line("{");
            ++indent_;
            line("auto " + tmp + " = " + expr(*s.value) + ";");
            for (const ExprPtr& t : s.targets) assign_to(*t, tmp, s.value->type);
            --indent_;
            line("}");
            return;
        }
        case StmtKind::AugAssign: {
            const Expr& t = *s.target;
            const Type* tt = t.type;
            if (tt->is_tile()) {  // (the name's type is the result's: sema unified them)
                std::string name = c_identifier(t.text);
                line(name + " = " + emit_tile_binop(*this, s.op, name, tt, expr(*s.value), s.value->type, tt) + ";");
                return;
            }
            if (t.kind == ExprKind::Name) {
                std::string code = binop_code(s.op, c_identifier(t.text), tt, expr(*s.value), s.value->type);
                line(c_identifier(t.text) + " = " + cast(code, binop_type(s.op, tt, s.value->type), tt) + ";");
                return;
            }
            // A[i] op= v: compute the element's address once.
            const Type* elem = scalar_type(t.children[0]->type->dtype);
            std::string ptr = temp("ref");
            line("{");
            ++indent_;
            line("auto " + ptr + " = " + element_access("simt_ref", t, "") + ";");
            std::string v = expr(*s.value);
            std::string code = binop_code(s.op, "*" + ptr, elem, v, s.value->type);
            std::string store = "*" + ptr + " = " + cast(code, binop_type(s.op, elem, s.value->type), elem) + ";";
            line(proven_.count(&t) ? store : "if (" + ptr + ") " + store);
            --indent_;
            line("}");
            return;
        }
        case StmtKind::If: {
            line("if (" + cast(expr(*s.test), s.test->type, bool_type()) + ") {");
            ++indent_;
            size_t outer_guards = guards_.size();
            for (GuardFact& f : guard_facts(*s.test, s.body)) guards_.push_back(f);
            block(s.body);
            guards_.resize(outer_guards);
            --indent_;
            if (s.orelse.empty()) { line("}"); return; }
            line("} else {");
            ++indent_;
            block(s.orelse);
            --indent_;
            line("}");
            return;
        }
        case StmtKind::While:
            loop_with_else(s, "while (" + cast(expr(*s.test), s.test->type, bool_type()) + ")");
            return;
        case StmtKind::For:
            for_statement(s);
            return;
        case StmtKind::Break:
            if (!loops_.empty() && !loops_.back().broke_flag.empty()) line(loops_.back().broke_flag + " = true;");
            line("break;");
            return;
        case StmtKind::Continue:
            line("continue;");
            return;
        case StmtKind::FunctionDef:  // an inner function is emitted as a function of its own
        case StmtKind::Pass:
            return;
        case StmtKind::Assert:
            if (s.site < 0) {
                line("// assert: checked only with debug=True (as in numba)");
                return;
            }
            line("if (!" + cast(expr(*s.value), s.value->type, bool_type()) + ") simt_report_failure(ctx, " +
                 std::to_string(s.site) + ", SIMT_REPORT_ASSERT);");
            return;
        case StmtKind::Raise:  // reported with debug=True; the thread stops (a device function returns)
            if (s.site >= 0) line("simt_report_failure(ctx, " + std::to_string(s.site) + ", SIMT_REPORT_RAISE);");
            if (!thread_exit_.empty()) line(thread_exit_);
            else line(fn_->is_kernel || fn_->return_type == void_type() ? "return;" : "return {};");
            return;
        case StmtKind::Return:
            if (!thread_exit_.empty()) {  // a thread of a region-mode kernel returns
                if (s.value && s.value->kind != ExprKind::None) line(expr(*s.value) + ";");
                line(thread_exit_);
                return;
            }
            if (fn_->is_kernel || fn_->return_type == void_type()) {
                if (s.value && s.value->kind != ExprKind::None) line(expr(*s.value) + ";");
                line("return;");
                return;
            }
            line("return " + cast(expr(*s.value), s.value->type, fn_->return_type) + ";");
            return;
    }
}

void Emitter::loop_with_else(const Stmt& s, const std::string& header, const std::function<void()>& body) {
    Loop loop;
    if (!s.orelse.empty()) {
        loop.broke_flag = temp("broke");
        line("{");
        ++indent_;
        line("bool " + loop.broke_flag + " = false;");
    }
    line(header + " {");
    ++indent_;
    loops_.push_back(loop);
    int saved_line = last_line_;
    if (body) body();
    else block(s.body);
    loops_.pop_back();
    --indent_;
    line("}");
    last_line_ = saved_line;
    if (!s.orelse.empty()) {
        loop_else(s, loop);
        --indent_;
        line("}");
    }
}

// A loop's `else:` block runs unless the loop was left by `break`.
void Emitter::loop_else(const Stmt& s, const Loop& loop) {
    line("if (!" + loop.broke_flag + ") {");
    ++indent_;
    block(s.orelse);
    --indent_;
    line("}");
}

// The test, made once before a range() loop over [start, stop), that every access in `accesses`
// is in range on every iteration (loop_bounds.h; the helpers are in prelude/common.h).
std::string Emitter::hoisted_bounds_test(const std::vector<HoistedAccess>& accesses, const std::string& start,
                                         const std::string& stop) {
    std::vector<std::string> tests;
    for (const HoistedAccess& a : accesses) {
        std::string array = expr(*a.array);
        for (size_t k = 0; k < a.indices.size(); ++k) {
            const HoistedIndex& h = a.indices[k];
            std::string extent = array + ".shape[" + std::to_string(k) + "]";
            std::string t;
            if (!h.uses_var) {
                t = "simt_invariant_in_range(" + expr(*h.index) + ", " + extent + ")";
            } else {
                t = "simt_affine_in_range(" + (h.coef ? expr(*h.coef) : std::string("1")) + ", " + start + ", " + stop + ", " +
                    extent;
                for (const Expr* b : h.offsets) t += ", " + expr(*b);
                t += ")";
            }
            if (std::find(tests.begin(), tests.end(), t) == tests.end()) tests.push_back(t);
        }
    }
    std::string code;
    for (const std::string& t : tests) code += (code.empty() ? "" : " && ") + t;
    return code;
}

std::string Emitter::RangeBounds::more(const std::string& i) const {
    if (step_sign > 0) return i + " < " + stop;
    if (step_sign < 0) return i + " > " + stop;
    return "(" + step + " > 0 ? " + i + " < " + stop + " : " + step + " < 0 && " + i + " > " + stop + ")";
}

// range(stop) / range(start, stop) / range(start, stop, step), evaluated once.
Emitter::RangeBounds Emitter::range_bounds(const Expr& call, const Type* var) {
    size_t n = call.children.size() - 1;
    RangeBounds r;
    r.type = c_type(var);
    r.start = temp("start"), r.stop = temp("stop"), r.step = temp("step");
    line(r.type + " " + r.start + " = " + (n >= 2 ? expr_as(*call.children[1], var) : "0") + ";");
    line(r.type + " " + r.stop + " = " + expr_as(*call.children[n >= 2 ? 2 : 1], var) + ";");
    line(r.type + " " + r.step + " = " + (n == 3 ? expr_as(*call.children[3], var) : "1") + ";");
    const ConstValue* step = n == 3 && call.children[3]->resolved && call.children[3]->resolved->is_constant
                                 ? &call.children[3]->resolved->constant : nullptr;
    r.step_sign = n < 3 ? 1 : step ? (step->as_int() > 0 ? 1 : -1) : 0;
    return r;
}

void Emitter::for_statement(const Stmt& s) {
    const Expr& target = *s.target;
    if (s.iter->type->kind != TypeKind::Range) {  // arrays, tuples, enumerate(), zip()
        for_each_item(s);
        return;
    }
    line("{");
    ++indent_;
    const Expr& call = *s.iter;
    size_t n = call.children.size() - 1;
    const Type* var = target.type && target.type->is_scalar() ? target.type : int64_type();
    RangeBounds r = range_bounds(call, var);
    const std::string& start = r.start;
    const std::string& stop = r.stop;
    std::string i = temp("i");
    std::string header = "for (" + r.type + " " + i + " = " + start + "; " + r.more(i) + "; " + i + " += " + r.step + ")";
    Loop loop;
    if (!s.orelse.empty()) {
        loop.broke_flag = temp("broke");
        line("bool " + loop.broke_flag + " = false;");
    }
    // The variable stays in [start, stop) for the whole body unless the body assigns it.
    bool ranged = target.kind == ExprKind::Name && var->is_integer() && range_loop_nonnegative(s, nonnegative_) &&
                  !assigns_name(s.body, target.text);
    // The start is non-negative as Python computes it; an int64 overflow could still make it
    // negative here, so the stop the accesses may rely on is checked once (-1: no known range).
    std::string known_stop = stop;
    if (ranged && !(n < 2 || (call.children[1]->resolved && call.children[1]->resolved->is_constant))) {
        known_stop = temp("known_stop");
        line("const int64_t " + known_stop + " = " + start + " >= 0 ? (int64_t)" + stop + " : -1;");
    }
    auto emit_loop = [&] {
        line(header + " {");
        ++indent_;
        assign_to(target, i, var);
        loops_.push_back(loop);
        int saved_line = last_line_;
        std::optional<std::string> outer;
        if (ranged) {
            if (auto it = ranged_vars_.find(target.text); it != ranged_vars_.end()) outer = it->second;
            ranged_vars_[target.text] = known_stop;
        }
        block(s.body);
        if (ranged) {
            if (outer) ranged_vars_[target.text] = *outer;
            else ranged_vars_.erase(target.text);
        }
        loops_.pop_back();
        --indent_;
        line("}");
        last_line_ = saved_line;
    };
    std::vector<HoistedAccess> hoisted;
    if (ranged && unit_.options.bounds == BoundsMode::Masked) hoisted = hoistable_accesses(s, target.text);
    if (hoisted.empty()) {
        emit_loop();
    } else {
        line("if (" + hoisted_bounds_test(hoisted, start, stop) + ") {  // every access below in range: untested");
        ++indent_;
        for (const HoistedAccess& a : hoisted) proven_.insert(a.subscript);
        emit_loop();
        for (const HoistedAccess& a : hoisted) proven_.erase(a.subscript);
        --indent_;
        line("} else {");
        ++indent_;
        emit_loop();
        --indent_;
        line("}");
    }
    if (!s.orelse.empty()) loop_else(s, loop);
    --indent_;
    line("}");
}

}  // namespace simt
