// Kernels from Python: the resolver bridge, the Dispatcher and the launch path. The launch
// path (k[grid, block](args)) is all C++: argument typing and packing, specialization lookup,
// and the backend launch.
#include <chrono>
#include <cstring>
#include "bindings.h"
#include "codegen/nvrtc_options.h"
#include "runtime/argument_convert.h"
#include "runtime/current_stream.h"
#include "runtime/dispatcher.h"
#include "types/signature.h"
#include "support/error.h"
#include "support/scratch_lease.h"

namespace simt::py {

namespace {

ConstValue const_from_python(nb::handle v, int dtype_code) {
    if (PyBool_Check(v.ptr())) return ConstValue::boolean(v.ptr() == Py_True);
    if (PyLong_Check(v.ptr())) {
        int overflow = 0;
        long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
        DType d = dtype_code >= 0 ? DType(dtype_code) : DType::Int64;
        if (!overflow) return ConstValue::integer(x, d);
        unsigned long long u = PyLong_AsUnsignedLongLong(v.ptr());
        if (PyErr_Occurred()) {
            PyErr_Clear();
            throw Error(ErrorKind::Type, "integer constant " + nb::cast<std::string>(nb::repr(v)) + " does not fit in 64 bits");
        }
        return ConstValue::integer(int64_t(u), DType::UInt64);
    }
    if (PyFloat_Check(v.ptr()))
        return ConstValue::real(PyFloat_AsDouble(v.ptr()), dtype_code >= 0 ? DType(dtype_code) : DType::Float64);
    if (PyComplex_Check(v.ptr()))
        return ConstValue::complex(PyComplex_RealAsDouble(v.ptr()), PyComplex_ImagAsDouble(v.ptr()),
                                   dtype_code >= 0 ? DType(dtype_code) : DType::Complex128);
    if (PyUnicode_Check(v.ptr())) return ConstValue::string(nb::cast<std::string>(v));
    if (v.is_none()) return ConstValue::none();
    if (PyTuple_Check(v.ptr())) {
        std::vector<ConstValue> elems;
        for (nb::handle e : nb::iter(v)) elems.push_back(const_from_python(e, -1));
        return ConstValue::tuple(elems);
    }
    throw Error(ErrorKind::Type, "cannot freeze " + nb::cast<std::string>(nb::repr(v)) + " as a kernel constant");
}

KernelDefinition definition_from(const std::string& name, const std::string& source, const std::string& filename,
                                 int first_line, int indent, nb::object resolver, nb::dict options) {
    KernelDefinition d;
    d.name = name;
    d.source.text = source;
    d.source.filename = filename;
    d.source.first_line = first_line;
    d.source.indent = indent;
    d.resolve = make_resolver(resolver);
    auto get = [&](const char* k) -> nb::object { return options.contains(k) ? nb::object(options[k]) : nb::object(nb::none()); };
    nb::object bc = get("boundscheck");
    if (!bc.is_none()) d.options.bounds = nb::cast<bool>(bc) ? BoundsMode::Checked : BoundsMode::Unchecked;
    if (nb::object f = get("fastmath"); !f.is_none()) d.options.fastmath = nb::cast<bool>(f);
    if (nb::object f = get("debug"); !f.is_none()) d.options.debug = nb::cast<bool>(f);
    if (nb::object f = get("lineinfo"); !f.is_none()) d.options.lineinfo = nb::cast<bool>(f);
    if (nb::object f = get("max_registers"); !f.is_none()) d.options.max_registers = nb::cast<int>(f);
    if (nb::object f = get("launch_bounds"); !f.is_none()) {  // (a tuple of 1 to 3 ints: jit() checked it)
        int k = 0;
        for (nb::handle v : nb::iter(f))
            if (k < 3) d.options.launch_bounds[k++] = nb::cast<int>(v);
    }
    if (nb::object f = get("device"); !f.is_none()) d.device = nb::cast<bool>(f);
    if (nb::object f = get("opt"); !f.is_none()) d.options.opt = nb::cast<bool>(f);
    else if (d.options.debug) d.options.opt = false;  // numba: debug=True turns optimization off unless opt=True
    if (nb::object f = get("inline"); !f.is_none())
        d.force_inline = PyUnicode_Check(f.ptr()) ? nb::cast<std::string>(f) == "always" : nb::cast<bool>(f);
    if (nb::object f = get("forceinline"); !f.is_none()) d.force_inline = d.force_inline || nb::cast<bool>(f);
    if (nb::object f = get("_tile"); !f.is_none()) d.options.tile_kernel = nb::cast<bool>(f);  // simt.cuda.tile kernels
    if (nb::object names = get("_constant_params"); !names.is_none())  // simt.cuda.tile: tile.Constant parameters
        for (nb::handle n : nb::iter(names)) d.options.constant_params.push_back(nb::cast<std::string>(n));
    if (nb::object files = get("link"); !files.is_none())  // CUDA C++ compiled with the kernel (cuda.declare_device)
        for (nb::handle f : nb::iter(files)) d.options.link.push_back(nb::cast<std::string>(f));
    if (nb::object sigs = get("_signatures"); !sigs.is_none())
        for (nb::handle sig : nb::iter(sigs)) d.signatures.push_back(parse_signature(nb::cast<std::string>(sig)));
    return d;
}

const Type* classify_argument(const Dispatcher& d, size_t index, nb::handle arg, ArgumentPack& pack, bool default_stream);

// The tuple type of `arg`: named (collections.namedtuple, typing.NamedTuple: a tuple subclass
// with `_fields`), so kernels can read p.x, or plain.
const Type* named_tuple_fields(nb::handle arg, Py_ssize_t n, const std::vector<const Type*>& elems) {
    if (PyTuple_CheckExact(arg.ptr())) return tuple_type(elems);
    nb::handle cls = nb::handle((PyObject*)Py_TYPE(arg.ptr()));
    if (!nb::hasattr(cls, "_fields")) return tuple_type(elems);
    std::vector<std::string> fields;
    try {
        for (nb::handle f : nb::iter(cls.attr("_fields"))) fields.push_back(nb::cast<std::string>(f));
    } catch (const std::exception&) {  // (a `_fields` that is not a sequence of names: a plain tuple)
        PyErr_Clear();
        return tuple_type(elems);
    }
    if (Py_ssize_t(fields.size()) != n) return tuple_type(elems);
    return named_tuple_type(nb::cast<std::string>(cls.attr("__name__")), fields, elems);
}

// A tuple argument (numba passes them as UniTuple / Tuple): its elements laid out as the fields of
// the struct the generated code declares for it, in order, each at its alignment.
const Type* classify_tuple(const Dispatcher& d, size_t index, nb::handle arg, ArgumentPack& pack, bool default_stream) {
    Py_ssize_t n = PyTuple_GET_SIZE(arg.ptr());
    if (n == 0)
        throw Error(ErrorKind::Type, "argument " + std::to_string(index + 1) + " of kernel '" + d.definition().name +
                                         "' is an empty tuple, which kernels do not accept");
    std::vector<const Type*> elems;
    ArgumentPack fields;
    for (Py_ssize_t i = 0; i < n; ++i) {
        ArgumentPack one;
        const Type* t = classify_argument(d, index, PyTuple_GET_ITEM(arg.ptr(), i), one, default_stream);
        fields.add(one.data.data(), one.data.size(), argument_alignment(t));
        for (auto& owner : one.keep_alive) fields.keep_alive.push_back(std::move(owner));
        elems.push_back(t);
    }
    const Type* tuple = named_tuple_fields(arg, n, elems);
    const size_t align = argument_alignment(tuple);
    fields.data.resize((fields.data.size() + align - 1) / align * align);  // the struct's tail padding
    pack.add(fields.data.data(), fields.data.size(), align);
    for (auto& owner : fields.keep_alive) pack.keep_alive.push_back(std::move(owner));
    return tuple;
}

// The argument of a kernel launch: its kernel type, with its bytes appended to `pack`.
const Type* classify_argument(const Dispatcher& d, size_t index, nb::handle arg, ArgumentPack& pack,
                              bool default_stream = false) {
    PyObject* o = arg.ptr();
    if (is_ndarray(o)) {  // a cached type pointer: nb::isinstance looks the type up by its type_info
        const NdArray* a = &ndarray_of(o);
        a->pack_into(pack, default_stream);
        return a->kernel_type();
    }
    if (PyTuple_Check(o)) return classify_tuple(d, index, arg, pack, default_stream);
    if (PyBool_Check(o)) {
        bool b = o == Py_True;
        pack.add(&b, 1, 1);
        return bool_type();
    }
    if (PyLong_Check(o)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) {
            unsigned long long u = PyLong_AsUnsignedLongLong(o);
            if (PyErr_Occurred()) {
                PyErr_Clear();
                throw Error(ErrorKind::Value, "argument " + std::to_string(index + 1) + " of kernel '" + d.definition().name +
                                                  "' is an integer that does not fit in 64 bits");
            }
            pack.add(&u, 8, 8);
            return scalar_type(DType::UInt64);
        }
        int64_t x = v;
        pack.add(&x, 8, 8);
        return int64_type();
    }
    if (PyFloat_Check(o)) {
        double x = PyFloat_AS_DOUBLE(o);
        pack.add(&x, 8, 8);
        return float64_type();
    }
    if (PyComplex_Check(o)) {
        double x[2] = {PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o)};
        pack.add(x, 16, 8);
        return scalar_type(DType::Complex128);
    }
    std::string where = "argument " + std::to_string(index + 1) + " of kernel '" + d.definition().name + "'";
    nb::handle type = arg.type();
    std::string tname = nb::cast<std::string>(type.attr("__module__")) + "." + nb::cast<std::string>(type.attr("__qualname__"));
    if (tname == "numpy.ndarray")
        throw Error(ErrorKind::Type, where + " is a NumPy array in host memory; copy it to the device first with "
                                             "simt.asarray(x) (or simt.cuda.to_device(x)), and copy results back with .get()");
    if (nb::hasattr(arg, "dtype") && nb::hasattr(arg, "item") && tname.rfind("numpy.", 0) == 0) {
        DType dt = dtype_from_object(arg.attr("dtype"));  // a NumPy scalar such as np.float32(2.5)
        unsigned char bytes[16] = {};
        nb::object raw = arg.attr("tobytes")();
        std::memcpy(bytes, PyBytes_AsString(raw.ptr()), size_t(dtype_size(dt)));
        pack.add(bytes, size_t(dtype_size(dt)), size_t(dtype_size(dt) >= 8 ? 8 : dtype_size(dt)));
        return scalar_type(dt);
    }
    if (const Type* t = nullptr; foreign_kernel_argument(arg, where, pack, t)) return t;  // CuPy, PyTorch, numba arrays
    throw Error(ErrorKind::Type, where + " has type " + tname + ", which kernels do not accept (pass a simt array, a number, a bool or a tuple of them)");
}

