// Arguments of the tile builtins (see tile_args.h).
#include "sema/tile_args.h"
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"
#include "sema/tile_hints.h"
#include "support/error.h"

namespace simt::tile_builtin {


bool is_method(const Expr& call) {
    const std::string& n = call.resolved->builtin;
    return n.rfind("tilemethod.", 0) == 0 || n.rfind("arraymethod.", 0) == 0 || n.rfind("tiledview.", 0) == 0;
}
std::string short_name(const Expr& call) {
    const std::string& n = call.resolved->builtin;
    return n.substr(n.find('.') + 1);
}
std::string display(const Expr& call) {
    const std::string& n = call.resolved->builtin;
    const char* owner = n.rfind("arraymethod.", 0) == 0 ? "Array." : n.rfind("tiledview.", 0) == 0 ? "TiledView."
                      : is_method(call)                   ? "Tile."
                                                          : "tile.";
    return owner + short_name(call);
}

// The call's arguments in parameter order (null where omitted), then its hint keywords' (see
// tile_hints.h); a method's receiver is the first.
std::vector<const Expr*> operands(const Expr& call, const std::vector<const char*>& own, size_t required, std::string& error) {
    std::vector<const char*> params = own;
    const std::vector<const char*>& hints = tile_hint_keywords(short_name(call));
    params.insert(params.end(), hints.begin(), hints.end());
    if (!is_method(call)) return match_call_args(call, params, required, error);
    std::vector<const char*> rest(params.begin() + 1, params.end());
    std::vector<const Expr*> out = match_call_args(call, rest, required ? required - 1 : 0, error);
    if (!error.empty()) return {};
    out.insert(out.begin(), call.children[0]->children[0].get());
    return out;
}
std::vector<Expr*> args(Sema& s, Expr& call, const std::vector<const char*>& params, size_t required) {
    std::string error;
    std::vector<const Expr*> m = operands(call, params, required, error);
    if (!error.empty()) s.fail(call.loc, display(call) + "() " + error);
    const std::vector<const char*>& hints = tile_hint_keywords(short_name(call));
    for (size_t i = params.size(); i < m.size(); ++i)
        if (m[i]) check_tile_hint(s, short_name(call), hints[i - params.size()], *m[i], display(call));
    std::vector<Expr*> out;
    for (size_t i = 0; i < params.size(); ++i) out.push_back(const_cast<Expr*>(m[i]));
    return out;
}
std::vector<const Expr*> emit_args(const Expr& call, const std::vector<const char*>& params) {
    std::string error;
    std::vector<const Expr*> m = operands(call, params, 0, error);
    if (!error.empty())  // (typing matched them: the emitter asked with other parameters)
        throw Error(ErrorKind::Runtime, "internal: emitting " + display(call) + "(): " + error);
    m.resize(params.size());
    return m;
}

const Type* need_tile(Sema& s, const Expr* e, const Expr& call, const char* what) {
    if (!e->type->is_tile()) s.fail(e->loc, display(call) + "() " + what + " must be a tile, not " + e->type->str());
    return e->type;
}

bool power_of_two(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

// A tile shape: a constant int or tuple of ints, each a power of two.
std::vector<int64_t> shape_arg(Sema& s, const Expr* e, const Expr& call, const char* what, int64_t infer_from) {
    const ConstValue* c = s.constant(*e);
    std::vector<int64_t> dims;
    if (c && c->is_int()) dims.push_back(c->as_int());
    else if (c && c->kind == ConstValue::Kind::Tuple) {
        for (const ConstValue& v : c->elems) {
            if (!v.is_int()) s.fail(e->loc, display(call) + "() " + what + " must be a tuple of integers");
            dims.push_back(v.as_int());
        }
    } else {
        s.fail(e->loc, display(call) + "() " + what + " must be known when the kernel compiles (a constant, or a "
                       "parameter annotated tile.Constant[int])");
    }
    if (infer_from > 0) {  // reshape: one -1 stands for what the others leave of infer_from elements
        int64_t known = 1, unknown = -1;
        bool usable = true;  // (other dimensions out of range: the checks below name them)
        for (size_t i = 0; i < dims.size(); ++i) {
            if (dims[i] == -1) {
                if (unknown >= 0) s.fail(e->loc, display(call) + "() " + what + " can have one -1, not several");
                unknown = int64_t(i);
            } else if (dims[i] <= 0 || dims[i] > kMaxTileElements || known * dims[i] > kMaxTileElements) {
                usable = false;
            } else {
                known *= dims[i];
            }
        }
        if (unknown >= 0 && usable) {
            if (known <= 0 || known > infer_from || infer_from % known != 0)
                s.fail(e->loc, display(call) + "() " + what + ": no length for -1 makes " + std::to_string(infer_from) +
                               " elements");
            dims[size_t(unknown)] = infer_from / known;
        }
    }
    int64_t n = 1;
    for (int64_t d : dims) {
        if (!power_of_two(d))
            s.fail(e->loc, display(call) + "() " + what + ": tile dimensions are powers of two, not " + std::to_string(d));
        if (d > kMaxTileElements || n * d > kMaxTileElements)  // (tested before the product can overflow)
            s.fail(e->loc, display(call) + "() " + what + ": a tile holds at most " + std::to_string(kMaxTileElements) +
                           " elements");
        n *= d;
    }
    return dims;
}

DType dtype_arg(Sema& s, const Expr* e, const Expr& call, DType fallback) {
    if (!e) return fallback;
    if (e->type->kind != TypeKind::DTypeObj) s.fail(e->loc, display(call) + "() dtype must be a dtype such as tile.float32, not " + e->type->str());
    if (dtype_is_complex(e->type->dtype)) s.fail(e->loc, "tiles cannot hold complex numbers");
    return e->type->dtype;
}

int64_t axis_arg(Sema& s, const Expr* e, const Expr& call, int64_t rank) {
    const ConstValue* c = s.constant(*e);
    if (!c || !c->is_int()) s.fail(e->loc, display(call) + "() axis must be a constant integer");
    int64_t a = c->as_int();
    if (a < -rank || a >= rank) s.fail(e->loc, display(call) + "() axis " + std::to_string(a) + " is out of range for " + std::to_string(rank) + " dimension(s)");
    return a < 0 ? a + rank : a;
}

bool bool_arg(Sema& s, const Expr* e, const Expr& call, const char* what) {
    if (!e) return false;
    const ConstValue* c = s.constant(*e);
    if (!c || !c->is_int()) s.fail(e->loc, display(call) + "() " + std::string(what) + " must be a constant True or False");
    return c->as_int() != 0;
}

// An index into the tile space: an integer (1-D) or a tuple of integers, one per array axis.
void check_index(Sema& s, const Expr* e, const Expr& call, int ndim) {
    const Type* t = e->type;
    std::vector<const Type*> parts = t->is_tuple() ? t->elems : std::vector<const Type*>{t};
    if (int(parts.size()) != ndim)
        s.fail(e->loc, display(call) + "() index has " + std::to_string(parts.size()) + " component(s) for an array of " +
                       std::to_string(ndim) + " dimension(s)");
    for (const Type* p : parts)
        if (!p->is_integer()) s.fail(e->loc, display(call) + "() index must hold integers, not " + p->str());
}
std::string index_codes(Emitter& em, const Expr& e) {
    if (e.kind == ExprKind::Tuple) {
        std::string s;
        for (size_t i = 0; i < e.children.size(); ++i) s += ", (int64_t)(" + em.expr(*e.children[i]) + ")";
        return s;
    }
    if (!e.type->is_tuple()) return ", (int64_t)(" + em.expr(e) + ")";
    std::string code = em.expr(e), s;
    for (size_t i = 0; i < e.type->elems.size(); ++i) s += ", (int64_t)(" + code + ".f" + std::to_string(i) + ")";
    return s;
}

std::string scratch() { return "simt_tile_scratch"; }

std::string padding_mode_arg(Sema* s, const Expr* e, const Expr& call, DType d, const char* absent) {
    if (!e) return absent;
    const ConstValue* c = s ? s->constant(*e) : &e->resolved->constant;
    if (!c || c->kind != ConstValue::Kind::String) {
        if (s) s->fail(e->loc, display(call) + "() padding_mode must be a tile.PaddingMode member");
        return absent;
    }
    if (s && !dtype_is_float(d) && c->s != "zero" && c->s != "undetermined" && c->s != "neg_zero")
        s->fail(e->loc, display(call) + "() padding_mode " + c->s + " needs a floating-point array");
    return c->s;
}

std::string padding_code(const std::string& mode, DType d) {
    const bool fl = dtype_is_float(d);
    if (mode == "nan") return "simt_nan()";
    if (mode == "pos_inf") return "simt_inf()";
    if (mode == "neg_inf") return "(-simt_inf())";
    if (mode == "neg_zero" && fl) return "(-0.0)";
    return "0";
}

void add_tile_function(BuiltinRegistry& r, const std::string& name, const Type* (*infer)(Sema&, Expr&),
                       std::string (*emit)(Emitter&, const Expr&), bool method) {
    const std::string canonical = "tile." + name;
    r.add_function({canonical, infer, emit});
    r.add_member("tile", name, member_function(canonical));
    if (method) r.add_function({"tilemethod." + name, infer, emit});
}

void check_operand(Sema& s, const Expr* e, const Expr& call) {
    if (!(e->type->is_tile() || e->type->is_scalar()) || e->type->is_complex())
        s.fail(e->loc, display(call) + "() takes tiles and numbers, not " + e->type->str());
}

const char* max_min_fn(const std::string& n, bool nan) {
    if (n == "max" || n == "maximum") return nan ? "simt_tile_max" : "simt_tile_fmax";
    return nan ? "simt_tile_min" : "simt_tile_fmin";
}

std::string reduce_op(Emitter& em, const std::string& n, const Type* acc, bool nan) {
    std::string T = em.c_type(acc);
    std::string body;
    if (n == "sum") body = em.cast(em.binop_code(BinOpKind::Add, "a", acc, "b", acc), Emitter::binop_type(BinOpKind::Add, acc, acc), acc);
    else if (n == "prod") body = em.cast(em.binop_code(BinOpKind::Mul, "a", acc, "b", acc), Emitter::binop_type(BinOpKind::Mul, acc, acc), acc);
    else body = std::string(max_min_fn(n, nan)) + "(a, b)";
    return "[&](" + T + " a, " + T + " b) -> " + T + " { return " + body + "; }";
}

DType reduce_acc_dtype(const std::string& n, DType in, DType d) {
    return in == DType::Float16 && (n == "sum" || n == "prod") ? DType::Float32 : d;
}

DType reduce_dtype(const std::string& n, DType d) {
    if (n != "sum" && n != "prod") return d;
    if (d == DType::Bool || (dtype_is_integer(d) && dtype_is_signed(d))) return DType::Int64;
    if (dtype_is_integer(d)) return DType::UInt64;
    return d;
}

}  // namespace simt::tile_builtin
