// The CUDA C++ floors of the host-cost workloads, measured the way bench/workloads measures simt:
// operations queued behind a ~20 ms spin kernel, host time per operation.
//   "empty kernel", "1 array argument", "3 array arguments": <<<>>> launches of an empty kernel
//       with no, one and three pointer arguments;
//   "x + y": z = x + y on one float32 element: the result from the device's stream-ordered pool
//       (cudaMallocAsync, release threshold raised, as simt allocates), an add kernel, and the
//       previous result freed (cudaFreeAsync).
// It serves requests so that the benchmark can interleave its repetitions with the Python
// libraries' (all then see the same host conditions): each line read from stdin names a case;
// the answer is one line, the seconds per operation of one repetition. The first line written
// is the spin kernel's measured length in seconds.
// Usage: launch_floor [operations per repetition] [spin_ms]
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <string>

__global__ void spin(unsigned long long ns) {
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < ns);
}
__global__ void empty0() {}
__global__ void empty1(double*) {}
__global__ void empty3(double*, double*, double*) {}
__global__ void add1(const float* x, const float* y, float* z, long long n) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) z[i] = x[i] + y[i];
}

static void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

static double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char** argv) {
    int operations = argc > 1 ? std::atoi(argv[1]) : 1000;
    double spin_ms = argc > 2 ? std::atof(argv[2]) : 20.0;
    unsigned long long spin_ns = static_cast<unsigned long long>(spin_ms * 1e6);
    double *a, *b, *c;
    check(cudaMalloc(&a, 256), "cudaMalloc");
    check(cudaMalloc(&b, 256), "cudaMalloc");
    check(cudaMalloc(&c, 256), "cudaMalloc");

    cudaMemPool_t pool;
    check(cudaDeviceGetDefaultMemPool(&pool, 0), "cudaDeviceGetDefaultMemPool");
    unsigned long long keep = ~0ull;
    check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), "cudaMemPoolSetAttribute");
    float host[2] = {1.5f, 2.25f}, *x, *y, *z = nullptr;
    check(cudaMalloc(&x, sizeof(float)), "cudaMalloc");
    check(cudaMalloc(&y, sizeof(float)), "cudaMalloc");
    check(cudaMemcpy(x, &host[0], sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
    check(cudaMemcpy(y, &host[1], sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");

    std::map<std::string, std::function<void()>> cases = {
        {"empty kernel", [] { empty0<<<1, 32>>>(); }},
        {"1 array argument", [&] { empty1<<<1, 32>>>(a); }},
        {"3 array arguments", [&] { empty3<<<1, 32>>>(a, b, c); }},
        {"x + y", [&] {
             float* fresh = nullptr;
             cudaMallocAsync(&fresh, sizeof(float), 0);
             add1<<<1, 256>>>(x, y, fresh, 1);
             if (z) cudaFreeAsync(z, 0);
             z = fresh;
         }},
    };
    for (auto& [name, op] : cases) op();  // warm-up: module load, the pool's first block
    check(cudaDeviceSynchronize(), "warm-up");

    spin<<<1, 1>>>(1000);
    check(cudaDeviceSynchronize(), "spin warm-up");
    double t0 = now_s();
    spin<<<1, 1>>>(spin_ns);
    check(cudaDeviceSynchronize(), "spin");
    std::printf("%.9g\n", now_s() - t0);
    std::fflush(stdout);

    std::string line;
    while (std::getline(std::cin, line)) {
        auto found = cases.find(line);
        if (found == cases.end()) {
            std::fprintf(stderr, "unknown case '%s'\n", line.c_str());
            return 2;
        }
        spin<<<1, 1>>>(spin_ns);
        double start = now_s();
        for (int i = 0; i < operations; ++i) found->second();
        double seconds = now_s() - start;
        check(cudaDeviceSynchronize(), line.c_str());
        check(cudaGetLastError(), "launch");
        std::printf("%.9g\n", seconds / operations);
        std::fflush(stdout);
    }
    float result = 0;
    check(cudaMemcpy(&result, z, sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
    if (result != 3.75f) {
        std::fprintf(stderr, "x + y gave %g, expected 3.75\n", result);
        return 1;
    }
    return 0;
}
