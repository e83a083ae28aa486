// Integer values a function provably never makes negative. Python gives a negative index its
// wrap-around (A[-1] is the last element), and every access whose index could be negative pays
// for that test; an index known to be >= 0 is emitted unsigned and skips it (see
// simt_is_unsigned in prelude/common.h). Known non-negative: non-negative constants, unsigned
// values narrower than 64 bits, thread and block indices and dimensions, cuda.grid / cuda.gridsize, array extents and
// sizes, len(); +, *, //, ** of such values, x % m and x & m for such m, shifts of such x, min
// of such values, max with one such value; and local variables every assignment of which is such
// a value (a greatest fixed point over the function, so `i += cuda.gridsize(1)` in a loop keeps
// i non-negative; a range() loop's variable and enumerate()'s counter count with their start). Integer overflow is not considered (indices are far from 2**63).
#pragma once
#include <set>
#include <string>
#include "sema/typed_function.h"

namespace simt {

// The integer locals of `f` that are never negative.
std::set<std::string> nonnegative_locals(const TypedFunction& f);

// Whether typed integer expression `e` is never negative, given the non-negative locals.
bool nonnegative(const Expr& e, const std::set<std::string>& locals);

// Whether the variable of `loop` (a for statement over range(...)) only takes values >= 0:
// range(stop), or a non-negative start with no step or a constant positive one.
bool range_loop_nonnegative(const Stmt& loop, const std::set<std::string>& locals);

}  // namespace simt