// An integer of a launch configuration. Values past int64 saturate: the launch then fails with
// the driver's CUDA_ERROR_INVALID_VALUE, as any other out-of-range value does.
int64_t config_int(nb::handle v, const char* what) {
    if (!PyIndex_Check(v.ptr()))
        throw Error(ErrorKind::Type, std::string(what) + " must be an int, not " + nb::type_name(v.type()).c_str());
    nb::object i = nb::steal(PyNumber_Index(v.ptr()));
    if (!i.is_valid()) throw nb::python_error();
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
    if (overflow) return overflow > 0 ? INT64_MAX : INT64_MIN;
    return x;
}

Dim3 dim3_from(nb::handle v, const char* what) {
    Dim3 d;
    if (PyLong_Check(v.ptr())) {
        d.x = config_int(v, what);
        return d;
    }
    if (PyTuple_Check(v.ptr()) || PyList_Check(v.ptr())) {
        size_t n = nb::len(v);
        if (n < 1 || n > 3) throw Error(ErrorKind::Value, std::string(what) + " must have 1 to 3 dimensions, got " + std::to_string(n));
        int64_t xyz[3] = {1, 1, 1};
        size_t i = 0;
        for (nb::handle e : nb::iter(v)) {
            if (!PyLong_Check(e.ptr())) throw Error(ErrorKind::Type, std::string(what) + " entries must be integers");
            xyz[i++] = config_int(e, what);
        }
        d.x = xyz[0]; d.y = xyz[1]; d.z = xyz[2];
        return d;
    }
    if (PyIndex_Check(v.ptr())) {
        d.x = config_int(v, what);
        return d;
    }
    throw Error(ErrorKind::Type, std::string(what) + " must be an int or a tuple of 1 to 3 ints, not " +
                                     nb::type_name(v.type()).c_str());
}

