// Shared declarations of the nanobind module: each bind_*.cpp registers one area.
#pragma once
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include "array/ndarray.h"
#include "runtime/backend.h"
#include "sema/globals.h"

namespace nb = nanobind;

namespace simt::py {

void bind_errors(nb::module_& m);
void bind_runtime(nb::module_& m);
void bind_array(nb::module_& m);
void bind_kernels(nb::module_& m);
void bind_interop(nb::module_& m);
void bind_blas(nb::module_& m);
void bind_inspect(nb::module_& m);

// NumPy dtype objects indexed by DType, registered by simt/_dtypes.py at import.
nb::object dtype_object(DType d);
// DType of a NumPy dtype (or anything np.dtype() accepts); raises TypeError if unsupported.
DType dtype_from_object(nb::handle obj);

// Python wrapper of a backend stream (null handle: the default stream).
struct Stream {
    StreamHandle handle = nullptr;
    bool owned = false;
    ~Stream();
};
// The stream of a launch or copy: None/0, a simt Stream, or an object with __cuda_stream__.
StreamHandle stream_from_object(nb::handle obj);

// Converts the resolver's answer (a tuple, see simt/_resolve.py) into a GlobalValue.
GlobalValue global_from_python(nb::handle answer);
GlobalResolver make_resolver(nb::object callable);

// A kernel argument that is another library's device array (__cuda_array_interface__ or
// DLPack): packs a view of it and sets its type; false when `arg` is not such an object.
// Raises TypeError (naming `where`) when its memory is not usable by the active backend.
bool foreign_kernel_argument(nb::handle arg, const std::string& where, ArgumentPack& pack, const Type*& type);

}  // namespace simt::py
