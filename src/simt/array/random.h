// simt.random's generator state: a seed and a Philox counter that advances with every draw,
// so consecutive calls give fresh numbers and a seed reproduces them on any backend.
#pragma once
#include <cstdint>
#include "array/ndarray.h"

namespace simt {

void random_seed(uint64_t seed);
// The whole generator state (numbers drawn next continue from `offset`), to save and restore it:
// simt.random.RandomState objects each keep their own.
struct RandomState {
    uint64_t seed = 0, offset = 0;
};
RandomState random_state();
void set_random_state(RandomState state);
uint64_t random_current_seed();
// Takes `counters` consecutive counter values for a caller that draws with its own kernels
// (simt.random's gamma, Poisson, binomial ... samplers): the state they start from, advanced past them.
RandomState random_reserve(uint64_t counters);
// Fills a contiguous array with the distribution and advances the counter.
void random_fill(NdArray& a, RandomDistribution distribution, double a_param, double b_param);
// Integers in [low, low + range) computed mod 2**64 from low's bit pattern (int64 or uint64
// dtypes alike; range 0 means all 2**64 values): exact for every 64-bit bound.
void random_integers(NdArray& a, uint64_t low_bits, uint64_t range);

}  // namespace simt
