// Launch arguments converted to the parameter types of an eagerly compiled specialization
// (numba's dispatcher converts when no declared signature matches exactly).
#pragma once
#include <vector>
#include "runtime/backend.h"
#include "support/half_float.h"

namespace simt {

// Re-packs `pack` (arguments of types `from`) for parameters of types `to`: numbers convert as
// C casts do (integers wrap, floats truncate toward zero, float16 rounds to nearest even);
// arrays keep their bytes, which are the same whatever layout a kernel declares. Each pair must
// fit (see types/signature_match.h).
ArgumentPack convert_arguments(const ArgumentPack& pack, const std::vector<const Type*>& from,
                               const std::vector<const Type*>& to);

// How a kernel argument of type t lies in the launch's parameter bytes, as the generated code
// declares it: scalars at their size (complex: their part's), array structs of 8-byte fields,
// tuples as structs of their elements in order.
size_t argument_alignment(const Type* t);
size_t argument_size(const Type* t);

}  // namespace simt
