// A stand-in for libcuda.so.1 that lets the cuda backend run on a machine without a GPU, for
// tests: device memory is host memory, streams and events complete at once, modules must be
// real NVRTC output (cubin ELF or PTX) naming the requested symbols, launches are checked the
// way the driver checks them and recorded, and simt's built-in kernels are emulated with the
// same Philox code so fills and random numbers can be compared. Calls that need a context fail
// with CUDA_ERROR_INVALID_CONTEXT unless one is current on the calling thread.
//
// Built by the tests (tests/python/test_cuda_mock.py, tests/cpp/CMakeLists.txt) as libcuda.so.1.
// Test hooks (mock_cuda_*) report what the backend did and inject failures.
#include <sys/mman.h>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>
#include <condition_variable>
#include <deque>
#include <thread>
#include "array/philox.h"

namespace {

enum : int {
    kSuccess = 0, kInvalidValue = 1, kOutOfMemory = 2, kNotInitialized = 3, kInvalidDevice = 101,
    kInvalidImage = 200, kInvalidContext = 201, kInvalidHandle = 400, kNotFound = 500,
};

struct Module;
struct Function {
    std::string name;
    Module* module;
};
struct Module {
    std::string image;
    std::map<std::string, Function*> functions;
    void* errors = nullptr;  // the simt_errors record, when the image defines one
};
struct Event {
    unsigned flags;
    bool recorded = false;
    double ms = 0;
};
struct Stream {
    unsigned flags;
};

std::mutex g_mutex;
bool g_initialized = false;
int g_devices = 1;
size_t g_total = size_t(1) << 30;
size_t g_in_use = 0;
std::map<uintptr_t, size_t> g_allocations;  // device pointer → size
int g_host_allocations = 0;
char g_contexts[8];
char g_pools[8];
thread_local void* t_context = nullptr;
uint64_t g_release_threshold = 0;
long g_launches = 0;
std::string g_last_name;
unsigned g_last_dims[7];
void* g_last_stream = nullptr;
// The stream of the latest operation of each kind ("alloc", "htod", "dtod", "memset").
std::map<std::string, void*> g_last_streams;
unsigned char g_last_param0[24];
unsigned char g_last_param1[8];
bool g_inject = false;
int64_t g_inject_index = 0, g_inject_shape = 0;

// Host functions (cuLaunchHostFunc) run in order on a thread of the stand-in's, as the driver
// runs them on one of its own; the synchronizing calls wait until those queued so far have run
// (all other work completes at once).
struct HostFuncs {
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<std::pair<void (*)(void*), void*>> queue;
    bool running = false;
    long launched = 0;
    bool started = false;

    void push(void (*fn)(void*), void* data) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!started) {
            started = true;
            std::thread([this] { work(); }).detach();
        }
        queue.emplace_back(fn, data);
        ++launched;
        changed.notify_all();
    }
    void work() {
        std::unique_lock<std::mutex> lock(mutex);
        while (true) {
            changed.wait(lock, [&] { return !queue.empty(); });
            auto call = queue.front();
            queue.pop_front();
            running = true;
            lock.unlock();
            call.first(call.second);
            lock.lock();
            running = false;
            changed.notify_all();
        }
    }
    void drain() {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return queue.empty() && !running; });
    }
};
HostFuncs& g_host_funcs = *new HostFuncs;  // (never destroyed: its thread waits on it until the process ends)

int env_int(const char* name, int fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::atoi(v) : fallback;
}

bool has_context() { return t_context != nullptr; }

