// Launch arguments converted to the parameter types of an eagerly compiled specialization
// (numba's dispatcher converts when no declared signature matches exactly).
#pragma once
#include <vector>
#include "runtime/backend.h"

namespace simt {

// Re-packs `pack` (arguments of types `from`) for parameters of types `to`: numbers convert as
// C casts do (integers wrap, floats truncate toward zero, float16 rounds to nearest even);
// arrays keep their bytes, which are the same whatever layout a kernel declares. Each pair must
// fit (see types/signature_match.h).
ArgumentPack convert_arguments(const ArgumentPack& pack, const std::vector<const Type*>& from,
                               const std::vector<const Type*>& to);

// IEEE binary16 conversions on the host, rounding to nearest even.
uint16_t half_from_double(double value);
double half_to_double(uint16_t bits);

}  // namespace simt
