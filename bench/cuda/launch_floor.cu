// The CUDA C++ floors of the host-cost workloads, 1000 operations queued behind a ~20 ms spin
// kernel, measured the way bench/workloads measures simt. Prints JSON: seconds per operation for
// each repetition.
//   launch: <<<>>> launches of an empty kernel with no, one and three pointer arguments;
//   small_op: z = x + y on one float32 element: the result from the device's stream-ordered pool
//             (cudaMallocAsync, release threshold raised, as simt allocates), an add kernel, and
//             the previous result freed (cudaFreeAsync).
// Usage: launch_floor [reps] [launches] [spin_ms] [launch|small_op]
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

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

template <class Launch>
static void measure(const char* name, Launch launch, int reps, int launches, unsigned long long spin_ns, bool last) {
    launch();  // warm-up: module load
    check(cudaDeviceSynchronize(), "warm-up");
    std::printf("  \"%s\": [", name);
    for (int r = 0; r < reps; ++r) {
        spin<<<1, 1>>>(spin_ns);
        double t0 = now_s();
        for (int i = 0; i < launches; ++i) launch();
        double t1 = now_s();
        check(cudaDeviceSynchronize(), name);
        std::printf("%s%.9g", r ? ", " : "", (t1 - t0) / launches);
    }
    std::printf("]%s\n", last ? "" : ",");
}

int main(int argc, char** argv) {
    int reps = argc > 1 ? std::atoi(argv[1]) : 20;
    int launches = argc > 2 ? std::atoi(argv[2]) : 1000;
    double spin_ms = argc > 3 ? std::atof(argv[3]) : 20.0;
    bool small_op = argc > 4 && std::string(argv[4]) == "small_op";
    unsigned long long spin_ns = static_cast<unsigned long long>(spin_ms * 1e6);
    double *a, *b, *c;
    check(cudaMalloc(&a, 256), "cudaMalloc");
    check(cudaMalloc(&b, 256), "cudaMalloc");
    check(cudaMalloc(&c, 256), "cudaMalloc");

    spin<<<1, 1>>>(1000);
    check(cudaDeviceSynchronize(), "spin warm-up");
    double t0 = now_s();
    spin<<<1, 1>>>(spin_ns);
    check(cudaDeviceSynchronize(), "spin");
    std::printf("{\n  \"spin_s\": %.9g,\n", now_s() - t0);

    if (small_op) {
        cudaMemPool_t pool;
        check(cudaDeviceGetDefaultMemPool(&pool, 0), "cudaDeviceGetDefaultMemPool");
        unsigned long long keep = ~0ull;
        check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), "cudaMemPoolSetAttribute");
        float host[2] = {1.5f, 2.25f}, *x, *y, *z = nullptr;
        check(cudaMalloc(&x, sizeof(float)), "cudaMalloc");
        check(cudaMalloc(&y, sizeof(float)), "cudaMalloc");
        check(cudaMemcpy(x, &host[0], sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
        check(cudaMemcpy(y, &host[1], sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
        measure("x + y", [&] {
            float* fresh = nullptr;
            cudaMallocAsync(&fresh, sizeof(float), 0);
            add1<<<1, 256>>>(x, y, fresh, 1);
            if (z) cudaFreeAsync(z, 0);
            z = fresh;
        }, reps, launches, spin_ns, true);
        float result = 0;
        check(cudaMemcpy(&result, z, sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
        if (result != 3.75f) {
            std::fprintf(stderr, "x + y gave %g, expected 3.75\n", result);
            return 1;
        }
    } else {
        measure("empty kernel", [] { empty0<<<1, 32>>>(); }, reps, launches, spin_ns, false);
        measure("1 array argument", [&] { empty1<<<1, 32>>>(a); }, reps, launches, spin_ns, false);
        measure("3 array arguments", [&] { empty3<<<1, 32>>>(a, b, c); }, reps, launches, spin_ns, true);
    }
    std::printf("}\n");
    check(cudaGetLastError(), "launch");
    return 0;
}
