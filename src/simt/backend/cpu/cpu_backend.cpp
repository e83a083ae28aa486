// The cpu backend: "device" memory is host memory behind a distinct array type; kernels are
// generated C++ compiled by the host compiler into shared objects and run block-parallel on a
// thread pool, asynchronously through one in-order task queue.
#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>
#include <atomic>
#include <cfenv>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include "array/philox.h"
#include "backend/cpu/host_compiler.h"
#include "backend/cpu/kernel_runtime.h"
#include "backend/cpu/launch_abi.h"
#include "backend/cpu/module_symbols.h"
#include "backend/cpu/task_queue.h"
#include "backend/cpu/thread_pool.h"
#include "runtime/backend.h"
#include "runtime/bounds_report.h"
#include "runtime/cuda_errors.h"
#include "runtime/disk_cache.h"
#include "runtime/launch_limits.h"
#include "support/error.h"
#include "support/stopwatch.h"
#include "support/files.h"
#include "support/sha256.h"

namespace simt {

struct StreamImpl {
    uint64_t last_seq = 0;  // the stream's newest task in the device queue
};
struct EventImpl {
    uint64_t seq = 0;
    bool recorded = false;
    // Written by the queued record task, which may run after the event is destroyed (CUDA allows
    // destroying an event whose record is pending): the task shares the slot, not the event.
    std::shared_ptr<double> time_ms = std::make_shared<double>(0);
};

namespace {

class CpuKernel : public LoadedKernel {
public:
    cpu_abi::EntryPoint entry = nullptr;
    void* handle = nullptr;
    int64_t local_bytes = 0;  // cuda.local.array storage per thread
    bool prints = false;      // writes print() output to stdout after each launch
    // Time per GPU thread of its last launch on one core (negative: never measured).
    std::atomic<double> serial_ns_per_thread{-1};
    // Inline runs far over the limit since its last inline run within it; at two the kernel's
    // time evidently depends on its arguments (one overrun may be the OS pausing the thread).
    std::atomic<int> inline_overruns{0};
    std::atomic<bool> never_inline{false};
    const int64_t* (*parameter_table)() = nullptr;  // raw CUDA C++ kernels: {count, size...}
    // The user's own CUDA C++ (simt.RawKernel): its __shared__ / __constant__ / local storage is
    // C++ simt does not see, so those sizes are unknown.
    bool raw = false;
    int64_t const_bytes = 0;  // NumPy arrays frozen into the kernel (its constant memory)
    int max_threads = 0;      // @cuda.jit(launch_bounds=(max_threads, ...)), 0: not given
    // Attributes set by the program: the most dynamic shared memory a launch may ask for (-1:
    // the device's default, what static shared memory leaves of 48 KiB) and the carveout hint.
    std::atomic<int> max_dynamic_shared{-1};
    std::atomic<int> carveout{-1};

