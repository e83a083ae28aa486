// The cuda backend: NVIDIA GPUs through the driver API and NVRTC, both loaded at run time.
// Each device's primary context is made current on whichever thread calls; memory comes from
// the device's stream-ordered pool; kernels are NVRTC cubins loaded per device on first use;
// boundscheck records are read back at every synchronization point.
#include "backend/cuda/cuda_backend.h"
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <unordered_map>
#include "backend/cuda/builtin_kernels.h"
#include "backend/cuda/driver_api.h"
#include "backend/cuda/nvrtc_api.h"
#include "backend/cuda/cubin_backfill.h"
#include "backend/cuda/nvrtc_compile.h"
#include "backend/cuda/nvvm_compile.h"
#include "backend/cuda/pinned_ranges.h"
#include "backend/cuda/pinned_staging.h"
#include "backend/cuda/ptx_module.h"
#include "runtime/backend.h"
#include "runtime/bounds_report.h"
#include "runtime/disk_cache.h"
#include "support/error.h"
#include "support/fast_tls.h"
#include "support/sha256.h"
#include "support/stopwatch.h"

namespace simt {

namespace {

std::mutex g_reason_mutex;
std::string g_unavailable_reason;

SIMT_FAST_TLS int t_device = 0;  // this thread's current device, as cudaSetDevice keeps it

cu::Stream cu_stream(StreamHandle s) { return reinterpret_cast<cu::Stream>(s); }
cu::Event cu_event(EventHandle e) { return reinterpret_cast<cu::Event>(e); }
cu::DevicePtr device_ptr(const void* p) { return cu::DevicePtr(reinterpret_cast<uintptr_t>(p)); }

struct DeviceState {
    int ordinal = 0;
    cu::Device device = 0;
    DeviceProperties props;
    int arch = 0;  // compute capability as major * 10 + minor
    std::once_flag context_once;
    std::atomic<bool> opened{false};
    cu::Context context = nullptr;
    cu::MemPool pool = nullptr;
    cu::Stream aux = nullptr;  // private non-blocking stream for reading bounds records
    PinnedStaging staging;
    std::once_flag builtins_once;
    BuiltinKernels builtins;
    std::mutex events_mutex;
    std::vector<cu::Event> spare_events;  // timing-free events for internal bookkeeping
};

// A kernel compiled from generated source; loaded into each device's context on first use there.
class CudaKernel : public LoadedKernel {
public:
    explicit CudaKernel(size_t devices) : per_device(new PerDevice[devices]), num_devices(devices) {}
    struct PerDevice {
        std::atomic<cu::Function> function{nullptr};
        cu::Module module = nullptr;
        cu::DevicePtr errors = 0;  // the module's simt_errors record (boundscheck kernels)
    };
    std::string entry;
    std::string source;
    CompileOptions options;
    bool raw = false;                // the user's own CUDA C++ (simt.RawKernel)
    std::vector<std::string> extra;  // ... and its NVRTC options
    bool name_expression = false;    // entry is a C++ name such as "k<float>" (RawModule name_expressions)
    std::string symbol;              // ... then its lowered name, once compiled
    // Raw CUDA C++: the kernels of one module share one CUmodule per device (so its __device__
    // variables), keyed by this (source and options, not the entry); all of the module's name
    // expressions are compiled together.
    std::string module_key;
    std::vector<std::string> module_name_expressions;
    // Attributes the program set (cuFuncSetAttribute), applied on each device the kernel loads on.
    std::vector<std::pair<int, int>> set_attributes;
    std::optional<NvvmModule> nvvm;  // the kernel as NVVM IR (the fast path), where covered
    bool checked = false;
    int arch = 0;  // of the device it was first loaded for (inspect_asm)
    std::unique_ptr<PerDevice[]> per_device;
    size_t num_devices;
    std::mutex mutex;

    NvrtcRequest request(int for_arch) const {
        NvrtcRequest r;
        r.source = source;
        r.name = "kernel '" + entry + "'";
        r.options = options;
        r.arch = for_arch;
        r.extra = extra;
        r.minimal = !raw;
        if (!module_name_expressions.empty()) r.name_expressions = module_name_expressions;
        else if (name_expression) r.name_expressions = {entry};
        return r;
    }
    std::vector<int64_t> parameter_sizes() override;
    std::string assembly() const override {
        if (nvvm && nvvm_supports_arch(arch)) return nvvm_ptx(*nvvm, arch);  // what the GPU runs
        return compile_ptx_text(request(arch));
    }
};

// A boundscheck launch whose record is read once `done` has been reached.
struct PendingCheck {
    CudaKernel* kernel;
    int device;
    cu::Event done;
};
// Owners of launch arguments kept alive until a non-blocking stream passes `done`.
struct DeferredRelease {
    int device;
    cu::Event done;
    std::vector<std::shared_ptr<void>> owners;
};

bool fits_unsigned(const Dim3& d, unsigned out[3]) {
    const int64_t v[3] = {d.x, d.y, d.z};
    for (int i = 0; i < 3; ++i) {
        if (v[i] < 1 || v[i] > int64_t(0xffffffffu)) return false;
        out[i] = unsigned(v[i]);
    }
    return true;
}

// Whether environment variable `name` is set to 1.
bool env_flag_on(const char* name) {
    const char* v = std::getenv(name);
    return v && std::strcmp(v, "1") == 0;
}

class CudaBackend : public Backend {
public:
    CudaBackend(const cu::DriverApi& driver, int count) : d_(driver) {
        for (int i = 0; i < count; ++i) {
            auto s = std::make_unique<DeviceState>();
            s->ordinal = i;
            check(d_.cuDeviceGet(&s->device, i));
            read_properties(*s);
            devices_.push_back(std::move(s));
        }
    }

    const char* name() const override { return "cuda"; }
    Target target() const override { return Target::Cuda; }

