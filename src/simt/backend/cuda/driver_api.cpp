// Loading libcuda with dlopen and turning failed calls into CudaError.
#include "backend/cuda/driver_api.h"
#include <dlfcn.h>
#include <mutex>
#include "backend/cuda/pathfinder.h"
#include "runtime/cuda_errors.h"
#include "runtime/host_callbacks.h"
#include "support/dl_symbol.h"
#include "support/error.h"

namespace simt {

namespace {

cu::DriverApi g_driver{};
bool g_loaded = false;
std::string g_why;

// The calls that block until queued work (which may include host callbacks) has finished run
// under a BlockingWait (runtime/host_callbacks.h); g_blocking keeps the driver's own entries.
cu::DriverApi g_blocking{};
cu::Result ctx_synchronize() {
    BlockingWait w;
    return g_blocking.cuCtxSynchronize();
}
cu::Result stream_synchronize(cu::Stream s) {
    BlockingWait w;
    return g_blocking.cuStreamSynchronize(s);
}
cu::Result event_synchronize(cu::Event e) {
    BlockingWait w;
    return g_blocking.cuEventSynchronize(e);
}
cu::Result mem_free(cu::DevicePtr p) {  // (cuMemFree waits for the device)
    BlockingWait w;
    return g_blocking.cuMemFree(p);
}
cu::Result mem_free_host(void* p) {
    BlockingWait w;
    return g_blocking.cuMemFreeHost(p);
}
cu::Result mem_host_unregister(void* p) {
    BlockingWait w;
    return g_blocking.cuMemHostUnregister(p);
}
cu::Result memcpy_htod(cu::DevicePtr dst, const void* src, size_t bytes) {
    BlockingWait w;
    return g_blocking.cuMemcpyHtoD(dst, src, bytes);
}
cu::Result memcpy_dtoh(void* dst, cu::DevicePtr src, size_t bytes) {
    BlockingWait w;
    return g_blocking.cuMemcpyDtoH(dst, src, bytes);
}

void wrap_blocking_calls(cu::DriverApi& d) {
    g_blocking = d;
    d.cuCtxSynchronize = ctx_synchronize;
    d.cuStreamSynchronize = stream_synchronize;
    d.cuEventSynchronize = event_synchronize;
    d.cuMemFree = mem_free;
    d.cuMemFreeHost = mem_free_host;
    d.cuMemHostUnregister = mem_host_unregister;
    d.cuMemcpyHtoD = memcpy_htod;
    d.cuMemcpyDtoH = memcpy_dtoh;
}

// Binds `slot` to the first of `names` the library exports.
template <class F>
bool bind(void* lib, F& slot, std::initializer_list<const char*> names, std::string& missing) {
    for (const char* n : names) {
        if (void* sym = ::dlsym(lib, n)) {
            slot = reinterpret_cast<F>(sym);
            return true;
        }
    }
    missing += (missing.empty() ? "" : ", ") + std::string(*names.begin());
    return false;
}

bool load(std::string& why) {
    const SearchResult& where = libcuda_location();
    if (!where.found()) {
        why = where.not_found_message("the CUDA driver (libcuda.so.1)", "Install the NVIDIA driver to use the cuda backend.");
        return false;
    }
    void* lib = open_library(where.path, "the CUDA driver", why);
    if (!lib) return false;
    cu::DriverApi& d = g_driver;
    std::string missing;
    // The symbol names are those the driver's header maps each call to (legacy default stream).
    bind(lib, d.cuInit, {"cuInit"}, missing);
    bind(lib, d.cuDriverGetVersion, {"cuDriverGetVersion"}, missing);
    bind(lib, d.cuGetErrorName, {"cuGetErrorName"}, missing);
    bind(lib, d.cuGetErrorString, {"cuGetErrorString"}, missing);
    bind(lib, d.cuDeviceGetCount, {"cuDeviceGetCount"}, missing);
    bind(lib, d.cuDeviceGet, {"cuDeviceGet"}, missing);
    bind(lib, d.cuDeviceGetName, {"cuDeviceGetName"}, missing);
    bind(lib, d.cuDeviceGetAttribute, {"cuDeviceGetAttribute"}, missing);
    bind(lib, d.cuDeviceTotalMem, {"cuDeviceTotalMem_v2"}, missing);
    bind(lib, d.cuMemGetInfo, {"cuMemGetInfo_v2"}, missing);
    bind(lib, d.cuDevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"}, missing);
    bind(lib, d.cuCtxSetCurrent, {"cuCtxSetCurrent"}, missing);
    bind(lib, d.cuCtxGetCurrent, {"cuCtxGetCurrent"}, missing);
    bind(lib, d.cuCtxSynchronize, {"cuCtxSynchronize"}, missing);
    bind(lib, d.cuModuleLoadData, {"cuModuleLoadData"}, missing);
    bind(lib, d.cuModuleLoadDataEx, {"cuModuleLoadDataEx"}, missing);
    bind(lib, d.cuModuleUnload, {"cuModuleUnload"}, missing);
    bind(lib, d.cuModuleGetFunction, {"cuModuleGetFunction"}, missing);
    bind(lib, d.cuModuleGetGlobal, {"cuModuleGetGlobal_v2"}, missing);
    bind(lib, d.cuLaunchKernel, {"cuLaunchKernel"}, missing);
    bind(lib, d.cuStreamCreate, {"cuStreamCreate"}, missing);
    bind(lib, d.cuStreamDestroy, {"cuStreamDestroy_v2"}, missing);
    bind(lib, d.cuStreamSynchronize, {"cuStreamSynchronize"}, missing);
    bind(lib, d.cuStreamQuery, {"cuStreamQuery"}, missing);
    bind(lib, d.cuStreamGetFlags, {"cuStreamGetFlags"}, missing);
    bind(lib, d.cuStreamWaitEvent, {"cuStreamWaitEvent"}, missing);
    bind(lib, d.cuEventCreate, {"cuEventCreate"}, missing);
    bind(lib, d.cuEventDestroy, {"cuEventDestroy_v2"}, missing);
    bind(lib, d.cuEventRecord, {"cuEventRecord"}, missing);
    bind(lib, d.cuEventSynchronize, {"cuEventSynchronize"}, missing);
    bind(lib, d.cuEventQuery, {"cuEventQuery"}, missing);
    bind(lib, d.cuEventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"}, missing);
    bind(lib, d.cuDeviceGetDefaultMemPool, {"cuDeviceGetDefaultMemPool"}, missing);
    bind(lib, d.cuMemPoolSetAttribute, {"cuMemPoolSetAttribute"}, missing);
    bind(lib, d.cuMemPoolTrimTo, {"cuMemPoolTrimTo"}, missing);
    bind(lib, d.cuMemAllocAsync, {"cuMemAllocAsync"}, missing);
    bind(lib, d.cuMemFreeAsync, {"cuMemFreeAsync"}, missing);
    bind(lib, d.cuMemHostAlloc, {"cuMemHostAlloc"}, missing);
    bind(lib, d.cuMemFreeHost, {"cuMemFreeHost"}, missing);
    bind(lib, d.cuMemHostRegister, {"cuMemHostRegister_v2"}, missing);
    bind(lib, d.cuMemHostUnregister, {"cuMemHostUnregister"}, missing);
    bind(lib, d.cuMemHostGetDevicePointer, {"cuMemHostGetDevicePointer_v2"}, missing);
    bind(lib, d.cuMemAllocManaged, {"cuMemAllocManaged"}, missing);
    bind(lib, d.cuMemPoolGetAttribute, {"cuMemPoolGetAttribute"}, missing);
    bind(lib, d.cuMemAlloc, {"cuMemAlloc_v2"}, missing);
    bind(lib, d.cuMemFree, {"cuMemFree_v2"}, missing);
    bind(lib, d.cuMemcpyHtoD, {"cuMemcpyHtoD_v2"}, missing);
    bind(lib, d.cuMemcpyDtoH, {"cuMemcpyDtoH_v2"}, missing);
    bind(lib, d.cuMemcpyHtoDAsync, {"cuMemcpyHtoDAsync_v2"}, missing);
    bind(lib, d.cuMemcpyDtoHAsync, {"cuMemcpyDtoHAsync_v2"}, missing);
    bind(lib, d.cuMemcpyDtoDAsync, {"cuMemcpyDtoDAsync_v2"}, missing);
    bind(lib, d.cuMemsetD8Async, {"cuMemsetD8Async"}, missing);
    bind(lib, d.cuMemsetD16Async, {"cuMemsetD16Async"}, missing);
    bind(lib, d.cuMemsetD32Async, {"cuMemsetD32Async"}, missing);
    bind(lib, d.cuPointerGetAttribute, {"cuPointerGetAttribute"}, missing);
    std::string optional;  // (parameter sizes are a check raw kernel launches do where they can)
    bind(lib, d.cuFuncGetParamInfo, {"cuFuncGetParamInfo"}, optional);
    bind(lib, d.cuFuncGetAttribute, {"cuFuncGetAttribute"}, optional);
    bind(lib, d.cuFuncSetAttribute, {"cuFuncSetAttribute"}, optional);
    bind(lib, d.cuLaunchCooperativeKernel, {"cuLaunchCooperativeKernel"}, optional);
    bind(lib, d.cuOccupancyMaxActiveBlocksPerMultiprocessor, {"cuOccupancyMaxActiveBlocksPerMultiprocessor"}, optional);
    bind(lib, d.cuProfilerStart, {"cuProfilerStart"}, optional);
    bind(lib, d.cuProfilerStop, {"cuProfilerStop"}, optional);
    bind(lib, d.cuLaunchHostFunc, {"cuLaunchHostFunc"}, optional);
    if (!missing.empty()) {
        why = "the CUDA driver " + where.path + " is too old for simt (it lacks " + missing +
              "; CUDA 11.2 or newer is needed)";
        return false;
    }
    cu::Result r = d.cuInit(0);
    if (r != cu::kSuccess) {
        why = "the CUDA driver " + where.path + " failed to initialize: " + driver_error_text(r);
        return false;
    }
    wrap_blocking_calls(d);
    return true;
}

}  // namespace

const cu::DriverApi* load_driver(std::string* why) {
    static std::once_flag once;
    std::call_once(once, [] { g_loaded = load(g_why); });
    if (!g_loaded && why) *why = g_why;
    return g_loaded ? &g_driver : nullptr;
}

const cu::DriverApi& driver() { return g_driver; }

namespace {
// The name from cuGetErrorName, and the documented description where simt has one (it is also
// what the cpu backend prints, and what the seed's error listing shows), else cuGetErrorString.
std::pair<std::string, std::string> name_and_description(cu::Result code) {
    const char* name = nullptr;
    const char* text = nullptr;
    if (g_driver.cuGetErrorName && g_driver.cuGetErrorName(code, &name) != cu::kSuccess) name = nullptr;
    if (g_driver.cuGetErrorString && g_driver.cuGetErrorString(code, &text) != cu::kSuccess) text = nullptr;
    if (!name) name = documented_cuda_error_name(code);
    const char* documented = documented_cuda_error_description(code);
    return {name ? name : "CUDA_ERROR_UNKNOWN",
            documented ? documented : text ? text : "unrecognized error code " + std::to_string(code)};
}
}  // namespace

std::string driver_error_text(cu::Result code) {
    auto [name, description] = name_and_description(code);
    return name + ": " + description;
}

void raise_driver_error(cu::Result code) {
    auto [name, description] = name_and_description(code);
    throw CudaError(code, name, description);
}

}  // namespace simt