double now_ms() {
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

bool is_device_range(uintptr_t p, size_t n) {
    auto it = g_allocations.upper_bound(p);
    if (it == g_allocations.begin()) return false;
    --it;
    return p >= it->first && p + n <= it->first + it->second;
}

template <class T>
void read_param(void** params, int i, T& out) {
    std::memcpy(&out, params[i], sizeof(T));
}

// simt's built-in kernels, by their parameter lists in builtin_kernels.cuh.
bool emulate_builtin(const std::string& name, void** p) {
    using namespace simt_philox;
    uint64_t n, seed, offset;
    if (name == "simt_fill_u64") {
        uint64_t* dst; uint64_t v;
        read_param(p, 0, dst); read_param(p, 1, v); read_param(p, 2, n);
        for (uint64_t i = 0; i < n; ++i) dst[i] = v;
        return true;
    }
    if (name == "simt_fill_u128") {
        uint64_t* dst; uint64_t lo, hi;
        read_param(p, 0, dst); read_param(p, 1, lo); read_param(p, 2, hi); read_param(p, 3, n);
        for (uint64_t i = 0; i < n; ++i) { dst[2 * i] = lo; dst[2 * i + 1] = hi; }
        return true;
    }
    if (name.rfind("simt_uniform_", 0) == 0 || name.rfind("simt_normal_", 0) == 0 || name.rfind("simt_integers_", 0) == 0) {
        void* out;
        read_param(p, 0, out); read_param(p, 1, n); read_param(p, 2, seed); read_param(p, 3, offset);
        if (name == "simt_uniform_f64") {
            double lo, span;
            read_param(p, 4, lo); read_param(p, 5, span);
            fill_blocks(static_cast<double*>(out), 0, n, 2, [&](uint64_t b, double* v) {
                Block w = generate(offset + b, seed);
                v[0] = lo + span * to_unit_double(w.w[0], w.w[1]);
                v[1] = lo + span * to_unit_double(w.w[2], w.w[3]);
            });
        } else if (name == "simt_uniform_f32") {
            float lo, span;
            read_param(p, 4, lo); read_param(p, 5, span);
            fill_blocks(static_cast<float*>(out), 0, n, 4, [&](uint64_t b, float* v) {
                Block w = generate(offset + b, seed);
                for (int k = 0; k < 4; ++k) v[k] = lo + span * to_unit_float(w.w[k]);
            });
        } else if (name == "simt_normal_f64") {
            double mean, sd;
            read_param(p, 4, mean); read_param(p, 5, sd);
            for (uint64_t i = 0; i < n; ++i) static_cast<double*>(out)[i] = normal_double(seed, offset, i, mean, sd);
        } else if (name == "simt_normal_f32") {
            float mean, sd;
            read_param(p, 4, mean); read_param(p, 5, sd);
            for (uint64_t i = 0; i < n; ++i) static_cast<float*>(out)[i] = normal_float(seed, offset, i, mean, sd);
        } else {
            int64_t lo, hi;
            read_param(p, 4, lo); read_param(p, 5, hi);
            int size = std::atoi(name.c_str() + std::strlen("simt_integers_"));
            for (uint64_t i = 0; i < n; ++i) {
                int64_t v = integer(seed, offset, i, lo, hi);
                if (size == 1) static_cast<int8_t*>(out)[i] = int8_t(v);
                else if (size == 2) static_cast<int16_t*>(out)[i] = int16_t(v);
                else if (size == 4) static_cast<int32_t*>(out)[i] = int32_t(v);
                else static_cast<int64_t*>(out)[i] = v;
            }
        }
        return true;
    }
    return false;
}

template <class T>
int memset_device(uint64_t dst, T v, size_t n) {
    if (!has_context()) return kInvalidContext;
    if (dst % sizeof(T) != 0) return kInvalidValue;
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!is_device_range(uintptr_t(dst), n * sizeof(T))) return kInvalidValue;
    T* p = reinterpret_cast<T*>(dst);
    for (size_t i = 0; i < n; ++i) p[i] = v;
    return kSuccess;
}
}  // namespace

extern "C" {

// ---- test hooks ----------------------------------------------------------------------------
long mock_cuda_launch_count() { return g_launches; }
// Name, grid and block dims, shared bytes, stream, and the leading bytes of parameters 0 and 1.
void* mock_cuda_last_stream(const char* kind) {
    auto it = g_last_streams.find(kind);
    return it == g_last_streams.end() ? reinterpret_cast<void*>(-1) : it->second;
}
void mock_cuda_last_launch(char* name, size_t name_size, unsigned* dims, void** stream, unsigned char* param0,
                           unsigned char* param1) {
    std::lock_guard<std::mutex> lock(g_mutex);
    std::snprintf(name, name_size, "%s", g_last_name.c_str());
    std::memcpy(dims, g_last_dims, sizeof g_last_dims);
    *stream = g_last_stream;
    std::memcpy(param0, g_last_param0, sizeof g_last_param0);
    std::memcpy(param1, g_last_param1, sizeof g_last_param1);
}
size_t mock_cuda_bytes_in_use() { return g_in_use; }
int mock_cuda_host_allocations() { return g_host_allocations; }
uint64_t mock_cuda_release_threshold() { return g_release_threshold; }
// The next launch of a kernel with a bounds record reports `index` out of range for `shape`.
void mock_cuda_inject_bounds_error(int64_t index, int64_t shape) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_inject = true;
    g_inject_index = index;
    g_inject_shape = shape;
}

