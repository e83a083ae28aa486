// simt prelude, both targets, and host code (array/xoroshiro_states.cpp includes it so states
// made on the host continue the same streams in kernels): the xoroshiro128+ generator
// (Blackman & Vigna 2016, shift/rotate constants a=55, b=14, c=36), its jump by 2^64 steps,
// and splitmix64 for seeding. Needs uint64_t and SIMT_INLINE.
struct simt_xoroshiro_state {
    uint64_t s0, s1;
};

SIMT_INLINE uint64_t simt_rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

// Returns the next output and advances the state.
SIMT_INLINE uint64_t simt_xoroshiro_next(simt_xoroshiro_state& s) {
    uint64_t s0 = s.s0, s1 = s.s1;
    uint64_t result = s0 + s1;
    s1 ^= s0;
    s.s0 = simt_rotl64(s0, 55) ^ s1 ^ (s1 << 14);
    s.s1 = simt_rotl64(s1, 36);
    return result;
}

// Advances the state by 2^64 steps: the jump polynomial's bits select which of the next 128
// states are summed (over GF(2)) into the jumped state.
SIMT_INLINE void simt_xoroshiro_jump(simt_xoroshiro_state& s) {
    const uint64_t jump[2] = {0xbeac0467eba5facbULL, 0xd86b048b86aa9922ULL};
    uint64_t a = 0, b = 0;
    for (int w = 0; w < 2; ++w)
        for (int bit = 0; bit < 64; ++bit) {
            if (jump[w] & ((uint64_t)1 << bit)) {
                a ^= s.s0;
                b ^= s.s1;
            }
            simt_xoroshiro_next(s);
        }
    s.s0 = a;
    s.s1 = b;
}

SIMT_INLINE uint64_t simt_splitmix64_next(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// The state a seed starts from: two splitmix64 outputs (never all zero for any seed in practice).
SIMT_INLINE simt_xoroshiro_state simt_xoroshiro_seed(uint64_t seed) {
    simt_xoroshiro_state s;
    s.s0 = simt_splitmix64_next(seed);
    s.s1 = simt_splitmix64_next(seed);
    return s;
}
