// Shared declarations of the nanobind module: each bind_*.cpp registers one area.
#pragma once
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include "array/ndarray.h"
#include "array/ufunc.h"
#include "runtime/backend.h"
#include "runtime/dispatcher.h"
#include "sema/globals.h"

namespace nb = nanobind;

namespace simt::py {

void bind_errors(nb::module_& m);
void bind_runtime(nb::module_& m);
void bind_array(nb::module_& m);
void bind_kernels(nb::module_& m);
void bind_cuda(nb::module_& m);
void bind_random_states(nb::module_& m);
void bind_views(nb::module_& m);        // after bind_array: adds view methods to ndarray
void bind_elementwise(nb::module_& m);  // after bind_array: ufuncs, fused/vectorized kernels

// Sets the Python error for a C++ exception (what the registered translator does), for code
// that runs outside nanobind's function wrappers (type slots).
void set_python_error(const std::exception_ptr& p);

// Runs `body` inside a raw type-slot function: C++ exceptions become the Python error and
// `failed` is returned.
template <class R, class F>
R guarded(R failed, F&& body) {
    try {
        return body();
    } catch (nb::python_error& e) {
        e.restore();
    } catch (...) {
        set_python_error(std::current_exception());
    }
    return failed;
}

// simt.ndarray instances seen from raw slot functions.
bool is_ndarray(PyObject* o);
NdArray& ndarray_of(PyObject* o);
nb::object wrap_ndarray(NdArray&& a);

// A Python value as a ufunc operand: arrays, NumPy scalars and bools (typed), Python
// int/float/complex (weak, NEP 50). HostData: NumPy arrays, lists and tuples (host memory,
// which arrays never combine with implicitly).
enum class OperandClass { Ok, Unsupported, HostData };
OperandClass classify_operand(PyObject* o, UfuncOperand& op);
// The TypeError for host data next to device arrays: says how to copy it explicitly.
[[noreturn]] void raise_host_data(nb::handle value, const std::string& where);
// A NumPy scalar or Python number converted to `dtype` (values out of range raise).
Scalar scalar_from_python(nb::handle value, DType dtype);

// The type slots of simt.ndarray: operators (bind_elementwise.cpp), indexing (bind_views.cpp).
const PyType_Slot* ndarray_type_slots();
PyObject* ndarray_subscript(PyObject* self, PyObject* key);
int ndarray_ass_subscript(PyObject* self, PyObject* key, PyObject* value);
void bind_interop(nb::module_& m);
void bind_blas(nb::module_& m);
void bind_inspect(nb::module_& m);
void bind_raw(nb::module_& m);
void bind_host_memory(nb::module_& m);
void bind_host_callbacks(nb::module_& m);
void bind_cuda_bindings(nb::module_& m);  // simt.bindings.driver / .nvrtc
void bind_allocator(nb::module_& m);       // Python allocators (simt.cuda.set_allocator)

// Runs fn(arg) now if this thread holds Python's lock, else soon on a Python thread (never by
// taking the lock: the thread holding it may be waiting for this one); nothing once Python is gone.
void release_with_python(void (*fn)(void*), void* arg);
// Drops a reference to a Python object (a PyObject*) that way, from any thread.
void decref_with_python(void* obj);
// Whether a thread without the GIL may still take it (false once simt's exit handler ran).
bool python_enterable();

// NumPy dtype objects indexed by DType, registered by simt/_dtypes.py at import.
nb::object dtype_object(DType d);
// DType of a NumPy dtype (or anything np.dtype() accepts); raises TypeError if unsupported.
DType dtype_from_object(nb::handle obj);

// Python wrapper of a backend stream (null handle: the default stream).
struct Stream {
    StreamHandle handle = nullptr;
    bool owned = false;
    int device = 0;  // the device it was created on
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

// value_of(kernel) for each compiled specialization of `d`, keyed by its parameter types' names
// (the dicts behind inspect_source, inspect_asm and inspect_llvm).
template <class F>
nb::dict by_specialization(Dispatcher& d, F&& value_of) {
    nb::dict out;
    for (const CompiledKernel* k : d.specializations()) {
        nb::list types;
        for (const Type* t : k->param_types) types.append(t->str());
        out[nb::tuple(types)] = value_of(*k);
    }
    return out;
}

}  // namespace simt::py
