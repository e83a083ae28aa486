// Views with another shape and strides over an array's memory (used by the reductions, scans
// and matmul to merge, permute and broadcast axes without copying).
#pragma once
#include <vector>
#include "array/ndarray.h"

namespace simt {

// The byte range [lo, hi) that the elements of a non-empty view span, relative to its data pointer.
void byte_span(const int64_t* shape, const int64_t* strides, int ndim, int itemsize, int64_t& lo, int64_t& hi);

// A view of `a`'s memory starting `offset` bytes after a.data, with `shape` and byte `strides`
// (a stride of 0 broadcasts). Raises ValueError if any element of the view lies outside the
// bytes that `a` itself spans.
NdArray restrided_view(const NdArray& a, const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                       int64_t offset);

}  // namespace simt
