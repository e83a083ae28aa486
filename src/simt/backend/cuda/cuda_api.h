// Our own declarations of the few CUDA driver and NVRTC entry points simt calls. Neither
// library is linked: both are found by the pathfinder and loaded with dlopen, so building and
// importing simt needs no CUDA installation.
#pragma once
#include <cstddef>
#include <cstdint>

namespace simt::cu {

// ---- driver types (opaque handles; ABI-compatible with the driver's) -------------------------
using Result = int;  // CUresult
using Device = int;  // CUdevice
using DevicePtr = unsigned long long;  // CUdeviceptr (64-bit)
struct ContextSt;
struct ModuleSt;
struct FunctionSt;
struct StreamSt;
struct EventSt;
struct MemPoolSt;
using Context = ContextSt*;
using Module = ModuleSt*;
using Function = FunctionSt*;
using Stream = StreamSt*;
using Event = EventSt*;
using MemPool = MemPoolSt*;

// ---- driver constants simt uses --------------------------------------------------------------
enum : Result {
    kSuccess = 0,
    kErrorInvalidValue = 1,
    kErrorOutOfMemory = 2,
    kErrorNotInitialized = 3,
    kErrorDeinitialized = 4,
    kErrorNoDevice = 100,
    kErrorInvalidDevice = 101,
    kErrorInvalidPtx = 218,
    kErrorJitCompilerNotFound = 221,
    kErrorUnsupportedPtxVersion = 222,
    kErrorJitCompilationDisabled = 223,
    kErrorNotFound = 500,
    kErrorNotReady = 600,
    kErrorNotSupported = 801,
};

enum DeviceAttribute : int {
    kAttrMaxThreadsPerBlock = 1,
    kAttrMaxBlockDimX = 2,
    kAttrMaxBlockDimY = 3,
    kAttrMaxBlockDimZ = 4,
    kAttrMaxGridDimX = 5,
    kAttrMaxGridDimY = 6,
    kAttrMaxGridDimZ = 7,
    kAttrMaxSharedMemoryPerBlock = 8,
    kAttrTotalConstantMemory = 9,
    kAttrWarpSize = 10,
    kAttrMaxRegistersPerBlock = 12,
    kAttrClockRate = 13,
    kAttrMultiprocessorCount = 16,
    kAttrPciBusId = 33,
    kAttrMemoryClockRate = 36,
    kAttrGlobalMemoryBusWidth = 37,
    kAttrL2CacheSize = 38,
    kAttrComputeCapabilityMajor = 75,
    kAttrComputeCapabilityMinor = 76,
    kAttrMaxSharedMemoryPerBlockOptin = 97,
    kAttrMemoryPoolsSupported = 115,
};

enum : unsigned { kStreamDefault = 0x0, kStreamNonBlocking = 0x1 };
enum : unsigned { kEventDefault = 0x0, kEventDisableTiming = 0x2 };
// cuMemHostAlloc / cuMemHostRegister flags (DEVICEMAP: mapped into the device's address space);
// cuMemAllocManaged's: accessible from any stream.
enum : unsigned { kMemHostAllocPortable = 0x1, kMemHostAllocDeviceMap = 0x2, kMemAttachGlobal = 0x1 };
enum MemPoolAttribute : int { kMemPoolAttrReleaseThreshold = 4, kMemPoolAttrReservedMemCurrent = 5 };
enum PointerAttribute : int { kPointerAttrDeviceOrdinal = 9 };
// CUjit_option values for loading PTX.
enum JitOption : int {
    kJitMaxRegisters = 0,
    kJitErrorLogBuffer = 5,
    kJitErrorLogBufferSizeBytes = 6,
    kJitGenerateDebugInfo = 11,
    kJitGenerateLineInfo = 13,
};

// ---- driver entry points (the versioned symbol each is loaded from is in driver_api.cpp) -----
struct DriverApi {
    Result (*cuInit)(unsigned flags);
    Result (*cuDriverGetVersion)(int* version);
    Result (*cuGetErrorName)(Result error, const char** name);
    Result (*cuGetErrorString)(Result error, const char** text);
    Result (*cuDeviceGetCount)(int* count);
    Result (*cuDeviceGet)(Device* device, int ordinal);
    Result (*cuDeviceGetName)(char* name, int length, Device device);
    Result (*cuDeviceGetAttribute)(int* value, int attribute, Device device);
    Result (*cuDeviceTotalMem)(size_t* bytes, Device device);
    Result (*cuMemGetInfo)(size_t* free, size_t* total);
    Result (*cuDevicePrimaryCtxRetain)(Context* context, Device device);
    Result (*cuCtxSetCurrent)(Context context);
    Result (*cuCtxGetCurrent)(Context* context);
    Result (*cuCtxSynchronize)();
    Result (*cuModuleLoadData)(Module* module, const void* image);
    Result (*cuModuleLoadDataEx)(Module* module, const void* image, unsigned num_options, int* options, void** values);
    Result (*cuModuleUnload)(Module module);
    Result (*cuModuleGetFunction)(Function* function, Module module, const char* name);
    // (CUDA 12.4+; null on older drivers) offset and size of a kernel's parameter `index`
    Result (*cuFuncGetParamInfo)(Function function, size_t index, size_t* offset, size_t* size) = nullptr;
    // A kernel's attributes (CUfunction_attribute: runtime/backend.h's KernelAttribute numbers them).
    Result (*cuFuncGetAttribute)(int* value, int attribute, Function function) = nullptr;
    Result (*cuFuncSetAttribute)(Function function, int attribute, int value) = nullptr;
    // Starting and stopping a profiler's capture (numba's profile_start/profile_stop); optional.
    Result (*cuProfilerStart)() = nullptr;
    Result (*cuProfilerStop)() = nullptr;
    // A host function queued in stream order (CuPy's launch_host_func, numba's add_callback); optional.
    Result (*cuLaunchHostFunc)(Stream stream, void (*fn)(void* data), void* data) = nullptr;
    Result (*cuModuleGetGlobal)(DevicePtr* ptr, size_t* bytes, Module module, const char* name);
    Result (*cuLaunchKernel)(Function f, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,
                             unsigned block_y, unsigned block_z, unsigned shared_bytes, Stream stream,
                             void** params, void** extra);
    // Kernels with grid barriers (cuda.cg): every block resident at once; optional (null: such
    // launches raise CUDA_ERROR_NOT_SUPPORTED).
    Result (*cuLaunchCooperativeKernel)(Function f, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,
                                        unsigned block_y, unsigned block_z, unsigned shared_bytes, Stream stream,
                                        void** params) = nullptr;
    Result (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int* blocks, Function f, int block_size,
                                                          size_t dynamic_shared_bytes) = nullptr;
    Result (*cuStreamCreate)(Stream* stream, unsigned flags);
    Result (*cuStreamDestroy)(Stream stream);
    Result (*cuStreamSynchronize)(Stream stream);
    Result (*cuStreamQuery)(Stream stream);
    Result (*cuStreamGetFlags)(Stream stream, unsigned* flags);
    Result (*cuStreamWaitEvent)(Stream stream, Event event, unsigned flags);
    Result (*cuEventCreate)(Event* event, unsigned flags);
    Result (*cuEventDestroy)(Event event);
    Result (*cuEventRecord)(Event event, Stream stream);
    Result (*cuEventSynchronize)(Event event);
    Result (*cuEventQuery)(Event event);
    Result (*cuEventElapsedTime)(float* ms, Event start, Event end);
    Result (*cuDeviceGetDefaultMemPool)(MemPool* pool, Device device);
    Result (*cuMemPoolSetAttribute)(MemPool pool, int attribute, void* value);
    Result (*cuMemPoolTrimTo)(MemPool pool, size_t keep_bytes);
    Result (*cuMemAllocAsync)(DevicePtr* ptr, size_t bytes, Stream stream);
    Result (*cuMemFreeAsync)(DevicePtr ptr, Stream stream);
    Result (*cuMemHostAlloc)(void** ptr, size_t bytes, unsigned flags);
    Result (*cuMemFreeHost)(void* ptr);
    Result (*cuMemHostRegister)(void* ptr, size_t bytes, unsigned flags);
    Result (*cuMemHostUnregister)(void* ptr);
    Result (*cuMemHostGetDevicePointer)(DevicePtr* device, void* host, unsigned flags);
    Result (*cuMemAllocManaged)(DevicePtr* ptr, size_t bytes, unsigned flags);
    Result (*cuMemPoolGetAttribute)(MemPool pool, int attribute, void* value);
    // Synchronous allocation and copies: only simt.bindings.driver calls these.
    Result (*cuMemAlloc)(DevicePtr* ptr, size_t bytes);
    Result (*cuMemFree)(DevicePtr ptr);
    Result (*cuMemcpyHtoD)(DevicePtr dst, const void* src, size_t bytes);
    Result (*cuMemcpyDtoH)(void* dst, DevicePtr src, size_t bytes);
    Result (*cuMemcpyHtoDAsync)(DevicePtr dst, const void* src, size_t bytes, Stream stream);
    Result (*cuMemcpyDtoHAsync)(void* dst, DevicePtr src, size_t bytes, Stream stream);
    Result (*cuMemcpyDtoDAsync)(DevicePtr dst, DevicePtr src, size_t bytes, Stream stream);
    Result (*cuMemsetD8Async)(DevicePtr dst, unsigned char value, size_t count, Stream stream);
    Result (*cuMemsetD16Async)(DevicePtr dst, unsigned short value, size_t count, Stream stream);
    Result (*cuMemsetD32Async)(DevicePtr dst, unsigned value, size_t count, Stream stream);
    Result (*cuPointerGetAttribute)(void* data, int attribute, DevicePtr ptr);
};

// ---- NVRTC -----------------------------------------------------------------------------------
using NvrtcResult = int;
struct NvrtcProgramSt;
using NvrtcProgram = NvrtcProgramSt*;
enum : NvrtcResult { kNvrtcSuccess = 0, kNvrtcPchCreateHeapExhausted = 14 };

struct NvrtcApi {
    const char* (*nvrtcGetErrorString)(NvrtcResult result);
    NvrtcResult (*nvrtcVersion)(int* major, int* minor);
    NvrtcResult (*nvrtcGetNumSupportedArchs)(int* count);
    NvrtcResult (*nvrtcGetSupportedArchs)(int* archs);
    NvrtcResult (*nvrtcCreateProgram)(NvrtcProgram* program, const char* source, const char* name, int num_headers,
                                      const char* const* headers, const char* const* include_names);
    NvrtcResult (*nvrtcDestroyProgram)(NvrtcProgram* program);
    NvrtcResult (*nvrtcCompileProgram)(NvrtcProgram program, int num_options, const char* const* options);
    NvrtcResult (*nvrtcGetProgramLogSize)(NvrtcProgram program, size_t* size);
    NvrtcResult (*nvrtcGetProgramLog)(NvrtcProgram program, char* log);
    NvrtcResult (*nvrtcGetPTXSize)(NvrtcProgram program, size_t* size);
    NvrtcResult (*nvrtcGetPTX)(NvrtcProgram program, char* ptx);
    NvrtcResult (*nvrtcGetCUBINSize)(NvrtcProgram program, size_t* size);  // null before CUDA 11.1
    NvrtcResult (*nvrtcGetCUBIN)(NvrtcProgram program, char* cubin);
    // Template kernels by their C++ name (RawModule's name_expressions).
    NvrtcResult (*nvrtcAddNameExpression)(NvrtcProgram program, const char* name_expression);
    NvrtcResult (*nvrtcGetLoweredName)(NvrtcProgram program, const char* name_expression, const char** lowered_name);
    // Precompiled headers (null before CUDA 12.8).
    NvrtcResult (*nvrtcGetPCHCreateStatus)(NvrtcProgram program);
    NvrtcResult (*nvrtcGetPCHHeapSizeRequired)(NvrtcProgram program, size_t* size);
    NvrtcResult (*nvrtcSetPCHHeapSize)(size_t size);
};

}  // namespace simt::cu
