// The text of a kernel's error record: the IndexError of an out-of-range access found by a
// boundscheck kernel, or the AssertionError of a failed assert in a debug kernel.
#pragma once
#include <string>
#include <vector>
#include "runtime/backend.h"
#include "support/error.h"
#include "sema/typed_function.h"

namespace simt {

std::string describe_bounds_error(const std::string& kernel, const std::vector<BoundsSite>& sites,
                                  const BoundsErrorRecord& record);

// A record's ndim for a failed assert and for a raise (the preludes' SIMT_REPORT_ASSERT / _RAISE);
// a bounds report's ndim is the array's.
constexpr int kAssertRecord = -1, kRaiseRecord = -2;

// Which Python exception a filled record becomes.
inline ErrorKind record_error_kind(const BoundsErrorRecord& record) {
    return record.ndim == kRaiseRecord ? ErrorKind::Raised : record.ndim == kAssertRecord ? ErrorKind::Assertion
                                                                                           : ErrorKind::Index;
}

}  // namespace simt
