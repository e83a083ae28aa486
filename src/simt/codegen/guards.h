// Accesses an enclosing `if` already keeps in range. Kernels usually guard their accesses
// (`if i < C.shape[0] and j < C.shape[1]: C[i, j] = ...`), and the default bounds rule would
// test the same indices again. Inside the body of such an if, an access whose every index is a
// non-negative expression the test compared against the array's extent (`x < A.shape[k]`,
// `A.shape[k] > x`, `x < len(A)`, `x < A.size` for 1-D A) needs no test of its own, provided the
// body reassigns neither the array nor any name in the index. An index is non-negative when the
// compiler proves it so (nonnegative.h) or the test says so (`0 <= x`, `x >= 0`).
#pragma once
#include <string>
#include <vector>
#include "frontend/ast.h"

namespace simt {

// `index < array.shape[dim]` holds, or (with an empty `array`) `index >= 0` does.
struct GuardFact {
    std::string array;
    int dim = 0;
    const Expr* index = nullptr;
};

// The facts the test of an if statement establishes for all of its body `body`.
std::vector<GuardFact> guard_facts(const Expr& test, const std::vector<StmtPtr>& body);

// Whether two typed expressions are the same computation of the same names (pure integer
// expressions only: names, constants, attributes, + - * // % & | ^ << >> and unary operators).
bool same_pure_expr(const Expr& a, const Expr& b);

}  // namespace simt
