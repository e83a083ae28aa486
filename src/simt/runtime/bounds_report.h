// The IndexError text for an out-of-range access found by a boundscheck kernel.
#pragma once
#include <string>
#include <vector>
#include "runtime/backend.h"
#include "sema/typed_function.h"

namespace simt {

std::string describe_bounds_error(const std::string& kernel, const std::vector<BoundsSite>& sites,
                                  const BoundsErrorRecord& record);

}  // namespace simt
