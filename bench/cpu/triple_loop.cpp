// The cpu backend's reference for the tiled matrix product: a plain triple loop over float32
// n x n matrices, as a C++ programmer would write it first, compiled with -O3 (bench/workloads/
// cpu_kernels.py). Usage: triple_loop N REPEATS; prints the best time in seconds and a checksum.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
int main(int argc, char** argv) {
    const int n = std::atoi(argv[1]), repeats = std::atoi(argv[2]);
    std::vector<float> A(n * n), B(n * n), C(n * n);
    unsigned s = 12345;
    for (float& v : A) { s = s * 1664525u + 1013904223u; v = float(s >> 8) / 16777216.0f; }
    for (float& v : B) { s = s * 1664525u + 1013904223u; v = float(s >> 8) / 16777216.0f; }
    double best = 1e30, check = 0;
    for (int r = 0; r < repeats; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                float sum = 0;
                for (int k = 0; k < n; ++k) sum += A[i * n + k] * B[k * n + j];
                C[i * n + j] = sum;
            }
        double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (t < best) best = t;
        check += C[(r * 7919) % (n * n)];
    }
    std::printf("%.9f %g\n", best, check);
}
