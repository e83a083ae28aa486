// Milliseconds since construction, for the compile-phase figures benchmarks read.
#pragma once
#include <chrono>

namespace simt {

class Stopwatch {
public:
    double ms() const { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count(); }

private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace simt
