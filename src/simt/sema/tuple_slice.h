// Slicing tuples with constant bounds (t[1:], t[::-1]): which elements a slice selects.
#pragma once
#include <string>
#include <vector>
#include "frontend/ast.h"

namespace simt {

// The indices `slice` (an already typed Slice expression) selects from a tuple of `n` elements,
// by Python's rules (bounds clamp, negative values count from the end). False with `error` set
// when a bound is not a constant integer or None, or the step is zero.
bool tuple_slice_indices(const Expr& slice, size_t n, std::vector<size_t>& out, std::string& error);

}  // namespace simt