// ---- driver API ----------------------------------------------------------------------------
int cuInit(unsigned flags) {
    if (flags != 0) return kInvalidValue;
    g_devices = env_int("SIMT_MOCK_CUDA_DEVICES", 1);
    if (g_devices > 8) g_devices = 8;
    g_total = size_t(env_int("SIMT_MOCK_CUDA_MEMORY_MB", 1024)) << 20;
    g_initialized = true;
    return kSuccess;
}
int cuDriverGetVersion(int* v) { *v = 13000; return kSuccess; }
// NVRTC looks this up in whatever libcuda.so.1 is loaded; the stand-in has no private tables.
int cuGetExportTable(const void** table, const void*) {
    *table = nullptr;
    return kNotFound;
}
int cuGetErrorName(int e, const char** s) {
    switch (e) {
        case kSuccess: *s = "CUDA_SUCCESS"; return kSuccess;
        case kInvalidValue: *s = "CUDA_ERROR_INVALID_VALUE"; return kSuccess;
        case kOutOfMemory: *s = "CUDA_ERROR_OUT_OF_MEMORY"; return kSuccess;
        case kNotInitialized: *s = "CUDA_ERROR_NOT_INITIALIZED"; return kSuccess;
        case kInvalidDevice: *s = "CUDA_ERROR_INVALID_DEVICE"; return kSuccess;
        case kInvalidImage: *s = "CUDA_ERROR_INVALID_IMAGE"; return kSuccess;
        case kInvalidContext: *s = "CUDA_ERROR_INVALID_CONTEXT"; return kSuccess;
        case kInvalidHandle: *s = "CUDA_ERROR_INVALID_HANDLE"; return kSuccess;
        case kNotFound: *s = "CUDA_ERROR_NOT_FOUND"; return kSuccess;
        default: *s = nullptr; return kInvalidValue;
    }
}
int cuGetErrorString(int e, const char** s) {
    switch (e) {  // the driver's short texts
        case kSuccess: *s = "no error"; return kSuccess;
        case kInvalidValue: *s = "invalid argument"; return kSuccess;
        case kOutOfMemory: *s = "out of memory"; return kSuccess;
        case kNotInitialized: *s = "initialization error"; return kSuccess;
        case kInvalidDevice: *s = "invalid device ordinal"; return kSuccess;
        case kInvalidImage: *s = "device kernel image is invalid"; return kSuccess;
        case kInvalidContext: *s = "invalid device context"; return kSuccess;
        case kInvalidHandle: *s = "invalid resource handle"; return kSuccess;
        case kNotFound: *s = "named symbol not found"; return kSuccess;
        default: *s = nullptr; return kInvalidValue;
    }
}
int cuDeviceGetCount(int* n) {
    if (!g_initialized) return kNotInitialized;
    *n = g_devices;
    return kSuccess;
}
int cuDeviceGet(int* d, int ordinal) {
    if (ordinal < 0 || ordinal >= g_devices) return kInvalidDevice;
    *d = ordinal;
    return kSuccess;
}
int cuDeviceGetName(char* name, int len, int d) {
    if (d < 0 || d >= g_devices) return kInvalidDevice;
    std::snprintf(name, size_t(len), "simt mock GPU %d", d);
    return kSuccess;
}
int cuDeviceGetAttribute(int* v, int attr, int d) {
    if (d < 0 || d >= g_devices) return kInvalidDevice;
    switch (attr) {
        case 1: *v = 1024; break;                 // max threads per block
        case 2: case 3: *v = 1024; break;         // max block x, y
        case 4: *v = 64; break;                   // max block z
        case 5: *v = 2147483647; break;           // max grid x
        case 6: case 7: *v = 65535; break;        // max grid y, z
        case 8: *v = 48 * 1024; break;            // shared memory per block
        case 10: *v = 32; break;                  // warp size
        case 16: *v = 132; break;                 // multiprocessors
        case 75: *v = 9; break;                   // compute capability
        case 76: *v = 0; break;
        case 115: *v = 1; break;                  // memory pools supported
        default: *v = 0; break;
    }
    return kSuccess;
}
int cuDeviceTotalMem_v2(size_t* bytes, int d) {
    if (d < 0 || d >= g_devices) return kInvalidDevice;
    *bytes = g_total;
    return kSuccess;
}
int cuDevicePrimaryCtxRetain(void** ctx, int d) {
    if (!g_initialized) return kNotInitialized;
    if (d < 0 || d >= g_devices) return kInvalidDevice;
    *ctx = &g_contexts[d];
    return kSuccess;
}
int cuCtxSetCurrent(void* ctx) { t_context = ctx; return kSuccess; }
int cuCtxGetCurrent(void** ctx) { *ctx = t_context; return kSuccess; }
int cuCtxSynchronize() {
    if (!has_context()) return kInvalidContext;
    g_host_funcs.drain();
    return kSuccess;
}

