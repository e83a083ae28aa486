// Array views, new arrays, fills and whole-array copies.
#include "array/ndarray.h"
#include "runtime/current_stream.h"
#include "support/error.h"

namespace simt {

bool NdArray::f_contiguous() const {
    int64_t expected = itemsize();
    for (int i = 0; i < ndim; ++i) {
        if (shape[i] == 1) continue;
        if (shape[i] == 0) return true;
        if (strides[i] != expected) return false;
        expected *= shape[i];
    }
    return true;
}

const Type* NdArray::kernel_type() const {
    return array_type(dtype, ndim, c_contiguous() ? Layout::C : Layout::A);
}

void NdArray::pack_into(ArgumentPack& pack, bool default_stream) const {
    int64_t bytes[1 + 2 * kMaxDims];
    bytes[0] = int64_t(reinterpret_cast<uintptr_t>(data));
    for (int i = 0; i < ndim; ++i) {
        bytes[1 + i] = shape[i];
        bytes[1 + ndim + i] = strides[i];
    }
    pack.add(bytes, sizeof(int64_t) * size_t(1 + 2 * ndim), 8);
    if (!(default_stream && owner_frees_in_stream_order)) pack.keep_alive.push_back(owner);
}

std::string shape_string(const std::vector<int64_t>& shape) {
    std::string s = "(";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    if (shape.size() == 1) s += ",";
    return s + ")";
}

NdArray empty_array(DType dtype, const std::vector<int64_t>& shape, bool fortran_order) {
    if (shape.size() > size_t(kMaxDims)) raise(ErrorKind::Value, "maximum supported dimension for an array is %d, found %zu", kMaxDims, shape.size());
    return empty_array(dtype, shape.data(), int(shape.size()), fortran_order);
}

NdArray empty_array(DType dtype, const int64_t* shape, int ndim, bool fortran_order) {
    SIMT_ASSERT(ndim <= kMaxDims);
    NdArray a;
    a.dtype = dtype;
    a.ndim = ndim;
    // Bytes spanned by the non-zero dimensions at most 2**62, so that sizes, byte counts and
    // strides fit int64 (an empty array too: its strides are still products of its dimensions).
    const int64_t limit = (int64_t(1) << 62) / dtype_size(dtype);
    int64_t count = 1, span = 1;
    for (int k = 0; k < ndim; ++k) {
        int64_t d = shape[k];
        if (d < 0 || (d > 0 && span > limit / d)) {
            std::string text = shape_string(std::vector<int64_t>(shape, shape + ndim));
            if (d < 0) raise(ErrorKind::Value, "negative dimensions are not allowed (shape %s)", text.c_str());
            raise(ErrorKind::Value, "array is too big (shape %s)", text.c_str());
        }
        count *= d;
        if (d > 0) span *= d;
    }
    int64_t stride = dtype_size(dtype);
    for (int k = 0; k < a.ndim; ++k) {
        int i = fortran_order ? k : a.ndim - 1 - k;
        a.shape[i] = shape[i];
        a.strides[i] = stride;
        stride *= shape[i] > 0 ? shape[i] : 1;
    }
    auto buffer = std::make_shared<DeviceBuffer>(size_t(count) * size_t(dtype_size(dtype)), current_stream());
    a.data = static_cast<char*>(buffer->data());
    a.owner_frees_in_stream_order = buffer->frees_in_stream_order();
    a.owner = std::move(buffer);
    return a;
}

void fill_array(NdArray& a, const void* value) {
    if (!a.c_contiguous() && !a.f_contiguous()) raise(ErrorKind::NotImplemented, "fill of a non-contiguous array");
    if (a.size() == 0) return;
    on_current_stream([&](StreamHandle s) { backend().fill(a.data, value, size_t(a.itemsize()), size_t(a.size()), s); },
                      a.owner);
}

void copy_from_host(NdArray& a, const void* host) {
    if (a.size() == 0) return;
    on_current_stream([&](StreamHandle s) { backend().copy_host_to_device(a.data, host, size_t(a.nbytes()), s); },
                      a.owner);
}

void copy_to_host(const NdArray& a, void* host) {
    if (a.size() == 0) {
        backend().synchronize();
        return;
    }
    backend().copy_device_to_host(host, a.data, size_t(a.nbytes()), current_stream());
}

NdArray copy_array(const NdArray& a) {
    bool fortran = !a.c_contiguous() && a.f_contiguous();
    NdArray out = empty_array(a.dtype, a.shape_vector(), fortran);
    if (a.size() == 0) return out;
    on_current_stream([&](StreamHandle s) { backend().copy_device_to_device(out.data, a.data, size_t(a.nbytes()), s); },
                      a.owner, out.owner);
    return out;
}

}  // namespace simt