    // ---- devices --------------------------------------------------------------------------
    int device_count() override { return int(devices_.size()); }
    int current_device() override { return t_device; }
    void set_current_device(int device) override {
        if (device < 0 || device >= device_count()) raise_driver_error(cu::kErrorInvalidDevice);
        t_device = device;
        bind();
    }
    DeviceProperties properties(int device) override {
        if (device < 0 || device >= device_count()) raise_driver_error(cu::kErrorInvalidDevice);
        return devices_[size_t(device)]->props;
    }

    // ---- memory ---------------------------------------------------------------------------
    void* allocate(size_t bytes, StreamHandle stream) override {
        DeviceState& s = bind();
        cu::DevicePtr p = 0;
        cu::Result r = cu::kErrorOutOfMemory;
        if (bytes <= size_t(s.props.total_memory)) {
            r = d_.cuMemAllocAsync(&p, bytes ? bytes : 1, cu_stream(stream));
            if (r == cu::kErrorOutOfMemory) {
                // Memory freed on other streams returns to the pool once that work is done.
                check(d_.cuCtxSynchronize());
                r = d_.cuMemAllocAsync(&p, bytes ? bytes : 1, cu_stream(stream));
            }
        }
        if (r == cu::kErrorOutOfMemory)
            throw Error(ErrorKind::OutOfMemory,
                        format("out of memory: cannot allocate %zu bytes (%.2f GiB) on device %d (%s, %.2f GiB): %s", bytes,
                               double(bytes) / double(1 << 30), s.ordinal, s.props.name.c_str(),
                               double(s.props.total_memory) / double(1 << 30), driver_error_text(r).c_str()));
        check(r);
        return reinterpret_cast<void*>(uintptr_t(p));
    }

    void release(void* ptr, size_t, StreamHandle stream) noexcept override {
        if (!ptr) return;
        try {
            int device = 0;
            if (devices_.size() > 1 &&
                d_.cuPointerGetAttribute(&device, cu::kPointerAttrDeviceOrdinal, device_ptr(ptr)) != cu::kSuccess)
                return;  // not ours, or the driver is shutting down
            bind(device);
            // Stream-ordered: work queued before this point may still use the memory.
            d_.cuMemFreeAsync(device_ptr(ptr), cu_stream(stream));
        } catch (...) {
            // Called from destructors, possibly during interpreter exit: nothing to report to.
        }
    }

    void copy_host_to_device(void* dst, const void* src, size_t bytes, StreamHandle stream) override {
        if (!bytes) return;
        DeviceState& s = bind();
        if (pinned_.contains(src, bytes)) {  // one DMA straight from the user's page-locked memory
            check(d_.cuMemcpyHtoDAsync(device_ptr(dst), src, bytes, cu_stream(stream)));
            check(d_.cuStreamSynchronize(cu_stream(stream)));  // (the caller may reuse src on return)
            return;
        }
        s.staging.host_to_device(device_ptr(dst), src, bytes, cu_stream(stream));
    }
    void copy_device_to_host(void* dst, const void* src, size_t bytes, StreamHandle stream) override {
        DeviceState& s = bind();
        if (bytes && pinned_.contains(dst, bytes)) {
            check(d_.cuMemcpyDtoHAsync(dst, device_ptr(src), bytes, cu_stream(stream)));
            check(d_.cuStreamSynchronize(cu_stream(stream)));
        } else if (bytes) {
            s.staging.device_to_host(dst, device_ptr(src), bytes, cu_stream(stream));
        } else {
            check(d_.cuStreamSynchronize(cu_stream(stream)));
        }
        after_synchronization(s);
    }

    // ---- page-locked host memory ---------------------------------------------------------
    void* allocate_host(size_t bytes) override { return host_alloc(bytes, cu::kMemHostAllocPortable); }
    void* allocate_mapped_host(size_t bytes) override {
        return host_alloc(bytes, cu::kMemHostAllocPortable | cu::kMemHostAllocDeviceMap);
    }
    void* host_alloc(size_t bytes, unsigned flags) {
        bind();
        void* p = nullptr;
        cu::Result r = d_.cuMemHostAlloc(&p, bytes ? bytes : 1, flags);
        if (r == cu::kErrorOutOfMemory)
            throw Error(ErrorKind::OutOfMemory, format("out of memory: cannot allocate %zu bytes of page-locked host memory: %s",
                                                       bytes, driver_error_text(r).c_str()));
        check(r);
        pinned_.add(p, bytes);
        return p;
    }
    uintptr_t mapped_device_pointer(void* host) override {
        bind();
        cu::DevicePtr d = 0;
        check(d_.cuMemHostGetDevicePointer(&d, host, 0));
        return uintptr_t(d);
    }
    bool register_mapped_host(void* ptr, size_t bytes) override {
        if (!bytes || pinned_.contains(ptr, bytes)) return false;  // (registering again would fail)
        bind();
        check(d_.cuMemHostRegister(ptr, bytes, cu::kMemHostAllocPortable | cu::kMemHostAllocDeviceMap));
        pinned_.add(ptr, bytes);
        return true;
    }
    void* allocate_managed(size_t bytes) override {
        bind();
        cu::DevicePtr d = 0;
        cu::Result r = d_.cuMemAllocManaged(&d, bytes ? bytes : 1, cu::kMemAttachGlobal);
        if (r == cu::kErrorOutOfMemory)
            throw Error(ErrorKind::OutOfMemory, format("out of memory: cannot allocate %zu bytes of managed memory: %s", bytes,
                                                       driver_error_text(r).c_str()));
        check(r);
        return reinterpret_cast<void*>(d);
    }
    void profiler(bool start) override {
        bind();
        auto call = start ? d_.cuProfilerStart : d_.cuProfilerStop;
        if (call) check(call());
    }
    void release_managed(void* ptr) noexcept override {
        if (!ptr) return;
        try {
            bind();  // (a thread that never used the device has no context current)
        } catch (...) {
        }
        d_.cuMemFree(reinterpret_cast<cu::DevicePtr>(ptr));  // (the driver may be gone at exit)
    }
    void release_host(void* ptr) noexcept override {
        if (!ptr) return;
        pinned_.remove(ptr);
        d_.cuMemFreeHost(ptr);  // (during interpreter exit the driver may be gone: nothing to report)
    }
    void register_host(void* ptr, size_t bytes) override {
        if (!bytes) return;
        bind();
        check(d_.cuMemHostRegister(ptr, bytes, cu::kMemHostAllocPortable));
        pinned_.add(ptr, bytes);
    }
    void unregister_host(void* ptr) override {
        if (!pinned_.remove(ptr)) return;  // (a zero-length array was never registered)
        check(d_.cuMemHostUnregister(ptr));
    }
    void copy_device_to_device(void* dst, const void* src, size_t bytes, StreamHandle stream) override {
        if (!bytes) return;
        bind();
        check(d_.cuMemcpyDtoDAsync(device_ptr(dst), device_ptr(src), bytes, cu_stream(stream)));
    }

