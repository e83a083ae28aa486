// The preludes, embedded at build time (see cmake/embed_text.cmake), joined per target.
#include "codegen/emitter.h"

namespace simt {

namespace embedded {
extern const char* const prelude_cpu;
extern const char* const prelude_cuda;
extern const char* const prelude_common;
extern const char* const prelude_cpu_sync;
extern const char* const prelude_cuda_sync;
extern const char* const prelude_memory;
extern const char* const prelude_views;
extern const char* const prelude_numeric;
extern const char* const prelude_scalar_math;
extern const char* const prelude_complex_math;
extern const char* const prelude_xoroshiro;
extern const char* const prelude_random;
extern const char* const prelude_libdevice_cpu;
extern const char* const prelude_tile;
}  // namespace embedded

namespace {
std::string part(const char* name, const char* text) { return std::string("\n#line 1 \"simt/prelude/") + name + "\"\n" + text; }

// The target prelude, numeric types, the target's synchronization and warp layer, then the
// parts shared by both targets in dependency order.
std::string joined(const char* target_text, const char* sync_name, const char* sync_text) {
    return std::string(target_text) + part("numeric.h", embedded::prelude_numeric) + part(sync_name, sync_text) +
           part("common.h", embedded::prelude_common) + part("memory.h", embedded::prelude_memory) + part("views.h", embedded::prelude_views) +
           part("scalar_math.h", embedded::prelude_scalar_math) + part("complex_math.h", embedded::prelude_complex_math) +
           part("xoroshiro.h", embedded::prelude_xoroshiro) + part("random.h", embedded::prelude_random);
}
}  // namespace

const std::string& prelude_source(Target target) {
    static const std::string cpu = joined(embedded::prelude_cpu, "cpu_sync.h", embedded::prelude_cpu_sync);
    static const std::string cuda = joined(embedded::prelude_cuda, "cuda_sync.h", embedded::prelude_cuda_sync);
    return target == Target::Cuda ? cuda : cpu;
}

// Appended to the cpu prelude only for units that call libdevice (it would slow every compile).
const std::string& libdevice_cpu_prelude() {
    static const std::string text = part("libdevice_cpu.h", embedded::prelude_libdevice_cpu);
    return text;
}

const std::string& tile_prelude() {
    static const std::string text = part("tile.h", embedded::prelude_tile);
    return text;
}

}  // namespace simt
