// Which way of asking the driver for z = x + y on one element (stream-ordered alloc, add kernel,
// free of the previous z) costs the least host time: the stream it goes to (legacy default,
// per-thread default, a created blocking or non-blocking stream), how the parameters are passed
// (an array of pointers or one packed buffer through `extra`), how many bytes they are (simt's
// 7 parameters, 104 bytes, or 4 pointers), and whether the pool is named (cuMemAllocFromPoolAsync)
// or found by the driver (cuMemAllocAsync). Each case runs behind a ~20 ms spin kernel on its own
// stream, in interleaved rounds; prints the median ns per operation.
//   nvcc -O2 -std=c++17 -arch=sm_90 bench/probes/launch_variants.cu -o /tmp/launch_variants -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>
#include "timed_rounds.cuh"

__global__ void add4(const float* x, const float* y, float* z, unsigned long long n) {
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) z[i] = x[i] + y[i];
}
struct Array1d { float* data; long long shape, stride; };
// simt's elementwise signature: _n, _per, _span, _step, then 1-D array structs.
__global__ void add_simt(unsigned long long n, unsigned long long per, unsigned long long span, unsigned long long step,
                         Array1d x, Array1d y, Array1d z) {
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) z.data[i] = x.data[i] + y.data[i];
}


int main() {
    cudaFree(0);
    CUdevice dev;
    cuCtxGetDevice(&dev);
    CUmemoryPool pool;
    cuDeviceGetDefaultMemPool(&pool, dev);
    cuuint64_t keep = ~0ull;
    cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep);
    float *x, *y;
    cudaMalloc(&x, 4); cudaMalloc(&y, 4);
    const float xy[2] = {1.5f, 2.25f};
    cudaMemcpy(x, &xy[0], 4, cudaMemcpyHostToDevice);
    cudaMemcpy(y, &xy[1], 4, cudaMemcpyHostToDevice);
    CUfunction f_simt, f_add4;
    cudaGetFuncBySymbol(&f_simt, (const void*)add_simt);
    cudaGetFuncBySymbol(&f_add4, (const void*)add4);
    CUstream blocking, non_blocking;
    cuStreamCreate(&blocking, CU_STREAM_DEFAULT);
    cuStreamCreate(&non_blocking, CU_STREAM_NON_BLOCKING);

    CUdeviceptr z = 0;  // the previous result, freed by the next operation (as Python's rebinding does)
    enum Params { kPointers7, kBuffer104, kPointers4 };
    auto xy_op = [&](CUstream s, Params how, bool named_pool) {
        return [&, s, how, named_pool] {
            CUdeviceptr fresh;
            if (named_pool) cuMemAllocFromPoolAsync(&fresh, 4, pool, s);
            else cuMemAllocAsync(&fresh, 4, s);
            if (how == kPointers4) {
                unsigned long long n = 1;
                void* p[] = {&x, &y, &fresh, &n};
                cuLaunchKernel(f_add4, 1, 1, 1, 256, 1, 1, 0, s, p, nullptr);
            } else {
                unsigned long long head[4] = {1, 1, 1, 256};
                Array1d a{x, 1, 4}, b{y, 1, 4}, c{(float*)fresh, 1, 4};
                if (how == kPointers7) {
                    void* p[] = {&head[0], &head[1], &head[2], &head[3], &a, &b, &c};
                    cuLaunchKernel(f_simt, 1, 1, 1, 256, 1, 1, 0, s, p, nullptr);
                } else {
                    alignas(8) char buffer[104];
                    std::memcpy(buffer, head, 32);
                    std::memcpy(buffer + 32, &a, 24);
                    std::memcpy(buffer + 56, &b, 24);
                    std::memcpy(buffer + 80, &c, 24);
                    size_t size = sizeof buffer;
                    void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buffer, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                                     CU_LAUNCH_PARAM_END};
                    cuLaunchKernel(f_simt, 1, 1, 1, 256, 1, 1, 0, s, nullptr, extra);
                }
            }
            if (z) cuMemFreeAsync(z, s);
            z = fresh;
        };
    };
    auto empty_op = [&](CUstream s) {
        return [&, s] {
            unsigned long long head[4] = {0, 1, 1, 256};
            Array1d a{x, 0, 4}, b{y, 0, 4}, c{x, 0, 4};
            void* p[] = {&head[0], &head[1], &head[2], &head[3], &a, &b, &c};
            cuLaunchKernel(f_simt, 1, 1, 1, 256, 1, 1, 0, s, p, nullptr);
        };
    };
    const CUstream legacy = nullptr, per_thread = CU_STREAM_PER_THREAD;
    std::vector<TimedCase> cases = {
        {"x + y legacy, 7 pointers (simt)", legacy, xy_op(legacy, kPointers7, false)},
        {"x + y legacy, 104-byte buffer", legacy, xy_op(legacy, kBuffer104, false)},
        {"x + y legacy, 4 pointers", legacy, xy_op(legacy, kPointers4, false)},
        {"x + y legacy, 7 pointers, named pool", legacy, xy_op(legacy, kPointers7, true)},
        {"x + y per-thread stream", per_thread, xy_op(per_thread, kPointers7, false)},
        {"x + y created blocking stream", blocking, xy_op(blocking, kPointers7, false)},
        {"x + y created non-blocking stream", non_blocking, xy_op(non_blocking, kPointers7, false)},
        {"launch legacy", legacy, empty_op(legacy)},
        {"launch per-thread stream", per_thread, empty_op(per_thread)},
        {"launch created blocking stream", blocking, empty_op(blocking)},
        {"launch created non-blocking stream", non_blocking, empty_op(non_blocking)},
    };
    time_in_rounds(cases, 40);
    float result = 0;
    cuMemcpyDtoH(&result, z, 4);
    std::printf("last z = %g (expected 3.75)\n", result);
    return result == 3.75f ? 0 : 1;
}
