// Emitter: expressions. Arithmetic is made explicit (operands converted to the numba result
// type; Python's floor division, modulo and power via prelude helpers), and array element
// accesses go through the prelude's bounds-aware load/store/ref helpers.
#include "codegen/ast_walk.h"
#include "codegen/emitter.h"
#include "codegen/nonnegative.h"
#include "sema/builtins.h"
#include "sema/sema.h"
#include "sema/tile.h"
#include "support/error.h"
#include "types/promote.h"

namespace simt {

const Type* Emitter::binop_type(BinOpKind op, const Type* lt, const Type* rt) {
    DType out;
    if (!binop_result(op, lt->dtype, rt->dtype, out)) return nullptr;
    return scalar_type(out);
}

// Signed 32- and 64-bit + - * and negation wrap around (NumPy's and numba's integers do). The cpu
// backend's host compiler gets -fwrapv; NVRTC has no such option, so for CUDA the emitter spells
// the wrap out (narrower types compute in int, which cannot overflow).
bool Emitter::wraps_explicitly(const Type* t) const {
    return target_ == Target::Cuda && t->is_integer() && dtype_is_signed(t->dtype) && dtype_size(t->dtype) >= 4;
}

std::string Emitter::binop_code(BinOpKind op, const std::string& l, const Type* lt, const std::string& r, const Type* rt) {
    const Type* R = binop_type(op, lt, rt);
    if (!R) throw Error(ErrorKind::Typing, std::string("internal: no result type for ") + binop_symbol(op));
    std::string a = cast(l, lt, R), b = cast(r, rt, R);
    if (wraps_explicitly(R) && (op == BinOpKind::Add || op == BinOpKind::Sub || op == BinOpKind::Mul)) {
        const char* fn = op == BinOpKind::Add ? "simt_wrap_add(" : op == BinOpKind::Sub ? "simt_wrap_sub(" : "simt_wrap_mul(";
        return fn + a + ", " + b + ")";
    }
    switch (op) {
        case BinOpKind::Add: return "(" + a + " + " + b + ")";
        case BinOpKind::Sub: return "(" + a + " - " + b + ")";
        case BinOpKind::Mul: return "(" + a + " * " + b + ")";
        case BinOpKind::Div: return "(" + a + " / " + b + ")";
        case BinOpKind::FloorDiv: return "simt_floordiv(" + a + ", " + b + ")";
        case BinOpKind::Mod: return "simt_mod(" + a + ", " + b + ")";
        case BinOpKind::Pow:
            // float ** integer keeps the exponent integral (exact repeated multiplication).
            if (!R->is_integer() && rt->is_integer() && !R->is_complex()) return "simt_pow(" + a + ", (int64_t)(" + r + "))";
            return "simt_pow(" + a + ", " + b + ")";
        case BinOpKind::LShift: return "simt_lshift(" + a + ", " + b + ")";
        case BinOpKind::RShift: return "simt_rshift(" + a + ", " + b + ")";
        case BinOpKind::BitAnd: case BinOpKind::BitOr: case BinOpKind::BitXor: {
            const char* sym = op == BinOpKind::BitAnd ? " & " : op == BinOpKind::BitOr ? " | " : " ^ ";
            if (R->is_bool()) return "((bool)(" + a + sym + b + "))";
            return "(" + a + sym + b + ")";
        }
        case BinOpKind::MatMul: break;
    }
    throw Error(ErrorKind::Typing, "internal: unsupported operator in code generation");
}

std::string Emitter::expr_as(const Expr& e, const Type* to) { return cast(expr(e), e.type, to); }

std::string Emitter::expr(const Expr& e) {
    if (e.resolved && e.resolved->is_constant && !e.resolved->is_local && e.type &&
        (e.type->is_scalar() || e.type->is_tuple() || e.type->kind == TypeKind::String))
        return literal(e.resolved->constant, e.type);
    switch (e.kind) {
        case ExprKind::Name: return name_expr(e);
        case ExprKind::Attribute: return attribute_expr(e);
        case ExprKind::Subscript: return subscript_expr(e);
        case ExprKind::Call: return call_expr(e);
        case ExprKind::BinOp:
            if (e.type->is_tuple()) return tuple_concat_expr(e);
            if (e.type->is_tile())
                return emit_tile_binop(*this, e.binop, expr(*e.children[0]), e.children[0]->type, expr(*e.children[1]),
                                       e.children[1]->type, e.type);
            return binop_code(e.binop, expr(*e.children[0]), e.children[0]->type, expr(*e.children[1]), e.children[1]->type);
        case ExprKind::UnaryOp: {
            if (e.type->is_tile()) return emit_tile_unary(*this, e);
            const Expr& a = *e.children[0];
            std::string code = expr(a);
            switch (e.unop) {
                case UnaryOpKind::Not: return "(!" + cast(code, a.type, bool_type()) + ")";
                case UnaryOpKind::Neg:
                    if (wraps_explicitly(e.type)) return "simt_wrap_neg(" + cast(code, a.type, e.type) + ")";
                    return "(-" + cast(code, a.type, e.type) + ")";
                case UnaryOpKind::Pos: return "(" + cast(code, a.type, e.type) + ")";
                case UnaryOpKind::Invert:
                    if (e.type->is_bool()) return "(!" + code + ")";
                    return "(~" + cast(code, a.type, e.type) + ")";
            }
            break;
        }
        case ExprKind::Compare: return e.type->is_tile() ? emit_tile_compare(*this, e) : compare_expr(e);
        case ExprKind::BoolOp: return boolop_expr(e);
        case ExprKind::IfExp:
            if (const Resolved* r = e.children[0]->resolved.get(); r && r->is_constant && !r->is_local) {
                // decided when compiling: only that branch exists
                return expr_as(*e.children[r->constant.truthy() ? 1 : 2], e.type);
            }
            return "(" + cast(expr(*e.children[0]), e.children[0]->type, bool_type()) + " ? " +
                   expr_as(*e.children[1], e.type) + " : " + expr_as(*e.children[2], e.type) + ")";
        case ExprKind::Tuple: {
            std::string s = c_type(e.type) + "{";
            for (size_t i = 0; i < e.children.size(); ++i) s += (i ? ", " : "") + expr(*e.children[i]);
            return s + "}";
        }
        case ExprKind::None: return "";
        default: break;
    }
    throw Error(ErrorKind::Unsupported, describe_source_error(fn_->source, e.loc, fn_->name,
                                                             "UnsupportedError: this expression cannot be compiled"));
}

std::string Emitter::name_expr(const Expr& e) {
    if (e.resolved && e.resolved->is_local) return c_identifier(e.text);
    if (e.resolved && e.resolved->memory_slot >= 0) return emit_frozen_array(*this, e);
    throw Error(ErrorKind::Typing, describe_source_error(fn_->source, e.loc, fn_->name,
                                                        "TypingError: '" + e.text + "' (" + (e.type ? e.type->str() : "?") +
                                                            ") cannot be used as a value"));
}

std::string Emitter::attribute_expr(const Expr& e) {
    const Expr& base = *e.children[0];
    const Type* bt = base.type;
    if (bt->kind == TypeKind::Dim3) {
        std::string reg = bt->name.substr(bt->name.rfind('.') + 1);  // threadIdx, blockIdx, ...
        return "simt_" + reg + "(ctx)." + e.text;
    }
    if (bt->kind == TypeKind::Module && e.resolved && !e.resolved->builtin.empty() && e.type->is_scalar())
        return e.resolved->builtin;  // a value member such as cuda.laneid: its code
    if (bt->is_array()) {
        std::string a = expr(base);
        if (e.text == "size") return "simt_size(" + a + ")";
        if (e.text == "T") return "simt_transpose(" + a + ")";
        if (e.text == "shape" || e.text == "strides") {
            std::string s = c_type(e.type) + "{";
            for (int i = 0; i < bt->ndim; ++i) s += (i ? ", " : "") + a + "." + e.text + "[" + std::to_string(i) + "]";
            return s + "}";
        }
    }
    if (bt->is_scalar() && (e.text == "real" || e.text == "imag")) {
        std::string a = expr(base);
        if (bt->is_complex()) return "(" + a + ")." + (e.text == "real" ? "re" : "im");
        return e.text == "real" ? a : cast("0", int64_type(), bt);
    }
    throw Error(ErrorKind::Typing, describe_source_error(fn_->source, e.loc, fn_->name,
                                                        "TypingError: '" + e.text + "' cannot be used as a value here"));
}

namespace {
// Unsigned indices stay unsigned: the prelude skips the negative wrap-around for them.
const Type* index_type(const Type* t) {
    return t->is_integer() && !dtype_is_signed(t->dtype) ? scalar_type(DType::UInt64) : int64_type();
}
}  // namespace

std::string Emitter::index_code(const Expr& index) {
    // An index that is never negative goes unsigned too, and so skips the wrap-around.
    const Type* to = index_type(index.type);
    if (index.type->is_integer() && nonnegative(index, nonnegative_)) to = scalar_type(DType::UInt64);
    std::string code = cast(expr(index), index.type, to);
    if (index.kind != ExprKind::Name) return code;
    auto ranged = ranged_vars_.find(index.text);
    return ranged == ranged_vars_.end() ? code : "simt_ranged(" + code + ", " + ranged->second + ")";
}

bool Emitter::guarded(const Expr& sub) const {
    if (guards_.empty() || unit_.options.bounds != BoundsMode::Masked) return false;
    const Expr& base = *sub.children[0];
    if (base.kind != ExprKind::Name) return false;
    std::vector<const Expr*> parts = full_index(sub);
    if (parts.empty()) return false;
    for (size_t k = 0; k < parts.size(); ++k) {
        // x < extent is half of it: x must also be non-negative (else it would wrap), which the
        // compiler proves or the test states.
        const Expr& x = *parts[k];
        if (!x.type || !x.type->is_integer()) return false;
        bool below = false, nonneg = !dtype_is_signed(x.type->dtype) || nonnegative(x, nonnegative_);
        for (const GuardFact& f : guards_) {
            if (!same_pure_expr(*f.index, x)) continue;
            below = below || (f.array == base.text && f.dim == int(k));
            nonneg = nonneg || f.array.empty();
        }
        if (!below || !nonneg) return false;
    }
    return true;
}

std::string Emitter::element_access(const char* fn, const Expr& sub, const std::string& extra) {
    const Expr& base = *sub.children[0];
    const Expr& index = *sub.children[1];
    int site = sub.resolved ? sub.resolved->site : -1;
    // Proven by a test before the loop: untested. Kept below the extents by an if: only the sign
    // is tested, on the indices as signed values (see simt_load_nonneg).
    const bool proven = proven_.count(&sub) > 0, kept = !proven && guarded(sub);
    std::string name = std::string(fn) + (proven ? "_proven" : kept ? "_nonneg" : "");
    std::string head = name + "(ctx, " + expr(base) + ", " + std::to_string(site) + (extra.empty() ? "" : ", " + extra);
    auto component = [&](const Expr& c) { return kept ? cast(expr(c), c.type, int64_type()) : index_code(c); };
    if (index.kind == ExprKind::Tuple) {
        for (const ExprPtr& c : index.children) head += ", " + component(*c);
        return head + ")";
    }
    if (index.type->is_tuple()) {  // A[idx] with idx a tuple value: evaluate it once
        std::string tmp = temp("idx");
        std::string s = "([&]() { auto " + tmp + " = " + expr(index) + "; return " + head;
        for (size_t i = 0; i < index.type->elems.size(); ++i)
            s += ", " + cast(tmp + ".f" + std::to_string(i), index.type->elems[i], index_type(index.type->elems[i]));
        return s + "); }())";
    }
    return head + ", " + component(index) + ")";
}

std::string Emitter::subscript_expr(const Expr& e) {
    const Expr& base = *e.children[0];
    const Expr& index = *e.children[1];
    if (base.type->is_array()) return e.type->is_array() ? view_expr(e) : element_access("simt_load", e, "");
    if (base.type->is_tile()) return "simt_tile_reshape<" + c_type(e.type) + ">(" + expr(base) + ")";  // t[:, None]
    if (base.type->is_tuple() && index.kind == ExprKind::Slice) return tuple_slice_expr(e);
    if (base.type->is_tuple()) {
        const ConstValue* c = index.resolved && index.resolved->is_constant ? &index.resolved->constant : nullptr;
        if (c && c->is_int()) {
            int64_t i = c->as_int();
            if (i < 0) i += int64_t(base.type->elems.size());
            // A.shape[k] reads the array's field directly.
            if (base.kind == ExprKind::Attribute && base.children[0]->type->is_array() &&
                (base.text == "shape" || base.text == "strides"))
                return expr(*base.children[0]) + "." + base.text + "[" + std::to_string(i) + "]";
            return "(" + expr(base) + ").f" + std::to_string(i);
        }
        return "(" + expr(base) + ").at(" + cast(expr(index), index.type, int64_type()) + ")";
    }
    throw Error(ErrorKind::Typing, "internal: cannot emit subscript");
}

std::string Emitter::call_expr(const Expr& e) {
    const Resolved* r = e.resolved.get();
    if (r && r->callee) {
        const TypedFunction& f = *r->callee;
        std::vector<const char*> names;
        const size_t visible = f.def.params.size() - f.hidden_params;
        for (size_t i = 0; i < visible; ++i) names.push_back(f.def.params[i].name.c_str());
        std::string error;
        std::vector<const Expr*> args = match_call_args(e, names, 0, error);
        std::string s = f.c_name + "(ctx";
        for (size_t i = 0; i < args.size(); ++i) {
            if (args[i]) s += ", " + cast(expr(*args[i]), args[i]->type, f.param_types[i]);
            else {
                const Expr& d = *f.def.params[i].default_value;
                s += ", " + literal(d.resolved->constant, f.param_types[i]);
            }
        }
        // An inner function's hidden parameters: the caller's variables of the same names.
        for (size_t i = visible; i < f.def.params.size(); ++i) s += ", " + c_identifier(f.def.params[i].name);
        return s + ")";
    }
    if (r && r->foreign) return foreign_call(e, *r->foreign);
    if (r && r->builtin.rfind("cast.", 0) == 0) {
        const Expr& arg = e.children.size() > 1 ? *e.children[1] : *e.keywords[0].value;
        return cast(expr(arg), arg.type, e.type);
    }
    if (r && !r->builtin.empty()) {
        const BuiltinFunction* f = builtins().function(r->builtin);
        if (f) return f->emit(*this, e);
    }
    throw Error(ErrorKind::Typing, describe_source_error(fn_->source, e.loc, fn_->name, "TypingError: cannot compile this call"));
}

std::string Emitter::compare_expr(const Expr& e) {
    auto pair = [&](CmpOpKind op, const std::string& a, const Type* at, const std::string& b, const Type* bt) -> std::string {
        if (op == CmpOpKind::Is || op == CmpOpKind::IsNot) {
            bool same = at->kind == TypeKind::NoneType && bt->kind == TypeKind::NoneType;
            return (op == CmpOpKind::Is) == same ? "true" : "false";
        }
        if (op == CmpOpKind::In || op == CmpOpKind::NotIn) {
            std::string x = temp("x"), t = temp("tup");
            std::string s = "([&]() { auto " + x + " = " + a + "; auto " + t + " = " + b + "; return ";
            s += op == CmpOpKind::NotIn ? "!(" : "(";
            if (bt->elems.empty()) s += "false";
            for (size_t i = 0; i < bt->elems.size(); ++i) {
                const Type* P = scalar_type(promote(at->dtype, bt->elems[i]->dtype));
                s += (i ? " || " : "") + cast(x, at, P) + " == " + cast(t + ".f" + std::to_string(i), bt->elems[i], P);
            }
            return s + "); }())";
        }
        if (at->is_tuple()) {
            bool eq = op == CmpOpKind::Eq;
            if (at->elems.size() != bt->elems.size()) return eq ? "false" : "true";
            std::string x = temp("l"), y = temp("r");
            std::string s = "([&]() { auto " + x + " = " + a + "; auto " + y + " = " + b + "; return " + (eq ? "(" : "!(");
            for (size_t i = 0; i < at->elems.size(); ++i) {
                const Type* P = scalar_type(promote(at->elems[i]->dtype, bt->elems[i]->dtype));
                std::string f = ".f" + std::to_string(i);
                s += (i ? " && " : "") + cast(x + f, at->elems[i], P) + " == " + cast(y + f, bt->elems[i], P);
            }
            if (at->elems.empty()) s += "true";
            return s + "); }())";
        }
        const Type* P = scalar_type(promote(at->dtype, bt->dtype));
        return "(" + cast(a, at, P) + " " + cmpop_symbol(op) + " " + cast(b, bt, P) + ")";
    };
    if (e.cmpops.size() == 1)
        return pair(e.cmpops[0], expr(*e.children[0]), e.children[0]->type, expr(*e.children[1]), e.children[1]->type);
    // a < b < c: each operand evaluated once, left to right, stopping at the first false.
    std::string s = "([&]() { ";
    std::string prev = temp("c");
    s += "auto " + prev + " = " + expr(*e.children[0]) + "; ";
    for (size_t i = 0; i < e.cmpops.size(); ++i) {
        std::string cur = temp("c");
        s += "auto " + cur + " = " + expr(*e.children[i + 1]) + "; ";
        std::string test = pair(e.cmpops[i], prev, e.children[i]->type, cur, e.children[i + 1]->type);
        if (i + 1 < e.cmpops.size()) s += "if (!" + test + ") return false; ";
        else s += "return " + test + "; ";
        prev = cur;
    }
    return s + "}())";
}

std::string Emitter::boolop_expr(const Expr& e) {
    bool all_bool = e.type->is_bool();
    for (const ExprPtr& c : e.children) all_bool = all_bool && c->type->is_bool();
    const char* sym = e.boolop == BoolOpKind::And ? " && " : " || ";
    if (all_bool) {
        std::string s = "(";
        for (size_t i = 0; i < e.children.size(); ++i) s += (i ? sym : "") + expr(*e.children[i]);
        return s + ")";
    }
    // Python returns the deciding operand itself: `a or b` is a if a is true, else b.
    std::string T = c_type(e.type);
    std::string s = "([&]() -> " + T + " { ";
    for (size_t i = 0; i + 1 < e.children.size(); ++i) {
        std::string v = temp("v");
        s += T + " " + v + " = " + expr_as(*e.children[i], e.type) + "; ";
        s += std::string("if (") + (e.boolop == BoolOpKind::And ? "!" : "") + "simt_truthy(" + v + ")) return " + v + "; ";
    }
    s += "return " + expr_as(*e.children.back(), e.type) + "; }())";
    return s;
}

}  // namespace simt
