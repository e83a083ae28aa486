// NumPy promotion and numba arithmetic typing for kernel scalars.
#include "types/promote.h"

namespace simt {

namespace {
DType signed_of_size(int bytes) {
    switch (bytes) {
        case 1: return DType::Int8;
        case 2: return DType::Int16;
        case 4: return DType::Int32;
        default: return DType::Int64;
    }
}
DType unsigned_of_size(int bytes) {
    switch (bytes) {
        case 1: return DType::UInt8;
        case 2: return DType::UInt16;
        case 4: return DType::UInt32;
        default: return DType::UInt64;
    }
}
DType float_of_size(int bytes) { return bytes <= 2 ? DType::Float16 : bytes == 4 ? DType::Float32 : DType::Float64; }
int float_size(DType d) {  // component size for complex
    if (d == DType::Complex64) return 4;
    if (d == DType::Complex128) return 8;
    return dtype_size(d);
}
}  // namespace

DType float_for(DType d) {
    if (d == DType::Bool) return DType::Float16;
    if (dtype_is_float(d) || dtype_is_complex(d)) return d;
    int s = dtype_size(d);
    return s == 1 ? DType::Float16 : s == 2 ? DType::Float32 : DType::Float64;
}

DType promote(DType a, DType b) {
    if (a == b) return a;
    if (a == DType::Bool) return b;
    if (b == DType::Bool) return a;
    bool ai = dtype_is_integer(a), bi = dtype_is_integer(b);
    if (ai && bi) {
        bool as = dtype_is_signed(a), bs = dtype_is_signed(b);
        int sa = dtype_size(a), sb = dtype_size(b);
        if (as == bs) return as ? signed_of_size(sa > sb ? sa : sb) : unsigned_of_size(sa > sb ? sa : sb);
        int ssize = as ? sa : sb, usize = as ? sb : sa;
        if (usize < ssize) return signed_of_size(ssize);
        if (usize >= 8) return DType::Float64;
        return signed_of_size(usize * 2);
    }
    bool ac = dtype_is_complex(a), bc = dtype_is_complex(b);
    // At least one is float or complex: pick the component size that holds both.
    int need = 2;
    for (DType d : {a, b}) {
        int s = dtype_is_integer(d) ? dtype_size(float_for(d)) : float_size(d);
        if (s > need) need = s;
    }
    if (ac || bc) return need <= 4 ? DType::Complex64 : DType::Complex128;
    return float_of_size(need);
}

static DType widen_int(DType d) {
    if (d == DType::Bool) return DType::Int64;
    if (!dtype_is_integer(d)) return d;
    return dtype_is_signed(d) ? DType::Int64 : DType::UInt64;
}

bool binop_result(BinOpKind op, DType a, DType b, DType& out) {
    bool a_int = dtype_is_integer(a) || a == DType::Bool;
    bool b_int = dtype_is_integer(b) || b == DType::Bool;
    switch (op) {
        case BinOpKind::MatMul:
            return false;
        case BinOpKind::BitAnd: case BinOpKind::BitOr: case BinOpKind::BitXor: {
            if (a == DType::Bool && b == DType::Bool) { out = DType::Bool; return true; }
            if (!a_int || !b_int) return false;
            DType wa = widen_int(a), wb = widen_int(b);
            // numba: signed if either is signed, 64 bits.
            out = (wa == DType::Int64 || wb == DType::Int64) ? DType::Int64 : DType::UInt64;
            return true;
        }
        case BinOpKind::LShift: case BinOpKind::RShift:
            // numba: the shifted value's signedness alone, 64 bits (a uint64 >> 3 stays unsigned
            // and shifts in zeros).
            if (!a_int || !b_int) return false;
            out = widen_int(a);
            return true;
        case BinOpKind::Div:
            if (a_int && b_int) { out = DType::Float64; return true; }
            out = promote(a_int ? float_for(widen_int(a)) == DType::Float64 ? DType::Float64 : a : a,
                          b_int ? float_for(widen_int(b)) == DType::Float64 ? DType::Float64 : b : b);
            out = promote(a, b);
            if (dtype_is_integer(out)) out = DType::Float64;
            return true;
        default: break;
    }
    if (a_int && b_int) {
        DType wa = widen_int(a), wb = widen_int(b);
        out = (wa == DType::Int64 || wb == DType::Int64) ? DType::Int64 : DType::UInt64;
        return true;
    }
    if ((dtype_is_complex(a) || dtype_is_complex(b)) && (op == BinOpKind::FloorDiv || op == BinOpKind::Mod))
        return false;
    out = promote(a, b);
    return true;
}

bool unop_result(UnaryOpKind op, DType a, DType& out) {
    switch (op) {
        case UnaryOpKind::Not: out = DType::Bool; return true;
        case UnaryOpKind::Invert:
            if (a == DType::Bool) { out = DType::Bool; return true; }
            if (!dtype_is_integer(a)) return false;
            out = widen_int(a);
            return true;
        case UnaryOpKind::Neg: case UnaryOpKind::Pos:
            out = widen_int(a);
            return true;
    }
    return false;
}

const Type* unify(const Type* a, const Type* b) {
    if (a == b) return a;
    if (!a) return b;
    if (!b) return a;
    if (a->is_scalar() && b->is_scalar()) return scalar_type(promote(a->dtype, b->dtype));
    if (a->is_tuple() && b->is_tuple() && a->elems.size() == b->elems.size()) {
        std::vector<const Type*> elems;
        for (size_t i = 0; i < a->elems.size(); ++i) {
            const Type* u = unify(a->elems[i], b->elems[i]);
            if (!u) return nullptr;
            elems.push_back(u);
        }
        return tuple_type(elems);
    }
    if (a->is_array() && b->is_array() && a->dtype == b->dtype && a->ndim == b->ndim && a->readonly == b->readonly)
        return array_type(a->dtype, a->ndim, Layout::A, a->readonly);
    return nullptr;
}

bool can_convert(const Type* from, const Type* to) {
    if (from == to) return true;
    if (from->is_scalar() && to->is_scalar()) return !from->is_complex() || to->is_complex();
    if (from->is_tuple() && to->is_tuple() && from->elems.size() == to->elems.size()) {
        for (size_t i = 0; i < from->elems.size(); ++i)
            if (!can_convert(from->elems[i], to->elems[i])) return false;
        return true;
    }
    if (from->is_array() && to->is_array())
        return from->dtype == to->dtype && from->ndim == to->ndim && to->layout == Layout::A;
    return false;
}

}  // namespace simt
