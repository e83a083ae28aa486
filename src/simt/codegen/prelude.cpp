// The preludes, embedded at build time (see cmake/embed_text.cmake), joined per target.
#include "codegen/emitter.h"

namespace simt {

namespace embedded {
extern const char* const prelude_cpu;
extern const char* const prelude_cuda;
extern const char* const prelude_common;
}  // namespace embedded

const std::string& prelude_source(Target target) {
    static const std::string cpu = std::string(embedded::prelude_cpu) + "\n#line 1 \"simt/prelude/common.h\"\n" + embedded::prelude_common;
    static const std::string cuda = std::string(embedded::prelude_cuda) + "\n#line 1 \"simt/prelude/common.h\"\n" + embedded::prelude_common;
    return target == Target::Cuda ? cuda : cpu;
}

}  // namespace simt
