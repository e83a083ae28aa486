// The interface every execution backend implements (cpu: host threads; cuda: an NVIDIA GPU
// through the driver API). Arrays, kernels and the Python API talk only to this.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>
#include "codegen/emitter.h"
#include "types/type.h"

namespace simt {

// An opaque stream; null means the backend's default (legacy) stream.
struct StreamImpl;
using StreamHandle = StreamImpl*;
struct EventImpl;
using EventHandle = EventImpl*;

struct Dim3 {
    int64_t x = 1, y = 1, z = 1;
    int64_t count() const { return x * y * z; }
};

struct LaunchConfig {
    Dim3 grid;
    Dim3 block;
    int64_t dynamic_shared_bytes = 0;
    StreamHandle stream = nullptr;
};

// Kernel arguments in the kernel's parameter layout: `data` holds the bytes of each
// parameter at `offsets[i]`; `keep_alive` holds buffers that must outlive the launch.
struct ArgumentPack {
    std::vector<unsigned char> data;
    std::vector<size_t> offsets;
    std::vector<std::shared_ptr<void>> keep_alive;
    void add(const void* bytes, size_t size, size_t align);
    void clear() {  // keeps the capacity (a backend may have moved the vectors out: empty again)
        data.clear();
        offsets.clear();
        keep_alive.clear();
    }
};

// The first out-of-range access of a launch compiled with boundscheck (layout shared with
// the preludes' simt_error_record).
struct BoundsErrorRecord {
    int32_t flag = 0, site = 0, ndim = 0, pad = 0;
    int64_t index[8] = {};
    int64_t shape[8] = {};
};

// A compiled kernel loaded by a backend, ready to launch.
class LoadedKernel {
public:
    virtual ~LoadedKernel() = default;
    virtual std::string assembly() const { return {}; }  // PTX on the cuda backend
    // Set for kernels compiled with boundscheck: turns a failure record into the IndexError
    // text. The backend raises it at the next synchronization after the failing launch.
    std::function<std::string(const BoundsErrorRecord&)> describe_bounds_error;
    // Bytes of static shared memory the kernel declares (counted against the launch limit).
    int64_t static_shared_bytes = 0;
    // A kernel with grid barriers (cuda.cg): launched cooperatively, every block resident at
    // once; a grid of more than Backend::max_cooperative_blocks() blocks is CUDA's
    // CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE.
    bool grid_sync = false;
    // The byte size of each parameter where the backend can tell (raw CUDA C++ kernels: the
    // driver's parameter info, or the cpu entry's table); empty when unknown.
    virtual std::vector<int64_t> parameter_sizes() { return {}; }
};

// A kernel's attributes as cuFuncGetAttribute numbers them (CUfunction_attribute).
enum class KernelAttribute : int {
    MaxThreadsPerBlock = 0,
    SharedSizeBytes = 1,
    ConstSizeBytes = 2,
    LocalSizeBytes = 3,
    NumRegs = 4,
    PtxVersion = 5,
    BinaryVersion = 6,
    CacheModeCa = 7,
    MaxDynamicSharedSizeBytes = 8,
    PreferredSharedMemoryCarveout = 9,
};
// Its name as CuPy and cuda.core spell it ("num_regs"), for messages.
const char* kernel_attribute_name(KernelAttribute a);

// Description of a device for Python (`Device.name`, `.compute_capability`, attributes).
struct DeviceProperties {
    std::string name;
    int compute_major = 0, compute_minor = 0;
    int multiprocessors = 0;
    int64_t total_memory = 0;
    int max_threads_per_block = 1024;
    int64_t max_block[3] = {1024, 1024, 64};
    int64_t max_grid[3] = {2147483647, 65535, 65535};
    int64_t max_shared_per_block = 48 * 1024;
    int64_t max_shared_per_block_optin = 227 * 1024;  // with the kernel's max_dynamic_shared_size_bytes raised (sm_90)
    int warp_size = 32;
};

// Element distributions the random module fills arrays with (Philox4x32-10, same on all backends).
enum class RandomDistribution { Uniform, Normal, Integers };

struct RandomRequest {
    RandomDistribution distribution = RandomDistribution::Uniform;
    DType dtype = DType::Float64;
    uint64_t seed = 0;
    uint64_t offset = 0;  // Philox counter of the first element
    double a = 0, b = 1;  // uniform [a, b) / normal (mean a, stddev b)
    // integers in [low, low + range): low's 64-bit pattern (int64 or uint64), range mod 2**64 (0: all 2**64)
    uint64_t int_low = 0, int_range = 0;
};

class Backend {
public:
    virtual ~Backend() = default;
    virtual const char* name() const = 0;
    virtual Target target() const = 0;

