// NumPy broadcasting: the common shape of several operands, and views of an array stretched
// to a larger shape with zero strides.
#pragma once
#include <vector>
#include "array/ndarray.h"

namespace simt {

// A shape held inline (no allocation on the elementwise fast path).
struct Shape {
    int ndim = 0;
    int64_t dims[kMaxDims];  // entries past ndim are unspecified
    int64_t size() const;
    std::vector<int64_t> vector() const { return {dims, dims + ndim}; }
    static Shape of(const NdArray& a);
    static Shape of(const std::vector<int64_t>& v);
    bool operator==(const Shape& o) const;
};

// The broadcast shape of `count` shapes; raises ValueError naming them all, as NumPy does:
// "operands could not be broadcast together with shapes (2,3) (4,) ".
Shape broadcast_shapes(const Shape* const* shapes, int count);
Shape broadcast_shapes(const std::vector<Shape>& shapes);

// A view of `a` with shape `shape` (dimensions of size 1 stretched with stride 0); raises
// ValueError if `a` cannot be broadcast to it.
NdArray broadcast_view(const NdArray& a, const Shape& shape);

// Whether `from` broadcasts to `to`.
bool broadcastable(const Shape& from, const Shape& to);

// NumPy's compact spelling of a shape: "(2,3)", "(4,)", "()".
std::string compact_shape(const Shape& s);

}  // namespace simt
