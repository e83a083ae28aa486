// Philox4x32-10 counter-based generator and the element mappings of simt.random. Compiled
// into the host library and, as text, into the CUDA random kernels, so every backend draws the
// same numbers for the same seed. Include with SIMT_PHILOX_QUALIFIER defined for device code.
#ifndef SIMT_PHILOX_H
#define SIMT_PHILOX_H
#ifndef SIMT_PHILOX_QUALIFIER
#define SIMT_PHILOX_QUALIFIER inline
#include <cstdint>
#include <cmath>
#endif

namespace simt_philox {

struct Block { uint32_t w[4]; };

SIMT_PHILOX_QUALIFIER void mulhilo(uint32_t a, uint32_t b, uint32_t& hi, uint32_t& lo) {
    uint64_t p = (uint64_t)a * (uint64_t)b;
    hi = (uint32_t)(p >> 32);
    lo = (uint32_t)p;
}

// The 4 words for 128-bit counter `counter` (high 64 bits zero) and 64-bit key `seed`.
SIMT_PHILOX_QUALIFIER Block generate(uint64_t counter, uint64_t seed) {
    uint32_t c0 = (uint32_t)counter, c1 = (uint32_t)(counter >> 32), c2 = 0, c3 = 0;
    uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
    for (int round = 0; round < 10; ++round) {
        uint32_t hi0, lo0, hi1, lo1;
        mulhilo(0xD2511F53u, c0, hi0, lo0);
        mulhilo(0xCD9E8D57u, c2, hi1, lo1);
        uint32_t n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
        c0 = n0; c1 = lo1; c2 = n2; c3 = lo0;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    Block b;
    b.w[0] = c0; b.w[1] = c1; b.w[2] = c2; b.w[3] = c3;
    return b;
}

// Uniform double in [0, 1) from 53 random bits.
SIMT_PHILOX_QUALIFIER double to_unit_double(uint32_t hi, uint32_t lo) {
    uint64_t u = ((uint64_t)hi << 32) | lo;
    return (double)(u >> 11) * (1.0 / 9007199254740992.0);
}
// Uniform float in [0, 1) from 24 random bits.
SIMT_PHILOX_QUALIFIER float to_unit_float(uint32_t w) { return (float)(w >> 8) * (1.0f / 16777216.0f); }

// Elements per Philox block: 2 for 64-bit outputs, 4 for 32-bit ones.
SIMT_PHILOX_QUALIFIER int per_block(bool wide) { return wide ? 2 : 4; }

// Element i of a uniform [a, b) array of doubles whose first element uses counter `offset`.
SIMT_PHILOX_QUALIFIER double uniform_double(uint64_t seed, uint64_t offset, uint64_t i, double a, double b) {
    Block blk = generate(offset + i / 2, seed);
    int h = (int)(i % 2) * 2;
    return a + (b - a) * to_unit_double(blk.w[h], blk.w[h + 1]);
}
SIMT_PHILOX_QUALIFIER float uniform_float(uint64_t seed, uint64_t offset, uint64_t i, float a, float b) {
    Block blk = generate(offset + i / 4, seed);
    return a + (b - a) * to_unit_float(blk.w[i % 4]);
}

// Standard normal by Box-Muller: each block gives two uniforms (doubles) or four (floats).
SIMT_PHILOX_QUALIFIER double normal_double(uint64_t seed, uint64_t offset, uint64_t i, double mean, double stddev) {
    Block blk = generate(offset + i / 2, seed);
    double u1 = 1.0 - to_unit_double(blk.w[0], blk.w[1]);  // (0, 1]: log is finite
    double u2 = to_unit_double(blk.w[2], blk.w[3]);
    double r = sqrt(-2.0 * log(u1));
    double t = 6.283185307179586 * u2;
    return mean + stddev * (i % 2 == 0 ? r * cos(t) : r * sin(t));
}
SIMT_PHILOX_QUALIFIER float normal_float(uint64_t seed, uint64_t offset, uint64_t i, float mean, float stddev) {
    Block blk = generate(offset + i / 4, seed);
    int pair = (int)(i % 4) / 2;
    float u1 = 1.0f - to_unit_float(blk.w[2 * pair]);
    float u2 = to_unit_float(blk.w[2 * pair + 1]);
    float r = sqrtf(-2.0f * logf(u1));
    float t = 6.2831853f * u2;
    return mean + stddev * ((i % 2) == 0 ? r * cosf(t) : r * sinf(t));
}

// Integer in [low, low + range) by multiply-shift on 64 random bits, in 64-bit two's complement
// (low is an int64 or uint64 bit pattern; range 0 stands for all 2**64 values).
SIMT_PHILOX_QUALIFIER uint64_t integer(uint64_t seed, uint64_t offset, uint64_t i, uint64_t low, uint64_t range) {
    Block blk = generate(offset + i / 2, seed);
    int h = (int)(i % 2) * 2;
    uint64_t u = ((uint64_t)blk.w[h] << 32) | blk.w[h + 1];
    if (range == 0) return u;
#ifdef __CUDA_ARCH__
    uint64_t pick = __umul64hi(u, range);
#else
    uint64_t pick = (uint64_t)(((unsigned __int128)u * range) >> 64);
#endif
    return low + pick;
}

// Writes elements [first, last) of an array whose element 0 uses counter `offset`, computing
// each Philox block once (elements of one block are consecutive). Same values as the
// per-element functions above.
template <class T, class PerBlock>
SIMT_PHILOX_QUALIFIER void fill_blocks(T* out, uint64_t first, uint64_t last, int per, PerBlock make) {
    uint64_t i = first;
    while (i < last) {
        uint64_t block = i / (uint64_t)per;
        T values[4];
        make(block, values);
        uint64_t end = (block + 1) * (uint64_t)per;
        for (; i < last && i < end; ++i) out[i] = values[i % (uint64_t)per];
    }
}

}  // namespace simt_philox

#endif
