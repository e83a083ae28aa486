// IEEE binary16 conversions on the host (see half_float.h).
#include "support/half_float.h"
#include <cmath>

namespace simt {

uint16_t half_from_double(double value) {
    uint16_t sign = std::signbit(value) ? 0x8000u : 0u;
    double a = std::fabs(value);
    if (std::isnan(value)) return uint16_t(sign | 0x7e00u);
    if (a >= 65520.0) return uint16_t(sign | 0x7c00u);  // beyond the largest half after rounding
    if (a < 6.103515625e-05) {  // below 2^-14: subnormal, in units of 2^-24
        auto q = uint16_t(std::nearbyint(a * 16777216.0));  // may round up to the smallest normal
        return uint16_t(sign | q);
    }
    int e;
    double m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
    auto q = uint32_t(std::nearbyint(m * 2048.0));  // 11 significant bits, in [1024, 2048]
    if (q == 2048) { q = 1024; ++e; }
    uint32_t biased = uint32_t(e + 14);
    if (biased >= 31) return uint16_t(sign | 0x7c00u);
    return uint16_t(sign | (biased << 10) | (q - 1024));
}

double half_to_double(uint16_t bits) {
    double sign = (bits & 0x8000u) ? -1.0 : 1.0;
    int exponent = (bits >> 10) & 0x1f;
    int mantissa = bits & 0x3ff;
    if (exponent == 31) return mantissa ? std::nan("") : sign * HUGE_VAL;
    if (exponent == 0) return sign * std::ldexp(double(mantissa), -24);
    return sign * std::ldexp(double(mantissa + 1024), exponent - 25);
}

}  // namespace simt
