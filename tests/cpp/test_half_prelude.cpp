// The prelude's software float16 conversions (used by the cpu target; the cuda target uses the
// hardware cvt instructions) against the host's independent implementation.
#include <gtest/gtest.h>
#include <cmath>
#include <cstdint>
#include <cstring>
#include "runtime/argument_convert.h"

#define SIMT_INLINE inline
inline uint32_t simt_float_bits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float simt_bits_float(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
#include "codegen/prelude/numeric.h"
#undef SIMT_INLINE

TEST(HalfPrelude, FloatToHalfRoundsOnceToNearestEven) {
    // Every float in [2^-26, 2^17) (all half subnormals, normals and overflow), both signs.
    for (uint32_t bits = 0x32800000u; bits < 0x48000000u; bits += 97) {
        float f;
        std::memcpy(&f, &bits, 4);
        ASSERT_EQ(simt_half_from_float(f), simt::half_from_double(f)) << f;
        ASSERT_EQ(simt_half_from_float(-f), simt::half_from_double(-f)) << -f;
    }
    EXPECT_EQ(simt_half_from_float(0.0f), 0);
    EXPECT_EQ(simt_half_from_float(-0.0f), 0x8000);
}

TEST(HalfPrelude, DoubleToHalfIsASingleRounding) {
    // Doubles just above and below half-way points, where rounding through float would go wrong.
    for (uint32_t h = 1; h < 0x7bff; h += 13) {
        double lo = simt::half_to_double(uint16_t(h)), hi = simt::half_to_double(uint16_t(h + 1));
        double mid = (lo + hi) / 2;
        for (double d : {mid, std::nextafter(mid, 0.0), std::nextafter(mid, 1e9)}) {
            ASSERT_EQ(simt_half_from_double(d), simt::half_from_double(d)) << d;
            ASSERT_EQ(simt_half_from_double(-d), simt::half_from_double(-d)) << -d;
        }
    }
}

TEST(HalfPrelude, HalfToFloatIsExact) {
    for (uint32_t h = 0; h < 0x10000; ++h) {
        if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff)) continue;  // NaNs
        ASSERT_EQ(double(simt_half_to_float(uint16_t(h))), simt::half_to_double(uint16_t(h))) << h;
    }
}
