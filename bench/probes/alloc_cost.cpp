// Host cost of the driver's stream-ordered allocator for small blocks, under the settings the
// driver offers (DESIGN.md: simt uses that allocator, not a caching one of its own). Each row:
// nanoseconds per cuMemAllocAsync + cuMemFreeAsync pair of 256 bytes, min of 9 runs of 20000;
// with the stream idle, and behind ~25 ms of queued memsets (as when launches run ahead); then
// the pattern of `z = x + y` on one element: allocate the result, launch, free the previous one.
//
//   g++ -O2 -std=c++17 bench/probes/alloc_cost.cpp -ldl -o /tmp/alloc_cost && /tmp/alloc_cost
//   /tmp/alloc_cost reuse    # only the pool's reuse settings, compared in interleaved rounds
#include <dlfcn.h>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <vector>

using Result = int;
using Stream = void*;
using Pool = void*;
using Ptr = uint64_t;

struct PoolProps {  // CUmemPoolProps
    int alloc_type, handle_types;
    struct { int type, id; } location;
    void* win32;
    size_t max_size;
    unsigned short usage;
    unsigned char reserved[54];
};

#define API(name, ...) Result (*name)(__VA_ARGS__) = nullptr
API(cuInit, unsigned);
API(cuDeviceGet, int*, int);
API(cuDevicePrimaryCtxRetain, void**, int);
API(cuCtxSetCurrent, void*);
API(cuDeviceGetDefaultMemPool, Pool*, int);
API(cuMemPoolSetAttribute, Pool, int, void*);
API(cuMemPoolCreate, Pool*, const PoolProps*);
API(cuMemAllocAsync, Ptr*, size_t, Stream);
API(cuMemAllocFromPoolAsync, Ptr*, size_t, Pool, Stream);
API(cuMemFreeAsync, Ptr, Stream);
API(cuMemAlloc_v2, Ptr*, size_t);
API(cuMemFree_v2, Ptr);
API(cuStreamCreate, Stream*, unsigned);
API(cuCtxSynchronize);
API(cuMemsetD8Async, Ptr, unsigned char, size_t, Stream);
API(cuModuleLoadData, void**, const void*);
API(cuModuleGetFunction, void**, void*, const char*);
API(cuLaunchKernel, void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, Stream, void**, void**);

const char* kEmptyKernelPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry empty3(.param .u64 a, .param .u64 b, .param .u64 c) { ret; }
.visible .entry empty3s(.param .align 8 .b8 a[24], .param .align 8 .b8 b[24], .param .align 8 .b8 c[24]) { ret; }
)";

// Work queued before each timed run (none, or memsets that keep the device busy).
Ptr g_busy_buffer = 0;
size_t g_busy_bytes = 0;
int g_busy_memsets = 0;
Stream g_busy_stream = nullptr;

// Host ns per call of 20000 calls of `body` (then the device is synchronized).
template <class F>
double ns_per_call(F&& body) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 20000; ++i) body();
    double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / 20000;
    cuCtxSynchronize();
    return ns;
}

// The best of 9 runs of ns_per_call, each behind the queued work.
template <class F>
double ns_per_pair(F&& pair) {
    double best = 1e30;
    for (int rep = 0; rep < 9; ++rep) {
        for (int i = 0; i < g_busy_memsets; ++i) cuMemsetD8Async(g_busy_buffer, 0, g_busy_bytes, g_busy_stream);
        best = std::min(best, ns_per_call(pair));
    }
    return best;
}

// One step of `z = x + y` on one element: allocate the new result, launch, free the old one.
void xy_step(void* kernel, Ptr& x, Ptr& y, Ptr& z, size_t bytes, Stream s) {
    Ptr fresh;
    cuMemAllocAsync(&fresh, bytes, s);
    void* params[] = {&x, &y, &fresh};
    cuLaunchKernel(kernel, 1, 1, 1, 32, 1, 1, 0, s, params, nullptr);
    cuMemFreeAsync(z, s);
    z = fresh;
}