int cuModuleLoadData(void** module, const void* image) {
    if (!has_context()) return kInvalidContext;
    const char* bytes = static_cast<const char*>(image);
    std::string img;
    if (std::memcmp(bytes, "\x7f" "ELF", 4) == 0) {
        // A cubin: the section headers give its size.
        uint64_t shoff;
        uint16_t shentsize, shnum;
        std::memcpy(&shoff, bytes + 0x28, 8);
        std::memcpy(&shentsize, bytes + 0x3A, 2);
        std::memcpy(&shnum, bytes + 0x3C, 2);
        img.assign(bytes, size_t(shoff + uint64_t(shentsize) * shnum));
    } else {
        img = bytes;  // PTX: NUL-terminated text
        if (img.find(".version") == std::string::npos || img.find(".target") == std::string::npos) return kInvalidImage;
    }
    auto* m = new Module{img, {}, nullptr};
    *module = m;
    return kSuccess;
}
int cuModuleUnload(void* m) { delete static_cast<Module*>(m); return kSuccess; }

// cuModuleLoadDataEx: the JIT path for PTX. Counts the PTX it compiled and can refuse PTX with a
// log line: mode 1 every PTX, as a driver too old for it would (CUDA_ERROR_UNSUPPORTED_PTX_VERSION);
// mode 2 only the first PTX, as for one kernel's own error (CUDA_ERROR_INVALID_PTX).
int g_ptx_jits = 0, g_ptx_jit_attempts = 0;
int g_refuse_ptx = 0;
int mock_cuda_ptx_jits() { return g_ptx_jits; }
int mock_cuda_ptx_jit_attempts() { return g_ptx_jit_attempts; }
void mock_cuda_refuse_ptx(int mode) { g_refuse_ptx = mode; }
int cuModuleLoadDataEx(void** module, const void* image, unsigned n, int* keys, void** values) {
    bool ptx = std::memcmp(image, "\x7f" "ELF", 4) != 0;
    if (ptx) {
        ++g_ptx_jit_attempts;
        if (g_refuse_ptx == 1 || (g_refuse_ptx == 2 && g_ptx_jit_attempts == 1)) {
            for (unsigned i = 0; i < n; ++i)
                if (keys[i] == 5) std::strcpy(static_cast<char*>(values[i]), "ptxas error: refused by the stand-in");
            return g_refuse_ptx == 1 ? 222 : 218;
        }
    }
    int r = cuModuleLoadData(module, image);
    g_ptx_jits += ptx && r == kSuccess;
    return r;
}
int cuModuleGetFunction(void** f, void* module, const char* name) {
    auto* m = static_cast<Module*>(module);
    if (!m) return kInvalidHandle;
    if (m->image.find(name) == std::string::npos) return kNotFound;
    auto& slot = m->functions[name];
    if (!slot) slot = new Function{name, m};
    *f = slot;
    return kSuccess;
}
int cuModuleGetGlobal_v2(uint64_t* ptr, size_t* bytes, void* module, const char* name) {
    auto* m = static_cast<Module*>(module);
    if (!m) return kInvalidHandle;
    if (std::strcmp(name, "simt_errors") != 0 || m->image.find(name) == std::string::npos) return kNotFound;
    if (!m->errors) {
        m->errors = std::calloc(1, 144);
        std::lock_guard<std::mutex> lock(g_mutex);
        g_allocations[uintptr_t(m->errors)] = 144;
    }
    *ptr = uint64_t(uintptr_t(m->errors));
    if (bytes) *bytes = 144;
    return kSuccess;
}
int cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                   unsigned shared, void* stream, void** params, void** extra) {
    if (!has_context()) return kInvalidContext;
    auto* fn = static_cast<Function*>(f);
    if (!fn) return kInvalidHandle;
    if (extra) return kInvalidValue;
    if (gx < 1 || gy < 1 || gz < 1 || gx > 2147483647u || gy > 65535 || gz > 65535) return kInvalidValue;
    if (bx < 1 || by < 1 || bz < 1 || bx > 1024 || by > 1024 || bz > 64 || uint64_t(bx) * by * bz > 1024) return kInvalidValue;
    if (shared > 48 * 1024) return kInvalidValue;
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        ++g_launches;
        g_last_name = fn->name;
        unsigned dims[7] = {gx, gy, gz, bx, by, bz, shared};
        std::memcpy(g_last_dims, dims, sizeof dims);
        g_last_stream = stream;
        std::memset(g_last_param0, 0, sizeof g_last_param0);
        std::memset(g_last_param1, 0, sizeof g_last_param1);
        // User kernels: parameter 0 is an array struct. simt ends its list with a null (the
        // mock cannot tell a kernel's parameter count; reading past the list crashed it).
        if (params && params[0] && fn->name.rfind("simt_", 0) != 0) {
            std::memcpy(g_last_param0, params[0], sizeof g_last_param0);
            if (params[1]) std::memcpy(g_last_param1, params[1], sizeof g_last_param1);
        }
        if (g_inject && fn->module->errors) {
            g_inject = false;
            int32_t head[4] = {1, 0, 1, 0};  // flag, site, ndim, pad
            auto* rec = static_cast<unsigned char*>(fn->module->errors);
            std::memcpy(rec, head, sizeof head);
            std::memcpy(rec + 16, &g_inject_index, 8);
            std::memcpy(rec + 16 + 64, &g_inject_shape, 8);
        }
    }
    emulate_builtin(fn->name, params);
    return kSuccess;
}