struct ConfiguredLaunch {
    Dispatcher* dispatcher;
    nb::object owner;  // keeps the dispatcher alive
    LaunchConfig config;
};

CompiledKernel& compile_for(Dispatcher& d, const std::vector<const Type*>& types) {
    std::unique_ptr<CompiledKernel> k = d.generate(types, backend().target());
    {
        nb::gil_scoped_release release;  // compiling can take a while; the resolver is not used here
        d.load(*k);
    }
    return d.insert(std::move(k));
}

// The launch path's buffers, reused per thread (see ScratchLease); the launch holds no array
// past its return.
struct LaunchScratch {
    ArgumentPack pack;
    std::vector<const Type*> types;
    void clear() {
        pack.clear();
        types.clear();
    }
};

void launch(ConfiguredLaunch& self, PyObject* const* args, size_t nargs) {
    Dispatcher& d = *self.dispatcher;
    ScratchLease<LaunchScratch> lease;
    ArgumentPack& pack = lease.get().pack;
    std::vector<const Type*>& types = lease.get().types;
    const bool default_stream = self.config.stream == nullptr;
    for (size_t i = 0; i < nargs; ++i) types.push_back(classify_argument(d, i, nb::handle(args[i]), pack, default_stream));
    CompiledKernel* k = d.find(types);
    if (!k && d.eager()) {
        // Declared signatures only: convert to the best-fitting one, never compile another.
        k = d.match_declared(types);
        if (!k) throw Error(ErrorKind::Type, d.no_match_message(types));
        ArgumentPack converted = convert_arguments(pack, types, k->param_types);
        backend().launch(*k->loaded, self.config, converted);
        return;
    }
    if (!k) k = &compile_for(d, types);
    backend().launch(*k->loaded, self.config, pack);
}

