// simt.cuda.tile in kernels: the typing rules shared by tile operators (sema/tile_ops.cpp) and the
// tile module's functions (sema/builtins_tile.cpp), and the code they both emit.
#pragma once
#include <functional>
#include <string>
#include <vector>
#include "frontend/ast.h"
#include "types/type.h"

namespace simt {

class Sema;
class Emitter;

// The most scratch shared memory a kernel's tile operations may use to exchange elements.
constexpr int64_t kTileScratchLimit = 48 * 1024;

int64_t tile_bytes(const Type* tile);
// Two tiles published one after the other (the second at a 16-byte boundary), as mma and cat do.
int64_t tile_pair_bytes(const Type* a, const Type* b);
// Records that an operation needs `bytes` of the block's scratch memory (the unit keeps the most).
void note_tile_scratch(Sema& s, Loc loc, int64_t bytes, const std::string& what);

// The broadcast shape of operands sema has checked (no errors).
std::vector<int64_t> tile_broadcast_shape(const std::vector<const Type*>& operands);
// NumPy broadcasting of the shapes of the tile operands (scalars take part as shape ()).
std::vector<int64_t> broadcast_tile_dims(Sema& s, Loc loc, const std::vector<const Type*>& operands,
                                         const std::string& what);
// The dtype tiles and scalars compute in together: tiles promote among themselves (NumPy);
// scalars are weak (they take the tiles' dtype unless they are of a higher kind).
DType tile_common_dtype(const std::vector<const Type*>& operands);
// Element type of an arithmetic operator on tiles (NumPy's: int32 + int32 stays int32, / on
// integers gives float64); fails for operators that do not apply.
DType tile_binop_dtype(Sema& s, Loc loc, BinOpKind op, const Type* a, const Type* b);
// A Python integer beside integer tiles takes their dtype, so it must fit it (NumPy raises
// OverflowError for int8 + 1000); fails naming the value otherwise.
void check_weak_integer(Sema& s, const Expr& scalar, const Type* other);
// Types `a op b` where a or b is a tile; notes the scratch broadcasting needs.
const Type* tile_binop_type(Sema& s, Loc loc, BinOpKind op, const Type* a, const Type* b);

// Operators on tiles (sema/tile_ops.cpp); called by Sema when an operand is a tile.
const Type* infer_tile_unary(Sema& s, Expr& e);
const Type* infer_tile_compare(Sema& s, Expr& e);
// `a op b` with a tile operand (bool tile) or two numbers (bool); for tile.greater() and friends too.
const Type* tile_compare_type(Sema& s, Loc loc, CmpOpKind op, const Type* a, const Type* b);
const Type* infer_tile_attribute(Sema& s, Expr& e);  // .shape .dtype .ndim .size (not methods)
const Type* infer_tile_subscript(Sema& s, Expr& e, const std::vector<Expr*>& parts);  // t[:, None]
bool is_tile_method(const std::string& attr);
// tv.tile_shape and tv.dtype of a TiledView (its methods load/store/num_tiles are builtins;
// sema/builtins_tile_view.cpp).
const Type* infer_tiled_view_attribute(Sema& s, Expr& e);

// --- code ----------------------------------------------------------------------------------
// An elementwise operation: `body` gets the C++ names of the operands' elements (each of the
// operand's own element type) and gives the result element's code. Tile operands of another
// shape are broadcast first; the result is a tile of `result`, or a scalar when no operand is a tile.
std::string emit_tile_elementwise(Emitter& em, const Type* result, const std::vector<std::string>& codes,
                                  const std::vector<const Type*>& types,
                                  const std::function<std::string(const std::vector<std::string>&)>& body);
std::string emit_tile_binop(Emitter& em, BinOpKind op, const std::string& a, const Type* at, const std::string& b,
                            const Type* bt, const Type* result);
std::string emit_tile_unary(Emitter& em, const Expr& e);
std::string emit_tile_compare(Emitter& em, const Expr& e);
std::string emit_tile_compare_of(Emitter& em, CmpOpKind op, const Expr& a, const Expr& b, const Type* result);
// Code converting `code` (a tile of type from) to tile type `to` of the same shape.
std::string emit_tile_cast(Emitter& em, const std::string& code, const Type* from, const Type* to);

}  // namespace simt