    void fill(void* dst, const void* elem, size_t elem_size, size_t count, StreamHandle stream) override {
        if (!count) return;
        DeviceState& s = bind();
        cu::DevicePtr p = device_ptr(dst);
        cu::Stream st = cu_stream(stream);
        unsigned char bytes[16] = {};
        std::memcpy(bytes, elem, elem_size <= 16 ? elem_size : 16);
        uint32_t words[4];
        std::memcpy(words, bytes, sizeof words);
        auto repeats_word = [&](size_t n) {
            for (size_t k = 1; k < n; ++k)
                if (words[k] != words[0]) return false;
            return true;
        };
        switch (elem_size) {
            case 1: check(d_.cuMemsetD8Async(p, bytes[0], count, st)); return;
            case 2: {
                uint16_t v;
                std::memcpy(&v, bytes, 2);
                check(d_.cuMemsetD16Async(p, v, count, st));
                return;
            }
            case 4: check(d_.cuMemsetD32Async(p, words[0], count, st)); return;
            case 8:
                if (repeats_word(2)) { check(d_.cuMemsetD32Async(p, words[0], count * 2, st)); return; }
                {
                    uint64_t v, n = count;
                    std::memcpy(&v, bytes, 8);
                    void* args[] = {&p, &v, &n};
                    launch_builtin(s, builtins(s).fill_u64, n, stream, args);
                }
                return;
            case 16:
                if (repeats_word(4)) { check(d_.cuMemsetD32Async(p, words[0], count * 4, st)); return; }
                {
                    uint64_t lo, hi, n = count;
                    std::memcpy(&lo, bytes, 8);
                    std::memcpy(&hi, bytes + 8, 8);
                    void* args[] = {&p, &lo, &hi, &n};
                    launch_builtin(s, builtins(s).fill_u128, n, stream, args);
                }
                return;
            default:
                raise(ErrorKind::Value, "fill: elements of %zu bytes are not supported (1, 2, 4, 8 or 16)", elem_size);
        }
    }

    void fill_random(void* dst, size_t count, const RandomRequest& r, StreamHandle stream) override {
        if (!count) return;
        DeviceState& s = bind();
        const BuiltinKernels& b = builtins(s);
        cu::DevicePtr p = device_ptr(dst);
        uint64_t n = count, seed = r.seed, offset = r.offset;
        const bool single = r.dtype == DType::Float32;
        switch (r.distribution) {
            case RandomDistribution::Uniform:
                if (single) {  // the cpu backend's arithmetic, operand for operand
                    float lo = float(r.a), span = float(r.b) - float(r.a);
                    void* args[] = {&p, &n, &seed, &offset, &lo, &span};
                    launch_builtin(s, b.uniform_f32, (n + 3) / 4, stream, args);
                } else {
                    double lo = r.a, span = r.b - r.a;
                    void* args[] = {&p, &n, &seed, &offset, &lo, &span};
                    launch_builtin(s, b.uniform_f64, (n + 1) / 2, stream, args);
                }
                return;
            case RandomDistribution::Normal:
                if (single) {
                    float mean = float(r.a), stddev = float(r.b);
                    void* args[] = {&p, &n, &seed, &offset, &mean, &stddev};
                    launch_builtin(s, b.normal_f32, n, stream, args);
                } else {
                    double mean = r.a, stddev = r.b;
                    void* args[] = {&p, &n, &seed, &offset, &mean, &stddev};
                    launch_builtin(s, b.normal_f64, n, stream, args);
                }
                return;
            case RandomDistribution::Integers: {
                uint64_t lo = r.int_low, range = r.int_range;
                void* args[] = {&p, &n, &seed, &offset, &lo, &range};
                int size = dtype_size(r.dtype);
                cu::Function f = size == 1 ? b.integers[0] : size == 2 ? b.integers[1] : size == 4 ? b.integers[2] : b.integers[3];
                launch_builtin(s, f, n, stream, args);
                return;
            }
        }
    }

    // ---- kernels --------------------------------------------------------------------------
    std::shared_ptr<LoadedKernel> load(const GeneratedSource& source, const CompileOptions& options) override {
        NvrtcRequest probe;
        probe.options = options;
        probe.extra = source.compiler_options;
        probe.minimal = !source.raw_cuda && !source.toolkit_headers;
        Sha256 h;
        h.update("simt-cuda-loaded-v1\n" + source.entry_name);
        for (const std::string& o : nvrtc_options(probe)) h.update("\n" + o);
        h.update("\n");
        h.update(source.full_source);
        std::string key = h.hex_digest();

        std::lock_guard<std::mutex> lock(load_mutex_);
        if (auto it = loaded_.find(key); it != loaded_.end()) {
            ++compile_counters().memory_hits;
            return it->second;
        }
        auto kernel = std::make_shared<CudaKernel>(devices_.size());
        kernel->entry = source.entry_name;
        kernel->source = source.full_source;
        kernel->options = options;
        kernel->raw = source.raw_cuda || source.toolkit_headers;  // (NVRTC with the toolkit's headers)
        kernel->extra = source.compiler_options;
        kernel->name_expression = source.entry_is_name_expression;
        if (source.raw_cuda) {
            kernel->module_name_expressions = source.module_name_expressions;
            Sha256 m;
            m.update("simt-cuda-raw-module-v1\n");
            for (const std::string& o : nvrtc_options(probe)) m.update("\n" + o);
            for (const std::string& e : source.module_name_expressions) m.update("\nname expression " + e);
            m.update("\n");
            m.update(source.full_source);
            kernel->module_key = m.hex_digest();
        }
        kernel->nvvm = source.nvvm;
        kernel->checked = options.bounds == BoundsMode::Checked || options.debug;  // (debug: asserts)
        kernel->grid_sync = source.grid_sync;
        DeviceState& s = bind();
        kernel->arch = s.arch;
        function_for(*kernel, s);  // compile errors surface here, as on the cpu backend
        loaded_[key] = kernel;
        return kernel;
    }

