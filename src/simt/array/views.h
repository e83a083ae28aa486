// Views: new shapes and strides over the same memory (basic indexing, transposes, reshapes
// that need no copy, squeeze/expand_dims, real/imag parts). Nothing here moves data.
#pragma once
#include <optional>
#include <vector>
#include "array/ndarray.h"

namespace simt {

// One item of a basic index: a[2], a[1:5:2], a[None], a[...].
struct IndexItem {
    enum class Kind { Integer, Slice, NewAxis, Ellipsis } kind = Kind::Integer;
    int64_t index = 0;                              // Integer
    std::optional<int64_t> start, stop, step;       // Slice; absent parts were None
    static IndexItem integer(int64_t i) { IndexItem x; x.index = i; return x; }
    static IndexItem slice(std::optional<int64_t> a, std::optional<int64_t> b, std::optional<int64_t> c) {
        IndexItem x; x.kind = Kind::Slice; x.start = a; x.stop = b; x.step = c; return x;
    }
    static IndexItem new_axis() { IndexItem x; x.kind = Kind::NewAxis; return x; }
    static IndexItem ellipsis() { IndexItem x; x.kind = Kind::Ellipsis; return x; }
};

// A slice resolved against an axis of `length` elements, as Python's slice.indices() does.
struct SliceRange {
    int64_t start, step, count;
};
SliceRange resolve_slice(const IndexItem& slice, int64_t length);

// The view a[items] (basic indexing). Integer items drop their axis (all-integer indexing
// gives a 0-d view). Raises IndexError like NumPy for out-of-range or too many indices.
NdArray index_view(const NdArray& a, const std::vector<IndexItem>& items);

// An axis argument checked against `ndim` (negative counts from the end); raises AxisError.
int normalize_axis(int64_t axis, int ndim);

// Permuted axes (empty `axes`: reversed). Raises ValueError/AxisError for bad axes.
NdArray transpose_view(const NdArray& a, const std::vector<int64_t>& axes);
NdArray swapaxes_view(const NdArray& a, int64_t axis1, int64_t axis2);
// Removes the given length-1 axes (all of them when `axes` is empty and `all` is true).
NdArray squeeze_view(const NdArray& a, const std::vector<int64_t>& axes, bool all);
// Inserts length-1 axes at the given positions of the result.
NdArray expand_dims_view(const NdArray& a, const std::vector<int64_t>& axes);

// The full shape of a reshape of `size` elements to `shape` (one entry may be -1). Raises
// ValueError like NumPy ("cannot reshape array of size 6 into shape (4,)").
std::vector<int64_t> reshape_shape(int64_t size, const std::vector<int64_t>& shape);
// A view of `a` with the new (complete) shape read in C or Fortran order, if one exists
// without copying; false when the data must be copied.
bool reshape_view(const NdArray& a, const std::vector<int64_t>& shape, bool fortran_order, NdArray& out);

// The diagonal with `offset` of the plane (axis1, axis2), as a view whose last axis runs
// along the diagonal (NumPy's ndarray.diagonal).
NdArray diagonal_view(const NdArray& a, int64_t offset, int64_t axis1, int64_t axis2);

// The real or imaginary part of a complex array as a view of its floats.
NdArray real_view(const NdArray& a);
NdArray imag_view(const NdArray& a);

// C-order (or F-order) strides for a shape of `itemsize`-byte elements.
void contiguous_strides(int ndim, const int64_t* shape, int64_t itemsize, bool fortran_order, int64_t* strides);

}  // namespace simt
