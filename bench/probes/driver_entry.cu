// Whether the way simt reaches the driver costs host time: the same operations (an empty
// 3-pointer launch; z = x + y on one element: stream-ordered alloc, add kernel, free) through
// the runtime API (<<<>>>, cudaMallocAsync), through driver entry points found with dlsym (as
// simt binds them), and through cuGetProcAddress (as the runtime finds them), each behind a
// ~20 ms spin kernel, in interleaved rounds; prints the median ns per operation. Also simt's
// 7-parameter signature for the add (also passed as one buffer), and memory touched between operations (as a Python program
// does between driver calls), to see whether either slows the driver.
//   nvcc -O2 -std=c++17 -arch=sm_90 bench/probes/driver_entry.cu -o /tmp/driver_entry -ldl -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>
#include "timed_rounds.cuh"

__global__ void empty3(float*, float*, float*) {}
__global__ void add1(const float* x, const float* y, float* z, long long n) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) z[i] = x[i] + y[i];
}

struct Array1d { float* data; long long shape, stride; };
// simt's elementwise signature: _n, _per, _span, _step, then 1-D array structs.
__global__ void add_simt(unsigned long long n, unsigned long long per, unsigned long long span, unsigned long long step,
                         Array1d x, Array1d y, Array1d z) {
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) z.data[i] = x.data[i] + y.data[i];
}
// Touches `bytes` of memory (another program's work between two driver calls).
static volatile char g_sink;
static std::vector<char> g_junk(32 << 20, 1);
static void pollute(size_t bytes) {
    char acc = 0;
    for (size_t i = 0; i < bytes; i += 64) acc += g_junk[i]++;
    g_sink = acc;
}

struct Driver {
    decltype(&cuLaunchKernel) launch;
    decltype(&cuMemAllocAsync) alloc;
    decltype(&cuMemFreeAsync) free;
    decltype(&cuCtxGetCurrent) current;
};


