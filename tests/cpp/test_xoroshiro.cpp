// xoroshiro128+ as simt.cuda.random uses it: the jump function is checked against the
// generator's own transition matrix raised to 2^64 over GF(2), independently of its constants.
#include <gtest/gtest.h>
#include <array>
#include "array/xoroshiro_states.h"

using namespace simt;

namespace {

// A 128-bit vector over GF(2) (the state s0 | s1 << 64) and a 128x128 matrix as 128 columns.
using Vec = std::array<uint64_t, 2>;
using Mat = std::array<Vec, 128>;

Vec step(Vec v) {  // one generator step on the state alone, written from the definition
    uint64_t s0 = v[0], s1 = v[1] ^ v[0];
    auto rotl = [](uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
    return {rotl(s0, 55) ^ s1 ^ (s1 << 14), rotl(s1, 36)};
}

Vec times(const Mat& m, Vec v) {
    Vec r = {0, 0};
    for (int i = 0; i < 128; ++i)
        if ((v[i / 64] >> (i % 64)) & 1) { r[0] ^= m[i][0]; r[1] ^= m[i][1]; }
    return r;
}

Mat multiply(const Mat& a, const Mat& b) {  // a * b: column i is a * (column i of b)
    Mat r;
    for (int i = 0; i < 128; ++i) r[i] = times(a, b[i]);
    return r;
}

}  // namespace

TEST(Xoroshiro, JumpIsTwoToTheSixtyFourSteps) {
    Mat t;  // the step is linear: its columns are the images of the unit vectors
    for (int i = 0; i < 128; ++i) {
        Vec e = {0, 0};
        e[i / 64] = uint64_t(1) << (i % 64);
        t[i] = step(e);
    }
    for (int k = 0; k < 64; ++k) t = multiply(t, t);  // T^(2^64)
    for (uint64_t seed : {1ull, 42ull, 0xdeadbeefull}) {
        std::vector<uint64_t> states = xoroshiro_states(2, seed, 0);
        Vec start = {states[0], states[1]};
        Vec jumped = times(t, start);
        EXPECT_EQ(jumped[0], states[2]) << "seed " << seed;
        EXPECT_EQ(jumped[1], states[3]) << "seed " << seed;
    }
}

TEST(Xoroshiro, OutputsAreTheSumOfTheStateWords) {
    std::vector<uint64_t> s = xoroshiro_states(1, 7, 0);
    std::vector<uint64_t> out = xoroshiro_outputs(s[0], s[1], 3);
    EXPECT_EQ(out[0], s[0] + s[1]);
    Vec next = step({s[0], s[1]});
    EXPECT_EQ(out[1], next[0] + next[1]);
}

TEST(Xoroshiro, SubsequenceStartSkipsWholeStreams) {
    std::vector<uint64_t> all = xoroshiro_states(5, 99, 0);
    std::vector<uint64_t> tail = xoroshiro_states(2, 99, 3);
    EXPECT_EQ(tail[0], all[6]);
    EXPECT_EQ(tail[3], all[9]);
    EXPECT_NE(xoroshiro_states(1, 1, 0), xoroshiro_states(1, 2, 0));
}
