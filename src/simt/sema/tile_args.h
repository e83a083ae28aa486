// Arguments of the tile builtins (sema/builtins_tile*.cpp): matching a call's arguments to
// parameter names (hint keywords included, see tile_hints.h), and the checks most builtins share.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "types/type.h"

namespace simt {

class BuiltinRegistry;
class Emitter;
class Sema;
struct Expr;

namespace tile_builtin {

// (a block's 128 threads hold 256 registers' worth each at this size; the cpu's one thread holds
// whole tiles on its stack)
constexpr int64_t kMaxTileElements = int64_t(1) << 15;

bool is_method(const Expr& call);        // t.sum(...), x.slice(...): the receiver is the first argument
std::string short_name(const Expr& call);  // "sum" of tile.sum
std::string display(const Expr& call);     // "tile.sum", "Tile.sum" or "Array.slice", for messages

// The call's arguments in the order of `params` (null where omitted); fails naming the call.
std::vector<Expr*> args(Sema& s, Expr& call, const std::vector<const char*>& params, size_t required);
// The same when emitting (the call type-checked already).
std::vector<const Expr*> emit_args(const Expr& call, const std::vector<const char*>& params);

const Type* need_tile(Sema& s, const Expr* e, const Expr& call, const char* what);
bool power_of_two(int64_t n);
// A tile shape: a constant int or tuple of ints, each a power of two. With infer_from (reshape's
// element count), one -1 stands for the rest.
std::vector<int64_t> shape_arg(Sema& s, const Expr* e, const Expr& call, const char* what, int64_t infer_from = 0);
DType dtype_arg(Sema& s, const Expr* e, const Expr& call, DType fallback);
int64_t axis_arg(Sema& s, const Expr* e, const Expr& call, int64_t rank);
bool bool_arg(Sema& s, const Expr* e, const Expr& call, const char* what);
// An index into the tile space: an integer (1-D) or a tuple of integers, one per array axis.
void check_index(Sema& s, const Expr* e, const Expr& call, int ndim);
std::string index_codes(Emitter& em, const Expr& e);
std::string scratch();  // the name of the block's shared scratch in the prelude

// A padding_mode argument's mode (a tile.PaddingMode string; `absent` where e is null), checked
// against the array's dtype when typing (s not null).
std::string padding_mode_arg(Sema* s, const Expr* e, const Expr& call, DType d, const char* absent);
// The value a load reads outside the array in padding mode `mode` (a tile.PaddingMode string).
std::string padding_code(const std::string& mode, DType d);

// Registers tile.<name> (and, with method, t.<name>(...) on tiles).
void add_tile_function(BuiltinRegistry& r, const std::string& name, const Type* (*infer)(Sema&, Expr&),
                       std::string (*emit)(Emitter&, const Expr&), bool method = false);
// An operand of an elementwise function: a tile or a real number (fails naming the call).
void check_operand(Sema& s, const Expr* e, const Expr& call);

// The elementwise max/min: NaN wins (propagate NaN, NumPy's maximum) or gives way (fmax).
const char* max_min_fn(const std::string& n, bool nan);
// A C++ lambda combining two accumulators of `acc`'s type for "sum", "prod", "max" or "min".
std::string reduce_op(Emitter& em, const std::string& n, const Type* acc, bool nan);

// Result types of sums and products ("sum", "prod"; other names keep d), NumPy's: small integers
// widen to 64 bits. Reductions and scans share them.
DType reduce_dtype(const std::string& n, DType d);
// What they accumulate in: float16 sums and products in float32 (rounded once at the end),
// everything else in the result type d.
DType reduce_acc_dtype(const std::string& n, DType in, DType d);

}  // namespace tile_builtin
}  // namespace simt
