// Initial xoroshiro128+ states for simt.cuda.random (numba's create_xoroshiro128p_states):
// stream 0 starts from the seed (through splitmix64), each next stream 2^64 steps further.
#pragma once
#include <cstdint>
#include <vector>

namespace simt {

// `count` states (s0, s1 pairs, row-major), the first jumped `subsequence_start` times.
std::vector<uint64_t> xoroshiro_states(int64_t count, uint64_t seed, uint64_t subsequence_start);

// The first `count` outputs of the stream that starts at (s0, s1) (for tests and host use).
std::vector<uint64_t> xoroshiro_outputs(uint64_t s0, uint64_t s1, int64_t count);

}  // namespace simt
