// Broadcast shapes and broadcast views.
#include "array/broadcast.h"
#include "support/error.h"

namespace simt {

int64_t Shape::size() const {
    int64_t n = 1;
    for (int i = 0; i < ndim; ++i) n *= dims[i];
    return n;
}

Shape Shape::of(const NdArray& a) {
    Shape s;
    s.ndim = a.ndim;
    for (int i = 0; i < a.ndim; ++i) s.dims[i] = a.shape[i];
    return s;
}

Shape Shape::of(const std::vector<int64_t>& v) {
    if (v.size() > size_t(kMaxDims)) raise(ErrorKind::Value, "maximum supported dimension for an array is %d, found %zu", kMaxDims, v.size());
    Shape s;
    s.ndim = int(v.size());
    for (int i = 0; i < s.ndim; ++i) s.dims[i] = v[size_t(i)];
    return s;
}

bool Shape::operator==(const Shape& o) const {
    if (ndim != o.ndim) return false;
    for (int i = 0; i < ndim; ++i) if (dims[i] != o.dims[i]) return false;
    return true;
}

std::string compact_shape(const Shape& s) {
    std::string out = "(";
    for (int i = 0; i < s.ndim; ++i) out += (i ? "," : "") + std::to_string(s.dims[i]);
    if (s.ndim == 1) out += ",";
    return out + ")";
}

Shape broadcast_shapes(const Shape* const* shapes, int count) {
    Shape out;
    for (int k = 0; k < count; ++k) if (shapes[k]->ndim > out.ndim) out.ndim = shapes[k]->ndim;
    for (int i = 0; i < out.ndim; ++i) out.dims[i] = 1;
    for (int k = 0; k < count; ++k) {
        const Shape& s = *shapes[k];
        int offset = out.ndim - s.ndim;
        for (int i = 0; i < s.ndim; ++i) {
            int64_t& d = out.dims[offset + i];
            int64_t e = s.dims[i];
            if (e == d || e == 1) continue;
            if (d == 1) { d = e; continue; }
            std::string list;
            for (int j = 0; j < count; ++j) list += compact_shape(*shapes[j]) + " ";
            throw Error(ErrorKind::Value, "operands could not be broadcast together with shapes " + list);
        }
    }
    return out;
}

Shape broadcast_shapes(const std::vector<Shape>& shapes) {
    std::vector<const Shape*> ptrs;
    for (const Shape& s : shapes) ptrs.push_back(&s);
    return broadcast_shapes(ptrs.data(), int(ptrs.size()));
}

bool broadcastable(const Shape& from, const Shape& to) {
    if (from.ndim > to.ndim) return false;
    int offset = to.ndim - from.ndim;
    for (int i = 0; i < from.ndim; ++i)
        if (from.dims[i] != 1 && from.dims[i] != to.dims[offset + i]) return false;
    return true;
}

NdArray broadcast_view(const NdArray& a, const Shape& shape) {
    Shape from = Shape::of(a);
    if (!broadcastable(from, shape))
        throw Error(ErrorKind::Value, "operands could not be broadcast together with remapped shapes [original->remapped]: " +
                                          compact_shape(from) + "  and requested shape " + compact_shape(shape));
    NdArray v = a;
    v.ndim = shape.ndim;
    int offset = shape.ndim - from.ndim;
    for (int i = 0; i < shape.ndim; ++i) {
        v.shape[i] = shape.dims[i];
        int j = i - offset;
        v.strides[i] = (j < 0 || from.dims[j] != shape.dims[i]) ? 0 : a.strides[j];
    }
    return v;
}

}  // namespace simt