    void launch(LoadedKernel& loaded, const LaunchConfig& c, ArgumentPack& args) override {
        CudaKernel& k = static_cast<CudaKernel&>(loaded);
        DeviceState& s = bind();
        cu::Function f = function_for(k, s);
        unsigned grid[3], block[3];
        if (!fits_unsigned(c.grid, grid) || !fits_unsigned(c.block, block) || c.dynamic_shared_bytes < 0 ||
            c.dynamic_shared_bytes > int64_t(0xffffffffu))
            raise_driver_error(cu::kErrorInvalidValue);  // what the driver says for these, before truncation
        // Pointers to each parameter's bytes; the driver copies them during the call.
        constexpr size_t kInline = 32;
        void* inline_params[kInline];
        std::vector<void*> many;
        const size_t n = args.offsets.size();
        void** params = inline_params;
        if (n > kInline) {
            many.resize(n);
            params = many.data();
        }
        for (size_t i = 0; i < n; ++i) params[i] = args.data.data() + args.offsets[i];
        if (n < kInline) params[n] = nullptr;  // (unread by the driver; tells tests/mock_cuda where the list ends)
        cu::Result r = cu::kErrorNotSupported;
        if (!k.grid_sync)
            r = d_.cuLaunchKernel(f, grid[0], grid[1], grid[2], block[0], block[1], block[2], unsigned(c.dynamic_shared_bytes),
                                  cu_stream(c.stream), n ? params : nullptr, nullptr);
        else if (d_.cuLaunchCooperativeKernel)  // (grid barriers: every block resident at once)
            r = d_.cuLaunchCooperativeKernel(f, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                             unsigned(c.dynamic_shared_bytes), cu_stream(c.stream), n ? params : nullptr);
        if (r != cu::kSuccess) raise_driver_error(r);
        if (k.checked) track_checked_launch(k, s, c.stream);
        // Frees are ordered on the legacy stream, which waits for blocking streams but not for
        // non-blocking ones: arguments of a launch there are held until the stream passes it.
        // (Moved out only then: on other streams the pack keeps its capacity for the next launch.)
        if (!args.keep_alive.empty() && c.stream && is_non_blocking(c.stream)) defer_release(s, c.stream, args.keep_alive);
    }

    // The driver's occupancy of `k` times the multiprocessors of the current device.
    int64_t max_cooperative_blocks(LoadedKernel& loaded, int64_t threads, int64_t dynamic_shared_bytes) override {
        DeviceState& s = bind();
        cu::Function f = function_for(static_cast<CudaKernel&>(loaded), s);
        if (!d_.cuOccupancyMaxActiveBlocksPerMultiprocessor) raise_driver_error(cu::kErrorNotSupported);
        if (threads <= 0 || threads > int64_t(s.props.max_threads_per_block) || dynamic_shared_bytes < 0)
            raise_driver_error(cu::kErrorInvalidValue);
        int per_sm = 0;
        check(d_.cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, int(threads), size_t(dynamic_shared_bytes)));
        return int64_t(per_sm) * s.props.multiprocessors;
    }

    int kernel_attribute(LoadedKernel& loaded, KernelAttribute which) override {
        cu::Function f = function_for(static_cast<CudaKernel&>(loaded), bind());
        if (!d_.cuFuncGetAttribute) raise_driver_error(cu::kErrorNotSupported);
        int value = 0;
        check(d_.cuFuncGetAttribute(&value, int(which), f));
        return value;
    }

    // Set on the current device now (the driver's error for a bad value surfaces here), and on
    // each other device where the kernel is or will be loaded.
    void set_kernel_attribute(LoadedKernel& loaded, KernelAttribute which, int value) override {
        CudaKernel& k = static_cast<CudaKernel&>(loaded);
        DeviceState& s = bind();
        check_attribute_call(d_.cuFuncSetAttribute, function_for(k, s), int(which), value);
        std::lock_guard<std::mutex> lock(k.mutex);
        try {
            for (auto& d : devices_) {
                cu::Function f = k.per_device[size_t(d->ordinal)].function.load(std::memory_order_acquire);
                if (!f || d->ordinal == s.ordinal) continue;
                bind(d->ordinal);
                check_attribute_call(d_.cuFuncSetAttribute, f, int(which), value);
            }
        } catch (...) {
            bind();  // (the caller's device current again; the refused value is not kept for later loads)
            throw;
        }
        k.set_attributes.emplace_back(int(which), value);
        bind();
    }

    std::pair<void*, size_t> kernel_global(LoadedKernel& loaded, const std::string& name) override {
        CudaKernel& k = static_cast<CudaKernel&>(loaded);
        DeviceState& s = bind();
        function_for(k, s);
        cu::DevicePtr ptr = 0;
        size_t bytes = 0;
        cu::Result r = d_.cuModuleGetGlobal(&ptr, &bytes, k.per_device[size_t(s.ordinal)].module, name.c_str());
        if (r == cu::kErrorNotFound || r == cu::kErrorInvalidValue)  // (the H200's driver: INVALID_VALUE for a kernel's name)
            raise(ErrorKind::Value, "'%s' is not a global variable of the module (no such symbol); get_global() takes the "
                  "name of a module-scope __device__ or __constant__ variable", name.c_str());
        check(r);
        return {reinterpret_cast<void*>(uintptr_t(ptr)), bytes};
    }

