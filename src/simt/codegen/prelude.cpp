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
}  // namespace embedded

const std::string& prelude_source(Target target) {
    // Target basics, the target's synchronization and warp layer, shared code, shared memory code.
    auto join = [](const char* target, const char* sync, const char* sync_name) {
        return std::string(target) + "\n#line 1 \"simt/prelude/" + sync_name + "\"\n" + sync +
               "\n#line 1 \"simt/prelude/common.h\"\n" + embedded::prelude_common +
               "\n#line 1 \"simt/prelude/memory.h\"\n" + embedded::prelude_memory;
    };
    static const std::string cpu = join(embedded::prelude_cpu, embedded::prelude_cpu_sync, "cpu_sync.h");
    static const std::string cuda = join(embedded::prelude_cuda, embedded::prelude_cuda_sync, "cuda_sync.h");
    return target == Target::Cuda ? cuda : cpu;
}

}  // namespace simt