ConfiguredLaunch configure(nb::handle self, nb::handle config) {
    if (!PyTuple_Check(config.ptr()) || PyTuple_GET_SIZE(config.ptr()) < 2 || PyTuple_GET_SIZE(config.ptr()) > 4)
        throw Error(ErrorKind::Value, "launch configuration must be [griddim, blockdim], [griddim, blockdim, stream] "
                                      "or [griddim, blockdim, stream, sharedmem]");
    PyObject* c = config.ptr();
    Py_ssize_t n = PyTuple_GET_SIZE(c);
    ConfiguredLaunch launch;
    launch.dispatcher = nb::inst_ptr<Dispatcher>(self);
    launch.owner = nb::borrow(self);
    if (launch.dispatcher->definition().device)
        throw Error(ErrorKind::Type, "'" + launch.dispatcher->definition().name +
                                         "' is a device function (device=True): call it from a kernel, it cannot be launched");
    launch.config.grid = dim3_from(PyTuple_GET_ITEM(c, 0), "griddim");
    launch.config.block = dim3_from(PyTuple_GET_ITEM(c, 1), "blockdim");
    launch.config.stream = n > 2 ? stream_from_object(PyTuple_GET_ITEM(c, 2)) : current_stream();
    if (n > 3) launch.config.dynamic_shared_bytes = config_int(PyTuple_GET_ITEM(c, 3), "the dynamic shared memory size");
    return launch;
}

// The last configuration made (touched only under the GIL). Loops launch one kernel with one
// shape over and over; a repeat of it returns the same ConfiguredLaunch instead of parsing the
// configuration and allocating another. Only configurations of immutable items are kept (exact
// ints, tuples of them, None, simt Streams), and the key tuple is owned, so the stream object
// it names stays alive (until another configuration replaces it) and identity compares are safe.
struct LastConfiguration {
    PyObject* dispatcher = nullptr;  // borrowed: `launch` owns a reference
    PyObject* key = nullptr;
    StreamHandle current = nullptr;  // the current stream then, for keys that name none
    PyObject* launch = nullptr;
};
LastConfiguration g_last;

