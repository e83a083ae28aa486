// Ufunc calls: NumPy's casting rules, NEP 50 resolution of Python scalars, loop selection,
// output allocation and checks, and elementwise copies (astype, assignment, fills).
#include "array/ufunc.h"
#include <cstring>
#include <map>
#include "runtime/current_stream.h"
#include "support/error.h"
#include "types/promote.h"

namespace simt {

bool can_cast_safe(DType from, DType to) { return promote(from, to) == to; }

namespace {
int kind_rank(DType d) {
    if (d == DType::Bool) return 0;
    if (dtype_is_integer(d)) return dtype_is_signed(d) ? 2 : 1;
    return dtype_is_complex(d) ? 4 : 3;
}

std::string dtype_list(const DType* dtypes, int n) {
    std::string s = "(";
    for (int i = 0; i < n; ++i) s += std::string(i ? ", " : "") + dtype_name(dtypes[i]);
    return s + (n == 1 ? ",)" : ")");
}

[[noreturn]] void out_of_bounds(const UfuncOperand& op, DType d) {
    if (op.huge_int)
        throw Error(ErrorKind::Overflow, "Python int too large to convert to C long");
    std::string v = op.kind == UfuncOperand::Kind::WeakUInt ? std::to_string(op.u) : std::to_string(op.i);
    throw Error(ErrorKind::Overflow, "Python integer " + v + " out of bounds for " + dtype_name(d));
}

// The dtype a weak Python scalar takes next to operands of the strong dtype `s` (NEP 50).
DType weak_dtype(const Ufunc& u, const UfuncOperand& op, bool has_strong, DType s) {
    using K = UfuncOperand::Kind;
    bool integral = has_strong && (dtype_is_integer(s) || s == DType::Bool);
    switch (op.kind) {
        case K::WeakInt:
            if (!has_strong || s == DType::Bool) return DType::Int64;
            if (!integral || int_fits(op.i, s)) return s;
            if (u.comparison) return DType::Int64;  // compared by value: wider loops decide
            if (u.divides) return DType::Float64;
            out_of_bounds(op, s);
        case K::WeakUInt:
            if (!has_strong) return DType::UInt64;
            if (!integral) return s;
            if (s != DType::Bool && uint_fits(op.u, s)) return s;
            if (u.comparison) return DType::UInt64;
            if (u.divides) return DType::Float64;
            out_of_bounds(op, s);
        case K::WeakFloat:
            if (op.huge_int && integral) {
                if (u.comparison) return DType::Float64;
                out_of_bounds(op, s);
            }
            return has_strong && !integral ? s : DType::Float64;
        case K::WeakComplex:
            if (has_strong && dtype_is_complex(s)) return s;
            if (has_strong && (s == DType::Float16 || s == DType::Float32)) return DType::Complex64;
            return DType::Complex128;
        default:
            return op.scalar.dtype;
    }
}

Scalar weak_value(const UfuncOperand& op, DType d) {
    using K = UfuncOperand::Kind;
    switch (op.kind) {
        case K::WeakInt: return Scalar::from_int(op.i, d);
        case K::WeakUInt: return Scalar::from_uint(op.u, d);
        case K::WeakFloat: return Scalar::from_double(op.re, d);
        case K::WeakComplex: return Scalar::from_complex(op.re, op.im, d);
        default: return op.scalar;
    }
}

// Byte range [lo, hi) an array view touches.
void extent(const NdArray& a, const char*& lo, const char*& hi) {
    int64_t low = 0, high = a.itemsize();
    for (int i = 0; i < a.ndim; ++i) {
        int64_t span = (a.shape[i] - 1) * a.strides[i];
        if (span < 0) low += span; else high += span;
    }
    lo = a.data + low;
    hi = a.data + high;
}

bool same_view(const NdArray& a, const NdArray& b) {
    if (a.data != b.data || a.ndim != b.ndim || a.dtype != b.dtype) return false;
    for (int i = 0; i < a.ndim; ++i)
        if (a.shape[i] != b.shape[i] || a.strides[i] != b.strides[i]) return false;
    return true;
}

// Whether writing `out` while reading `in` element by element could read overwritten data.
bool unsafe_overlap(const NdArray& out, const NdArray& in) {
    if (out.size() == 0 || in.size() == 0 || same_view(out, in)) return false;
    const char *a0, *a1, *b0, *b1;
    extent(out, a0, a1);
    extent(in, b0, b1);
    return a0 < b1 && b0 < a1;
}

bool prefers_fortran(const UfuncOperand* ops, int nin) {
    bool any = false;
    for (int i = 0; i < nin; ++i) {
        if (ops[i].kind != UfuncOperand::Kind::Array) continue;
        const NdArray& a = *ops[i].array;
        if (a.ndim < 2) return false;
        if (!a.f_contiguous() || a.c_contiguous()) return false;
        any = true;
    }
    return any;
}

}  // namespace

bool can_cast_same_kind(DType from, DType to) { return can_cast_safe(from, to) || kind_rank(from) <= kind_rank(to); }

std::vector<DType> resolve_operand_dtypes(const Ufunc& u, const UfuncOperand* ops, int nin) {
    std::vector<DType> out(static_cast<size_t>(nin));
    resolve_operand_dtypes(u, ops, nin, out.data());
    return out;
}

void resolve_operand_dtypes(const Ufunc& u, const UfuncOperand* ops, int nin, DType* out) {
    bool has_strong = false;
    DType s = DType::Bool;
    for (int i = 0; i < nin; ++i) {
        if (ops[i].is_weak() || ((u.any_dtype_inputs >> i) & 1)) continue;
        DType d = ops[i].kind == UfuncOperand::Kind::Array ? ops[i].array->dtype : ops[i].scalar.dtype;
        s = has_strong ? promote(s, d) : d;
        has_strong = true;
    }
    for (int i = 0; i < nin; ++i) {
        if (ops[i].kind == UfuncOperand::Kind::Array) out[i] = ops[i].array->dtype;
        else if (ops[i].kind == UfuncOperand::Kind::Scalar) out[i] = ops[i].scalar.dtype;
        else if (ops[i].kind == UfuncOperand::Kind::WeakInt && ((u.int_inputs >> i) & 1)) out[i] = DType::Int64;
        else out[i] = weak_dtype(u, ops[i], has_strong, s);
    }
}

const UfuncLoop* select_loop(const Ufunc& u, const DType* dtypes, std::optional<DType> dtype) {
    if (!u.all_bool_error.empty()) {
        bool all_bool = true;
        for (int k = 0; k < u.nin; ++k) all_bool = all_bool && dtypes[k] == DType::Bool;
        if (all_bool) throw Error(ErrorKind::Type, u.all_bool_error);
    }
    size_t slot = 0;
    if (!dtype) {
        for (int k = u.nin - 1; k >= 0; --k) slot = slot * kNumDTypes + size_t(dtypes[k]);
        int16_t known = u.loop_cache[slot].load(std::memory_order_relaxed);
        if (known != -2) return known < 0 ? nullptr : &u.loops[size_t(known)];
    }
    const UfuncLoop* found = nullptr;
    for (const UfuncLoop& loop : u.loops) {
        if (dtype && loop.in[u.nin - 1] != *dtype && loop.out != *dtype) continue;
        bool ok = true;
        for (int k = 0; k < u.nin && ok; ++k) {
            if ((u.any_dtype_inputs >> k) & 1) continue;
            ok = dtype ? can_cast_same_kind(dtypes[k], loop.in[k]) : can_cast_safe(dtypes[k], loop.in[k]);
        }
        if (ok) {
            found = &loop;
            break;
        }
    }
    if (!dtype) u.loop_cache[slot].store(int16_t(found ? found - u.loops.data() : -1), std::memory_order_relaxed);
    return found;
}

NdArray call_ufunc(Ufunc& u, const UfuncOperand* ops, int nin, const NdArray* out, std::optional<DType> dtype) {
    if (nin != u.nin) raise(ErrorKind::Type, "%s() takes %d positional argument%s but %d were given", u.name.c_str(), u.nin, u.nin == 1 ? "" : "s", nin);
    DType dtypes[kMaxUfuncInputs];
    resolve_operand_dtypes(u, ops, nin, dtypes);
    const UfuncLoop* loop = select_loop(u, dtypes, dtype);
    if (!loop) {
        std::string supported;
        for (const UfuncLoop& l : u.loops) {
            std::string sig;
            for (int k = 0; k < u.nin; ++k) sig += std::string(k ? "," : "") + dtype_name(l.in[k]);
            supported += (supported.empty() ? "" : "; ") + sig + "->" + dtype_name(l.out);
        }
        throw Error(ErrorKind::Type, "ufunc '" + u.name + "' not supported for the input types " + dtype_list(dtypes, nin) +
                                         (dtype ? std::string(" with dtype=") + dtype_name(*dtype) : std::string()) +
                                         ", and the inputs could not be safely coerced to any supported types (simt's loops: " +
                                         supported + ")");
    }

    // Operands: arrays (copied first when `out` overlaps them) and scalars by value.
    ElementwiseInput inputs[kMaxUfuncInputs];
    std::vector<NdArray> copies;  // (not an array of optionals: zeroing those cost more than the rest of the call)
    for (int i = 0; i < nin; ++i) {
        if (ops[i].kind == UfuncOperand::Kind::Array) {
            const NdArray* a = ops[i].array;
            if (out && unsafe_overlap(*out, *a)) {
                if (copies.empty()) copies.reserve(size_t(nin));  // no reallocation: `a` points into it
                copies.push_back(astype(*a, a->dtype, false));
                a = &copies.back();
            }
            inputs[i].array = a;
        } else {
            inputs[i].scalar = weak_value(ops[i], dtypes[i]);
        }
    }
    NdArray result;
    bool given = out != nullptr;
    if (out) result = *out;
    elementwise_call(*u.family, int(loop - u.loops.data()), loop->kernel, inputs, nin, &result, &given, 1,
                     "ufunc", prefers_fortran(ops, nin));
    return result;
}

namespace {
// The copy family: one loop per (source, destination) dtype pair; inputs keep their dtype
// and the store converts (complex to real keeps the real part, as NumPy's astype does).
ElementwiseFamily& copy_family() {
    static ElementwiseFamily* f = new ElementwiseFamily("copy");
    return *f;
}

const ElementwiseLoop& copy_loop(DType from) {
    static std::map<DType, ElementwiseLoop>* loops = new std::map<DType, ElementwiseLoop>();
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = loops->find(from);
    if (it != loops->end()) return it->second;
    ElementwiseLoop l;
    l.in_types = {from};
    l.in_uncast = {true};
    l.out_types = {from};
    l.body = "y0 = x0";
    return loops->emplace(from, std::move(l)).first->second;
}
}  // namespace

void copy_into(NdArray& dst, const NdArray& src) {
    if (!broadcastable(Shape::of(src), Shape::of(dst)))
        throw Error(ErrorKind::Value, "could not broadcast input array from shape " + compact_shape(Shape::of(src)) +
                                          " into shape " + compact_shape(Shape::of(dst)));
    if (dst.size() == 0) return;
    NdArray copy;
    const NdArray* from = &src;
    if (unsafe_overlap(dst, src)) {
        copy = astype(src, src.dtype, false);
        from = &copy;
    }
    // Same dtype and both contiguous in the same order: a plain memory copy.
    if (from->dtype == dst.dtype && Shape::of(*from) == Shape::of(dst) &&
        ((from->c_contiguous() && dst.c_contiguous()) || (from->f_contiguous() && dst.f_contiguous()))) {
        if (from->data == dst.data) return;
        on_current_stream([&](StreamHandle s) { backend().copy_device_to_device(dst.data, from->data, size_t(dst.nbytes()), s); },
                          from->owner, dst.owner);
        return;
    }
    ElementwiseInput in;
    in.array = from;
    NdArray* outs[1] = {&dst};
    copy_family().run(int(from->dtype), copy_loop(from->dtype), &in, 1, outs, 1);
}

void fill_with(NdArray& dst, const Scalar& value) {
    if (dst.size() == 0) return;
    if (dst.dtype != DType::Float16 && (dst.c_contiguous() || dst.f_contiguous())) {
        Scalar v = value.cast(dst.dtype);
        on_current_stream([&](StreamHandle s) { backend().fill(dst.data, v.bytes, size_t(dst.itemsize()), size_t(dst.size()), s); },
                          dst.owner);
        return;
    }
    ElementwiseInput in;
    in.scalar = value;
    NdArray* outs[1] = {&dst};
    copy_family().run(int(value.dtype), copy_loop(value.dtype), &in, 1, outs, 1);
}

NdArray astype(const NdArray& a, DType dtype, bool fortran_order) {
    NdArray out = empty_array(dtype, a.shape_vector(), fortran_order);
    copy_into(out, a);
    return out;
}

}  // namespace simt
