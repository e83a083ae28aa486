// simt._simt: the C++ engine as a Python extension module.
#include "bindings.h"

NB_MODULE(_simt, m) {
    m.doc() = "simt's C++ engine: kernel compiler, runtime, backends and array core";
    nb::set_leak_warnings(false);  // the backend and its caches live until the process exits
    simt::py::bind_errors(m);
    simt::py::bind_runtime(m);
    simt::py::bind_array(m);
    simt::py::bind_kernels(m);
    simt::py::bind_cuda(m);
    simt::py::bind_random_states(m);
    simt::py::bind_views(m);
    simt::py::bind_elementwise(m);
    simt::py::bind_interop(m);
    simt::py::bind_blas(m);
    simt::py::bind_inspect(m);
    simt::py::bind_raw(m);
    simt::py::bind_host_memory(m);
    simt::py::bind_allocator(m);
    simt::py::bind_host_callbacks(m);
    simt::py::bind_cuda_bindings(m);
}
