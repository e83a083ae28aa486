// Raw CUDA C++ kernels from Python (simt.RawKernel / RawModule, python/simt/_raw_kernels.py):
// loading a module's kernel on the active backend and launching it with CuPy's argument rules
// (arrays as pointers; Python int, float, complex and bool as long long, double, a pair of
// doubles and bool; NumPy scalars as their own type), checked against the kernel's parameters
// where the backend knows their sizes. simt.core's Program / launch (python/simt/core/) use the
// same path, with messages saying "kernel" rather than "raw kernel".
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include "bindings.h"
#include "codegen/cuda_source_log.h"
#include "codegen/raw_module.h"
#include "runtime/backend.h"
#include "runtime/current_stream.h"
#include "support/error.h"

namespace simt::py {

namespace {

struct RawFunction {
    std::string name;
    std::string kind = "raw kernel";  // what messages call it ("kernel" for simt.core's)
    std::shared_ptr<LoadedKernel> kernel;
    std::vector<int64_t> parameter_sizes;  // read once when loaded (empty: the backend cannot tell)
    GeneratedSource source;
};

// What one argument is passed as, for messages: "a Python float (8-byte double)".
struct Packed {
    size_t size;
    std::string what;
};

Packed pack_argument(const RawFunction& f, ArgumentPack& pack, nb::handle arg, size_t index) {
    PyObject* o = arg.ptr();
    if (is_ndarray(o)) {
        NdArray& a = ndarray_of(o);
        void* data = a.data;
        pack.add(&data, sizeof(data), alignof(void*));
        pack.keep_alive.push_back(a.owner);
        return {sizeof(data), "a simt.ndarray (8-byte pointer)"};
    }
    if (PyBool_Check(o)) {
        bool v = o == Py_True;
        pack.add(&v, 1, 1);
        return {1, "a Python bool (1-byte bool)"};
    }
    if (PyLong_Check(o)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow)
            raise(ErrorKind::Overflow, "argument %zu of %s '%s': the Python int does not fit the 64-bit long long "
                  "it is passed as; pass a NumPy scalar of the parameter's type", index, f.kind.c_str(), f.name.c_str());
        pack.add(&v, sizeof(v), alignof(long long));
        return {sizeof(v), "a Python int (8-byte long long)"};
    }
    if (PyFloat_Check(o)) {
        double v = PyFloat_AS_DOUBLE(o);
        pack.add(&v, sizeof(v), alignof(double));
        return {sizeof(v), "a Python float (8-byte double)"};
    }
    if (PyComplex_Check(o)) {
        double v[2] = {PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o)};
        pack.add(v, sizeof(v), 16);
        return {sizeof(v), "a Python complex (16-byte double complex)"};
    }
    // (looked up once: this is a launch path)
    static PyObject* const numpy_generic = nb::object(nb::module_::import_("numpy").attr("generic")).release().ptr();
    static PyObject* const numpy_ndarray = nb::object(nb::module_::import_("numpy").attr("ndarray")).release().ptr();
    if (PyObject_TypeCheck(o, (PyTypeObject*)numpy_generic)) {
        nb::object dtype = arg.attr("dtype");
        nb::bytes bytes = nb::cast<nb::bytes>(arg.attr("tobytes")());
        size_t align = nb::cast<size_t>(dtype.attr("alignment"));
        pack.add(bytes.c_str(), bytes.size(), align);
        return {bytes.size(), "a NumPy " + nb::cast<std::string>(dtype.attr("name")) + " (" + std::to_string(bytes.size()) + " bytes)"};
    }
    if (PyObject_TypeCheck(o, (PyTypeObject*)numpy_ndarray))
        raise_host_data(arg, "argument " + std::to_string(index) + " of " + f.kind + " '" + f.name + "'");
    std::string type = nb::cast<std::string>(nb::str(arg.type().attr("__name__")));
    raise(ErrorKind::Type, "argument %zu of %s '%s' is a %s: pass device arrays, NumPy scalars or Python "
          "numbers", index, f.kind.c_str(), f.name.c_str(), type.c_str());
}

Dim3 dim3_from(nb::handle value, const char* what, const RawFunction& f) {
    Dim3 d;
    int64_t* parts[3] = {&d.x, &d.y, &d.z};
    if (PyLong_Check(value.ptr())) {
        d.x = nb::cast<int64_t>(value);
        return d;
    }
    nb::tuple t;
    if (!nb::try_cast(value, t) || t.size() < 1 || t.size() > 3)
        raise(ErrorKind::Type, "the %s of %s '%s' must be an int or a tuple of 1 to 3 ints", what, f.kind.c_str(), f.name.c_str());
    for (size_t i = 0; i < t.size(); ++i) {
        if (!PyLong_Check(t[i].ptr()))
            raise(ErrorKind::Type, "the %s of %s '%s' must be an int or a tuple of 1 to 3 ints", what, f.kind.c_str(), f.name.c_str());
        *parts[i] = nb::cast<int64_t>(t[i]);
    }
    return d;
}

