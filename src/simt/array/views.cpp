// Views over the same memory: basic indexing, axis permutations, reshapes without copies.
#include "array/views.h"
#include <algorithm>
#include "support/error.h"

namespace simt {

void contiguous_strides(int ndim, const int64_t* shape, int64_t itemsize, bool fortran_order, int64_t* strides) {
    int64_t stride = itemsize;
    for (int k = 0; k < ndim; ++k) {
        int i = fortran_order ? k : ndim - 1 - k;
        strides[i] = stride;
        stride *= shape[i] > 0 ? shape[i] : 1;
    }
}

SliceRange resolve_slice(const IndexItem& s, int64_t n) {
    int64_t step = s.step.value_or(1);
    if (step == 0) throw Error(ErrorKind::Value, "slice step cannot be zero");
    // Clamp like slice.indices(): positive steps stay in [0, n], negative ones in [-1, n-1].
    auto clamp = [&](std::optional<int64_t> v, int64_t fallback) {
        if (!v) return fallback;
        int64_t x = *v;
        if (x < 0) x = x < -n ? (step > 0 ? 0 : -1) : x + n;
        else if (x >= n) x = step > 0 ? n : n - 1;
        return x;
    };
    int64_t start = clamp(s.start, step > 0 ? 0 : n - 1);
    int64_t stop = clamp(s.stop, step > 0 ? n : -1);
    int64_t count = 0;
    if (step > 0 && stop > start) count = (stop - start - 1) / step + 1;
    if (step < 0 && stop < start) count = (start - stop - 1) / (-step) + 1;
    return {start, step, count};
}

NdArray index_view(const NdArray& a, const std::vector<IndexItem>& items) {
    int consumed = 0, ellipses = 0;
    for (const IndexItem& it : items) {
        if (it.kind == IndexItem::Kind::Integer || it.kind == IndexItem::Kind::Slice) ++consumed;
        if (it.kind == IndexItem::Kind::Ellipsis) ++ellipses;
    }
    if (ellipses > 1) throw Error(ErrorKind::Index, "an index can only have a single ellipsis ('...')");
    if (consumed > a.ndim)
        raise(ErrorKind::Index, "too many indices for array: array is %d-dimensional, but %d were indexed", a.ndim, consumed);
    NdArray v = a;
    int out = 0, axis = 0;
    auto push = [&](int64_t extent, int64_t stride) {
        if (out >= kMaxDims) raise(ErrorKind::Index, "the index gives more than %d dimensions", kMaxDims);
        v.shape[out] = extent;
        v.strides[out] = stride;
        ++out;
    };
    int64_t offset = 0;
    for (const IndexItem& it : items) {
        switch (it.kind) {
            case IndexItem::Kind::Integer: {
                int64_t n = a.shape[axis], i = it.index;
                if (i < -n || i >= n)
                    raise(ErrorKind::Index, "index %lld is out of bounds for axis %d with size %lld", (long long)i, axis, (long long)n);
                if (i < 0) i += n;
                offset += i * a.strides[axis];
                ++axis;
                break;
            }
            case IndexItem::Kind::Slice: {
                SliceRange r = resolve_slice(it, a.shape[axis]);
                if (r.count > 0) offset += r.start * a.strides[axis];
                push(r.count, a.strides[axis] * r.step);
                ++axis;
                break;
            }
            case IndexItem::Kind::NewAxis:
                push(1, 0);
                break;
            case IndexItem::Kind::Ellipsis: {
                int skip = a.ndim - consumed;
                for (int k = 0; k < skip; ++k, ++axis) push(a.shape[axis], a.strides[axis]);
                break;
            }
        }
    }
    for (; axis < a.ndim; ++axis) push(a.shape[axis], a.strides[axis]);
    v.ndim = out;
    v.data = a.data + offset;
    return v;
}

int normalize_axis(int64_t axis, int ndim) {
    if (axis < -ndim || axis >= ndim)
        raise(ErrorKind::Axis, "axis %lld is out of bounds for array of dimension %d", (long long)axis, ndim);
    return int(axis < 0 ? axis + ndim : axis);
}

NdArray transpose_view(const NdArray& a, const std::vector<int64_t>& axes) {
    std::vector<int> perm;
    if (axes.empty()) {
        for (int i = a.ndim - 1; i >= 0; --i) perm.push_back(i);
    } else {
        if (int(axes.size()) != a.ndim) throw Error(ErrorKind::Value, "axes don't match array");
        std::vector<bool> seen(size_t(a.ndim), false);
        for (int64_t ax : axes) {
            int k = normalize_axis(ax, a.ndim);
            if (seen[size_t(k)]) throw Error(ErrorKind::Value, "repeated axis in transpose");
            seen[size_t(k)] = true;
            perm.push_back(k);
        }
    }
    NdArray v = a;
    for (int i = 0; i < a.ndim; ++i) {
        v.shape[i] = a.shape[perm[size_t(i)]];
        v.strides[i] = a.strides[perm[size_t(i)]];
    }
    return v;
}

NdArray swapaxes_view(const NdArray& a, int64_t axis1, int64_t axis2) {
    std::vector<int64_t> perm;
    for (int i = 0; i < a.ndim; ++i) perm.push_back(i);
    std::swap(perm[size_t(normalize_axis(axis1, a.ndim))], perm[size_t(normalize_axis(axis2, a.ndim))]);
    return transpose_view(a, perm);
}

NdArray squeeze_view(const NdArray& a, const std::vector<int64_t>& axes, bool all) {
    std::vector<bool> drop(size_t(a.ndim), false);
    if (all) {
        for (int i = 0; i < a.ndim; ++i) drop[size_t(i)] = a.shape[i] == 1;
    } else {
        for (int64_t ax : axes) {
            int k = normalize_axis(ax, a.ndim);
            if (a.shape[k] != 1) throw Error(ErrorKind::Value, "cannot select an axis to squeeze out which has size not equal to one");
            drop[size_t(k)] = true;
        }
    }
    NdArray v = a;
    int out = 0;
    for (int i = 0; i < a.ndim; ++i) {
        if (drop[size_t(i)]) continue;
        v.shape[out] = a.shape[i];
        v.strides[out] = a.strides[i];
        ++out;
    }
    v.ndim = out;
    return v;
}

NdArray expand_dims_view(const NdArray& a, const std::vector<int64_t>& axes) {
    int ndim = a.ndim + int(axes.size());
    if (ndim > kMaxDims) raise(ErrorKind::Value, "maximum supported dimension for an array is %d, found %d", kMaxDims, ndim);
    std::vector<bool> is_new(size_t(ndim), false);
    for (int64_t ax : axes) {
        int k = normalize_axis(ax, ndim);
        if (is_new[size_t(k)]) throw Error(ErrorKind::Value, "repeated axis");
        is_new[size_t(k)] = true;
    }
    NdArray v = a;
    int src = 0;
    for (int i = 0; i < ndim; ++i) {
        if (is_new[size_t(i)]) {
            v.shape[i] = 1;
            v.strides[i] = 0;
        } else {
            v.shape[i] = a.shape[src];
            v.strides[i] = a.strides[src];
            ++src;
        }
    }
    v.ndim = ndim;
    return v;
}

std::vector<int64_t> reshape_shape(int64_t size, const std::vector<int64_t>& shape) {
    std::vector<int64_t> out = shape;
    int unknown = -1;
    int64_t known = 1;
    for (size_t i = 0; i < out.size(); ++i) {
        if (out[i] == -1) {
            if (unknown >= 0) throw Error(ErrorKind::Value, "can only specify one unknown dimension");
            unknown = int(i);
        } else if (out[i] < 0) {
            throw Error(ErrorKind::Value, "negative dimensions not allowed");
        } else {
            known *= out[i];
        }
    }
    auto fail = [&] {
        std::string s = "(";
        for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
        s += shape.size() == 1 ? ",)" : ")";
        throw Error(ErrorKind::Value, "cannot reshape array of size " + std::to_string(size) + " into shape " + s);
    };
    if (unknown >= 0) {
        if (known == 0 || size % known != 0) fail();
        out[size_t(unknown)] = size / known;
    } else if (known != size) {
        fail();
    }
    if (out.size() > size_t(kMaxDims)) raise(ErrorKind::Value, "maximum supported dimension for an array is %d, found %zu", kMaxDims, out.size());
    return out;
}

namespace {
// C-order reshape without a copy: the old and new shapes are split into groups of equal
// element count; each group of old axes must be one evenly strided block of memory.
bool reshape_strides_c(int old_nd, const int64_t* old_shape, const int64_t* old_strides, int new_nd,
                       const int64_t* new_shape, int64_t* new_strides) {
    int oi = 0, ni = 0;
    while (oi < old_nd && ni < new_nd) {
        int oj = oi + 1, nj = ni + 1;
        int64_t op = old_shape[oi], np = new_shape[ni];
        while (op != np) {
            if (op < np) op *= old_shape[oj++];
            else np *= new_shape[nj++];
        }
        // Old axes oi..oj-1 must be contiguous relative to one another.
        for (int k = oi; k < oj - 1; ++k)
            if (old_strides[k] != old_strides[k + 1] * old_shape[k + 1]) return false;
        new_strides[nj - 1] = old_strides[oj - 1];
        for (int k = nj - 1; k > ni; --k) new_strides[k - 1] = new_strides[k] * new_shape[k];
        oi = oj;
        ni = nj;
    }
    // Trailing axes of length 1 (new ones get any stride).
    for (; ni < new_nd; ++ni) new_strides[ni] = 0;
    return true;
}
}  // namespace

bool reshape_view(const NdArray& a, const std::vector<int64_t>& shape, bool fortran_order, NdArray& out) {
    int new_nd = int(shape.size());
    out = a;
    out.ndim = new_nd;
    for (int i = 0; i < new_nd; ++i) out.shape[i] = shape[size_t(i)];
    if (a.size() == 0 || a.size() == 1) {
        contiguous_strides(new_nd, out.shape, a.itemsize(), fortran_order, out.strides);
        return true;
    }
    // Axes of length 1 carry no layout information: drop them from the old shape.
    int64_t os[kMaxDims], ost[kMaxDims];
    int old_nd = 0;
    for (int i = 0; i < a.ndim; ++i) {
        int k = fortran_order ? a.ndim - 1 - i : i;
        if (a.shape[k] == 1) continue;
        os[old_nd] = a.shape[k];
        ost[old_nd] = a.strides[k];
        ++old_nd;
    }
    int64_t ns[kMaxDims], nst[kMaxDims];
    int nz = 0;
    int index_of[kMaxDims];
    for (int i = 0; i < new_nd; ++i) {
        int k = fortran_order ? new_nd - 1 - i : i;
        if (shape[size_t(k)] == 1) continue;
        ns[nz] = shape[size_t(k)];
        index_of[nz] = k;
        ++nz;
    }
    if (!reshape_strides_c(old_nd, os, ost, nz, ns, nst)) return false;
    for (int i = 0; i < new_nd; ++i) out.strides[i] = 0;
    for (int j = 0; j < nz; ++j) out.strides[index_of[j]] = nst[j];
    // Length-1 axes get the stride a contiguous array would have there (as NumPy reports).
    for (int step = 0; step < new_nd; ++step) {  // innermost first, so neighbours are known
        int i = fortran_order ? step : new_nd - 1 - step;
        if (shape[size_t(i)] != 1) continue;
        int next = fortran_order ? i - 1 : i + 1;
        bool inner = fortran_order ? next >= 0 : next < new_nd;
        out.strides[i] = inner ? out.strides[next] * out.shape[next] : a.itemsize();
    }
    return true;
}

NdArray diagonal_view(const NdArray& a, int64_t offset, int64_t axis1, int64_t axis2) {
    if (a.ndim < 2) throw Error(ErrorKind::Value, "diag requires an array of at least two dimensions");
    int a1 = normalize_axis(axis1, a.ndim), a2 = normalize_axis(axis2, a.ndim);
    if (a1 == a2) throw Error(ErrorKind::Value, "axis1 and axis2 cannot be the same");
    int64_t n1 = a.shape[a1], n2 = a.shape[a2];
    int64_t count = offset >= 0 ? std::min(n1, n2 - offset) : std::min(n1 + offset, n2);
    if (count < 0) count = 0;
    NdArray v = a;
    int out = 0;
    for (int i = 0; i < a.ndim; ++i) {
        if (i == a1 || i == a2) continue;
        v.shape[out] = a.shape[i];
        v.strides[out] = a.strides[i];
        ++out;
    }
    v.shape[out] = count;
    v.strides[out] = a.strides[a1] + a.strides[a2];
    v.ndim = out + 1;
    if (count > 0) v.data = a.data + (offset >= 0 ? offset * a.strides[a2] : -offset * a.strides[a1]);
    return v;
}

NdArray real_view(const NdArray& a) {
    if (!dtype_is_complex(a.dtype)) return a;
    NdArray v = a;
    v.dtype = a.dtype == DType::Complex64 ? DType::Float32 : DType::Float64;
    return v;
}

NdArray imag_view(const NdArray& a) {
    if (!dtype_is_complex(a.dtype)) throw Error(ErrorKind::Value, "the imaginary part of a real array is not a view; use zeros_like");
    NdArray v = real_view(a);
    v.data = a.data + v.itemsize();
    return v;
}

}  // namespace simt
