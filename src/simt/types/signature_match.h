// Matching argument types against declared signatures, as numba's dispatcher does for functions
// compiled eagerly from explicit signatures: a launch or call whose types match no signature
// exactly uses the best one its arguments convert to, and none is compiled anew.
#pragma once
#include <string>
#include <vector>
#include "types/type.h"

namespace simt {

// How a value of type `from` fits a parameter of type `to`.
enum class Fit {
    Exact = 0,
    Safe = 1,    // lossless: int32 → int64, float32 → float64, C-contiguous array → any-layout array
    Unsafe = 2,  // may lose information: float64 → float32, int64 → int8, a number → bool
    None = 3,    // no conversion: complex → real, arrays of another dtype or dimension, ...
};
Fit conversion_fit(const Type* from, const Type* to);

// The index of the candidate parameter list the arguments fit best (fewest unsafe conversions,
// then fewest safe ones; the first candidate on a tie), or -1 when none fits every argument.
int best_signature(const std::vector<std::vector<const Type*>>& candidates, const std::vector<const Type*>& actual);

// "(float32, array(float64, 1d, C))": a type list as numba spells it in messages.
std::string type_list_string(const std::vector<const Type*>& types);

}  // namespace simt
