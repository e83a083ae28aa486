// The CUDA-specific Python surface: the pathfinder report, compile_ptx and inspect_asm (NVRTC,
// no GPU needed), the current stream of `with stream:`, and the NVRTC check of every kernel a
// test session generated.
#include <Python.h>
#include <nanobind/stl/pair.h>
#include <thread>
#include "backend/cuda/cubin_backfill.h"
#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/driver_api.h"
#include "backend/cuda/nvrtc_api.h"
#include "backend/cuda/nvrtc_check.h"
#include "backend/cuda/nvrtc_compile.h"
#include "backend/cuda/nvvm_compile.h"
#include "backend/cuda/pathfinder.h"
#include "backend/cuda/ptx_compiler.h"
#include "bindings.h"
#include "codegen/cuda_source_log.h"
#include "codegen/nvvm_ir.h"
#include "runtime/current_stream.h"
#include "runtime/dispatcher.h"
#include "support/error.h"

namespace simt::py {

namespace {

// `with stream:` stack of this thread (strong references; balanced by the with-statement).
struct CurrentStream {
    PyObject* object;
    StreamHandle handle;
    int device;  // a simt Stream's own device; for other libraries' streams, the device current at `with`
};
thread_local std::vector<CurrentStream> t_streams;

nb::dict search_dict(const SearchResult& r) {
    nb::dict d;
    d["path"] = r.found() ? nb::object(nb::str(r.path.c_str())) : nb::none();
    d["found_by"] = r.found_by;
    nb::list tried;
    for (const std::string& t : r.tried) tried.append(t);
    d["tried"] = tried;
    return d;
}

nb::dict driver_dict() {
    nb::dict d;
    std::string why;
    const cu::DriverApi* api = load_driver(&why);
    d["loaded"] = api != nullptr;
    d["error"] = why;
    if (!api) return d;
    int version = 0, count = 0;
    if (api->cuDriverGetVersion(&version) == cu::kSuccess) d["version"] = nb::make_tuple(version / 1000, version % 1000 / 10);
    nb::list devices;
    if (api->cuDeviceGetCount(&count) == cu::kSuccess) {
        for (int i = 0; i < count; ++i) {
            cu::Device dev = 0;
            char name[256] = {};
            int major = 0, minor = 0;
            if (api->cuDeviceGet(&dev, i) != cu::kSuccess) continue;
            api->cuDeviceGetName(name, int(sizeof name) - 1, dev);
            api->cuDeviceGetAttribute(&major, cu::kAttrComputeCapabilityMajor, dev);
            api->cuDeviceGetAttribute(&minor, cu::kAttrComputeCapabilityMinor, dev);
            devices.append(nb::make_tuple(std::string(name), nb::make_tuple(major, minor)));
        }
    } else {
        d["error"] = "cuDeviceGetCount failed";
    }
    d["devices"] = devices;
    return d;
}

nb::dict nvrtc_dict() {
    nb::dict d;
    std::string why;
    bool ok = nvrtc_available(&why);
    d["loaded"] = ok;
    d["error"] = why;
    if (ok) {
        int v = nvrtc_version();
        d["version"] = nb::make_tuple(v / 1000, v % 1000 / 10);
        nb::list archs;
        for (int a : nvrtc_supported_archs()) archs.append(a);
        d["archs"] = archs;
    }
    return d;
}

}  // namespace

void bind_cuda(nb::module_& m) {
    m.def("_set_site_packages", [](std::vector<std::string> dirs) { set_python_site_packages(std::move(dirs)); });

    m.def("pathfinder_report", [] {
        SearchInputs in = system_search_inputs();
        const SearchResult& nvrtc = nvrtc_location();
        nb::dict r;
        r["libcuda"] = search_dict(libcuda_location());
        r["nvrtc"] = search_dict(nvrtc);
        r["include"] = search_dict(find_cuda_include(in, nvrtc.path));
        r["libdevice"] = search_dict(find_libdevice(in));
        r["libnvvm"] = search_dict(find_libnvvm(in));
        r["driver"] = driver_dict();
        r["nvrtc_library"] = nvrtc_dict();
        r["cuda_unavailable_reason"] = cuda_unavailable_reason();
        r["site_packages"] = in.site_packages;
        return r;
    });

    // `with stream:` support: launches without an explicit stream go to the innermost one.
    m.def("_push_stream", [](nb::handle stream) {
        StreamHandle h = stream_from_object(stream);
        int device = nb::isinstance<Stream>(stream) ? nb::cast<Stream&>(stream).device : backend().current_device();
        Py_INCREF(stream.ptr());
        t_streams.push_back({stream.ptr(), h, device});
        set_current_stream(h, device);
    });
    m.def("_pop_stream", [] {
        if (t_streams.empty()) throw Error(ErrorKind::Runtime, "no stream is current (unbalanced with-statement)");
        PyObject* o = t_streams.back().object;
        t_streams.pop_back();
        if (t_streams.empty()) set_current_stream(nullptr, 0);
        else set_current_stream(t_streams.back().handle, t_streams.back().device);
        Py_DECREF(o);
    });
    m.def("_current_stream", []() -> nb::object {
        if (t_streams.empty()) return nb::none();
        return nb::borrow(t_streams.back().object);
    });

    m.def("_compile_ptx", [](Dispatcher& d, const std::string& signature, bool device, int major, int minor, bool opt) {
        PtxResult r = compile_ptx(d.definition(), signature, device, major * 10 + minor, opt);
        return std::make_pair(r.ptx, r.return_type);
    });
    // PTX of each compiled specialization: the loaded kernel's on the cuda backend, else the
    // CUDA emission of the same typed code compiled by NVRTC for sm_90.
    m.def("_specialization_ptx", [](Dispatcher& d) {
        return by_specialization(d, [](const CompiledKernel& k) {
            nb::gil_scoped_release release;
            return backend().target() == Target::Cuda && k.loaded ? k.loaded->assembly() : cuda_ptx_of_unit(*k.unit, 90);
        });
    });

    // NVVM IR of each compiled specialization (numba's inspect_llvm): what the cuda backend
    // gives libNVVM, or a comment saying why the kernel compiles from CUDA C++ instead.
    m.def("_specialization_llvm", [](Dispatcher& d) {
        return by_specialization(d, [](const CompiledKernel& k) {
            std::string why;
            std::optional<NvvmModule> m = emit_nvvm_ir(*k.unit, &why);
            return m ? m->ir
                     : "; kernel '" + k.unit->kernel->name + "' compiles from CUDA C++ through NVRTC (see " +
                           "inspect_source()): the NVVM IR emission does not cover " + why + "\n";
        });
    });

    // The most blocks of `threads` threads a cooperative launch of each compiled specialization
    // may have on the current device (numba's max_cooperative_grid_blocks).
    m.def("_specialization_cooperative_blocks", [](Dispatcher& d, int64_t threads, int64_t dynamic_shared_bytes) {
        return by_specialization(d, [&](const CompiledKernel& k) -> int64_t {
            if (!k.loaded) return 0;
            nb::gil_scoped_release release;
            return backend().max_cooperative_blocks(*k.loaded, threads, dynamic_shared_bytes);
        });
    });

    // A kernel attribute (KernelAttribute number) of each compiled specialization on the current
    // device (numba's get_regs_per_thread & co.), and setting one on all of them.
    m.def("_specialization_attribute", [](Dispatcher& d, int which) {
        return by_specialization(d, [&](const CompiledKernel& k) -> int64_t {
            if (!k.loaded) return -1;
            nb::gil_scoped_release release;
            return backend().kernel_attribute(*k.loaded, KernelAttribute(which));
        });
    });
    m.def("_set_specialization_attribute", [](Dispatcher& d, int which, int value) {
        for (const CompiledKernel* k : d.specializations()) {
            if (!k->loaded) continue;
            nb::gil_scoped_release release;
            backend().set_kernel_attribute(*k->loaded, KernelAttribute(which), value);
        }
    });

    m.def("release_cached_memory", [] {
        nb::gil_scoped_release release;
        backend().release_cached_memory();
    });
    m.def("_record_cuda_sources", [](bool on) { set_cuda_source_recording(on); });
    m.def("_nvrtc_check", [](int arch, int threads, bool full, const std::string& claim_dir) {
        std::vector<RecordedCudaSource> sources = take_recorded_cuda_sources();
        NvrtcCheckReport report;
        {
            nb::gil_scoped_release release;
            if (threads <= 0) threads = int(std::thread::hardware_concurrency());
            report = check_with_nvrtc(sources, arch, threads, full, claim_dir);
        }
        nb::dict d;
        d["checked"] = report.checked;
        d["claimed_elsewhere"] = report.claimed_elsewhere;
        d["failures"] = report.failures;
        d["nvvm_checked"] = report.nvvm_checked;
        d["nvvm_skipped"] = report.nvvm_skipped;
        d["nvvm_not_covered"] = report.not_covered;
        return d;
    }, nb::arg("arch"), nb::arg("threads"), nb::arg("full") = false, nb::arg("claim_dir") = "");
    m.def("_finish_cubin_backfill", [] {
        nb::gil_scoped_release release;
        finish_cubin_backfill();
    });
    m.def("_wait_for_cubin_backfill", [] {
        nb::gil_scoped_release release;
        wait_for_cubin_backfill();
    });
    m.def("_nvvm_available", [] {
        std::string why;
        bool ok = nvvm_available(&why);
        return std::make_pair(ok, why);
    });
    m.def("_nvrtc_available", [] {
        std::string why;
        bool ok = nvrtc_available(&why);
        return std::make_pair(ok, why);
    });
}

}  // namespace simt::py
