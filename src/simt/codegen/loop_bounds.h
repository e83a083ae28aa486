// Bounds tests hoisted out of range() loops. By default every array access tests its indices
// (out-of-range loads give 0, stores are dropped). Inside `for v in range(...)`, an access whose
// indices are loop-invariant, or affine in v (c*v + b with invariant c and b), is in range on
// every iteration exactly when one test made before the loop holds. The emitter writes such a
// loop twice: when the test holds, those accesses run untested (so the GPU compiler can unroll,
// vectorize and pipeline them, as for boundscheck=False); otherwise the loop runs as written.
// Results are the same either way.
#pragma once
#include <string>
#include <vector>
#include "frontend/ast.h"

namespace simt {

// One index component of an access, relative to the loop variable v.
struct HoistedIndex {
    const Expr* index = nullptr;        // the component's expression
    bool uses_var = false;              // false: invariant, tested as a whole
    const Expr* coef = nullptr;         // v's coefficient when uses_var (null: 1)
    std::vector<const Expr*> offsets;   // invariant terms added to c*v (none: 0)
};

struct HoistedAccess {
    const Expr* subscript = nullptr;    // the Subscript node (load, store or op= target)
    const Expr* array = nullptr;        // its array: a local name the loop does not reassign
    std::vector<HoistedIndex> indices;  // one per dimension
};

// The accesses in the body of `loop` (a for statement over range() whose variable `var` stays in
// [0, stop)) that a test before the loop can prove in range. Empty when the loop does not
// qualify: only innermost loops without an else block, barriers, warp operations or device
// function calls are written twice (code size stays bounded; a barrier must not be duplicated).
std::vector<HoistedAccess> hoistable_accesses(const Stmt& loop, const std::string& var);

}  // namespace simt