    std::vector<int64_t> parameter_sizes() override {
        if (!parameter_table) return {};
        const int64_t* t = parameter_table();
        return std::vector<int64_t>(t + 1, t + 1 + t[0]);
    }
};

// Work expected to take less than what handing it to the executor and the pool costs (their
// thread wake-ups: 5-30 us on bare metal, 80 us measured on a 2-vCPU VM) runs on the caller's
// thread when the queue is idle. That cost is measured on queued launches (see
// note_queue_overhead); kInlineNs is the least it is taken to be, kMaxInlineNs the longest the
// caller is kept.
constexpr double kInlineNs = 20000;
constexpr double kMaxInlineNs = 1e6;
// One queued launch's overhead counts at most this much: a thread descheduled for milliseconds
// must not keep mid-size work off the pool for long (samples only come from queued launches).
constexpr double kMaxOverheadSampleNs = 250000;
// execute()'s `submitted_ms` for a launch on the caller's thread, and for one queued behind others.
constexpr double kOnCaller = -1, kQueuedBehindOthers = 0;
// Copies and fills of at most this many bytes likewise (no measurement needed: memory speed).
constexpr size_t kInlineBytes = size_t(256) << 10;
// Kernels with more cuda.local.array storage than this stay off the caller's (maybe small) stack.
constexpr int64_t kInlineLocalBytes = 16 << 10;

// The default floating-point environment (no flush-to-zero, round to nearest) for the scope of
// inline work, as the executor and pool threads always have: the calling thread's may have been
// changed, e.g. by a -ffast-math library.
// On x86-64 kernels compute with SSE: where the x87 control word is already the default, saving,
// setting and restoring MXCSR alone does it (fegetenv/fesetenv also store and load the x87
// environment, a slow instruction pair that cost 7% of a one-element x + y).
class DefaultFloatEnvironment {
public:
    DefaultFloatEnvironment() {
#if defined(__x86_64__)
        unsigned short x87_control = 0;
        asm volatile("fnstcw %0" : "=m"(x87_control));
        sse_only_ = x87_control == kDefaultX87Control;
        if (sse_only_) {
            mxcsr_ = _mm_getcsr();
            _mm_setcsr(kDefaultMxcsr);
            return;
        }
#endif
        std::fegetenv(&saved_);
        std::fesetenv(FE_DFL_ENV);
    }
    ~DefaultFloatEnvironment() {
#if defined(__x86_64__)
        if (sse_only_) {
            _mm_setcsr(mxcsr_);
            return;
        }
#endif
        std::fesetenv(&saved_);
    }

private:
#if defined(__x86_64__)
    static constexpr unsigned short kDefaultX87Control = 0x037F;  // what FE_DFL_ENV sets
    static constexpr unsigned kDefaultMxcsr = 0x1F80;  // exceptions masked, round to nearest, no FTZ/DAZ
    bool sse_only_ = false;
    unsigned mxcsr_ = 0;
#endif
    std::fenv_t saved_;
};

double now_ms() {
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

size_t physical_memory() {
    static const size_t bytes = [] {  // sysconf makes a system call: ask once
        long pages = ::sysconf(_SC_PHYS_PAGES), size = ::sysconf(_SC_PAGE_SIZE);
        return pages > 0 && size > 0 ? size_t(pages) * size_t(size) : size_t(1) << 40;
    }();
    return bytes;
}

// Chunks of work that keep every thread busy without tiny tasks.
int64_t grain_for(int64_t n, int threads) {
    int64_t g = n / (int64_t(threads) * 16);
    return g < 1 ? 1 : g;
}

[[noreturn]] void unknown_attribute(KernelAttribute which, const char* why) {
    raise(ErrorKind::NotImplemented, "the kernel attribute %s is not available on the cpu backend: %s",
          kernel_attribute_name(which), why);
}

class CpuBackend : public Backend {
public:
    CpuBackend() : pool_(default_thread_count()) {}

    const char* name() const override { return "cpu"; }
    Target target() const override { return Target::Cpu; }

    int device_count() override { return 1; }
    int current_device() override { return 0; }
    void set_current_device(int device) override {
        if (device != 0) raise_cuda_error(kCudaErrorInvalidValue);
    }
    DeviceProperties properties(int device) override {
        if (device != 0) raise_cuda_error(kCudaErrorInvalidValue);
        DeviceProperties p = modelled_device_properties();
        p.total_memory = int64_t(physical_memory());
        return p;
    }

    // ---- memory ---------------------------------------------------------------------------
    // Memory comes from the C library's allocator, as NumPy's does: a block freed and asked for
    // again (the result of an operation in a loop) is reused without the kernel zeroing fresh
    // pages on first touch, which cost as much as the operation (a + b at 4 MiB: 2.7x NumPy's
    // time on fresh mappings). Blocks of 2 MiB and up are marked for transparent huge pages, so
    // their first touch faults once per 2 MiB. Beyond what glibc ever serves from its heap
    // (32 MiB), blocks are mappings of their own, returned to the system when freed.
    static constexpr size_t kMapThreshold = size_t(32) << 20;
    static constexpr size_t kHugePage = size_t(2) << 20;
    static size_t mapped_size(size_t bytes) { return (bytes + kHugePage - 1) & ~(kHugePage - 1); }
    static void advise_huge_pages(void* p, size_t bytes) {
        uintptr_t begin = (uintptr_t(p) + kHugePage - 1) & ~uintptr_t(kHugePage - 1);
        uintptr_t end = (uintptr_t(p) + bytes) & ~uintptr_t(kHugePage - 1);
        if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
    }

    void* allocate(size_t bytes, StreamHandle) override {
        void* p = nullptr;
        if (bytes <= physical_memory()) {
            if (bytes >= kMapThreshold) {
                p = ::mmap(nullptr, mapped_size(bytes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                if (p == MAP_FAILED) p = nullptr;
                else advise_huge_pages(p, mapped_size(bytes));
            } else {
                p = std::aligned_alloc(64, bytes < 64 ? 64 : (bytes + 63) / 64 * 64);
                if (p && bytes >= kHugePage) advise_huge_pages(p, bytes);
            }
        }
        if (!p) throw Error(ErrorKind::OutOfMemory, format("out of memory: cannot allocate %zu bytes (%.2f GiB) on the cpu device",
                                                            bytes, double(bytes) / (1 << 30)));
        return p;
    }
    // Stream-ordered, like cuMemFreeAsync: queued work may still use the memory.
    void release(void* ptr, size_t bytes, StreamHandle stream) noexcept override {
        auto free_now = [ptr, bytes] {
            if (bytes >= kMapThreshold) ::munmap(ptr, mapped_size(bytes));
            else std::free(ptr);
        };
        if (queue_.idle()) {
            free_now();
            return;
        }
        try {
            submit(stream, free_now);
        } catch (...) {
            queue_.wait_all_quietly();
            free_now();
        }
    }

    void copy_host_to_device(void* dst, const void* src, size_t bytes, StreamHandle) override {
        queue_.wait_all();  // queued work may still read or write dst
        parallel_copy(dst, src, bytes);
    }
    void copy_device_to_host(void* dst, const void* src, size_t bytes, StreamHandle) override {
        queue_.wait_all();
        parallel_copy(dst, src, bytes);
    }
    void copy_device_to_device(void* dst, const void* src, size_t bytes, StreamHandle stream) override {
        if (bytes <= kInlineBytes && run_here_if_idle(stream, [&] { std::memcpy(dst, src, bytes); })) return;
        submit(stream, [this, dst, src, bytes] { parallel_copy(dst, src, bytes); });
    }
    void fill(void* dst, const void* elem, size_t elem_size, size_t count, StreamHandle stream) override {
        unsigned char pattern[16];
        std::memcpy(pattern, elem, elem_size);
        bool zero = true;
        for (size_t k = 0; k < elem_size; ++k) zero = zero && pattern[k] == 0;
        auto fill_range = [dst, pattern, elem_size, zero](int64_t b, int64_t e) {
            unsigned char* out = static_cast<unsigned char*>(dst);
            if (zero) { std::memset(out + size_t(b) * elem_size, 0, size_t(e - b) * elem_size); return; }
            for (int64_t i = b; i < e; ++i) std::memcpy(out + size_t(i) * elem_size, pattern, elem_size);
        };
        if (count * elem_size <= kInlineBytes && run_here_if_idle(stream, [&] { fill_range(0, int64_t(count)); })) return;
        submit(stream, [this, count, fill_range] {
            pool_.parallel_for(int64_t(count), grain_for(int64_t(count), pool_.size()), fill_range);
        });
    }
    void fill_random(void* dst, size_t count, const RandomRequest& r, StreamHandle stream) override {
        if (count * size_t(dtype_size(r.dtype)) <= kInlineBytes &&
            run_here_if_idle(stream, [&] { fill_random_range(dst, r, 0, uint64_t(count)); }))
            return;
        submit(stream, [this, dst, count, r] {
            pool_.parallel_for(int64_t(count), grain_for(int64_t(count), pool_.size()), [&](int64_t b, int64_t e) {
                fill_random_range(dst, r, uint64_t(b), uint64_t(e));
            });
        });
    }

    // ---- kernels --------------------------------------------------------------------------
    std::shared_ptr<LoadedKernel> load(const GeneratedSource& source, const CompileOptions& options) override {
        std::vector<std::string> flags = host_compile_flags(options);
        flags.insert(flags.end(), source.compiler_options.begin(), source.compiler_options.end());
        const HostCompiler& cc = host_compiler();
        Sha256 h;
        h.update("simt-cpu-kernel-v1\n");
        h.update(cc.identity);
        for (const std::string& f : flags) { h.update("\n"); h.update(f); }
        h.update("\n");
        h.update(source.full_source);
        std::string key = h.hex_digest();
        // Kernels of one raw module share its shared object (so its __device__ variables): one
        // file, dlopen'ed once, each kernel taking its own entry point from it.
        const std::string loaded_key = key + "\n" + source.entry_name;

        std::lock_guard<std::mutex> lock(load_mutex_);
        if (auto it = loaded_.find(loaded_key); it != loaded_.end()) {
            ++compile_counters().memory_hits;
            return it->second;
        }
        DiskCache& cache = DiskCache::instance();
        std::string path;
        if (cache.lookup("cpu", key, ".so", path)) {
            ++compile_counters().disk_hits;
        } else {
            ++compile_counters().compiled;
            std::string tmp = cache.temp_dir() + "/" + key.substr(0, 16) + "." + unique_suffix();
            write_file_atomic(tmp + ".cpp", source.full_source);
            try {
                Stopwatch compiling;
                compile_shared_object(tmp + ".cpp", tmp + ".so", flags);
                compile_counters().last_compiler_ms = compiling.ms();
            } catch (...) {
                ::unlink((tmp + ".cpp").c_str());
                ::unlink((tmp + ".so").c_str());
                throw;
            }
            ::unlink((tmp + ".cpp").c_str());
            path = cache.adopt("cpu", key, ".so", tmp + ".so");
        }
        auto kernel = std::make_shared<CpuKernel>();
        kernel->handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!kernel->handle) raise(ErrorKind::Compiler, "cannot load compiled kernel %s: %s", path.c_str(), ::dlerror());
        kernel->entry = reinterpret_cast<cpu_abi::EntryPoint>(::dlsym(kernel->handle, source.entry_name.c_str()));
        if (!kernel->entry) raise(ErrorKind::Compiler, "compiled kernel %s has no entry point %s", path.c_str(), source.entry_name.c_str());
        kernel->static_shared_bytes = source.static_shared_bytes;
        kernel->local_bytes = source.local_bytes;
        kernel->prints = source.prints;
        kernel->grid_sync = source.grid_sync;
        if (!source.parameter_table.empty()) {
            kernel->parameter_table = reinterpret_cast<const int64_t* (*)()>(::dlsym(kernel->handle, source.parameter_table.c_str()));
            if (!kernel->parameter_table)
                raise(ErrorKind::Compiler, "compiled kernel %s has no %s", path.c_str(), source.parameter_table.c_str());
        }
        kernel->raw = source.raw_cuda;
        kernel->const_bytes = source.const_bytes;
        kernel->max_threads = source.options.launch_bounds[0];
        loaded_[loaded_key] = kernel;
        return kernel;
    }

    void launch(LoadedKernel& k, const LaunchConfig& c, ArgumentPack& args) override {
        auto* kernel = static_cast<CpuKernel*>(&k);
        check_launch_limits(c, limits(), k.static_shared_bytes, kernel->max_dynamic_shared.load(std::memory_order_relaxed));
        // (more threads than the kernel's launch bounds (PTX .maxntid) allow: an invalid configuration)
        if (kernel->max_threads > 0 && c.block.count() > kernel->max_threads) raise_cuda_error(kCudaErrorInvalidValue);
        const int64_t blocks = c.grid.count();
        if (k.grid_sync && blocks > max_cooperative_blocks(k, c.block.count(), c.dynamic_shared_bytes))
            raise_cuda_error(kCudaErrorCooperativeLaunchTooLarge);
        const double threads = double(blocks) * double(c.block.count());
        // Kernels run on the caller's thread only when measured to be short; one that then takes
        // far longer twice (its time depends on its arguments) is always queued from then on.
        // Kernels that print are always queued: the caller holds the GIL, and writing to a full
        // stdout pipe that a Python thread drains (Jupyter does) would then never finish.
        // Inline, the launch's state lives in this frame, and the pack keeps its capacity for
        // the next launch (moving it out cost a dozen allocations a launch).
        const double per_thread = kernel->serial_ns_per_thread.load(std::memory_order_relaxed);
        if (per_thread >= 0 && per_thread * threads < inline_limit_ns() && kernel->local_bytes <= kInlineLocalBytes &&
            !kernel->prints && !kernel->never_inline.load(std::memory_order_relaxed)) {
            cpu::LaunchState state;
            BoundsErrorRecord record;
            begin_launch(state, record, c);
            const auto& describe = k.describe_bounds_error;
            if (run_here_if_idle(c.stream, [&] { execute(*kernel, state, record, args, describe, blocks, threads, kOnCaller); }))
                return;
        }
        // Queued: what the launch needs moves to the heap, to outlive this call.
        auto state = std::make_shared<cpu::LaunchState>();
        auto record = std::make_shared<BoundsErrorRecord>();
        begin_launch(*state, *record, c);
        auto pack = std::make_shared<ArgumentPack>(std::move(args));
        auto describe = k.describe_bounds_error;
        // Queued from an idle queue: its wait for the executor and the pool is then all overhead.
        const double submitted_ms = queue_.idle() ? now_ms() : kQueuedBehindOthers;
        submit(c.stream, [this, kernel, state, record, pack, describe, blocks, threads, submitted_ms] {
            execute(*kernel, *state, *record, *pack, describe, blocks, threads, submitted_ms);
        });
    }

    // As a Hopper multiprocessor holds them: 2048 threads, 32 blocks and 228 KiB of shared memory
    // each; and 4096 threads in all, as the blocks of a cooperative launch run at once here, each
    // thread a fiber with its own stack (two memory mappings: a process has ~65000).
    int64_t max_cooperative_blocks(LoadedKernel& k, int64_t threads, int64_t dynamic_shared_bytes) override {
        if (threads <= 0 || threads > 1024 || dynamic_shared_bytes < 0) raise_cuda_error(kCudaErrorInvalidValue);
        int64_t per_sm = std::min<int64_t>(32, 2048 / threads);
        const int64_t shared = (k.static_shared_bytes + 15) / 16 * 16 + dynamic_shared_bytes;
        if (shared > 0) per_sm = std::min<int64_t>(per_sm, (228 << 10) / shared);
        return std::min<int64_t>(per_sm * limits().multiprocessors, kMostCooperativeThreads / threads);
    }
    static constexpr int64_t kMostCooperativeThreads = 4096;

    // The modelled device's values, and the sizes simt knows of its own kernels; NotImplemented
    // for what no GPU number would honestly stand for here.
    int kernel_attribute(LoadedKernel& k, KernelAttribute which) override {
        auto& kernel = static_cast<CpuKernel&>(k);
        auto unknown = [&](const char* why) { unknown_attribute(which, why); };
        auto raw_unknown = [&] {
            if (kernel.raw)
                unknown("the host compiler compiles raw CUDA C++, and simt does not measure the sizes it declares");
        };
        switch (which) {
        case KernelAttribute::MaxThreadsPerBlock:  // (no register file limits a kernel's blocks here; its launch bounds do)
            return kernel.max_threads > 0 ? std::min(kernel.max_threads, limits().max_threads_per_block)
                                          : limits().max_threads_per_block;
        case KernelAttribute::SharedSizeBytes:
            raw_unknown();
            return int(kernel.static_shared_bytes);
        case KernelAttribute::LocalSizeBytes:
            raw_unknown();
            return int(kernel.local_bytes);
        case KernelAttribute::MaxDynamicSharedSizeBytes:
            return int(dynamic_shared_limit(kernel));
        case KernelAttribute::PreferredSharedMemoryCarveout:
            return kernel.carveout.load();
        case KernelAttribute::NumRegs:
            unknown_attribute(which, "kernels run as host code, with no GPU register allocation");
        case KernelAttribute::PtxVersion:
        case KernelAttribute::BinaryVersion:
            unknown_attribute(which, "kernels are compiled to host code, not PTX or a GPU binary");
        case KernelAttribute::ConstSizeBytes:
            raw_unknown();
            return int(kernel.const_bytes);
        case KernelAttribute::CacheModeCa:
            unknown_attribute(which, "there is no GPU cache configuration");
        }
        unknown_attribute(which, "unknown attribute");
    }

    void set_kernel_attribute(LoadedKernel& k, KernelAttribute which, int value) override {
        auto& kernel = static_cast<CpuKernel&>(k);
        if (which == KernelAttribute::MaxDynamicSharedSizeBytes) {
            // As the driver: static and dynamic shared memory together within the device's opt-in limit.
            if (value < 0 || int64_t(value) + kernel.static_shared_bytes > limits().max_shared_per_block_optin)
                raise_cuda_error(kCudaErrorInvalidValue);
            kernel.max_dynamic_shared.store(value);
        } else if (which == KernelAttribute::PreferredSharedMemoryCarveout) {
            if (value < -1 || value > 100) raise_cuda_error(kCudaErrorInvalidValue);
            kernel.carveout.store(value);  // (a hint: nothing on the cpu backend depends on it)
        } else {
            raise_cuda_error(kCudaErrorInvalidValue);  // read-only attributes, as cuFuncSetAttribute says
        }
    }

    std::pair<void*, size_t> kernel_global(LoadedKernel& k, const std::string& name) override {
        auto& kernel = static_cast<CpuKernel&>(k);
        return shared_object_variable(kernel.handle, name);
    }

    int64_t dynamic_shared_limit(const CpuKernel& kernel) {
        const int set = kernel.max_dynamic_shared.load(std::memory_order_relaxed);
        return set >= 0 ? set : limits().max_shared_per_block - kernel.static_shared_bytes;
    }

    const DeviceProperties& limits() {
        static const DeviceProperties p = properties(0);  // computing them reads sysfs: once only
        return p;
    }

    static void begin_launch(cpu::LaunchState& state, BoundsErrorRecord& record, const LaunchConfig& c) {
        state.abi.grid = {int32_t(c.grid.x), int32_t(c.grid.y), int32_t(c.grid.z)};
        state.abi.block = {int32_t(c.block.x), int32_t(c.block.y), int32_t(c.block.z)};
        state.abi.dynamic_shared_bytes = c.dynamic_shared_bytes;
        state.abi.errors = &record;
    }

    // Runs a launch's blocks, on the caller's thread (kOnCaller) or split over the pool
    // (submitted_ms: when it was queued onto an idle queue, or kQueuedBehindOthers), then raises
    // what a thread of it reported.
    void execute(CpuKernel& kernel, cpu::LaunchState& launch, const BoundsErrorRecord& record, const ArgumentPack& pack,
                 const std::function<std::string(const BoundsErrorRecord&)>& describe, int64_t blocks, double threads,
                 double submitted_ms) {
        constexpr size_t kInlineArguments = 32;
        void* few[kInlineArguments];
        std::vector<void*> many;
        void** argv = few;
        if (pack.offsets.size() > kInlineArguments) {
            many.resize(pack.offsets.size());
            argv = many.data();
        }
        unsigned char* base = const_cast<unsigned char*>(pack.data.data());
        for (size_t i = 0; i < pack.offsets.size(); ++i) argv[i] = base + pack.offsets[i];
        const cpu_abi::EntryPoint entry = kernel.entry;
        double busy_ms = 0;  // the chunks' own time, summed: no thread wake-ups in it
        if (submitted_ms == kOnCaller || kernel.grid_sync) {  // (a grid barrier: every block on one thread, at once)
            const double start = now_ms();
            entry(&launch.abi, argv, 0, blocks);
            busy_ms = now_ms() - start;
            if (busy_ms * 1e6 <= 5 * inline_limit_ns()) kernel.inline_overruns.store(0, std::memory_order_relaxed);
            else if (kernel.inline_overruns.fetch_add(1, std::memory_order_relaxed) >= 1)
                kernel.never_inline.store(true, std::memory_order_relaxed);
        } else {
            std::atomic<int64_t> busy_ns{0};
            pool_.parallel_for(blocks, grain_for(blocks, pool_.size()), [&](int64_t b, int64_t e) {
                const double start = now_ms();
                entry(&launch.abi, argv, b, e);
                busy_ns.fetch_add(int64_t((now_ms() - start) * 1e6), std::memory_order_relaxed);
            });
            busy_ms = double(busy_ns.load()) * 1e-6;
            if (submitted_ms != kQueuedBehindOthers) note_queue_overhead((now_ms() - submitted_ms) * 1e6 - busy_ms * 1e6 / pool_.size());
        }
        kernel.serial_ns_per_thread.store(busy_ms * 1e6 / threads, std::memory_order_relaxed);
        launch.flush_printed();
        // A thread's report (bounds, assert, raise) first: a barrier that threads then missed
        // (a raise ends its thread) is its consequence.
        if (record.flag && describe) throw Error(record_error_kind(record), describe(record));
        if (launch.failed()) throw Error(ErrorKind::Runtime, launch.failure());
    }

    // ---- synchronization ------------------------------------------------------------------
    void synchronize() override { queue_.wait_all(); }
    StreamHandle create_stream(bool) override { return new StreamImpl(); }
    void destroy_stream(StreamHandle s) noexcept override { delete s; }
    void synchronize_stream(StreamHandle s) override { queue_.wait(s ? s->last_seq : queue_.last_enqueued()); }
    bool stream_idle(StreamHandle s) override { return queue_.done(s ? s->last_seq : queue_.last_enqueued()); }
    EventHandle create_event(bool) override { return new EventImpl(); }
    void destroy_event(EventHandle e) noexcept override { delete e; }
    void record_event(EventHandle e, StreamHandle s) override {
        e->recorded = true;
        e->seq = submit(s, [time = e->time_ms] { *time = now_ms(); });
    }
    void synchronize_event(EventHandle e) override { if (e->recorded) queue_.wait(e->seq); }
    bool event_done(EventHandle e) override { return !e->recorded || queue_.done(e->seq); }
    float elapsed_ms(EventHandle start, EventHandle end) override {
        if (!start->recorded || !end->recorded) raise_cuda_error(kCudaErrorInvalidHandle);
        queue_.wait(start->seq > end->seq ? start->seq : end->seq);
        return float(*end->time_ms - *start->time_ms);
    }
    void stream_wait_event(StreamHandle s, EventHandle e) override {
        // One in-order queue serves every stream, so later work on s already runs after the
        // event; what changes is what s has to wait for when synchronized or queried.
        if (s && e->recorded && e->seq > s->last_seq) s->last_seq = e->seq;
    }
    // A task of the queue like any other (on the executor thread, after all earlier work): the
    // queue is in order, so later work waits for it as it does on a GPU.
    void launch_host_func(StreamHandle s, void (*fn)(void*), void* data) override { submit(s, [fn, data] { fn(data); }); }

private:
    uint64_t submit(StreamHandle stream, std::function<void()> work) {
        uint64_t seq = queue_.enqueue(std::move(work));
        if (stream) stream->last_seq = seq;
        return seq;
    }
    // A queued launch's time beyond its share of the work (sample), averaged over recent ones.
    void note_queue_overhead(double sample_ns) {
        double old = queue_overhead_ns_.load(std::memory_order_relaxed);
        const double sample = sample_ns < 0 ? 0 : sample_ns > kMaxOverheadSampleNs ? kMaxOverheadSampleNs : sample_ns;
        queue_overhead_ns_.store(0.75 * old + 0.25 * sample, std::memory_order_relaxed);
    }
    // Serial work up to this long is quicker on the caller's thread than split over the pool's
    // p threads after the hand-off: t < t / p + overhead.
    double inline_limit_ns() const {
        const double p = pool_.size();
        const double limit = p > 1 ? queue_overhead_ns_.load(std::memory_order_relaxed) * p / (p - 1) : kMaxInlineNs;
        return limit < kInlineNs ? kInlineNs : limit > kMaxInlineNs ? kMaxInlineNs : limit;
    }

    // Runs short `work` now on this thread when the queue is idle (see inline_limit_ns); false when
    // it must be submitted instead.
    template <class Work>
    bool run_here_if_idle(StreamHandle stream, Work&& work) {
        uint64_t seq = queue_.run_if_idle([&] {
            DefaultFloatEnvironment float_environment;
            work();
        });
        if (seq && stream) stream->last_seq = seq;
        return seq != 0;
    }

    void parallel_copy(void* dst, const void* src, size_t bytes) {
        const int64_t chunk = 1 << 20;
        int64_t chunks = int64_t((bytes + chunk - 1) / chunk);
        pool_.parallel_for(chunks, 1, [&](int64_t b, int64_t e) {
            size_t begin = size_t(b) * chunk, end = size_t(e) * chunk < bytes ? size_t(e) * chunk : bytes;
            std::memcpy(static_cast<char*>(dst) + begin, static_cast<const char*>(src) + begin, end - begin);
        });
    }

    static void fill_random_range(void* dst, const RandomRequest& r, uint64_t b, uint64_t e) {
        using namespace simt_philox;
        const uint64_t seed = r.seed, offset = r.offset;
        const bool single = r.dtype == DType::Float32;
        switch (r.distribution) {
            case RandomDistribution::Uniform:
                if (single) {
                    float lo = float(r.a), span = float(r.b) - float(r.a);
                    fill_blocks(static_cast<float*>(dst), b, e, 4, [&](uint64_t blk, float* v) {
                        Block w = generate(offset + blk, seed);
                        for (int k = 0; k < 4; ++k) v[k] = lo + span * to_unit_float(w.w[k]);
                    });
                } else {
                    double lo = r.a, span = r.b - r.a;
                    fill_blocks(static_cast<double*>(dst), b, e, 2, [&](uint64_t blk, double* v) {
                        Block w = generate(offset + blk, seed);
                        v[0] = lo + span * to_unit_double(w.w[0], w.w[1]);
                        v[1] = lo + span * to_unit_double(w.w[2], w.w[3]);
                    });
                }
                return;
            case RandomDistribution::Normal:
                if (single) {
                    float* out = static_cast<float*>(dst);
                    for (uint64_t i = b; i < e; ++i) out[i] = normal_float(seed, offset, i, float(r.a), float(r.b));
                } else {
                    double* out = static_cast<double*>(dst);
                    for (uint64_t i = b; i < e; ++i) out[i] = normal_double(seed, offset, i, r.a, r.b);
                }
                return;
            case RandomDistribution::Integers: {
                for (uint64_t i = b; i < e; ++i) {
                    uint64_t v = integer(seed, offset, i, r.int_low, r.int_range);
                    switch (dtype_size(r.dtype)) {
                        case 1: static_cast<int8_t*>(dst)[i] = int8_t(v); break;
                        case 2: static_cast<int16_t*>(dst)[i] = int16_t(v); break;
                        case 4: static_cast<int32_t*>(dst)[i] = int32_t(v); break;
                        default: static_cast<int64_t*>(dst)[i] = v; break;
                    }
                }
                return;
            }
        }
    }

    ThreadPool pool_;
    TaskQueue queue_;
    std::atomic<double> queue_overhead_ns_{kInlineNs};
    std::mutex load_mutex_;
    std::map<std::string, std::shared_ptr<CpuKernel>> loaded_;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace simt
