// Checked re-striding of array views.
#include "array/restride.h"
#include "support/error.h"

namespace simt {

void byte_span(const int64_t* shape, const int64_t* strides, int ndim, int itemsize, int64_t& lo, int64_t& hi) {
    lo = 0;
    hi = itemsize;
    for (int i = 0; i < ndim; ++i) {
        int64_t reach = (shape[i] - 1) * strides[i];
        if (reach < 0) lo += reach; else hi += reach;
    }
}

NdArray restrided_view(const NdArray& a, const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                       int64_t offset) {
    if (shape.size() != strides.size())
        raise(ErrorKind::Value, "a view needs one stride per dimension (%zu extents, %zu strides)", shape.size(), strides.size());
    if (shape.size() > size_t(kMaxDims)) raise(ErrorKind::Value, "a view may have at most %d dimensions", kMaxDims);
    NdArray v = a;
    v.ndim = int(shape.size());
    int64_t count = 1;
    for (int i = 0; i < v.ndim; ++i) {
        if (shape[size_t(i)] < 0) raise(ErrorKind::Value, "negative extent %lld in a view", (long long)shape[size_t(i)]);
        v.shape[i] = shape[size_t(i)];
        v.strides[i] = strides[size_t(i)];
        count *= shape[size_t(i)];
    }
    v.data = a.data + offset;
    if (count == 0) return v;
    if (a.size() == 0) raise(ErrorKind::Value, "a non-empty view of an empty array");
    int64_t lo, hi, vlo, vhi;
    byte_span(a.shape, a.strides, a.ndim, a.itemsize(), lo, hi);
    byte_span(v.shape, v.strides, v.ndim, v.itemsize(), vlo, vhi);
    if (offset + vlo < lo || offset + vhi > hi)
        raise(ErrorKind::Value, "view of shape %s reaches outside the array it views (shape %s)",
              shape_string(shape).c_str(), shape_string(a.shape_vector()).c_str());
    return v;
}

}  // namespace simt
