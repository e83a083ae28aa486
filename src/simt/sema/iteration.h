// What a for loop can iterate in a kernel: range(...), 1-D arrays, homogeneous tuples, and
// enumerate(...) / zip(...) of these (sema/builtins_iteration.cpp types them; the emitter writes
// the loops, codegen/emit_iterate.cpp).
#pragma once
#include "types/type.h"

namespace simt {

// The type a for loop binds on each iteration over a value of type `iterable`, as numba types
// it: range -> its int64 or uint64, a 1-D array -> its dtype, an N-d array -> its rows (views),
// a tuple -> its elements unified,
// enumerate -> (int64, item), zip -> (item, item, ...). Null when it cannot be iterated
// (Sema::item_type says why).
const Type* iteration_type(const Type* iterable);

}  // namespace simt