void launch(RawFunction& f, nb::handle grid, nb::handle block, nb::tuple args, int64_t shared_mem, nb::handle stream) {
    LaunchConfig config;
    config.grid = dim3_from(grid, "grid", f);
    config.block = dim3_from(block, "block", f);
    config.dynamic_shared_bytes = shared_mem;
    config.stream = stream.is_none() ? current_stream() : stream_from_object(stream);
    // A pack per launch: another thread may launch the same kernel while this one, without the
    // GIL, is still handing its pack to the backend.
    ArgumentPack pack;
    std::vector<Packed> packed;
    for (size_t i = 0; i < args.size(); ++i) packed.push_back(pack_argument(f, pack, args[i], i));
    const std::vector<int64_t>& sizes = f.parameter_sizes;
    if (!sizes.empty()) {
        if (sizes.size() != packed.size())
            raise(ErrorKind::Type, "%s '%s' takes %zu parameters, got %zu arguments", f.kind.c_str(), f.name.c_str(),
                  sizes.size(), packed.size());
        for (size_t i = 0; i < sizes.size(); ++i)
            if (size_t(sizes[i]) != packed[i].size)
                raise(ErrorKind::Type, "argument %zu of %s '%s' is %s, but the parameter takes %lld bytes: pass a "
                      "NumPy scalar of the parameter's type (e.g. numpy.float32(x) for a float)", i, f.kind.c_str(), f.name.c_str(),
                      packed[i].what.c_str(), (long long)sizes[i]);
    }
    nb::gil_scoped_release release;
    backend().launch(*f.kernel, config, pack);
}

}  // namespace

void bind_raw(nb::module_& m) {
    nb::class_<RawFunction>(m, "RawFunction")
        .def_ro("name", &RawFunction::name)
        .def("launch", &launch, nb::arg("grid"), nb::arg("block"), nb::arg("args"), nb::arg("shared_mem") = 0,
             nb::arg("stream") = nb::none())
        .def_ro("parameter_sizes", &RawFunction::parameter_sizes)
        .def_prop_ro("compiled_source", [](RawFunction& f) { return f.source.full_source; })
        .def("assembly", [](RawFunction& f) { return f.kernel->assembly(); })
        // cuFuncGetAttribute / cuFuncSetAttribute (KernelAttribute numbers) on the active backend.
        .def("attribute", [](RawFunction& f, int which) {
            nb::gil_scoped_release release;
            return backend().kernel_attribute(*f.kernel, KernelAttribute(which));
        })
        .def("set_attribute", [](RawFunction& f, int which, int value) {
            nb::gil_scoped_release release;
            backend().set_kernel_attribute(*f.kernel, KernelAttribute(which), value);
        })
        // (address, bytes) of a module-scope __device__ / __constant__ variable of the kernel's module.
        .def("global_variable", [](RawFunction& f, const std::string& name) {
            std::pair<void*, size_t> g;
            {
                nb::gil_scoped_release release;
                g = backend().kernel_global(*f.kernel, name);
            }
            return std::make_pair(uintptr_t(g.first), g.second);
        });
    m.def("_raw_kernel_names", &raw_kernel_names);
    // Compiles (through the disk cache) and loads kernel `name` of raw CUDA C++ `code`.
    m.def("_load_raw_kernel", [](const std::string& code, const std::string& name, std::vector<std::string> options,
                                 const std::string& label, const std::string& kind,
                                 std::vector<std::string> name_expressions, std::vector<std::string> kernels) {
        RawModuleSource module{code, std::move(options), label, std::move(name_expressions), std::move(kernels)};
        auto f = std::make_unique<RawFunction>();
        f->name = name;
        f->kind = kind;
        CompileOptions compile;
        f->source = raw_kernel_source(module, name, backend().target(), &compile);
        f->source.options = compile;
        {
            nb::gil_scoped_release release;
            f->kernel = backend().load(f->source, compile);
            f->parameter_sizes = f->kernel->parameter_sizes();
        }
        // For the test session's NVRTC check: what NVRTC would compile of code the host compiler took.
        if (cuda_source_recording() && backend().target() != Target::Cuda) {
            CompileOptions cuda_options;
            GeneratedSource cuda = raw_kernel_source(module, name, Target::Cuda, &cuda_options);
            cuda.options = cuda_options;
            record_raw_cuda_source(name, cuda);
        }
        return f.release();
    }, nb::arg("code"), nb::arg("name"), nb::arg("options"), nb::arg("label"), nb::arg("kind") = "raw kernel",
       nb::arg("name_expressions") = std::vector<std::string>{}, nb::arg("kernels") = std::vector<std::string>{},
       nb::rv_policy::take_ownership);
}

}  // namespace simt::py