    // The same for the buffers of a copy or fill (see launch above).
    void hold_until_done(StreamHandle stream, std::vector<std::shared_ptr<void>> owners) override {
        if (owners.empty() || !stream || !is_non_blocking(stream)) return;
        defer_release(bind(), stream, owners);
    }

    // ---- synchronization ------------------------------------------------------------------
    void synchronize() override {
        DeviceState& s = bind();
        check(d_.cuCtxSynchronize());
        after_synchronization(s);
    }
    StreamHandle create_stream(bool non_blocking) override {
        bind();
        cu::Stream st = nullptr;
        check(d_.cuStreamCreate(&st, non_blocking ? cu::kStreamNonBlocking : cu::kStreamDefault));
        return reinterpret_cast<StreamHandle>(st);
    }
    void destroy_stream(StreamHandle stream) noexcept override {
        if (!stream) return;
        try {
            bind();
        } catch (...) {
        }
        d_.cuStreamDestroy(cu_stream(stream));  // pending work still completes
    }
    void synchronize_stream(StreamHandle stream) override {
        DeviceState& s = bind();
        check(d_.cuStreamSynchronize(cu_stream(stream)));
        after_synchronization(s);
    }
    bool stream_idle(StreamHandle stream) override {
        bind();
        return query(d_.cuStreamQuery(cu_stream(stream)));
    }
    EventHandle create_event(bool timing) override {
        bind();
        cu::Event e = nullptr;
        check(d_.cuEventCreate(&e, timing ? cu::kEventDefault : cu::kEventDisableTiming));
        return reinterpret_cast<EventHandle>(e);
    }
    void destroy_event(EventHandle event) noexcept override {
        if (!event) return;
        try {
            bind();
        } catch (...) {
        }
        d_.cuEventDestroy(cu_event(event));
    }
    void record_event(EventHandle event, StreamHandle stream) override {
        bind();
        check(d_.cuEventRecord(cu_event(event), cu_stream(stream)));
    }
    void synchronize_event(EventHandle event) override {
        DeviceState& s = bind();
        check(d_.cuEventSynchronize(cu_event(event)));
        after_synchronization(s);
    }
    bool event_done(EventHandle event) override {
        bind();
        return query(d_.cuEventQuery(cu_event(event)));
    }
    float elapsed_ms(EventHandle start, EventHandle end) override {
        // Waits for both events first, as the cpu backend does (the driver would report NOT_READY).
        DeviceState& s = bind();
        check(d_.cuEventSynchronize(cu_event(start)));
        check(d_.cuEventSynchronize(cu_event(end)));
        float ms = 0;
        check(d_.cuEventElapsedTime(&ms, cu_event(start), cu_event(end)));
        after_synchronization(s);
        return ms;
    }
    void stream_wait_event(StreamHandle stream, EventHandle event) override {
        bind();
        check(d_.cuStreamWaitEvent(cu_stream(stream), cu_event(event), 0));
    }

    void launch_host_func(StreamHandle stream, void (*fn)(void*), void* data) override {
        bind();
        if (!d_.cuLaunchHostFunc) raise_driver_error(cu::kErrorNotSupported);
        check(d_.cuLaunchHostFunc(cu_stream(stream), fn, data));
    }

    // Streams of other CUDA libraries are CUstream values (1 and 2: the legacy and per-thread
    // default streams, as __cuda_array_interface__ and DLPack spell them); ours already are.
    uintptr_t native_stream(StreamHandle stream) override { return reinterpret_cast<uintptr_t>(stream); }
    void native_stream_wait(uintptr_t waiter, uintptr_t producer) override {
        if (waiter == producer) return;
        bind();
        cu::Event e = nullptr;
        check(d_.cuEventCreate(&e, cu::kEventDisableTiming));
        cu::Result r = d_.cuEventRecord(e, reinterpret_cast<cu::Stream>(producer));
        if (r == cu::kSuccess) r = d_.cuStreamWaitEvent(reinterpret_cast<cu::Stream>(waiter), e, 0);
        d_.cuEventDestroy(e);  // destruction is deferred by the driver until the wait is satisfied
        check(r);
    }

    std::pair<size_t, size_t> memory_info(int device) override {
        if (device < 0 || device >= device_count()) raise_driver_error(cu::kErrorInvalidDevice);
        bind(device);
        size_t free = 0, total = 0;
        cu::Result r = d_.cuMemGetInfo(&free, &total);
        bind();
        check(r);
        return {free, total};
    }

    size_t pool_reserved_bytes(int device) override {
        if (device < 0 || device >= device_count()) raise_driver_error(cu::kErrorInvalidDevice);
        DeviceState& s = *devices_[size_t(device)];
        if (!s.opened.load()) return 0;  // nothing was ever allocated there
        uint64_t bytes = 0;
        check(d_.cuMemPoolGetAttribute(s.pool, cu::kMemPoolAttrReservedMemCurrent, &bytes));
        return size_t(bytes);
    }

    // The pools' release threshold: all (keep freed memory) or none (hand it back at each sync).
    void set_keep_freed_memory(bool keep) override {
        keep_freed_.store(keep);
        for (auto& d : devices_) {
            if (!d->opened.load()) continue;  // (open_context sets it there)
            bind(d->ordinal);
            set_release_threshold(*d);
        }
        bind();
    }
    void set_release_threshold(DeviceState& s) {
        uint64_t threshold = keep_freed_.load() ? ~uint64_t(0) : 0;
        check(d_.cuMemPoolSetAttribute(s.pool, cu::kMemPoolAttrReleaseThreshold, &threshold));
    }

