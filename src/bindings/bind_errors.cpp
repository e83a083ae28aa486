// Python exception types for simt's C++ errors, and the translator between them.
#include "bindings.h"
#include "support/error.h"

namespace simt::py {

namespace {
PyObject* g_cuda_error = nullptr;
PyObject* g_oom_error = nullptr;
PyObject* g_compile_error = nullptr;
PyObject* g_typing_error = nullptr;
PyObject* g_unsupported_error = nullptr;
PyObject* g_compiler_error = nullptr;

PyObject* new_exception(nb::module_& m, const char* name, PyObject* base, const char* doc) {
    std::string qualified = std::string("simt.cuda.") + name;
    PyObject* t = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
    m.attr(name) = nb::handle(t);
    return t;
}

void set_error(PyObject* type, const char* message) { PyErr_SetString(type, message); }

void set_axis_error(const char* message) {
    nb::object exceptions = nb::module_::import_("numpy.exceptions");
    PyErr_SetString(exceptions.attr("AxisError").ptr(), message);
}

// An exception a kernel raised: "ClassName\ntext" names a builtin exception class (sema only
// accepts those); anything unexpected becomes RuntimeError with the text.
void set_raised_error(const char* message) {
    std::string m(message);
    size_t cut = m.find('\n');
    std::string name = cut == std::string::npos ? "" : m.substr(0, cut);
    std::string text = cut == std::string::npos ? m : m.substr(cut + 1);
    nb::object builtins = nb::module_::import_("builtins");
    PyObject* type = name.empty() ? nullptr : PyObject_GetAttrString(builtins.ptr(), name.c_str());
    if (!type) PyErr_Clear();
    bool usable = type && PyType_Check(type) && PyType_IsSubtype((PyTypeObject*)type, (PyTypeObject*)PyExc_Exception);
    PyErr_SetString(usable ? type : PyExc_RuntimeError, text.c_str());
    Py_XDECREF(type);
}

void translate(const std::exception_ptr& p) {
    try {
        std::rethrow_exception(p);
    } catch (const CudaError& e) {
        nb::object exc = nb::steal(PyObject_CallFunction(g_cuda_error, "s", e.what()));
        if (!exc.is_valid()) return;
        exc.attr("code") = e.code();
        exc.attr("name") = e.name();
        PyErr_SetObject(g_cuda_error, exc.ptr());
    } catch (const Error& e) {
        switch (e.kind()) {
            case ErrorKind::Value: set_error(PyExc_ValueError, e.what()); break;
            case ErrorKind::Type: set_error(PyExc_TypeError, e.what()); break;
            case ErrorKind::Index: set_error(PyExc_IndexError, e.what()); break;
            case ErrorKind::NotImplemented: set_error(PyExc_NotImplementedError, e.what()); break;
            case ErrorKind::OutOfMemory: set_error(g_oom_error, e.what()); break;
            case ErrorKind::Cuda: set_error(g_cuda_error, e.what()); break;
            case ErrorKind::Typing: set_error(g_typing_error, e.what()); break;
            case ErrorKind::Unsupported: set_error(g_unsupported_error, e.what()); break;
            case ErrorKind::Compiler: set_error(g_compiler_error, e.what()); break;
            case ErrorKind::Os: set_error(PyExc_OSError, e.what()); break;
            case ErrorKind::Axis: set_axis_error(e.what()); break;
            case ErrorKind::Overflow: set_error(PyExc_OverflowError, e.what()); break;
            case ErrorKind::Assertion: set_error(PyExc_AssertionError, e.what()); break;
            case ErrorKind::Raised: set_raised_error(e.what()); break;
            case ErrorKind::Runtime: default: set_error(PyExc_RuntimeError, e.what()); break;
        }
    }
}
}  // namespace

void set_python_error(const std::exception_ptr& p) {
    try {
        translate(p);
    } catch (nb::python_error& e) {
        e.restore();
    } catch (const std::bad_alloc&) {
        PyErr_NoMemory();
    } catch (const std::exception& e) {
        PyErr_SetString(PyExc_RuntimeError, e.what());
    }
}

void bind_errors(nb::module_& m) {
    g_cuda_error = new_exception(m, "CUDAError", PyExc_RuntimeError,
                                 "A CUDA driver call failed; the text is the driver's 'NAME: description'.");
    g_oom_error = new_exception(m, "OutOfMemoryError", PyExc_MemoryError, "A device allocation failed.");
    g_compile_error = new_exception(m, "CompileError", PyExc_Exception, "A kernel could not be compiled.");
    g_typing_error = new_exception(m, "TypingError", g_compile_error, "Kernel source does not type-check.");
    g_unsupported_error = new_exception(m, "UnsupportedError", g_compile_error, "Kernel source uses unsupported syntax.");
    g_compiler_error = new_exception(m, "CompilerError", g_compile_error,
                                     "The host compiler or NVRTC rejected generated code.");

    nb::register_exception_translator([](const std::exception_ptr& p, void*) { translate(p); });
}

}  // namespace simt::py
