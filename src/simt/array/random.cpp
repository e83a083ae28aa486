// Global random state (counter-based: the state is just seed + offset).
#include "array/random.h"
#include <mutex>
#include <random>
#include "runtime/current_stream.h"
#include "support/error.h"

namespace simt {

namespace {
std::mutex g_random_mutex;
uint64_t g_seed = [] {
    std::random_device rd;
    return (uint64_t(rd()) << 32) ^ rd();
}();
uint64_t g_offset = 0;
}  // namespace

void random_seed(uint64_t seed) {
    std::lock_guard<std::mutex> lock(g_random_mutex);
    g_seed = seed;
    g_offset = 0;
}

RandomState random_state() {
    std::lock_guard<std::mutex> lock(g_random_mutex);
    return {g_seed, g_offset};
}

void set_random_state(RandomState state) {
    std::lock_guard<std::mutex> lock(g_random_mutex);
    g_seed = state.seed;
    g_offset = state.offset;
}

RandomState random_reserve(uint64_t counters) {
    std::lock_guard<std::mutex> lock(g_random_mutex);
    RandomState taken{g_seed, g_offset};
    g_offset += counters;
    return taken;
}

uint64_t random_current_seed() {
    std::lock_guard<std::mutex> lock(g_random_mutex);
    return g_seed;
}

namespace {
void fill(NdArray& a, RandomRequest r) {
    if (!a.c_contiguous()) raise(ErrorKind::NotImplemented, "random fill of a non-contiguous array");
    r.dtype = a.dtype;
    uint64_t n = uint64_t(a.size());
    bool wide = a.itemsize() == 8 || r.distribution == RandomDistribution::Integers;
    uint64_t blocks = (n + (wide ? 1 : 3)) / (wide ? 2 : 4);
    {
        std::lock_guard<std::mutex> lock(g_random_mutex);
        r.seed = g_seed;
        r.offset = g_offset;
        g_offset += blocks;
    }
    if (!n) return;
    on_current_stream([&](StreamHandle s) { backend().fill_random(a.data, size_t(n), r, s); }, a.owner);
}
}  // namespace

void random_fill(NdArray& a, RandomDistribution distribution, double a_param, double b_param) {
    RandomRequest r;
    r.distribution = distribution;
    r.a = a_param;
    r.b = b_param;
    fill(a, r);
}

void random_integers(NdArray& a, uint64_t low_bits, uint64_t range) {
    RandomRequest r;
    r.distribution = RandomDistribution::Integers;
    r.int_low = low_bits;
    r.int_range = range;
    fill(a, r);
}

}  // namespace simt