    // Devices
    virtual int device_count() = 0;
    virtual int current_device() = 0;
    virtual void set_current_device(int device) = 0;
    virtual DeviceProperties properties(int device) = 0;

    // Memory: device pointers. allocate() raises OutOfMemory naming the size.
    virtual void* allocate(size_t bytes, StreamHandle stream) = 0;
    virtual void release(void* ptr, size_t bytes, StreamHandle stream) noexcept = 0;
    virtual void copy_host_to_device(void* dst, const void* src, size_t bytes, StreamHandle stream) = 0;  // returns when src may be reused
    virtual void copy_device_to_host(void* dst, const void* src, size_t bytes, StreamHandle stream) = 0;  // synchronous
    virtual void copy_device_to_device(void* dst, const void* src, size_t bytes, StreamHandle stream) = 0; // stream-ordered
    // Writes `count` copies of an element of `elem_size` bytes (1, 2, 4, 8 or 16).
    virtual void fill(void* dst, const void* elem, size_t elem_size, size_t count, StreamHandle stream) = 0;
    virtual void fill_random(void* dst, size_t count, const RandomRequest& request, StreamHandle stream) = 0;
    // Keeps `owners` (the buffers a copy or fill just queued on `stream` uses) alive until the
    // stream has done that work, where a free could otherwise overtake it (cuda: a non-blocking
    // stream, which the default stream's frees do not wait for). Launches do this themselves.
    virtual void hold_until_done(StreamHandle stream, std::vector<std::shared_ptr<void>> owners) {}

    // Kernels: compiles (through the disk cache) and loads generated source.
    virtual std::shared_ptr<LoadedKernel> load(const GeneratedSource& source, const CompileOptions& options) = 0;
    virtual void launch(LoadedKernel& kernel, const LaunchConfig& config, ArgumentPack& args) = 0;
    // The most blocks of `kernel` with `threads` threads each (and `dynamic_shared_bytes` of
    // dynamic shared memory) resident at once on the current device: a cooperative launch's limit.
    virtual int64_t max_cooperative_blocks(LoadedKernel& kernel, int64_t threads, int64_t dynamic_shared_bytes) = 0;
    // The kernel's attribute on the current device (cuda: cuFuncGetAttribute). The cpu backend
    // gives what its modelled device defines and raises NotImplemented for what it has no value
    // of (registers, PTX and binary versions; sizes it cannot see in raw CUDA C++).
    virtual int kernel_attribute(LoadedKernel& kernel, KernelAttribute which) = 0;
    // Sets a settable attribute (max dynamic shared memory, the preferred shared memory carveout)
    // for later launches on every device (cuda: cuFuncSetAttribute).
    virtual void set_kernel_attribute(LoadedKernel& kernel, KernelAttribute which, int value) = 0;
    // Device address and byte size of the module-scope __device__ / __constant__ variable `name`
    // of a raw CUDA C++ kernel's module, on the current device; raises Value when there is none.
    virtual std::pair<void*, size_t> kernel_global(LoadedKernel& kernel, const std::string& name) = 0;