// The pool's reuse settings compared in rounds (each round times every setting once, so a
// drift of the host's speed during the run does not favour the ones timed later): median and
// min ns of an alloc + free pair with the stream idle, and of the x + y pattern behind queued work.
void compare_reuse_settings(Pool pool, void* empty3, size_t bytes) {
    const char* names[] = {"all reuse on (default)", "follow event dependencies off", "opportunistic off",
                           "internal dependencies off", "all three off"};
    const int settings = 5, rounds = 9;
    std::vector<double> pair_ns[settings], xy_ns[settings];
    Ptr x = 0, y = 0, z = 0;
    cuMemAllocAsync(&x, bytes, nullptr);
    cuMemAllocAsync(&y, bytes, nullptr);
    cuMemAllocAsync(&z, bytes, nullptr);
    auto apply = [&](int k) {
        for (int attr = 1; attr <= 3; ++attr) {
            int on = !(k == attr || k == 4);
            cuMemPoolSetAttribute(pool, attr, &on);
        }
    };
    for (int round = 0; round < rounds; ++round) {
        for (int j = 0; j < settings; ++j) {
            int k = (j + round) % settings;
            apply(k);
            pair_ns[k].push_back(ns_per_call([&] { Ptr p; cuMemAllocAsync(&p, bytes, nullptr); cuMemFreeAsync(p, nullptr); }));
            for (int i = 0; i < g_busy_memsets; ++i) cuMemsetD8Async(g_busy_buffer, 0, g_busy_bytes, nullptr);
            xy_ns[k].push_back(ns_per_call([&] { xy_step(empty3, x, y, z, bytes, nullptr); }));
        }
    }
    apply(0);
    std::printf("%-34s %12s %12s %12s %12s\n", "pool reuse setting (interleaved)", "pair median", "pair min",
                "x+y median", "x+y min");
    for (int k = 0; k < settings; ++k) {
        std::sort(pair_ns[k].begin(), pair_ns[k].end());
        std::sort(xy_ns[k].begin(), xy_ns[k].end());
        std::printf("%-34s %12.0f %12.0f %12.0f %12.0f\n", names[k], pair_ns[k][rounds / 2], pair_ns[k][0],
                    xy_ns[k][rounds / 2], xy_ns[k][0]);
    }
}

int main(int argc, char** argv) {
    void* lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib) { std::puts("no libcuda"); return 1; }
