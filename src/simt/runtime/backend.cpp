// Backend selection and argument packing.
#include "runtime/backend.h"
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unistd.h>
#include "backend/cuda/cuda_backend.h"
#include "support/error.h"

namespace simt {

std::unique_ptr<Backend> make_cpu_backend();
std::unique_ptr<Backend> make_cuda_backend();  // null when no usable driver/GPU

namespace {
std::mutex g_mutex;
Backend* g_backend = nullptr;
}  // namespace

void ArgumentPack::add(const void* bytes, size_t size, size_t align) {
    size_t off = (data.size() + align - 1) / align * align;
    data.resize(off);  // zero padding, if any; the bytes are appended without zero-filling first
    const unsigned char* p = static_cast<const unsigned char*>(bytes);
    data.insert(data.end(), p, p + size);
    offsets.push_back(off);
}

const char* kernel_attribute_name(KernelAttribute a) {
    switch (a) {
    case KernelAttribute::MaxThreadsPerBlock: return "max_threads_per_block";
    case KernelAttribute::SharedSizeBytes: return "shared_size_bytes";
    case KernelAttribute::ConstSizeBytes: return "const_size_bytes";
    case KernelAttribute::LocalSizeBytes: return "local_size_bytes";
    case KernelAttribute::NumRegs: return "num_regs";
    case KernelAttribute::PtxVersion: return "ptx_version";
    case KernelAttribute::BinaryVersion: return "binary_version";
    case KernelAttribute::CacheModeCa: return "cache_mode_ca";
    case KernelAttribute::MaxDynamicSharedSizeBytes: return "max_dynamic_shared_size_bytes";
    case KernelAttribute::PreferredSharedMemoryCarveout: return "preferred_shared_memory_carveout";
    }
    return "unknown attribute";
}

void* Backend::allocate_host(size_t bytes) {
    // 256-byte aligned, as cuMemHostAlloc's memory is at least; any dtype's elements fit.
    void* p = std::aligned_alloc(256, (bytes + 255) / 256 * 256 + (bytes == 0 ? 256 : 0));
    if (!p) throw Error(ErrorKind::OutOfMemory, format("out of memory: cannot allocate %zu bytes of host memory", bytes));
    return p;
}

void Backend::release_host(void* ptr) noexcept { std::free(ptr); }

std::pair<size_t, size_t> Backend::memory_info(int device) {
    const size_t total = size_t(properties(device).total_memory);
    const long pages = ::sysconf(_SC_AVPHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    size_t free = pages > 0 && page > 0 ? size_t(pages) * size_t(page) : 0;
    return {free < total ? free : total, total};
}

void select_backend(const std::string& name) {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_backend) {
        if (name == g_backend->name()) return;
        raise(ErrorKind::Runtime, "the %s backend is already active; the backend is chosen once per process", g_backend->name());
    }
    std::unique_ptr<Backend> b;
    if (name == "cpu") b = make_cpu_backend();
    else if (name == "cuda") {
        b = make_cuda_backend();
        if (!b) raise(ErrorKind::Runtime, "the cuda backend is unavailable: %s\n(see python -m simt.pathfinder)",
                      cuda_unavailable_reason().c_str());
    } else {
        raise(ErrorKind::Value, "unknown backend '%s' (expected 'cpu' or 'cuda')", name.c_str());
    }
    g_backend = b.release();  // lives for the process: arrays may be freed during interpreter exit
}

void select_default_backend() {
    if (backend_selected()) return;
    const char* env = std::getenv("SIMT_BACKEND");
    if (env && *env) {
        select_backend(env);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        if (!g_backend) {
            if (std::unique_ptr<Backend> cuda = make_cuda_backend()) g_backend = cuda.release();
        }
    }
    if (!backend_selected()) select_backend("cpu");
}

bool backend_selected() {
    std::lock_guard<std::mutex> lock(g_mutex);
    return g_backend != nullptr;
}

Backend& backend() {
    if (!g_backend) select_default_backend();
    return *g_backend;
}

}  // namespace simt
