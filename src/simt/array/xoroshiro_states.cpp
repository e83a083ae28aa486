// Host-side xoroshiro128+ seeding and stepping. The generator itself is the prelude's, so the
// host and both kernel targets share one definition of the streams.
#include "array/xoroshiro_states.h"
#include <cstddef>

#define SIMT_INLINE inline
#include "codegen/prelude/xoroshiro.h"
#undef SIMT_INLINE

namespace simt {

std::vector<uint64_t> xoroshiro_states(int64_t count, uint64_t seed, uint64_t subsequence_start) {
    simt_xoroshiro_state s = simt_xoroshiro_seed(seed);
    for (uint64_t i = 0; i < subsequence_start; ++i) simt_xoroshiro_jump(s);
    std::vector<uint64_t> out(std::size_t(count > 0 ? count : 0) * 2);
    for (int64_t i = 0; i < count; ++i) {
        out[std::size_t(i) * 2] = s.s0;
        out[std::size_t(i) * 2 + 1] = s.s1;
        simt_xoroshiro_jump(s);
    }
    return out;
}

std::vector<uint64_t> xoroshiro_outputs(uint64_t s0, uint64_t s1, int64_t count) {
    simt_xoroshiro_state s = {s0, s1};
    std::vector<uint64_t> out(std::size_t(count > 0 ? count : 0));
    for (uint64_t& v : out) v = simt_xoroshiro_next(s);
    return out;
}

}  // namespace simt
