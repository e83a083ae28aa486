// Python callables queued on streams (CuPy's launch_host_func/add_callback, numba's
// add_callback): run in stream order on the backend's thread with the GIL taken there.
#include <atomic>
#include "bindings.h"
#include "runtime/host_callbacks.h"

namespace simt::py {

namespace {

std::atomic<bool> g_finalizing{false};  // set by simt's atexit handler: Python may not be entered any more

}  // namespace

bool python_enterable() {
    if (g_finalizing.load()) return false;
#if PY_VERSION_HEX >= 0x030D0000
    return Py_IsInitialized() && !Py_IsFinalizing();
#else
    return Py_IsInitialized() && !_Py_IsFinalizing();
#endif
}

namespace {

// Drops the callable on the main thread: its last references (an array passed as the callback's
// argument, say) may free device memory, which the driver's callback thread must not do.
int release_later(void* call) {
    Py_DECREF(static_cast<PyObject*>(call));
    return 0;
}

// What the backend calls: `data` is a new reference to a callable taking no arguments.
void run_host_call(void* data) {
    PyObject* call = static_cast<PyObject*>(data);
    if (!python_enterable()) {  // (the process is ending: nothing can run Python any more)
        note_host_callback_finished();
        return;
    }
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject* result = PyObject_CallNoArgs(call);
    if (result) Py_DECREF(result);
    else PyErr_WriteUnraisable(call);  // reported as Python reports errors it cannot raise (sys.unraisablehook)
    note_host_callback_finished();
    if (Py_AddPendingCall(release_later, call) != 0) Py_DECREF(call);
    PyGILState_Release(gil);
}

}  // namespace

void bind_host_callbacks(nb::module_& m) {
    // Waits for the device let go of the GIL while a callback is pending (it needs the GIL).
    set_callback_lock({[]() -> void* { return PyGILState_Check() ? static_cast<void*>(PyEval_SaveThread()) : nullptr; },
                       [](void* state) { PyEval_RestoreThread(static_cast<PyThreadState*>(state)); }});

    m.def("_launch_host_func", [](nb::handle stream, nb::callable call) {
        StreamHandle s = stream_from_object(stream);
        PyObject* data = call.inc_ref().ptr();
        note_host_callback_queued();
        try {
            backend().launch_host_func(s, run_host_call, data);
        } catch (...) {
            note_host_callback_finished();
            Py_DECREF(data);
            throw;
        }
    }, nb::arg("stream").none(), nb::arg("call"));
    m.def("_host_callbacks_pending", [] { return host_callbacks_pending(); });
    m.def("_host_callbacks_finalize", [] { g_finalizing.store(true); });
}

}  // namespace simt::py
