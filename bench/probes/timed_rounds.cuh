// Shared by the driver probes (driver_entry.cu, launch_variants.cu): host time per call of each
// case, the cases interleaved round by round, each round's calls queued behind a ~20 ms spin
// kernel on the case's stream (so they measure the host's cost, not the GPU's).
#pragma once
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

__global__ void spin(unsigned long long ns) {
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now)); } while (now - start < ns);
}

inline double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

struct TimedCase {
    std::string name;
    cudaStream_t stream;  // where the spin kernel goes (null: the legacy default stream)
    std::function<void()> op;
};

// Runs each case once (warm-up), then `rounds` rounds of `ops` calls; prints the median and best
// ns per call of each case, names padded to `width`.
inline void time_in_rounds(const std::vector<TimedCase>& cases, int width, int ops = 1000, int rounds = 15) {
    for (const TimedCase& c : cases) c.op();
    cudaDeviceSynchronize();
    std::vector<std::vector<double>> samples(cases.size());
    for (int r = 0; r < rounds; ++r)
        for (size_t k = 0; k < cases.size(); ++k) {
            size_t i = (k + r) % cases.size();
            spin<<<1, 1, 0, cases[i].stream>>>(20000000ull);
            double t0 = now_s();
            for (int j = 0; j < ops; ++j) cases[i].op();
            samples[i].push_back((now_s() - t0) / ops * 1e9);
            cudaDeviceSynchronize();
        }
    for (size_t i = 0; i < cases.size(); ++i) {
        auto& s = samples[i];
        std::sort(s.begin(), s.end());
        std::printf("%-*s median %6.0f ns  best %6.0f ns\n", width, cases[i].name.c_str(), s[s.size() / 2], s[0]);
    }
}
