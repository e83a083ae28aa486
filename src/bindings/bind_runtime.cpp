// Backend selection, devices, synchronization, streams and events.
#include "bindings.h"
#include "runtime/disk_cache.h"
#include "support/error.h"

namespace simt::py {

Stream::~Stream() {
    if (owned && handle) backend().destroy_stream(handle);
}

StreamHandle stream_from_object(nb::handle obj) {
    if (obj.is_none()) return nullptr;
    if (nb::isinstance<Stream>(obj)) return nb::inst_ptr<Stream>(obj)->handle;
    if (PyLong_Check(obj.ptr())) {
        long long v = PyLong_AsLongLong(obj.ptr());
        if (v == 0) return nullptr;
        throw Error(ErrorKind::Type, "a stream must be a simt.cuda.Stream, 0 or None (got the integer " + std::to_string(v) + ")");
    }
    if (nb::hasattr(obj, "_simt_stream")) return stream_from_object(obj.attr("_simt_stream"));
    throw Error(ErrorKind::Type, std::string("a stream must be a simt.cuda.Stream, 0 or None, not ") +
                                     nb::type_name(obj.type()).c_str());
}

namespace {
struct Event {
    EventHandle handle = nullptr;
    ~Event() { if (handle) backend().destroy_event(handle); }
};

nb::dict properties_dict(const DeviceProperties& p) {
    nb::dict d;
    d["name"] = p.name;
    d["compute_capability"] = nb::make_tuple(p.compute_major, p.compute_minor);
    d["multiprocessor_count"] = p.multiprocessors;
    d["total_memory"] = p.total_memory;
    d["max_threads_per_block"] = p.max_threads_per_block;
    d["max_block_dim"] = nb::make_tuple(p.max_block[0], p.max_block[1], p.max_block[2]);
    d["max_grid_dim"] = nb::make_tuple(p.max_grid[0], p.max_grid[1], p.max_grid[2]);
    d["max_shared_memory_per_block"] = p.max_shared_per_block;
    d["warp_size"] = p.warp_size;
    return d;
}
}  // namespace

void bind_runtime(nb::module_& m) {
    m.def("select_backend", [](const std::string& name) { select_backend(name); });
    m.def("select_default_backend", [] { select_default_backend(); });
    m.def("backend_name", [] { return std::string(backend().name()); });
    m.def("device_count", [] { return backend().device_count(); });
    m.def("_profiler", [](bool start) { backend().profiler(start); });  // numba's profile_start/profile_stop
    m.def("current_device", [] { return backend().current_device(); });
    m.def("set_current_device", [](int d) { backend().set_current_device(d); });
    m.def("device_properties", [](int d) { return properties_dict(backend().properties(d)); });
    m.def("compile_counters", [] {
        const CompileCounters& c = compile_counters();
        nb::dict d;
        d["compiled"] = c.compiled;
        d["disk_hits"] = c.disk_hits;
        d["nvvm_compiled"] = c.nvvm_compiled;
        d["last_nvvm_ms"] = c.last_nvvm_ms;
        d["memory_hits"] = c.memory_hits;
        d["last_front_end_ms"] = c.last_front_end_ms;
        d["last_load_ms"] = c.last_load_ms;
        d["last_compiler_ms"] = c.last_compiler_ms;
        d["last_driver_jit_ms"] = c.last_driver_jit_ms;
        return d;
    });
    m.def("cache_dir", [] { return DiskCache::instance().root(); });
    m.def("synchronize", [] {
        nb::gil_scoped_release release;
        backend().synchronize();
    });

    nb::class_<Stream>(m, "Stream")
        .def("__init__", [](Stream* s, bool non_blocking, bool null, uintptr_t external) {
            new (s) Stream();
            s->device = backend().current_device();
            if (null) return;  // the default stream
            if (external) {  // another library's stream (its __cuda_stream__ handle): used, never destroyed
                s->handle = reinterpret_cast<StreamHandle>(external);
                return;
            }
            s->handle = backend().create_stream(non_blocking);
            s->owned = true;
        }, nb::arg("non_blocking") = false, nb::arg("null") = false, nb::arg("external") = 0)
        .def("synchronize", [](Stream& s) {
            nb::gil_scoped_release release;
            backend().synchronize_stream(s.handle);
        })
        .def("query", [](Stream& s) { return backend().stream_idle(s.handle); })
        .def("wait_event", [](Stream& s, nb::handle e) {
            backend().stream_wait_event(s.handle, nb::inst_ptr<Event>(e)->handle);
        })
        .def_prop_ro("ptr", [](Stream& s) { return reinterpret_cast<uintptr_t>(s.handle); })
        .def_prop_ro("is_default", [](Stream& s) { return s.handle == nullptr; });

    nb::class_<Event>(m, "Event")
        .def("__init__", [](Event* e, bool timing) {
            new (e) Event();
            e->handle = backend().create_event(timing);
        }, nb::arg("timing") = true)
        .def("record", [](Event& e, nb::handle stream) { backend().record_event(e.handle, stream_from_object(stream)); },
             nb::arg("stream").none() = nb::none())
        .def("synchronize", [](Event& e) {
            nb::gil_scoped_release release;
            backend().synchronize_event(e.handle);
        })
        .def("query", [](Event& e) { return backend().event_done(e.handle); })
        // The native event as an int (a CUevent on the cuda backend), as CuPy's Event.ptr.
        .def_prop_ro("ptr", [](Event& e) { return reinterpret_cast<uintptr_t>(e.handle); })
        .def("elapsed_time", [](Event& start, Event& end) {
            nb::gil_scoped_release release;
            return backend().elapsed_ms(start.handle, end.handle);
        });
}

}  // namespace simt::py
