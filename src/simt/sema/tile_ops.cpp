// Operators on simt.cuda.tile tiles: arithmetic, comparisons and unary operators elementwise with
// NumPy broadcasting and NumPy's array promotion (scalars weak), and the tile attributes.
#include "sema/tile.h"
#include "codegen/emitter.h"
#include "sema/sema.h"
#include "types/promote.h"

namespace simt {

namespace {

int kind_rank(DType d) { return d == DType::Bool ? 0 : dtype_is_integer(d) ? 1 : 2; }

std::string dims_text(const std::vector<int64_t>& dims) {
    std::string s = "(";
    for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
    return s + (dims.size() == 1 ? ",)" : ")");
}

bool is_bitwise(BinOpKind op) {
    return op == BinOpKind::BitAnd || op == BinOpKind::BitOr || op == BinOpKind::BitXor || op == BinOpKind::LShift ||
           op == BinOpKind::RShift;
}

}  // namespace

int64_t tile_bytes(const Type* tile) { return tile->tile_size() * dtype_size(tile->dtype); }
int64_t tile_pair_bytes(const Type* a, const Type* b) { return (tile_bytes(a) + 15) / 16 * 16 + tile_bytes(b); }

void note_tile_scratch(Sema& s, Loc loc, int64_t bytes, const std::string& what) {
    bytes = (bytes + 15) / 16 * 16;
    if (bytes > kTileScratchLimit)
        s.fail(loc, what + " exchanges " + std::to_string(bytes) + " bytes between the threads of a block through shared "
                    "memory; the most is " + std::to_string(kTileScratchLimit) + " (use smaller tiles)");
    CompileUnit& u = s.unit();
    u.uses_tiles = true;
    if (bytes > u.tile_scratch_bytes) u.tile_scratch_bytes = bytes;
}

std::vector<int64_t> tile_broadcast_shape(const std::vector<const Type*>& operands) {
    std::vector<int64_t> out;
    for (const Type* t : operands) {
        if (!t->is_tile()) continue;
        std::vector<int64_t> merged(std::max(out.size(), t->dims.size()), 1);
        for (size_t i = 0; i < merged.size(); ++i) {
            int64_t a = i < out.size() ? out[out.size() - 1 - i] : 1;
            int64_t b = i < t->dims.size() ? t->dims[t->dims.size() - 1 - i] : 1;
            merged[merged.size() - 1 - i] = a == 1 ? b : a;
        }
        out = merged;
    }
    return out;
}

std::vector<int64_t> broadcast_tile_dims(Sema& s, Loc loc, const std::vector<const Type*>& operands,
                                         const std::string& what) {
    std::vector<int64_t> out = tile_broadcast_shape(operands);
    for (const Type* t : operands) {
        if (!t->is_tile()) continue;
        size_t skip = out.size() - t->dims.size();  // (aligned on the right)
        for (size_t i = 0; i < t->dims.size(); ++i) {
            if (t->dims[i] == 1 || t->dims[i] == out[skip + i]) continue;
            std::string shapes;
            for (const Type* o : operands) if (o->is_tile()) shapes += (shapes.empty() ? "" : " and ") + dims_text(o->dims);
            s.fail(loc, what + ": tiles of shapes " + shapes + " do not broadcast together");
        }
    }
    return out;
}

DType tile_common_dtype(const std::vector<const Type*>& operands) {
    bool have_tile = false;
    DType tiles = DType::Bool;
    for (const Type* t : operands)
        if (t->is_tile()) { tiles = have_tile ? promote(tiles, t->dtype) : t->dtype; have_tile = true; }
    DType out = tiles;
    for (const Type* t : operands) {
        if (t->is_tile()) continue;
        if (!have_tile) { out = promote(out, t->dtype); continue; }
        // A scalar of a higher kind (a float with integer tiles) brings in its kind's default.
        if (kind_rank(t->dtype) > kind_rank(out)) out = promote(out, kind_rank(t->dtype) == 2 ? DType::Float64 : DType::Int64);
    }
    return out;
}

DType tile_binop_dtype(Sema& s, Loc loc, BinOpKind op, const Type* a, const Type* b) {
    const char* sym = binop_symbol(op);
    for (const Type* t : {a, b})
        if (!t->is_tile() && !t->is_scalar())
            s.fail(loc, std::string("unsupported operand types for ") + sym + ": " + a->str() + " and " + b->str());
    DType c = tile_common_dtype({a, b});
    if (dtype_is_complex(c)) s.fail(loc, "tiles cannot hold complex numbers");
    if (is_bitwise(op)) {
        if (dtype_is_float(c)) s.fail(loc, std::string("'") + sym + "' needs integer or boolean tiles, not " + dtype_name(c));
        if (c == DType::Bool && (op == BinOpKind::LShift || op == BinOpKind::RShift)) return DType::Int64;
        return c;
    }
    if (op == BinOpKind::MatMul) s.fail(loc, "'@' multiplies two 2-D tiles (use tile.matmul or tile.mma)");
    if (c == DType::Bool) return op == BinOpKind::Div ? DType::Float64 : DType::Int64;
    if (op == BinOpKind::Div && !dtype_is_float(c)) return DType::Float64;
    return c;
}

void check_weak_integer(Sema& s, const Expr& scalar, const Type* other) {
    const ConstValue* c = s.constant(scalar);
    if (!other->is_tile() || !dtype_is_integer(other->dtype) || !scalar.type->is_integer() || !c || !c->is_int()) return;
    int64_t v = c->as_int();
    DType d = other->dtype;
    int bits = dtype_bits(d);
    bool fits = dtype_is_signed(d) ? (bits >= 64 || (v >= -(int64_t(1) << (bits - 1)) && v < (int64_t(1) << (bits - 1))))
                                   : (v >= 0 && (bits >= 64 || v < (int64_t(1) << bits)));
    if (!fits)
        s.fail(scalar.loc, "the Python integer " + std::to_string(v) + " does not fit the " + dtype_name(d) +
                           " of the tile beside it (NumPy raises OverflowError); convert the tile first (t.astype(...))");
}

const Type* tile_binop_type(Sema& s, Loc loc, BinOpKind op, const Type* a, const Type* b) {
    std::string what = std::string("'") + binop_symbol(op) + "'";
    if (op == BinOpKind::MatMul) {
        if (!a->is_tile() || !b->is_tile() || a->dims.size() != 2 || b->dims.size() != 2 || a->dims[1] != b->dims[0])
            s.fail(loc, "'@' multiplies a (M, K) tile by a (K, N) tile, not " + a->str() + " and " + b->str());
        DType d = tile_common_dtype({a, b});
        if (d == DType::Bool) s.fail(loc, "'@' on boolean tiles");
        note_tile_scratch(s, loc, tile_pair_bytes(a, b), what);
        return tile_type(d, {a->dims[0], b->dims[1]});
    }
    DType d = tile_binop_dtype(s, loc, op, a, b);
    std::vector<int64_t> dims = broadcast_tile_dims(s, loc, {a, b}, what);
    for (const Type* t : {a, b})
        if (t->is_tile() && t->dims != dims) note_tile_scratch(s, loc, tile_bytes(t), what + " broadcasting " + t->str());
    s.unit().uses_tiles = true;
    return tile_type(d, dims);
}

const Type* infer_tile_unary(Sema& s, Expr& e) {
    const Type* a = e.children[0]->type;
    switch (e.unop) {
        case UnaryOpKind::Not:
            s.fail(e.loc, "'not' needs one truth value, not a tile (use ~ for elementwise negation of a boolean tile)");
        case UnaryOpKind::Invert:
            if (dtype_is_float(a->dtype)) s.fail(e.loc, "'~' needs an integer or boolean tile, not " + a->str());
            return a;
        case UnaryOpKind::Neg:
            if (a->dtype == DType::Bool) s.fail(e.loc, "'-' on a boolean tile (use ~)");
            return a;
        case UnaryOpKind::Pos: return a;
    }
    return a;
}

const Type* tile_compare_type(Sema& s, Loc loc, CmpOpKind op, const Type* a, const Type* b) {
    if (op == CmpOpKind::Is || op == CmpOpKind::IsNot || op == CmpOpKind::In || op == CmpOpKind::NotIn)
        s.fail(loc, std::string("'") + cmpop_symbol(op) + "' does not apply to tiles");
    for (const Type* t : {a, b})
        if (!t->is_tile() && !t->is_scalar()) s.fail(loc, std::string("cannot compare ") + a->str() + " " + cmpop_symbol(op) + " " + b->str());
    if (dtype_is_complex(tile_common_dtype({a, b}))) s.fail(loc, "tiles cannot hold complex numbers");
    if (!a->is_tile() && !b->is_tile()) return bool_type();
    std::string what = std::string("'") + cmpop_symbol(op) + "'";
    std::vector<int64_t> dims = broadcast_tile_dims(s, loc, {a, b}, what);
    for (const Type* t : {a, b})
        if (t->is_tile() && t->dims != dims) note_tile_scratch(s, loc, tile_bytes(t), what + " broadcasting " + t->str());
    return tile_type(DType::Bool, dims);
}

const Type* infer_tile_compare(Sema& s, Expr& e) {
    if (e.cmpops.size() != 1) s.fail(e.loc, "tiles cannot be compared in a chain (a < b < c); combine two comparisons with &");
    return tile_compare_type(s, e.loc, e.cmpops[0], e.children[0]->type, e.children[1]->type);
}

// t[:, None] and the like: whole slices keep an axis, None inserts one of length 1 (cuTile's
// spelling of expand_dims); axes not named stay at the end. Nothing moves.
const Type* infer_tile_subscript(Sema& s, Expr& e, const std::vector<Expr*>& parts) {
    const Type* t = e.children[0]->type;
    std::vector<int64_t> dims;
    size_t next = 0;
    for (Expr* p : parts) {
        if (p->kind == ExprKind::Slice && is_whole_slice(*p)) {
            if (next >= t->dims.size()) s.fail(p->loc, "too many ':' for a tile of " + std::to_string(t->dims.size()) + " dimension(s)");
            dims.push_back(t->dims[next++]);
            continue;
        }
        const Type* pt = p->kind == ExprKind::Slice ? nullptr : s.type_of(*p);
        if (!pt || pt->kind != TypeKind::NoneType)
            s.fail(p->loc, "a tile is indexed only with ':' and None (t[:, None] adds an axis); use tile.extract() for pieces");
        dims.push_back(1);
    }
    for (; next < t->dims.size(); ++next) dims.push_back(t->dims[next]);
    return tile_type(t->dtype, dims);
}

bool is_tile_method(const std::string& attr) {
    static const char* const kMethods[] = {"astype", "reshape", "permute", "transpose", "broadcast_to", "expand_dims",
                                           "sum", "prod", "max", "min", "argmax", "argmin", "item", "extract", "insert"};
    for (const char* m : kMethods) if (attr == m) return true;
    return false;
}

const Type* infer_tile_attribute(Sema& s, Expr& e) {
    const Type* t = e.children[0]->type;
    if (e.text == "dtype") return dtype_obj_type(t->dtype);
    if (e.text == "shape") {
        std::vector<ConstValue> dims;
        for (int64_t d : t->dims) dims.push_back(ConstValue::integer(d));
        s.set_constant(e, ConstValue::tuple(dims));
        return tuple_type(std::vector<const Type*>(t->dims.size(), int64_type()));
    }
    if (e.text == "ndim" || e.text == "size") {
        s.set_constant(e, ConstValue::integer(e.text == "ndim" ? int64_t(t->dims.size()) : t->tile_size()));
        return int64_type();
    }
    s.fail(e.loc, "a tile has no attribute '" + e.text + "'");
}

// --- code ----------------------------------------------------------------------------------

std::string emit_tile_elementwise(Emitter& em, const Type* result, const std::vector<std::string>& codes,
                                  const std::vector<const Type*>& types,
                                  const std::function<std::string(const std::vector<std::string>&)>& body) {
    std::string params, args;
    std::vector<std::string> names;
    for (size_t i = 0; i < codes.size(); ++i) {
        std::string name = "x" + std::to_string(i);
        names.push_back(name);
        params += (i ? ", " : "") + std::string(dtype_c_name(types[i]->dtype)) + " " + name;
        std::string code = codes[i];
        if (types[i]->is_tile() && result->is_tile() && types[i]->dims != result->dims)
            code = "simt_tile_broadcast<" + em.c_type(tile_type(types[i]->dtype, result->dims)) + ">(" + code + ", simt_tile_scratch)";
        args += (i ? ", " : "") + code;
    }
    std::string out = dtype_c_name(result->dtype);
    std::string lambda = "[&](" + params + ") -> " + out + " { return " + body(names) + "; }";
    if (!result->is_tile()) return "(" + lambda + ")(" + args + ")";
    return "simt_tile_map<" + em.c_type(result) + ">(" + lambda + ", " + args + ")";
}

std::string emit_tile_binop(Emitter& em, BinOpKind op, const std::string& a, const Type* at, const std::string& b,
                            const Type* bt, const Type* result) {
    if (op == BinOpKind::MatMul) {
        std::string acc = "simt_tile_full<" + em.c_type(result) + ">(" + dtype_c_name(result->dtype) + "(0))";
        return "simt_tile_mma(" + a + ", " + b + ", " + acc + ", simt_tile_scratch)";
    }
    // Operands meet in the common dtype (weak scalars take the tiles'), then the scalar operator.
    const Type* common = scalar_type(tile_common_dtype({at, bt}));
    const Type* out = scalar_type(result->dtype);
    return emit_tile_elementwise(em, result, {a, b}, {at, bt}, [&](const std::vector<std::string>& x) {
        const Type* ea = scalar_type(at->dtype);
        const Type* eb = scalar_type(bt->dtype);
        std::string l = em.cast(x[0], ea, common), r = em.cast(x[1], eb, common);
        if (common->is_bool() && !(op == BinOpKind::BitAnd || op == BinOpKind::BitOr || op == BinOpKind::BitXor)) {
            l = em.cast(l, common, out);
            r = em.cast(r, common, out);
            return em.cast(em.binop_code(op, l, out, r, out), Emitter::binop_type(op, out, out), out);
        }
        return em.cast(em.binop_code(op, l, common, r, common), Emitter::binop_type(op, common, common), out);
    });
}

std::string emit_tile_unary(Emitter& em, const Expr& e) {
    const Expr& a = *e.children[0];
    const Type* t = scalar_type(a.type->dtype);
    return emit_tile_elementwise(em, e.type, {em.expr(a)}, {a.type}, [&](const std::vector<std::string>& x) {
        switch (e.unop) {
            case UnaryOpKind::Neg: return em.cast("(-" + x[0] + ")", t, t);
            case UnaryOpKind::Invert: return t->is_bool() ? "(!" + x[0] + ")" : em.cast("(~" + x[0] + ")", t, t);
            default: return x[0];
        }
    });
}

std::string emit_tile_compare_of(Emitter& em, CmpOpKind op, const Expr& a, const Expr& b, const Type* result) {
    // Integers compare exactly: int8 tiles against 1000 or uint32 ones against -1 compare wide.
    DType cmp = tile_common_dtype({a.type, b.type});
    for (const Type* t : {a.type, b.type})
        if (!t->is_tile() && dtype_is_integer(cmp) && t->is_integer()) cmp = promote(cmp, t->dtype);
    const Type* common = scalar_type(cmp);
    const char* sym = cmpop_symbol(op);
    return emit_tile_elementwise(em, result, {em.expr(a), em.expr(b)}, {a.type, b.type}, [&](const std::vector<std::string>& x) {
        return "(" + em.cast(x[0], scalar_type(a.type->dtype), common) + " " + sym + " " +
               em.cast(x[1], scalar_type(b.type->dtype), common) + ")";
    });
}

std::string emit_tile_compare(Emitter& em, const Expr& e) {
    return emit_tile_compare_of(em, e.cmpops[0], *e.children[0], *e.children[1], e.type);
}

std::string emit_tile_cast(Emitter& em, const std::string& code, const Type* from, const Type* to) {
    if (from == to) return code;
    const Type* f = scalar_type(from->dtype);
    const Type* t = scalar_type(to->dtype);
    return emit_tile_elementwise(em, to, {code}, {from}, [&](const std::vector<std::string>& x) { return em.cast(x[0], f, t); });
}

}  // namespace simt