    void release_cached_memory() override {
        for (auto& d : devices_) {
            if (!d->opened.load()) continue;  // nothing was ever allocated there
            bind(d->ordinal);
            check(d_.cuCtxSynchronize());
            check(d_.cuMemPoolTrimTo(d->pool, 0));
        }
        bind();
    }

private:
    void read_properties(DeviceState& s) {
        auto attr = [&](cu::DeviceAttribute a) {
            int v = 0;
            check(d_.cuDeviceGetAttribute(&v, a, s.device));
            return v;
        };
        char name[256] = {};
        check(d_.cuDeviceGetName(name, int(sizeof name) - 1, s.device));
        size_t total = 0;
        check(d_.cuDeviceTotalMem(&total, s.device));
        DeviceProperties& p = s.props;
        p.name = name;
        p.compute_major = attr(cu::kAttrComputeCapabilityMajor);
        p.compute_minor = attr(cu::kAttrComputeCapabilityMinor);
        p.multiprocessors = attr(cu::kAttrMultiprocessorCount);
        p.total_memory = int64_t(total);
        p.max_threads_per_block = attr(cu::kAttrMaxThreadsPerBlock);
        p.max_block[0] = attr(cu::kAttrMaxBlockDimX);
        p.max_block[1] = attr(cu::kAttrMaxBlockDimY);
        p.max_block[2] = attr(cu::kAttrMaxBlockDimZ);
        p.max_grid[0] = attr(cu::kAttrMaxGridDimX);
        p.max_grid[1] = attr(cu::kAttrMaxGridDimY);
        p.max_grid[2] = attr(cu::kAttrMaxGridDimZ);
        p.max_shared_per_block = attr(cu::kAttrMaxSharedMemoryPerBlock);
        p.max_shared_per_block_optin = attr(cu::kAttrMaxSharedMemoryPerBlockOptin);
        p.warp_size = attr(cu::kAttrWarpSize);
        s.arch = p.compute_major * 10 + p.compute_minor;
        if (!attr(cu::kAttrMemoryPoolsSupported))
            raise(ErrorKind::Runtime, "CUDA device %d (%s) does not support stream-ordered memory pools (cuMemAllocAsync)",
                  s.ordinal, name);
    }

    // Makes the device's primary context current on this thread (retaining it the first time).
    DeviceState& bind() { return bind(t_device); }
    DeviceState& bind(int ordinal) {
        DeviceState& s = *devices_[size_t(ordinal)];
        // (call_once sets two of libstdc++'s thread-locals on every call: checked first instead.)
        if (!s.opened.load(std::memory_order_acquire)) std::call_once(s.context_once, [&] { open_context(s); });
        cu::Context current = nullptr;
        if (d_.cuCtxGetCurrent(&current) != cu::kSuccess || current != s.context) check(d_.cuCtxSetCurrent(s.context));
        return s;
    }

    void open_context(DeviceState& s) {
        check(d_.cuDevicePrimaryCtxRetain(&s.context, s.device));
        check(d_.cuCtxSetCurrent(s.context));
        check(d_.cuDeviceGetDefaultMemPool(&s.pool, s.device));
        // Keep freed memory in the pool instead of returning it to the driver at every sync
        // (unless set_keep_freed_memory(false) said otherwise).
        set_release_threshold(s);
        check(d_.cuStreamCreate(&s.aux, cu::kStreamNonBlocking));
        s.opened.store(true);
    }

    cu::Function function_for(CudaKernel& k, DeviceState& s) {
        CudaKernel::PerDevice& slot = k.per_device[size_t(s.ordinal)];
        if (cu::Function f = slot.function.load(std::memory_order_acquire)) return f;
        std::lock_guard<std::mutex> lock(k.mutex);
        if (cu::Function f = slot.function.load(std::memory_order_relaxed)) return f;
        cu::Module module = k.module_key.empty() ? load_module(k, s, driver_jit_.load()) : shared_raw_module(k, s);
        cu::Function f = nullptr;
        check(d_.cuModuleGetFunction(&f, module, (k.symbol.empty() ? k.entry : k.symbol).c_str()));
        for (const auto& [attribute, value] : k.set_attributes) check_attribute_call(d_.cuFuncSetAttribute, f, attribute, value);
        if (k.checked) {
            size_t size = 0;
            check(d_.cuModuleGetGlobal(&slot.errors, &size, module, "simt_errors"));
            if (size != sizeof(BoundsErrorRecord))
                raise(ErrorKind::Runtime, "internal: simt_errors has %zu bytes in kernel '%s', expected %zu", size,
                      k.entry.c_str(), sizeof(BoundsErrorRecord));
        }
        slot.module = module;
        slot.function.store(f, std::memory_order_release);
        return f;
    }

    // The kernel's module: a cubin from NVRTC, or PTX the driver compiles (NVRTC older than the
    // device, or SIMT_DRIVER_JIT=1 until the driver declines PTX as such).
    // (`lowered`: where to put the lowered names of the request's name expressions)
    cu::Module load_module(CudaKernel& k, DeviceState& s, bool via_driver, std::vector<std::string>* lowered = nullptr) {
        if (k.nvvm)
            if (cu::Module m = load_through_nvvm(k, s)) return m;
        CudaImage image = compile_for_device(k.request(s.arch), via_driver);
        if (k.name_expression) k.symbol = lowered_name(k, image.lowered_names);
        if (lowered) *lowered = image.lowered_names;
        cu::Module module = nullptr;
        if (image.is_cubin) {
            check(d_.cuModuleLoadData(&module, image.bytes.data()));
            return module;
        }
        Stopwatch jit;
        PtxLoad loaded = load_ptx_module(d_, image.bytes, k.options);
        compile_counters().last_driver_jit_ms = jit.ms();
        if (loaded.result == cu::kSuccess) return loaded.module;
        if (via_driver && driver_declined_ptx(loaded.result)) {
            // Invalid PTX may be this kernel's own problem (e.g. too much shared memory), and
            // NVRTC's cubin then reports it; the other refusals hold for every kernel.
            if (loaded.result != cu::kErrorInvalidPtx) driver_jit_.store(false);
            return load_module(k, s, false, lowered);
        }
        throw Error(ErrorKind::Compiler, "the driver could not compile kernel '" + k.entry + "' from PTX (" +
                                             driver_error_text(loaded.result) + ")" +
                                             (loaded.log.empty() ? "" : ":\n" + loaded.log));
    }