bool same_config_item(PyObject* a, PyObject* b) {
    if (a == b) return true;
    if (!PyLong_CheckExact(a) || !PyLong_CheckExact(b)) return false;
    int oa = 0, ob = 0;
    long long x = PyLong_AsLongLongAndOverflow(a, &oa), y = PyLong_AsLongLongAndOverflow(b, &ob);
    return !oa && !ob && x == y;
}

PyObject* repeated_configuration(PyObject* self, PyObject* key) {
    if (g_last.dispatcher != self || !PyTuple_Check(key)) return nullptr;
    Py_ssize_t n = PyTuple_GET_SIZE(key);
    if (n != PyTuple_GET_SIZE(g_last.key)) return nullptr;
    for (Py_ssize_t i = 0; i < n; ++i)
        if (!same_config_item(PyTuple_GET_ITEM(key, i), PyTuple_GET_ITEM(g_last.key, i))) return nullptr;
    if (n == 2 && current_stream() != g_last.current) return nullptr;  // (the backend is up: an earlier configure made g_last)
    Py_INCREF(g_last.launch);
    return g_last.launch;
}

// Whether a grid or block item cannot change after configuring: an exact int or a tuple of
// them (a list, a 0-d NumPy array or another __index__ object can be changed in place).
bool immutable_dims(PyObject* v) {
    if (PyLong_CheckExact(v)) return true;
    if (!PyTuple_CheckExact(v)) return false;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(v); ++i)
        if (!PyLong_CheckExact(PyTuple_GET_ITEM(v, i))) return false;
    return true;
}

void remember_configuration(PyObject* self, PyObject* key, PyObject* launch) {
    Py_ssize_t n = PyTuple_GET_SIZE(key);
    if (!immutable_dims(PyTuple_GET_ITEM(key, 0)) || !immutable_dims(PyTuple_GET_ITEM(key, 1))) return;
    // A stream given as anything but None, 0 or a simt Stream is resolved through an attribute
    // that may change: such configurations are not reused.
    if (n > 2) {
        PyObject* s = PyTuple_GET_ITEM(key, 2);
        if (s != Py_None && !PyLong_CheckExact(s) && !nb::isinstance<Stream>(nb::handle(s))) return;
    }
    if (n > 3 && !PyLong_CheckExact(PyTuple_GET_ITEM(key, 3))) return;
    PyObject* old_key = g_last.key;
    PyObject* old_launch = g_last.launch;
    Py_INCREF(key);
    Py_INCREF(launch);
    g_last = {self, key, current_stream(), launch};
    Py_XDECREF(old_key);
    Py_XDECREF(old_launch);  // last: it may drop the last reference to a dispatcher
}

// kernel[config] and configured(*args) as raw type slots: the launch path skips nanobind's
// generic overload dispatch (it is measured against a bare cuLaunchKernel).
PyObject* dispatcher_subscript(PyObject* self, PyObject* key) {
    if (PyObject* again = repeated_configuration(self, key)) return again;
    return guarded<PyObject*>(nullptr, [&] {
        PyObject* launch = nb::cast(configure(self, key)).release().ptr();
        remember_configuration(self, key, launch);
        return launch;
    });
}

PyObject* configured_call(PyObject* self, PyObject* args, PyObject* kwargs) {
    return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
        if (kwargs && PyDict_GET_SIZE(kwargs) != 0) throw Error(ErrorKind::Type, "kernel launches take positional arguments only");
        launch(*nb::inst_ptr<ConfiguredLaunch>(self), &PyTuple_GET_ITEM(args, 0), size_t(PyTuple_GET_SIZE(args)));
        Py_RETURN_NONE;
    });
}

PyType_Slot g_dispatcher_slots[] = {{Py_mp_subscript, (void*)dispatcher_subscript}, {0, nullptr}};
PyType_Slot g_configured_slots[] = {{Py_tp_call, (void*)configured_call}, {0, nullptr}};