#define LOAD(name) name = reinterpret_cast<decltype(name)>(dlsym(lib, #name))
    LOAD(cuInit); LOAD(cuDeviceGet); LOAD(cuDevicePrimaryCtxRetain); LOAD(cuCtxSetCurrent);
    LOAD(cuDeviceGetDefaultMemPool); LOAD(cuMemPoolSetAttribute); LOAD(cuMemPoolCreate);
    LOAD(cuMemAllocAsync); LOAD(cuMemAllocFromPoolAsync); LOAD(cuMemFreeAsync); LOAD(cuMemAlloc_v2);
    LOAD(cuMemFree_v2); LOAD(cuStreamCreate); LOAD(cuCtxSynchronize); LOAD(cuMemsetD8Async);
    LOAD(cuModuleLoadData); LOAD(cuModuleGetFunction); LOAD(cuLaunchKernel);
    int dev = 0;
    void* ctx = nullptr;
    if (cuInit(0) || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx)) return 1;
    Pool pool = nullptr;
    cuDeviceGetDefaultMemPool(&pool, dev);
    uint64_t keep = ~uint64_t(0);
    cuMemPoolSetAttribute(pool, 4 /* RELEASE_THRESHOLD */, &keep);
    Stream blocking = nullptr, non_blocking = nullptr;
    cuStreamCreate(&blocking, 0);
    cuStreamCreate(&non_blocking, 1);
    const size_t bytes = 256;
    auto async_pair = [&](Stream s) {
        return [&, s] { Ptr p; cuMemAllocAsync(&p, bytes, s); cuMemFreeAsync(p, s); };
    };
    std::printf("%-58s %8s\n", "allocator setting (256 B alloc + free)", "ns/pair");
    std::printf("%-58s %8.0f\n", "default pool, legacy stream (what simt does)", ns_per_pair(async_pair(nullptr)));
    std::printf("%-58s %8.0f\n", "default pool, per-thread default stream", ns_per_pair(async_pair(reinterpret_cast<Stream>(2))));
    std::printf("%-58s %8.0f\n", "default pool, created blocking stream", ns_per_pair(async_pair(blocking)));
    std::printf("%-58s %8.0f\n", "default pool, created non-blocking stream", ns_per_pair(async_pair(non_blocking)));
    // Keep a block live so the pool never empties (the steady state of a program with arrays).
    Ptr live = 0;
    cuMemAllocAsync(&live, bytes, nullptr);
    std::printf("%-58s %8.0f\n", "default pool, legacy stream, one block live", ns_per_pair(async_pair(nullptr)));
    const char* reuse_names[] = {"", "follow event dependencies", "allow opportunistic", "allow internal dependencies"};
    for (int attr = 1; attr <= 3; ++attr) {
        int off = 0, on = 1;
        cuMemPoolSetAttribute(pool, attr, &off);
        char label[96];
        std::snprintf(label, sizeof label, "default pool, legacy stream, no reuse: %s", reuse_names[attr]);
        std::printf("%-58s %8.0f\n", label, ns_per_pair(async_pair(nullptr)));
        cuMemPoolSetAttribute(pool, attr, &on);
    }
    PoolProps props{};
    props.alloc_type = 1;      // pinned
    props.location.type = 1;   // device
    props.location.id = dev;
    Pool own = nullptr;
    if (cuMemPoolCreate(&own, &props) == 0) {
        cuMemPoolSetAttribute(own, 4, &keep);
        std::printf("%-58s %8.0f\n", "created pool, legacy stream (cuMemAllocFromPoolAsync)",
                    ns_per_pair([&] { Ptr p; cuMemAllocFromPoolAsync(&p, bytes, own, nullptr); cuMemFreeAsync(p, nullptr); }));
    }
    // The same behind queued work: 80 memsets of 1 GiB (~0.3 ms each) on the legacy stream.
    g_busy_bytes = size_t(1) << 30;
    if (cuMemAlloc_v2(&g_busy_buffer, g_busy_bytes) == 0) {
        g_busy_memsets = 80;
        std::printf("%-58s %8.0f\n", "BUSY: default pool, legacy stream", ns_per_pair(async_pair(nullptr)));
        std::printf("%-58s %8.0f\n", "BUSY: default pool, created non-blocking stream", ns_per_pair(async_pair(non_blocking)));
        std::printf("%-58s %8.0f\n", "BUSY: memsets only (for scale: no allocation)", ns_per_pair([] {}));
        void* module = nullptr;
        void* empty3 = nullptr;
        if (cuModuleLoadData(&module, kEmptyKernelPtx) == 0 && cuModuleGetFunction(&empty3, module, "empty3") == 0) {
            Ptr x = 0, y = 0, z = 0;
            cuMemAllocAsync(&x, bytes, nullptr);
            cuMemAllocAsync(&y, bytes, nullptr);
            cuMemAllocAsync(&z, bytes, nullptr);
            auto launch = [&](Ptr out) {
                void* params[] = {&x, &y, &out};
                cuLaunchKernel(empty3, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr);
            };
            if (argc > 1 && std::strcmp(argv[1], "reuse") == 0) {
                compare_reuse_settings(pool, empty3, bytes);
                return 0;
            }
            std::printf("%-58s %8.0f\n", "BUSY: empty 3-pointer kernel launch", ns_per_pair([&] { launch(z); }));
            // The arguments as one buffer (the driver's `extra` launch option) instead of an
            // array of pointers, and with simt's 24-byte 1-D array structs.
            std::printf("%-58s %8.0f\n", "BUSY: the same launch, arguments as one buffer", ns_per_pair([&] {
                Ptr packed[3] = {x, y, z};
                size_t size = sizeof packed;
                void* extra[] = {(void*)1, packed, (void*)2, &size, (void*)0};
                cuLaunchKernel(empty3, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, extra);
            }));
            void* empty3s = nullptr;
            if (cuModuleGetFunction(&empty3s, module, "empty3s") == 0) {
                struct Array1d { Ptr data; int64_t shape, stride; } arrays[3] = {{x, 1, 4}, {y, 1, 4}, {z, 1, 4}};
                std::printf("%-58s %8.0f\n", "BUSY: 3 x 24-byte struct arguments, pointer array", ns_per_pair([&] {
                    void* params[] = {&arrays[0], &arrays[1], &arrays[2]};
                    cuLaunchKernel(empty3s, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr);
                }));
                std::printf("%-58s %8.0f\n", "BUSY: 3 x 24-byte struct arguments, one buffer", ns_per_pair([&] {
                    size_t size = sizeof arrays;
                    void* extra[] = {(void*)1, arrays, (void*)2, &size, (void*)0};
                    cuLaunchKernel(empty3s, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, extra);
                }));
            }
            // The launch and the x + y pattern on each kind of stream, the queued work on that
            // stream too (the legacy stream synchronizes with blocking streams; others need not).
            Stream streams[] = {nullptr, reinterpret_cast<Stream>(2), blocking, non_blocking};
            const char* stream_names[] = {"legacy", "per-thread default", "created blocking", "created non-blocking"};
            for (int k = 0; k < 4; ++k) {
                Stream s = streams[k];
                g_busy_stream = s;
                char label[96];
                std::snprintf(label, sizeof label, "BUSY: empty 3-pointer launch, %s stream", stream_names[k]);
                std::printf("%-58s %8.0f\n", label, ns_per_pair([&] {
                    void* params[] = {&x, &y, &z};
                    cuLaunchKernel(empty3, 1, 1, 1, 32, 1, 1, 0, s, params, nullptr);
                }));
                std::snprintf(label, sizeof label, "BUSY: z = x + y pattern, %s stream", stream_names[k]);
                std::printf("%-58s %8.0f\n", label, ns_per_pair([&] { xy_step(empty3, x, y, z, bytes, s); }));
            }
            g_busy_stream = nullptr;
            std::printf("%-58s %8.0f\n", "BUSY: alloc + free, then launch", ns_per_pair([&] {
                Ptr p;
                cuMemAllocAsync(&p, bytes, nullptr);
                cuMemFreeAsync(p, nullptr);
                launch(z);
            }));
            std::printf("%-58s %8.0f\n", "BUSY: z = x + y: alloc new z, launch, free old z", ns_per_pair([&] { xy_step(empty3, x, y, z, bytes, nullptr); }));
        }
        g_busy_memsets = 0;
    }
    std::printf("%-58s %8.0f\n", "cuMemAlloc + cuMemFree (synchronous, for scale)",
                ns_per_pair([&] { Ptr p; cuMemAlloc_v2(&p, bytes); cuMemFree_v2(p); }));
    return 0;
}