    // Synchronization
    virtual void synchronize() = 0;  // waits for all work on the current device
    virtual StreamHandle create_stream(bool non_blocking) = 0;
    virtual void destroy_stream(StreamHandle stream) noexcept = 0;
    virtual void synchronize_stream(StreamHandle stream) = 0;
    virtual bool stream_idle(StreamHandle stream) = 0;
    virtual EventHandle create_event(bool timing) = 0;
    virtual void destroy_event(EventHandle event) noexcept = 0;
    virtual void record_event(EventHandle event, StreamHandle stream) = 0;
    virtual void synchronize_event(EventHandle event) = 0;
    virtual bool event_done(EventHandle event) = 0;
    virtual float elapsed_ms(EventHandle start, EventHandle end) = 0;
    virtual void stream_wait_event(StreamHandle stream, EventHandle event) = 0;
    // Queues fn(data) on `stream` (cuLaunchHostFunc): it runs once the work queued before it
    // has finished, on a backend thread, and work queued after it waits for it to return. fn
    // must not call the backend, and it is called exactly once (runtime/host_callbacks.h).
    virtual void launch_host_func(StreamHandle stream, void (*fn)(void*), void* data) = 0;

    // Hands memory the allocator keeps for reuse back to the device, after waiting for pending
    // frees (cuda: trims the stream-ordered pools; nothing to do where there is no cache).
    virtual void release_cached_memory() {}
    // Whether the allocator keeps freed memory for reuse (the default) or hands it back to the
    // device at each synchronization (CuPy's set_allocator(None)); nothing where nothing is kept.
    virtual void set_keep_freed_memory(bool keep) {}
    // Bytes the device's allocator holds, in use or kept for reuse (cuda: the stream-ordered
    // pool's reservation; 0 where the backend keeps nothing beyond what arrays use).
    virtual size_t pool_reserved_bytes(int device) { return 0; }
    // Free and total bytes of the device's memory (cuda: cuMemGetInfo; cpu: the host's).
    virtual std::pair<size_t, size_t> memory_info(int device);

    // Page-locked host memory (numba's pinned_array, CuPy's alloc_pinned_memory) and page-locking
    // existing host memory (numba's `with cuda.pinned(a)`). Copies from or into such memory go
    // straight to the DMA engine instead of through staging buffers. The cpu backend has no DMA:
    // ordinary memory, and registering does nothing.
    virtual void* allocate_host(size_t bytes);
    virtual void release_host(void* ptr) noexcept;
    virtual void register_host(void* ptr, size_t bytes) {}
    virtual void unregister_host(void* ptr) {}
    // Host memory that kernels read and write in place (numba's mapped_array, mapped() and
    // managed_array): page-locked memory mapped into the device's address space (freed with
    // release_host; registered memory is unregistered with unregister_host), and managed memory
    // that the driver migrates between host and device on demand. mapped_device_pointer gives the
    // address kernels use for mapped host memory. On the cpu backend all of them are host memory.
    virtual void* allocate_mapped_host(size_t bytes) { return allocate_host(bytes); }
    // False (and nothing done) when the range is page-locked already (a pinned or mapped array).
    virtual bool register_mapped_host(void* ptr, size_t bytes) { return false; }
    virtual uintptr_t mapped_device_pointer(void* host) { return reinterpret_cast<uintptr_t>(host); }
    virtual void* allocate_managed(size_t bytes) { return allocate_host(bytes); }
    // Starts or stops an attached profiler's capture (cuProfilerStart/Stop); nothing where there
    // is no such profiler.
    virtual void profiler(bool start) {}
    virtual void release_managed(void* ptr) noexcept { release_host(ptr); }
    // Interop with other CUDA libraries (CuPy, PyTorch, numba, cuBLAS), whose streams are native
    // handles (CUstream; 1 = legacy default, 2 = per-thread default, as in
    // __cuda_array_interface__ v3 and DLPack). The cpu backend has none: 0 and no-ops.
    virtual uintptr_t native_stream(StreamHandle stream) { return 0; }
    // Makes work submitted later to native stream `waiter` wait for the work submitted so far to
    // native stream `producer` (an event recorded on one, waited on by the other).
    virtual void native_stream_wait(uintptr_t waiter, uintptr_t producer) {}
};


// The active backend (chosen once per process: SIMT_BACKEND, else cuda if usable, else cpu).
Backend& backend();
// Selects SIMT_BACKEND if set, else cuda when a usable GPU exists, else cpu.
void select_default_backend();
// Selects the backend by name ("cpu" or "cuda"); raises if it is unavailable.
void select_backend(const std::string& name);
bool backend_selected();

}  // namespace simt
