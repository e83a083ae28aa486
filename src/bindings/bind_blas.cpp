// cuBLAS for simt.matmul on the cuda backend (see array/cublas.h); the cpu backend never uses it.
#include <nanobind/stl/vector.h>
#include "array/cublas.h"
#include "bindings.h"

namespace simt::py {

namespace {
// A (batch, rows, cols) view as a cuBLAS operand: strides converted from bytes to elements.
GemmMatrix gemm_matrix(const NdArray& a) {
    GemmMatrix m;
    m.data = a.data;
    int64_t item = a.itemsize();
    m.batch_stride = a.strides[0] / item;
    m.rows = a.shape[1];
    m.cols = a.shape[2];
    m.row_stride = a.strides[1] / item;
    m.col_stride = a.strides[2] / item;
    return m;
}
}  // namespace

void bind_blas(nb::module_& m) {
    m.def("_cublas_candidates", [](const std::vector<std::string>& paths) { set_cublas_candidates(paths); });
    m.def("_cublas_library", [] { return cublas_library(); });
    // c[i] = a[i] @ b[i] for 3-D views of one dtype; False when cuBLAS cannot do it (not the
    // cuda backend, library absent, unsupported dtype or layout): the caller uses its kernel.
    m.def("_cublas_matmul", [](const NdArray& a, const NdArray& b, NdArray& c, nb::handle stream) {
        if (backend().target() != Target::Cuda) return false;
        if (a.ndim != 3 || b.ndim != 3 || c.ndim != 3 || a.dtype != c.dtype || b.dtype != c.dtype) return false;
        GemmRequest r;
        r.dtype = c.dtype;
        r.batch = c.shape[0];
        r.a = gemm_matrix(a);
        r.b = gemm_matrix(b);
        r.c = gemm_matrix(c);
        StreamHandle handle = stream_from_object(stream);
        r.stream = backend().native_stream(handle);
        bool done;
        {
            nb::gil_scoped_release release;
            done = cublas_gemm(r);
        }
        // Frees are ordered on the default stream, which does not wait for non-blocking streams: the
        // backend holds the operands until such a stream has passed the GEMM (others need nothing).
        if (done && handle) backend().hold_until_done(handle, {a.owner, b.owner, c.owner});
        return done;
    }, nb::arg("a"), nb::arg("b"), nb::arg("c"), nb::arg("stream").none());
}

}  // namespace simt::py