// Eager compilation at decoration: every declared signature of a kernel is compiled and loaded;
// a device function is type-checked against each of its signatures.
void compile_declared(Dispatcher& d) {
    d.validate_signatures();
    if (d.definition().device) {
        d.check_device_signatures();
        return;
    }
    for (const Signature& sig : d.definition().signatures)
        if (!d.find(sig.args)) compile_for(d, sig.args);
}

// Generated source of one signature for a target, without compiling it (for inspection and for
// checking the CUDA C++ with NVRTC where no GPU is present).
nb::tuple generate_for(Dispatcher& d, const std::string& target, const std::string& signature) {
    Signature sig = parse_signature(signature);
    Target t = target == "cuda" ? Target::Cuda : target == "cpu" ? Target::Cpu
             : throw Error(ErrorKind::Value, "target must be 'cpu' or 'cuda', not '" + target + "'");
    std::unique_ptr<CompiledKernel> k = d.generate(sig.args, t);
    return nb::make_tuple(k->source.full_source, k->source.entry_name, k->source.user_code);
}

// Diagnostics for bench/probes/launch_parts.py: seconds for `count` launches of a configured
// kernel, through the whole C++ launch path (typing, lookup, packing, launch) or, with
// `backend_only`, through the backend's launch alone with the arguments typed and packed once:
// the driver's own cost plus what the backend adds. What Python adds is the rest of k[g, b](...).
double time_launches(nb::handle configured, nb::tuple args, int count, bool backend_only) {
    ConfiguredLaunch& self = *nb::inst_ptr<ConfiguredLaunch>(configured);
    std::vector<PyObject*> items;
    for (nb::handle a : args) items.push_back(a.ptr());
    launch(self, items.data(), items.size());  // compiles where needed
    auto start = std::chrono::steady_clock::now();
    if (backend_only) {
        ArgumentPack pack;
        std::vector<const Type*> types;
        for (size_t i = 0; i < items.size(); ++i) types.push_back(classify_argument(*self.dispatcher, i, args[i], pack));
        CompiledKernel* k = self.dispatcher->find(types);
        if (!k) throw Error(ErrorKind::Type, "time_launches: no specialization for these arguments");
        start = std::chrono::steady_clock::now();
        for (int i = 0; i < count; ++i) backend().launch(*k->loaded, self.config, pack);
    } else {
        for (int i = 0; i < count; ++i) launch(self, items.data(), items.size());
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

// A parsed cuda.declare_device declaration, held by the Python object kernels see.
struct ForeignDeclaration {
    std::shared_ptr<const ForeignFunction> function;
};

GlobalValue global_from_python(nb::handle answer) {
    nb::tuple t = nb::borrow<nb::tuple>(answer);
    std::string kind = nb::cast<std::string>(t[0]);
    if (kind == "undefined") return GlobalValue::undefined();
    if (kind == "module") return GlobalValue::module(nb::cast<std::string>(t[1]));
    if (kind == "function") return GlobalValue::function(nb::cast<std::string>(t[1]));
    if (kind == "member") return GlobalValue::member(nb::cast<std::string>(t[1]));
    if (kind == "dtype") return GlobalValue::dtype_obj(dtype_from_object(t[1]));
    if (kind == "const") return GlobalValue::constant(const_from_python(t[1], t.size() > 2 && !t[2].is_none() ? int(dtype_from_object(t[2])) : -1));
    if (kind == "unsupported") return GlobalValue::unsupported(nb::cast<std::string>(t[1]));
    if (kind == "ndarray") {  // a C-contiguous NumPy array, frozen into constant memory
        nb::handle array = t[1];
        GlobalValue g;
        g.kind = GlobalValue::Kind::HostArray;
        g.dtype = dtype_from_object(array.attr("dtype"));
        for (nb::handle d : array.attr("shape")) g.shape.push_back(nb::cast<int64_t>(d));
        nb::object raw = array.attr("tobytes")();
        g.bytes.assign(PyBytes_AsString(raw.ptr()), size_t(PyBytes_Size(raw.ptr())));
        return g;
    }
    if (kind == "foreign") {  // cuda.declare_device: t[1] is the declaration _declare_foreign made
        GlobalValue g;
        g.kind = GlobalValue::Kind::Foreign;
        g.foreign = nb::cast<ForeignDeclaration&>(t[1]).function;
        return g;
    }
    if (kind == "device") {
        Dispatcher* callee = nb::inst_ptr<Dispatcher>(t[1]);
        GlobalValue g;
        g.kind = GlobalValue::Kind::DeviceFunction;
        g.device_function = callee->device_ref();
        return g;
    }
    throw Error(ErrorKind::Runtime, "internal: resolver answered an unknown kind '" + kind + "'");
}

GlobalResolver make_resolver(nb::object callable) {
    // The callable is shared so copies of the resolver never touch Python reference counts
    // without the lock; it is released with the last copy (under the lock, at dispatcher death).
    auto holder = std::shared_ptr<nb::object>(new nb::object(std::move(callable)), [](nb::object* p) {
        if (!Py_IsInitialized()) return;  // interpreter gone: nothing left to release into
        nb::gil_scoped_acquire gil;
        delete p;
    });
    return [holder](const std::string& name) -> GlobalValue {
        nb::gil_scoped_acquire gil;
        return global_from_python((*holder)(name));
    };
}

void bind_kernels(nb::module_& m) {
    nb::class_<Dispatcher>(m, "Dispatcher", nb::type_slots(g_dispatcher_slots))
        .def("__init__", [](Dispatcher* self, const std::string& name, const std::string& source, const std::string& filename,
                            int first_line, int indent, nb::object resolver, nb::dict options) {
            new (self) Dispatcher(definition_from(name, source, filename, first_line, indent, resolver, options));
        })
        .def_prop_ro("_name", [](Dispatcher& d) { return d.definition().name; })
        .def_prop_ro("_device", [](Dispatcher& d) { return d.definition().device; })
        .def("_compile", [](Dispatcher& d, nb::args args) {
            // Compiles (without launching) for the types of these sample arguments.
            ArgumentPack pack;
            std::vector<const Type*> types;
            for (size_t i = 0; i < args.size(); ++i) types.push_back(classify_argument(d, i, args[i], pack));
            if (!d.find(types)) compile_for(d, types);
        })
        .def("_compile_declared", &compile_declared)
        .def("_generate", &generate_for)
        .def_prop_ro("_eager", [](Dispatcher& d) { return d.eager(); })
        .def("_sources", [](Dispatcher& d) {
            return by_specialization(d, [](const CompiledKernel& k) { return k.source.user_code; });
        });

    nb::class_<ForeignDeclaration>(m, "_ForeignDeclaration")
        .def_prop_ro("name", [](const ForeignDeclaration& d) { return d.function->name; })
        .def_prop_ro("signature", [](const ForeignDeclaration& d) { return d.function->signature; });
    // The argument types of a signature, as the keys of inspect_source() & co. name them.
    m.def("_signature_arg_types", [](const std::string& text) {
        std::vector<std::string> out;
        for (const Type* t : parse_signature(text).args) out.push_back(t->str());
        return out;
    });
    m.def("_declare_foreign", [](const std::string& name, const std::string& signature, std::vector<std::string> link) {
        return ForeignDeclaration{declare_foreign_function(name, signature, std::move(link))};
    });

    m.def("_time_launches", &time_launches, nb::arg("configured"), nb::arg("args"), nb::arg("count"),
          nb::arg("backend_only") = false);

    m.def("nvrtc_options", [](nb::dict options, int major, int minor) {
        // The NVRTC options a kernel with these @cuda.jit options is compiled with.
        KernelDefinition d = definition_from("", "", "", 1, 0, nb::none(), options);
        return nvrtc_options(d.options, major, minor);
    });

    nb::class_<ConfiguredLaunch>(m, "ConfiguredLaunch", nb::type_slots(g_configured_slots))
        .def_prop_ro("griddim", [](ConfiguredLaunch& c) { return nb::make_tuple(c.config.grid.x, c.config.grid.y, c.config.grid.z); })
        .def_prop_ro("blockdim", [](ConfiguredLaunch& c) { return nb::make_tuple(c.config.block.x, c.config.block.y, c.config.block.z); });
}

}  // namespace simt::py