    // The CUmodule of a raw kernel's module on device `s`: loaded by the first of its kernels
    // there, shared by the others (each finds its lowered name among the module's).
    cu::Module shared_raw_module(CudaKernel& k, DeviceState& s) {
        std::lock_guard<std::mutex> lock(raw_modules_mutex_);
        SharedRawModule& m = raw_modules_[{k.module_key, s.ordinal}];
        if (!m.module) m.module = load_module(k, s, driver_jit_.load(), &m.lowered);
        if (k.name_expression) k.symbol = lowered_name(k, m.lowered);
        return m.module;
    }

    // The lowered (mangled) name of template kernel k among those of its request's name expressions.
    static std::string lowered_name(const CudaKernel& k, const std::vector<std::string>& lowered) {
        const std::vector<std::string> names = k.request(k.arch).name_expressions;
        for (size_t i = 0; i < names.size() && i < lowered.size(); ++i)
            if (names[i] == k.entry) return lowered[i];
        return std::string();
    }

    void check_attribute_call(cu::Result (*set)(cu::Function, int, int), cu::Function f, int attribute, int value) {
        if (!set) raise_driver_error(cu::kErrorNotSupported);
        check(set(f, attribute, value));
    }

    // The NVVM IR fast path (codegen/nvvm_ir.h): NVRTC's cubin when an earlier process left it in
    // the disk cache; else libNVVM's PTX, compiled by the driver as a whole program (as NVRTC
    // compiles its cubins, not as relocatable code), with NVRTC's cubin made on the backfill thread for later
    // processes. Null when the IR does not compile (SIMT_NVVM_STRICT=1: raise): NVRTC takes it.
    cu::Module load_through_nvvm(CudaKernel& k, DeviceState& s) {
        NvrtcRequest request = k.request(s.arch);
        cu::Module module = nullptr;
        CudaImage cached;
        if (cached_cubin(request, &cached)) {  // (before libNVVM is loaded: a warm process never loads it)
            check(d_.cuModuleLoadData(&module, cached.bytes.data()));
            return module;
        }
        if (!nvvm_supports_arch(s.arch)) return nullptr;
        static const bool strict = std::getenv("SIMT_NVVM_STRICT") && std::string(std::getenv("SIMT_NVVM_STRICT")) == "1";
        std::string ptx;
        try {
            ptx = nvvm_ptx(*k.nvvm, s.arch);
        } catch (const Error&) {
            if (strict) throw;
            return nullptr;
        }
        Stopwatch jit;
        PtxLoad loaded = load_ptx_module(d_, ptx, k.options);
        compile_counters().last_driver_jit_ms = jit.ms();
        if (loaded.result != cu::kSuccess) {
            if (strict)
                throw Error(ErrorKind::Compiler, "the driver could not compile kernel '" + k.entry + "' from libNVVM's PTX (" +
                                                     driver_error_text(loaded.result) + ")" + (loaded.log.empty() ? "" : ":\n" + loaded.log));
            return nullptr;
        }
        backfill_cubin(request);
        return loaded.module;
    }

    const BuiltinKernels& builtins(DeviceState& s) {
        std::call_once(s.builtins_once, [&] { s.builtins = load_builtin_kernels(d_, s.arch); });
        return s.builtins;
    }

    // Grid-stride built-in kernels: enough blocks to fill the device, no more than the work.
    void launch_builtin(DeviceState& s, cu::Function f, uint64_t work, StreamHandle stream, void** args) {
        const unsigned threads = 256;
        uint64_t blocks = (work + threads - 1) / threads;
        uint64_t cap = uint64_t(s.props.multiprocessors > 0 ? s.props.multiprocessors : 1) * 32;
        if (blocks > cap) blocks = cap;
        if (blocks < 1) blocks = 1;
        check(d_.cuLaunchKernel(f, unsigned(blocks), 1, 1, threads, 1, 1, 0, cu_stream(stream), args, nullptr));
    }

    bool query(cu::Result r) {
        if (r == cu::kSuccess) return true;
        if (r == cu::kErrorNotReady) return false;
        raise_driver_error(r);
    }

    bool is_non_blocking(StreamHandle stream) {
        unsigned flags = 0;
        if (d_.cuStreamGetFlags(cu_stream(stream), &flags) != cu::kSuccess) return true;  // unknown: be safe
        return (flags & cu::kStreamNonBlocking) != 0;
    }

    cu::Event take_event(DeviceState& s) {
        {
            std::lock_guard<std::mutex> lock(s.events_mutex);
            if (!s.spare_events.empty()) {
                cu::Event e = s.spare_events.back();
                s.spare_events.pop_back();
                return e;
            }
        }
        cu::Event e = nullptr;
        check(d_.cuEventCreate(&e, cu::kEventDisableTiming));
        return e;
    }
    void give_event(DeviceState& s, cu::Event e) {
        std::lock_guard<std::mutex> lock(s.events_mutex);
        s.spare_events.push_back(e);
    }

    void track_checked_launch(CudaKernel& k, DeviceState& s, StreamHandle stream) {
        cu::Event done = take_event(s);
        check(d_.cuEventRecord(done, cu_stream(stream)));
        std::lock_guard<std::mutex> lock(pending_mutex_);
        pending_.push_back({&k, s.ordinal, done});
        has_pending_.store(true, std::memory_order_relaxed);
    }

