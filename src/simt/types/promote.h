// Numeric type rules: NumPy's promotion between dtypes, and numba's typing of arithmetic
// (integer results are at least 64 bits wide, `/` on integers gives float64).
#pragma once
#include "frontend/ast.h"
#include "types/type.h"

namespace simt {

// NumPy's np.result_type for two dtypes (no value-based casting).
DType promote(DType a, DType b);

// The smallest float dtype that holds every value of an integer (or bool) dtype.
DType float_for(DType d);

// Result dtype of `a op b` on scalars in a kernel, numba's rules:
// integers widen to at least 64 bits; true division of integers is float64; bool arithmetic
// becomes int64 except for & | ^ on two bools. Returns false when the operator does not apply
// (bitwise ops on floats, @ on scalars).
bool binop_result(BinOpKind op, DType a, DType b, DType& out);

// Result of a unary operator on a scalar (returns false if not applicable, e.g. ~ on a float).
bool unop_result(UnaryOpKind op, DType a, DType& out);

// The common type two values assigned to one variable unify to, or null if none
// (numbers unify by promotion, tuples elementwise, anything else only with itself).
const Type* unify(const Type* a, const Type* b);

// Whether a value of type `from` may be stored where `to` is expected (implicit conversion
// on array stores and variable unification): all real numbers convert to each other and to
// complex; complex does not convert to real.
bool can_convert(const Type* from, const Type* to);

}  // namespace simt