int cuStreamCreate(void** s, unsigned flags) {
    if (!has_context()) return kInvalidContext;
    *s = new Stream{flags};
    return kSuccess;
}
int cuStreamDestroy_v2(void* s) { delete static_cast<Stream*>(s); return kSuccess; }
int cuStreamSynchronize(void*) {
    if (!has_context()) return kInvalidContext;
    g_host_funcs.drain();
    return kSuccess;
}
int cuLaunchHostFunc(void*, void (*fn)(void*), void* data) {
    if (!has_context()) return kInvalidContext;
    if (!fn) return kInvalidValue;
    g_host_funcs.push(fn, data);
    return kSuccess;
}
long mock_cuda_host_funcs_launched() { return g_host_funcs.launched; }
int cuStreamQuery(void*) { return has_context() ? kSuccess : kInvalidContext; }
int cuStreamGetFlags(void* s, unsigned* flags) {
    *flags = s ? static_cast<Stream*>(s)->flags : 0;
    return kSuccess;
}
int cuStreamWaitEvent(void*, void* e, unsigned) { return e ? kSuccess : kInvalidHandle; }
int cuEventCreate(void** e, unsigned flags) {
    if (!has_context()) return kInvalidContext;
    *e = new Event{flags};
    return kSuccess;
}
int cuEventDestroy_v2(void* e) { delete static_cast<Event*>(e); return kSuccess; }
int cuEventRecord(void* e, void*) {
    if (!has_context()) return kInvalidContext;
    auto* ev = static_cast<Event*>(e);
    ev->recorded = true;
    ev->ms = now_ms();
    return kSuccess;
}
int cuEventSynchronize(void* e) {
    if (!e) return kInvalidHandle;
    g_host_funcs.drain();
    return kSuccess;
}
int cuEventQuery(void* e) { return e ? kSuccess : kInvalidHandle; }
int cuEventElapsedTime_v2(float* ms, void* a, void* b) {
    auto *s = static_cast<Event*>(a), *e = static_cast<Event*>(b);
    if (!s || !e || !s->recorded || !e->recorded || (s->flags & 2) || (e->flags & 2)) return kInvalidHandle;
    *ms = float(e->ms - s->ms);
    return kSuccess;
}
int cuDeviceGetDefaultMemPool(void** pool, int d) {
    if (d < 0 || d >= g_devices) return kInvalidDevice;
    *pool = &g_pools[d];
    return kSuccess;
}
int cuMemPoolSetAttribute(void*, int attr, void* value) {
    if (attr == 4) std::memcpy(&g_release_threshold, value, 8);
    return kSuccess;
}
int g_trims = 0;
int mock_cuda_pool_trims() { return g_trims; }
int cuMemPoolTrimTo(void*, size_t) { ++g_trims; return kSuccess; }
constexpr size_t kMockMmapBytes = size_t(1) << 20;
int cuMemAllocAsync(uint64_t* ptr, size_t bytes, void* stream) {
    if (!has_context()) return kInvalidContext;
    g_last_streams["alloc"] = stream;
    if (bytes == 0) return kInvalidValue;
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_in_use + bytes > g_total) return kOutOfMemory;
    // Small blocks from malloc, so host-overhead probes are not timing mmap; big ones reserved lazily.
    void* p = bytes < kMockMmapBytes ? std::malloc(bytes)
                                     : ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED || !p) return kOutOfMemory;
    g_allocations[uintptr_t(p)] = bytes;
    g_in_use += bytes;
    *ptr = uint64_t(uintptr_t(p));
    return kSuccess;
}
int cuMemFreeAsync(uint64_t ptr, void*) {
    if (!has_context()) return kInvalidContext;
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = g_allocations.find(uintptr_t(ptr));
    if (it == g_allocations.end()) return kInvalidValue;
    if (it->second < kMockMmapBytes) std::free(reinterpret_cast<void*>(ptr));
    else ::munmap(reinterpret_cast<void*>(ptr), it->second);
    g_in_use -= it->second;
    g_allocations.erase(it);
    return kSuccess;
}
// The synchronous forms (simt.bindings.driver): the mock's streams are instant anyway.
int cuMemAlloc_v2(uint64_t* ptr, size_t bytes) { return cuMemAllocAsync(ptr, bytes, nullptr); }
int cuMemFree_v2(uint64_t ptr) { return cuMemFreeAsync(ptr, nullptr); }
int cuMemcpyHtoDAsync_v2(uint64_t dst, const void* src, size_t n, void* stream);
int cuMemcpyDtoHAsync_v2(void* dst, uint64_t src, size_t n, void* stream);
int cuMemcpyHtoD_v2(uint64_t dst, const void* src, size_t n) { return cuMemcpyHtoDAsync_v2(dst, src, n, nullptr); }
int cuMemcpyDtoH_v2(void* dst, uint64_t src, size_t n) { return cuMemcpyDtoHAsync_v2(dst, src, n, nullptr); }
int cuMemGetInfo_v2(size_t* free, size_t* total) {
    if (!has_context()) return kInvalidContext;
    std::lock_guard<std::mutex> lock(g_mutex);
    *free = g_total - g_in_use;
    *total = g_total;
    return kSuccess;
}
int cuMemHostAlloc(void** p, size_t bytes, unsigned) {
    if (!has_context()) return kInvalidContext;
    *p = std::malloc(bytes);
    ++g_host_allocations;
    return *p ? kSuccess : kOutOfMemory;
}
int cuMemFreeHost(void* p) {
    std::free(p);
    --g_host_allocations;
    return kSuccess;
}
// Page-locking existing host memory: the mock only tracks which ranges are registered.
std::map<uintptr_t, size_t> g_registered;
int cuMemHostRegister_v2(void* p, size_t bytes, unsigned) {
    if (!has_context()) return kInvalidContext;
    if (!p || bytes == 0) return kInvalidValue;
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!g_registered.emplace(uintptr_t(p), bytes).second) return 712;  // CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED
    return kSuccess;
}
int cuMemHostUnregister(void* p) {
    std::lock_guard<std::mutex> lock(g_mutex);
    return g_registered.erase(uintptr_t(p)) ? kSuccess : 713;  // CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED
}
long mock_cuda_registered_ranges() { return long(g_registered.size()); }
// Mapped host memory is addressed by kernels at its host address (unified addressing).
int cuMemHostGetDevicePointer_v2(uint64_t* device, void* host, unsigned) {
    if (!has_context()) return kInvalidContext;
    *device = uint64_t(uintptr_t(host));
    return kSuccess;
}
// A profiler's capture range: counted, for the test of cuda.profiling().
long g_profiler_calls = 0;
int cuProfilerStart() { return ++g_profiler_calls, kSuccess; }
int cuProfilerStop() { return ++g_profiler_calls, kSuccess; }
long mock_cuda_profiler_calls() { return g_profiler_calls; }
// Managed memory: host memory the mock frees with cuMemFree like device memory.
long g_managed_allocations = 0;
int cuMemAllocManaged(uint64_t* ptr, size_t bytes, unsigned) { return ++g_managed_allocations, cuMemAllocAsync(ptr, bytes, nullptr); }
long mock_cuda_managed_allocations() { return g_managed_allocations; }
// What the pool holds: the mock keeps no freed memory, so what is in use.
int cuMemPoolGetAttribute(void*, int attr, void* value) {
    if (attr != 5 && attr != 7) return kInvalidValue;
    std::lock_guard<std::mutex> lock(g_mutex);
    uint64_t bytes = g_in_use;
    std::memcpy(value, &bytes, 8);
    return kSuccess;
}
int cuMemcpyHtoDAsync_v2(uint64_t dst, const void* src, size_t n, void* stream) {
    if (!has_context()) return kInvalidContext;
    g_last_streams["htod"] = stream;
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!is_device_range(uintptr_t(dst), n)) return kInvalidValue;
    std::memcpy(reinterpret_cast<void*>(dst), src, n);
    return kSuccess;
}
int cuMemcpyDtoHAsync_v2(void* dst, uint64_t src, size_t n, void*) {
    if (!has_context()) return kInvalidContext;
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!is_device_range(uintptr_t(src), n)) return kInvalidValue;
    std::memcpy(dst, reinterpret_cast<void*>(src), n);
    return kSuccess;
}
int cuMemcpyDtoDAsync_v2(uint64_t dst, uint64_t src, size_t n, void* stream) {
    if (!has_context()) return kInvalidContext;
    g_last_streams["dtod"] = stream;
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!is_device_range(uintptr_t(dst), n) || !is_device_range(uintptr_t(src), n)) return kInvalidValue;
    std::memmove(reinterpret_cast<void*>(dst), reinterpret_cast<void*>(src), n);
    return kSuccess;
}
int cuMemsetD8Async(uint64_t d, unsigned char v, size_t n, void* stream) {
    g_last_streams["memset"] = stream;
    return memset_device(d, v, n);
}
int cuMemsetD16Async(uint64_t d, unsigned short v, size_t n, void* stream) {
    g_last_streams["memset"] = stream;
    return memset_device(d, v, n);
}
int cuMemsetD32Async(uint64_t d, unsigned v, size_t n, void* stream) {
    g_last_streams["memset"] = stream;
    return memset_device(d, v, n);
}
int cuPointerGetAttribute(void* data, int attr, uint64_t ptr) {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (attr != 9 || !is_device_range(uintptr_t(ptr), 1)) return kInvalidValue;
    *static_cast<int*>(data) = 0;
    return kSuccess;
}

}  // extern "C"