    void defer_release(DeviceState& s, StreamHandle stream, std::vector<std::shared_ptr<void>>& owners) {
        cu::Event done = take_event(s);
        check(d_.cuEventRecord(done, cu_stream(stream)));
        size_t queued;
        {
            std::lock_guard<std::mutex> lock(pending_mutex_);
            deferred_.push_back({s.ordinal, done, std::move(owners)});
            queued = deferred_.size();
        }
        owners.clear();
        if (queued > 64) release_finished(s);
    }

    // Drops the owners whose launches have finished (outside the lock: dropping may free memory).
    void release_finished(DeviceState& s) {
        std::vector<std::shared_ptr<void>> dropped;
        std::lock_guard<std::mutex> lock(pending_mutex_);
        for (auto it = deferred_.begin(); it != deferred_.end();) {
            if (it->device != s.ordinal || d_.cuEventQuery(it->done) == cu::kErrorNotReady) {
                ++it;
                continue;
            }
            give_event(s, it->done);
            for (auto& o : it->owners) dropped.push_back(std::move(o));
            it = deferred_.erase(it);
        }
        // `dropped` is destroyed after the lock is released (declared before the guard).
    }

    // At every synchronization point: release finished arguments, and raise the first
    // out-of-range access recorded by a finished boundscheck launch (resetting the records).
    void after_synchronization(DeviceState& s) {
        if (!has_pending_.load(std::memory_order_relaxed) && deferred_empty()) return;
        release_finished(s);
        std::vector<CudaKernel*> finished;
        {
            std::lock_guard<std::mutex> lock(pending_mutex_);
            for (auto it = pending_.begin(); it != pending_.end();) {
                if (it->device != s.ordinal || d_.cuEventQuery(it->done) == cu::kErrorNotReady) {
                    ++it;
                    continue;
                }
                bool seen = false;
                for (CudaKernel* k : finished) seen = seen || k == it->kernel;
                if (!seen) finished.push_back(it->kernel);
                give_event(s, it->done);
                it = pending_.erase(it);
            }
            has_pending_.store(!pending_.empty(), std::memory_order_relaxed);
        }
        std::string first;
        ErrorKind first_kind = ErrorKind::Index;
        for (CudaKernel* k : finished) {
            cu::DevicePtr record = k->per_device[size_t(s.ordinal)].errors;
            BoundsErrorRecord r;
            check(d_.cuMemcpyDtoHAsync(&r, record, sizeof r, s.aux));
            check(d_.cuStreamSynchronize(s.aux));
            if (!r.flag) continue;
            check(d_.cuMemsetD32Async(record, 0, sizeof r / 4, s.aux));
            check(d_.cuStreamSynchronize(s.aux));
            if (first.empty() && k->describe_bounds_error) {
                first = k->describe_bounds_error(r);
                first_kind = record_error_kind(r);
            }
        }
        if (!first.empty()) throw Error(first_kind, first);
    }

    bool deferred_empty() {
        std::lock_guard<std::mutex> lock(pending_mutex_);
        return deferred_.empty();
    }

    const cu::DriverApi& d_;
    std::vector<std::unique_ptr<DeviceState>> devices_;
    PinnedRanges pinned_;  // host memory page-locked through this backend
    std::mutex load_mutex_;
    std::unordered_map<std::string, std::shared_ptr<CudaKernel>> loaded_;
    std::mutex pending_mutex_;
    std::deque<PendingCheck> pending_;
    std::deque<DeferredRelease> deferred_;
    std::atomic<bool> has_pending_{false};
    struct SharedRawModule {
        cu::Module module = nullptr;
        std::vector<std::string> lowered;  // of the module's name expressions
    };
    std::mutex raw_modules_mutex_;
    std::map<std::pair<std::string, int>, SharedRawModule> raw_modules_;  // (module key, device)
    // SIMT_DRIVER_JIT=1: NVRTC stops at PTX and the driver compiles it (see ptx_module.h).
    std::atomic<bool> driver_jit_{env_flag_on("SIMT_DRIVER_JIT")};
    std::atomic<bool> keep_freed_{true};  // see set_keep_freed_memory
};

void set_reason(const std::string& why) {
    std::lock_guard<std::mutex> lock(g_reason_mutex);
    g_unavailable_reason = why;
}

// Parameter sizes from the driver (CUDA 12.4+), of the function loaded for any device.
std::vector<int64_t> CudaKernel::parameter_sizes() {
    const cu::DriverApi& d = driver();
    cu::Function f = nullptr;
    for (size_t i = 0; i < num_devices && !f; ++i) f = per_device[i].function.load(std::memory_order_acquire);
    std::vector<int64_t> sizes;
    if (!d.cuFuncGetParamInfo || !f) return sizes;
    for (size_t index = 0;; ++index) {
        size_t offset = 0, size = 0;
        if (d.cuFuncGetParamInfo(f, index, &offset, &size) != cu::kSuccess) break;  // past the last one
        sizes.push_back(int64_t(size));
    }
    return sizes;
}

}  // namespace

std::string cuda_unavailable_reason() {
    std::lock_guard<std::mutex> lock(g_reason_mutex);
    return g_unavailable_reason;
}

std::unique_ptr<Backend> make_cuda_backend() {
    std::string why;
    const cu::DriverApi* d = load_driver(&why);
    if (!d) {
        set_reason(why);
        return nullptr;
    }
    int count = 0;
    cu::Result r = d->cuDeviceGetCount(&count);
    if (r != cu::kSuccess || count == 0) {
        set_reason(r != cu::kSuccess ? "cuDeviceGetCount failed: " + driver_error_text(r) : "the CUDA driver reports no devices");
        return nullptr;
    }
    if (!nvrtc_available(&why)) {
        set_reason(why);
        std::fprintf(stderr, "simt: warning: %d CUDA device(s) found but no usable NVRTC, so kernels cannot be "
                             "compiled for them; see `python -m simt.pathfinder`\n", count);
        return nullptr;
    }
    try {
        auto backend = std::make_unique<CudaBackend>(*d, count);
        set_reason("");
        return backend;
    } catch (const Error& e) {
        set_reason(e.what());
        return nullptr;
    }
}

}  // namespace simt
