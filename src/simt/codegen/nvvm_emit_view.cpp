// NVVM IR emitter: views of arrays read in kernels (A[i] of a 2-D A, A[i, a:b], A[::-2]) and
// A.T, with the semantics of the prelude's simt_view / simt_transpose (prelude/views.h): slice
// bounds clamped as Python clamps them, an integer index out of range giving an empty view.
// Assignments to views keep the CUDA C++ path.
#include "codegen/nvvm_emitter.h"
#include "sema/sema.h"

namespace simt {

IrValue NvvmEmitter::make_array(const Type* t, const std::string& data, const std::vector<std::string>& shape,
                                const std::vector<std::string>& strides) {
    const std::string A = ir_type(t), E = mem_type(t->dtype);
    std::string v = assign("insertvalue " + A + " undef, " + E + "* " + data + ", 0");
    for (int k = 0; k < t->ndim; ++k) {
        v = assign("insertvalue " + A + " " + v + ", i64 " + shape[size_t(k)] + ", 1, " + std::to_string(k));
        v = assign("insertvalue " + A + " " + v + ", i64 " + strides[size_t(k)] + ", 2, " + std::to_string(k));
    }
    return {v, t, {}};
}

// Python's clamp of a given slice bound x to an axis of length `len` (simt_slice_bound).
std::string NvvmEmitter::slice_bound(const std::string& x, const std::string& len, const std::string& negative_step) {
    std::string below = assign("icmp slt i64 " + x + ", 0");
    std::string moved = assign("add i64 " + x + ", " + len);
    std::string y = assign("select i1 " + below + ", i64 " + moved + ", i64 " + x);
    std::string low = assign("select i1 " + negative_step + ", i64 -1, i64 0");
    std::string last = assign("sub i64 " + len + ", 1");
    std::string high = assign("select i1 " + negative_step + ", i64 " + last + ", i64 " + len);
    std::string under = assign("icmp slt i64 " + y + ", 0");
    std::string over = assign("icmp sge i64 " + y + ", " + len);
    std::string capped = assign("select i1 " + over + ", i64 " + high + ", i64 " + y);
    return assign("select i1 " + under + ", i64 " + low + ", i64 " + capped);
}

IrValue NvvmEmitter::view(const Expr& e) {
    const Expr& base = *e.children[0];
    const Expr& index = *e.children[1];
    const Type* at = base.type;
    const Type* vt = e.type;
    std::vector<const Expr*> parts;
    if (index.kind == ExprKind::Tuple)
        for (const ExprPtr& c : index.children) parts.push_back(c.get());
    else if (index.kind == ExprKind::Slice || !index.type || !index.type->is_tuple())
        parts.push_back(&index);
    else
        not_covered("indexing by a tuple variable");
    IrValue a = expr(base);
    std::string offset = "0", ok = "true";
    std::vector<std::string> shape, strides;
    int in = 0;
    auto add_offset = [&](const std::string& bytes) { offset = offset == "0" ? bytes : assign("add i64 " + offset + ", " + bytes); };
    for (const Expr* p : parts) {
        const std::string len = array_field(a, 1, in).ref, stride = array_field(a, 2, in).ref;
        ++in;
        if (p->kind != ExprKind::Slice) {  // an integer: drops the axis
            if (!p->type->is_integer()) not_covered("an index of type " + p->type->str());
            const bool wraps = dtype_is_signed(p->type->dtype);
            std::string i = convert(expr(*p), wraps ? int64_type() : scalar_type(DType::UInt64)).ref;
            if (wraps) {
                std::string negative = assign("icmp slt i64 " + i + ", 0");
                std::string moved = assign("add i64 " + i + ", " + len);
                i = assign("select i1 " + negative + ", i64 " + moved + ", i64 " + i);
            }
            std::string inside = assign("icmp ult i64 " + i + ", " + len);
            std::string bytes = assign("mul i64 " + i + ", " + stride);
            add_offset(assign("select i1 " + inside + ", i64 " + bytes + ", i64 0"));
            ok = ok == "true" ? inside : assign("and i1 " + ok + ", " + inside);
            continue;
        }
        if (is_whole_slice(*p)) {
            shape.push_back(len);
            strides.push_back(stride);
            continue;
        }
        const Expr* given[3] = {given_slice_bound(*p, 0), given_slice_bound(*p, 1), given_slice_bound(*p, 2)};
        std::string step = given[2] ? convert(expr(*given[2]), int64_type()).ref : "1";
        std::string negative = given[2] ? assign("icmp slt i64 " + step + ", 0") : "false";
        std::string positive = given[2] ? assign("icmp sgt i64 " + step + ", 0") : "true";
        std::string start, stop;
        if (given[0]) {
            start = slice_bound(convert(expr(*given[0]), int64_type()).ref, len, negative);
        } else {
            std::string last = assign("sub i64 " + len + ", 1");
            start = assign("select i1 " + negative + ", i64 " + last + ", i64 0");
        }
        if (given[1]) stop = slice_bound(convert(expr(*given[1]), int64_type()).ref, len, negative);
        else stop = assign("select i1 " + negative + ", i64 -1, i64 " + len);
        // count = (stop - start - 1) / step + 1 going up, (start - stop - 1) / -step + 1 going down
        std::string up = assign("icmp slt i64 " + start + ", " + stop);
        std::string down = assign("icmp slt i64 " + stop + ", " + start);
        std::string up_ok = assign("and i1 " + positive + ", " + up);
        std::string down_ok = assign("and i1 " + negative + ", " + down);
        std::string valid = assign("or i1 " + up_ok + ", " + down_ok);
        std::string span_up = assign("sub i64 " + stop + ", " + start);
        std::string span_down = assign("sub i64 " + start + ", " + stop);
        std::string span = assign("select i1 " + negative + ", i64 " + span_down + ", i64 " + span_up);
        std::string minus_one = assign("sub i64 " + span + ", 1");
        std::string flipped = assign("sub i64 0, " + step);
        std::string divisor = assign("select i1 " + negative + ", i64 " + flipped + ", i64 " + step);
        std::string zero_step = assign("icmp eq i64 " + divisor + ", 0");  // (a step of 0 gives an empty view)
        std::string safe = assign("select i1 " + zero_step + ", i64 1, i64 " + divisor);
        std::string whole_steps = assign("sdiv i64 " + minus_one + ", " + safe);
        std::string count_if_valid = assign("add i64 " + whole_steps + ", 1");
        std::string count = assign("select i1 " + valid + ", i64 " + count_if_valid + ", i64 0");
        std::string bytes = assign("mul i64 " + start + ", " + stride);
        add_offset(assign("select i1 " + valid + ", i64 " + bytes + ", i64 0"));
        shape.push_back(count);
        strides.push_back(assign("mul i64 " + stride + ", " + step));
    }
    for (; in < at->ndim; ++in) {  // axes past the given indices are kept whole
        shape.push_back(array_field(a, 1, in).ref);
        strides.push_back(array_field(a, 2, in).ref);
    }
    if (int(shape.size()) != vt->ndim) not_covered("this view");
    if (ok != "true")  // an integer index out of range: an empty view, every access through it masked
        for (std::string& s : shape) s = assign("select i1 " + ok + ", i64 " + s + ", i64 0");
    const std::string E = mem_type(at->dtype);
    std::string data = assign("extractvalue " + ir_type(at) + " " + a.ref + ", 0");
    std::string bytes = assign("bitcast " + E + "* " + data + " to i8*");
    std::string moved = assign("getelementptr i8, i8* " + bytes + ", i64 " + offset);
    return make_array(vt, assign("bitcast i8* " + moved + " to " + E + "*"), shape, strides);
}

IrValue NvvmEmitter::transpose(const IrValue& a, const Type* t) {
    const Type* at = a.type;
    std::vector<std::string> shape, strides;
    for (int k = at->ndim - 1; k >= 0; --k) {
        shape.push_back(array_field(a, 1, k).ref);
        strides.push_back(array_field(a, 2, k).ref);
    }
    std::string data = assign("extractvalue " + ir_type(at) + " " + a.ref + ", 0");
    return make_array(t, data, shape, strides);
}

}  // namespace simt
