// IEEE binary16 on the host: rounding a double to the nearest half (ties to even) and back, for
// float16 launch arguments and the NVVM IR emitter's float16 constants.
#pragma once
#include <cstdint>

namespace simt {

uint16_t half_from_double(double value);
double half_to_double(uint16_t bits);

}  // namespace simt