int main() {
    void* lib = dlopen("libcuda.so.1", RTLD_NOW);
    Driver by_dlsym{(decltype(&cuLaunchKernel))dlsym(lib, "cuLaunchKernel"), (decltype(&cuMemAllocAsync))dlsym(lib, "cuMemAllocAsync"),
                    (decltype(&cuMemFreeAsync))dlsym(lib, "cuMemFreeAsync"), (decltype(&cuCtxGetCurrent))dlsym(lib, "cuCtxGetCurrent")};
    Driver by_proc{};
    CUdriverProcAddressQueryResult q;
    cuGetProcAddress("cuLaunchKernel", (void**)&by_proc.launch, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &q);
    cuGetProcAddress("cuMemAllocAsync", (void**)&by_proc.alloc, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &q);
    cuGetProcAddress("cuMemFreeAsync", (void**)&by_proc.free, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &q);
    cuGetProcAddress("cuCtxGetCurrent", (void**)&by_proc.current, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &q);
    std::printf("launch: dlsym %p, cuGetProcAddress %p; alloc %p vs %p\n", (void*)by_dlsym.launch, (void*)by_proc.launch,
                (void*)by_dlsym.alloc, (void*)by_proc.alloc);
    cudaFree(0);
    cudaMemPool_t pool;
    cudaDeviceGetDefaultMemPool(&pool, 0);
    unsigned long long keep = ~0ull;
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
    float *x, *y, *z = nullptr;
    cudaMalloc(&x, 4); cudaMalloc(&y, 4);
    const float xy[2] = {1.5f, 2.25f};
    cudaMemcpy(x, &xy[0], 4, cudaMemcpyHostToDevice);
    cudaMemcpy(y, &xy[1], 4, cudaMemcpyHostToDevice);
    CUfunction f_empty, f_add;
    cudaGetFuncBySymbol(&f_empty, (const void*)empty3);
    cudaGetFuncBySymbol(&f_add, (const void*)add1);
    long long n = 1;
    auto drv_launch = [&](const Driver& d) {
        return [&, d] { void* p[] = {&x, &y, &z}; d.launch(f_empty, 1, 1, 1, 32, 1, 1, 0, nullptr, p, nullptr); };
    };
    auto drv_xy = [&](const Driver& d, bool ctx_checks) {
        return [&, d, ctx_checks] {
            CUcontext c;
            CUdeviceptr fresh;
            if (ctx_checks) d.current(&c);
            d.alloc(&fresh, 4, nullptr);
            float* fz = (float*)fresh;
            void* p[] = {&x, &y, &fz, &n};
            if (ctx_checks) d.current(&c);
            d.launch(f_add, 1, 1, 1, 256, 1, 1, 0, nullptr, p, nullptr);
            if (ctx_checks) d.current(&c);
            if (z) d.free((CUdeviceptr)z, nullptr);
            z = fz;
        };
    };
    std::vector<TimedCase> cases = {
        {"launch: runtime <<<>>>", nullptr, [&] { empty3<<<1, 32>>>(x, y, z); }},
        {"launch: driver, dlsym", nullptr, drv_launch(by_dlsym)},
        {"launch: driver, cuGetProcAddress", nullptr, drv_launch(by_proc)},
        {"x + y: runtime", nullptr, [&] {
             float* fresh = nullptr;
             cudaMallocAsync(&fresh, 4, 0);
             add1<<<1, 256>>>(x, y, fresh, 1);
             if (z) cudaFreeAsync(z, 0);
             z = fresh;
         }},
        {"x + y: driver, dlsym", nullptr, drv_xy(by_dlsym, false)},
        {"x + y: driver, dlsym, 3 cuCtxGetCurrent", nullptr, drv_xy(by_dlsym, true)},
        {"x + y: driver, cuGetProcAddress", nullptr, drv_xy(by_proc, false)},
    };
    CUfunction f_simt;
    cudaGetFuncBySymbol(&f_simt, (const void*)add_simt);
    auto simt_xy = [&](size_t junk) {
        return [&, junk] {
            CUdeviceptr fresh;
            by_dlsym.alloc(&fresh, 4, nullptr);
            unsigned long long head[4] = {1, 1, 1, 256};
            Array1d a{x, 1, 4}, b{y, 1, 4}, c{(float*)fresh, 1, 4};
            void* p[] = {&head[0], &head[1], &head[2], &head[3], &a, &b, &c};
            by_dlsym.launch(f_simt, 1, 1, 1, 256, 1, 1, 0, nullptr, p, nullptr);
            if (z) by_dlsym.free((CUdeviceptr)z, nullptr);
            z = (float*)fresh;
            if (junk) pollute(junk);
        };
    };
    cases.push_back({"x + y: driver, simt's 7 parameters", nullptr, simt_xy(0)});
    // The same parameters as one buffer (cuLaunchKernel's `extra`): one copy instead of seven.
    cases.push_back({"x + y: simt's parameters as one buffer", nullptr, [&] {
        CUdeviceptr fresh;
        by_dlsym.alloc(&fresh, 4, nullptr);
        struct { unsigned long long head[4]; Array1d a, b, c; } buffer{{1, 1, 1, 256}, {x, 1, 4}, {y, 1, 4}, {(float*)fresh, 1, 4}};
        size_t size = sizeof buffer;
        void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buffer, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
        by_dlsym.launch(f_simt, 1, 1, 1, 256, 1, 1, 0, nullptr, nullptr, extra);
        if (z) by_dlsym.free((CUdeviceptr)z, nullptr);
        z = (float*)fresh;
    }});
    for (size_t kb : {256, 1024, 4096}) {
        cases.push_back({"x + y: simt params, then touch " + std::to_string(kb) + " KiB", nullptr, simt_xy(kb << 10)});
        cases.push_back({"  touch " + std::to_string(kb) + " KiB alone", nullptr, [kb] { pollute(kb << 10); }});
    }
    time_in_rounds(cases, 44);
    float result = 0;
    cudaMemcpy(&result, z, 4, cudaMemcpyDeviceToHost);
    std::printf("last z = %g (expected 3.75)\n", result);
}
