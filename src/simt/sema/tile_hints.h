// cuTile keywords that tune how an operation runs but not what simt computes (rounding_mode of
// round-to-nearest-even, flush_to_zero, latency, check_bounds, memory_order, ...): tile builtins
// accept them where cuTile does, check their values, and ignore them (sema/tile_hints.cpp).
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace simt {

class Sema;
struct Expr;

// The hint keywords tile function `name` (as in tile.<name>) accepts besides its own parameters.
const std::vector<const char*>& tile_hint_keywords(const std::string& name);
// Checks a hint keyword's value (`what` names the call for messages).
void check_tile_hint(Sema& s, const std::string& name, const char* keyword, const Expr& value, const std::string& what);
// latency= and allow_tma= of loads and stores (tile.load/store, TiledView.load/store).
void check_performance_hints(Sema& s, const Expr* latency, const Expr* allow_tma, const std::string& name,
                             const std::string& what);

// cuTile's enumerations (PaddingMode, RoundingMode, MemoryOrder, MemoryScope): their members are
// string constants in kernels, the same strings python/simt/cuda/tile gives.
struct TileEnumeration {
    const char* name;
    std::vector<std::pair<const char*, const char*>> members;  // (member, value)
};
const std::vector<TileEnumeration>& tile_enumerations();

}  // namespace simt
