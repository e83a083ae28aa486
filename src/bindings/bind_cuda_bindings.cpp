// simt.bindings: thin calls into the CUDA driver and NVRTC through the same dlopen'd entry
// points the cuda backend uses, in cuda.bindings' style: each returns a tuple whose first item
// is the result code, followed by the outputs (handles and pointers as ints).
#include <memory>
#include "backend/cuda/driver_api.h"
#include "backend/cuda/nvrtc_api.h"
#include "bindings.h"
#include "support/error.h"

namespace simt::py {

namespace {

const cu::DriverApi& loaded_driver() {
    std::string why;
    if (!load_driver(&why)) throw Error(ErrorKind::Runtime, "simt.bindings.driver: the CUDA driver is unavailable: " + why);
    return driver();
}

template <class T> T* handle(uintptr_t v) { return reinterpret_cast<T*>(v); }
uintptr_t address(const void* p) { return reinterpret_cast<uintptr_t>(p); }

// A host address from an int or an object with the buffer protocol (NumPy arrays, bytearray,
// bytes: bytes are written in place where an output buffer is expected, as cuda.bindings does).
class HostBuffer {
public:
    HostBuffer(nb::handle obj, bool writable) {
        if (PyLong_Check(obj.ptr())) {
            ptr_ = reinterpret_cast<void*>(nb::cast<uintptr_t>(obj));
            return;
        }
        if (writable && PyBytes_Check(obj.ptr())) {
            // The interpreter shares its empty and one-byte bytes objects (b" " * 1 is the cached
            // b" "): writing there would change that value for the whole process.
            if (PyBytes_GET_SIZE(obj.ptr()) <= 1)
                throw Error(ErrorKind::Value, "simt.bindings: an output buffer of one byte or less cannot be a bytes "
                                              "object (Python shares those); pass a bytearray");
            ptr_ = PyBytes_AS_STRING(obj.ptr());
            size_ = size_t(PyBytes_GET_SIZE(obj.ptr()));
            return;
        }
        if (PyObject_GetBuffer(obj.ptr(), &view_, writable ? PyBUF_WRITABLE : PyBUF_SIMPLE) != 0) throw nb::python_error();
        held_ = true;
        ptr_ = view_.buf;
        size_ = size_t(view_.len);
    }
    ~HostBuffer() {
        if (held_) PyBuffer_Release(&view_);
    }
    HostBuffer(const HostBuffer&) = delete;
    HostBuffer& operator=(const HostBuffer&) = delete;
    void* ptr() const { return ptr_; }
    // Raises when a buffer (not a bare address) holds fewer than `bytes`.
    void need(size_t bytes, const char* what) const {
        if (size_ != SIZE_MAX && size_ < bytes)
            raise(ErrorKind::Value, "%s: the buffer holds %zu bytes, %zu are needed", what, size_, bytes);
    }

private:
    Py_buffer view_{};
    bool held_ = false;
    void* ptr_ = nullptr;
    size_t size_ = SIZE_MAX;
};

std::string text(nb::handle obj) {
    if (PyBytes_Check(obj.ptr())) return std::string(PyBytes_AS_STRING(obj.ptr()), size_t(PyBytes_GET_SIZE(obj.ptr())));
    return nb::cast<std::string>(obj);
}
std::vector<std::string> strings(nb::handle seq) {
    std::vector<std::string> out;
    for (nb::handle item : seq) out.push_back(text(item));
    return out;
}
std::vector<const char*> c_strings(const std::vector<std::string>& v) {
    std::vector<const char*> out;
    for (const std::string& s : v) out.push_back(s.c_str());
    return out;
}

void bind_driver(nb::module_& m) {
    m.def("cuInit", [](unsigned flags) { return nb::make_tuple(int(loaded_driver().cuInit(flags))); });
    m.def("cuDriverGetVersion", []() { int v = 0; int r = loaded_driver().cuDriverGetVersion(&v); return nb::make_tuple(r, v); });
    m.def("cuGetErrorName", [](int code) {
        const char* s = nullptr;
        int r = loaded_driver().cuGetErrorName(code, &s);
        return nb::make_tuple(r, nb::bytes(s ? s : ""));
    });
    m.def("cuGetErrorString", [](int code) {
        const char* s = nullptr;
        int r = loaded_driver().cuGetErrorString(code, &s);
        return nb::make_tuple(r, nb::bytes(s ? s : ""));
    });
    m.def("cuDeviceGetCount", []() { int n = 0; int r = loaded_driver().cuDeviceGetCount(&n); return nb::make_tuple(r, n); });
    m.def("cuDeviceGet", [](int ordinal) { cu::Device dev = 0; int r = loaded_driver().cuDeviceGet(&dev, ordinal); return nb::make_tuple(r, dev); });
    m.def("cuDeviceGetName", [](int length, int dev) {
        std::string name(size_t(length > 0 ? length : 0), '\0');
        int r = length > 0 ? loaded_driver().cuDeviceGetName(name.data(), length, dev) : int(cu::kErrorInvalidValue);
        return nb::make_tuple(r, nb::bytes(name.c_str()));
    });
    m.def("cuDeviceGetAttribute", [](int attribute, int dev) {
        int v = 0;
        int r = loaded_driver().cuDeviceGetAttribute(&v, attribute, dev);
        return nb::make_tuple(r, v);
    });
    m.def("cuDeviceTotalMem", [](int dev) { size_t b = 0; int r = loaded_driver().cuDeviceTotalMem(&b, dev); return nb::make_tuple(r, b); });
    m.def("cuDevicePrimaryCtxRetain", [](int dev) {
        cu::Context c = nullptr;
        int r = loaded_driver().cuDevicePrimaryCtxRetain(&c, dev);
        return nb::make_tuple(r, address(c));
    });
    m.def("cuCtxSetCurrent", [](uintptr_t c) { return nb::make_tuple(int(loaded_driver().cuCtxSetCurrent(handle<cu::ContextSt>(c)))); });
    m.def("cuCtxGetCurrent", []() { cu::Context c = nullptr; int r = loaded_driver().cuCtxGetCurrent(&c); return nb::make_tuple(r, address(c)); });
    m.def("cuCtxSynchronize", []() { return nb::make_tuple(int(loaded_driver().cuCtxSynchronize())); });

    m.def("cuMemAlloc", [](size_t bytes) { cu::DevicePtr p = 0; int r = loaded_driver().cuMemAlloc(&p, bytes); return nb::make_tuple(r, p); });
    m.def("cuMemFree", [](cu::DevicePtr p) { return nb::make_tuple(int(loaded_driver().cuMemFree(p))); });
    m.def("cuMemcpyHtoD", [](cu::DevicePtr dst, nb::handle src, size_t bytes) {
        HostBuffer h(src, false);
        h.need(bytes, "cuMemcpyHtoD");
        return nb::make_tuple(int(loaded_driver().cuMemcpyHtoD(dst, h.ptr(), bytes)));
    });
    m.def("cuMemcpyDtoH", [](nb::handle dst, cu::DevicePtr src, size_t bytes) {
        HostBuffer h(dst, true);
        h.need(bytes, "cuMemcpyDtoH");
        return nb::make_tuple(int(loaded_driver().cuMemcpyDtoH(h.ptr(), src, bytes)));
    });

    m.def("cuModuleLoadData", [](nb::handle image) {
        HostBuffer h(image, false);
        cu::Module mod = nullptr;
        int r = loaded_driver().cuModuleLoadData(&mod, h.ptr());
        return nb::make_tuple(r, address(mod));
    });
    m.def("cuModuleUnload", [](uintptr_t mod) { return nb::make_tuple(int(loaded_driver().cuModuleUnload(handle<cu::ModuleSt>(mod)))); });
    m.def("cuModuleGetFunction", [](uintptr_t mod, nb::handle name) {
        cu::Function f = nullptr;
        int r = loaded_driver().cuModuleGetFunction(&f, handle<cu::ModuleSt>(mod), text(name).c_str());
        return nb::make_tuple(r, address(f));
    });
    m.def("cuModuleGetGlobal", [](uintptr_t mod, nb::handle name) {
        cu::DevicePtr p = 0;
        size_t bytes = 0;
        int r = loaded_driver().cuModuleGetGlobal(&p, &bytes, handle<cu::ModuleSt>(mod), text(name).c_str());
        return nb::make_tuple(r, p, bytes);
    });
    // kernelParams: the address of an array of pointers to each argument (e.g. a NumPy array of
    // addresses' .ctypes.data), or 0; extra likewise.
    m.def("cuLaunchKernel", [](uintptr_t f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                                unsigned shared, uintptr_t stream, nb::handle params, nb::handle extra) {
        void** p = params.is_none() ? nullptr : reinterpret_cast<void**>(HostBuffer(params, false).ptr());
        void** e = extra.is_none() ? nullptr : reinterpret_cast<void**>(HostBuffer(extra, false).ptr());
        return nb::make_tuple(int(loaded_driver().cuLaunchKernel(handle<cu::FunctionSt>(f), gx, gy, gz, bx, by, bz, shared,
                                                     handle<cu::StreamSt>(stream), p, e)));
    }, nb::arg("f"), nb::arg("gridDimX"), nb::arg("gridDimY"), nb::arg("gridDimZ"), nb::arg("blockDimX"),
       nb::arg("blockDimY"), nb::arg("blockDimZ"), nb::arg("sharedMemBytes"), nb::arg("hStream"),
       nb::arg("kernelParams").none(), nb::arg("extra").none());

    m.def("cuStreamCreate", [](unsigned flags) { cu::Stream s = nullptr; int r = loaded_driver().cuStreamCreate(&s, flags); return nb::make_tuple(r, address(s)); });
    m.def("cuStreamDestroy", [](uintptr_t s) { return nb::make_tuple(int(loaded_driver().cuStreamDestroy(handle<cu::StreamSt>(s)))); });
    m.def("cuStreamSynchronize", [](uintptr_t s) { return nb::make_tuple(int(loaded_driver().cuStreamSynchronize(handle<cu::StreamSt>(s)))); });
    m.def("cuStreamQuery", [](uintptr_t s) { return nb::make_tuple(int(loaded_driver().cuStreamQuery(handle<cu::StreamSt>(s)))); });
    m.def("cuEventCreate", [](unsigned flags) { cu::Event e = nullptr; int r = loaded_driver().cuEventCreate(&e, flags); return nb::make_tuple(r, address(e)); });
    m.def("cuEventDestroy", [](uintptr_t e) { return nb::make_tuple(int(loaded_driver().cuEventDestroy(handle<cu::EventSt>(e)))); });
    m.def("cuEventRecord", [](uintptr_t e, uintptr_t s) {
        return nb::make_tuple(int(loaded_driver().cuEventRecord(handle<cu::EventSt>(e), handle<cu::StreamSt>(s))));
    });
    m.def("cuEventSynchronize", [](uintptr_t e) { return nb::make_tuple(int(loaded_driver().cuEventSynchronize(handle<cu::EventSt>(e)))); });
    m.def("cuEventQuery", [](uintptr_t e) { return nb::make_tuple(int(loaded_driver().cuEventQuery(handle<cu::EventSt>(e)))); });
    m.def("cuEventElapsedTime", [](uintptr_t start, uintptr_t end) {
        float ms = 0;
        int r = loaded_driver().cuEventElapsedTime(&ms, handle<cu::EventSt>(start), handle<cu::EventSt>(end));
        return nb::make_tuple(r, ms);
    });
}

// NVRTC programs are ints (the nvrtcProgram address), as the driver's handles are.
void bind_nvrtc(nb::module_& m) {
    auto api = [] { return &nvrtc(); };
    auto program = [](uintptr_t p) { return reinterpret_cast<cu::NvrtcProgram>(p); };
    m.def("nvrtcGetErrorString", [api](int code) { return nb::bytes(api()->nvrtcGetErrorString(code)); });
    m.def("nvrtcVersion", [api]() { int a = 0, b = 0; int r = api()->nvrtcVersion(&a, &b); return nb::make_tuple(r, a, b); });
    m.def("nvrtcGetSupportedArchs", [api]() {
        int n = 0;
        int r = api()->nvrtcGetNumSupportedArchs(&n);
        std::vector<int> archs(size_t(r == 0 ? n : 0));
        if (r == 0) r = api()->nvrtcGetSupportedArchs(archs.data());
        return nb::make_tuple(r, archs);
    });
    m.def("nvrtcCreateProgram", [api](nb::handle src, nb::handle name, int num_headers, nb::handle headers,
                                       nb::handle include_names) {
        std::vector<std::string> h = strings(headers), n = strings(include_names);
        if (int(h.size()) != num_headers || int(n.size()) != num_headers)
            raise(ErrorKind::Value, "nvrtcCreateProgram: numHeaders is %d but %zu headers and %zu include names were given",
                  num_headers, h.size(), n.size());
        std::vector<const char*> hc = c_strings(h), nc = c_strings(n);
        cu::NvrtcProgram p = nullptr;
        std::string source = text(src), file = name.is_none() ? std::string() : text(name);
        int r = api()->nvrtcCreateProgram(&p, source.c_str(), name.is_none() ? nullptr : file.c_str(), num_headers,
                                          hc.data(), nc.data());
        return nb::make_tuple(r, address(p));
    }, nb::arg("src"), nb::arg("name").none(), nb::arg("numHeaders"), nb::arg("headers"), nb::arg("includeNames"));
    m.def("nvrtcDestroyProgram", [api](uintptr_t p) {
        cu::NvrtcProgram prog = reinterpret_cast<cu::NvrtcProgram>(p);
        return nb::make_tuple(api()->nvrtcDestroyProgram(&prog));
    });
    m.def("nvrtcCompileProgram", [api, program](uintptr_t p, int num_options, nb::handle options) {
        std::vector<std::string> o = strings(options);
        if (int(o.size()) != num_options)
            raise(ErrorKind::Value, "nvrtcCompileProgram: numOptions is %d but %zu options were given", num_options, o.size());
        std::vector<const char*> oc = c_strings(o);
        return nb::make_tuple(api()->nvrtcCompileProgram(program(p), num_options, oc.data()));
    });
    // The size queries and the copies into a caller's buffer, as in NVRTC's C API.
    auto sized = [&m, api, program](const char* size_name, const char* get_name, auto size_fn, auto get_fn) {
        m.def(size_name, [api, program, size_fn](uintptr_t p) {
            size_t n = 0;
            int r = (api()->*size_fn) ? (api()->*size_fn)(program(p), &n) : 11;  // NVRTC_ERROR_INTERNAL_ERROR
            return nb::make_tuple(r, n);
        });
        m.def(get_name, [api, program, size_fn, get_fn, get_name](uintptr_t p, nb::handle out) {
            size_t n = 0;
            if (!(api()->*size_fn) || !(api()->*get_fn)) return nb::make_tuple(11);
            int r = (api()->*size_fn)(program(p), &n);
            if (r != 0) return nb::make_tuple(r);
            HostBuffer h(out, true);
            h.need(n, get_name);
            return nb::make_tuple((api()->*get_fn)(program(p), static_cast<char*>(h.ptr())));
        });
    };
    sized("nvrtcGetProgramLogSize", "nvrtcGetProgramLog", &cu::NvrtcApi::nvrtcGetProgramLogSize, &cu::NvrtcApi::nvrtcGetProgramLog);
    sized("nvrtcGetPTXSize", "nvrtcGetPTX", &cu::NvrtcApi::nvrtcGetPTXSize, &cu::NvrtcApi::nvrtcGetPTX);
    sized("nvrtcGetCUBINSize", "nvrtcGetCUBIN", &cu::NvrtcApi::nvrtcGetCUBINSize, &cu::NvrtcApi::nvrtcGetCUBIN);
    m.def("nvrtcAddNameExpression", [api, program](uintptr_t p, nb::handle expr) {
        return nb::make_tuple(api()->nvrtcAddNameExpression(program(p), text(expr).c_str()));
    });
    m.def("nvrtcGetLoweredName", [api, program](uintptr_t p, nb::handle expr) {
        const char* lowered = nullptr;
        int r = api()->nvrtcGetLoweredName(program(p), text(expr).c_str(), &lowered);
        return nb::make_tuple(r, nb::bytes(lowered ? lowered : ""));
    });
}

}  // namespace

void bind_cuda_bindings(nb::module_& m) {
    nb::module_ drv = m.def_submodule("_bindings_driver", "simt.bindings.driver's calls");
    bind_driver(drv);
    nb::module_ rtc = m.def_submodule("_bindings_nvrtc", "simt.bindings.nvrtc's calls");
    bind_nvrtc(rtc);
}

}  // namespace simt::py
