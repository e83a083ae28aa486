// CompileOptions → NVRTC options.
#include "codegen/nvrtc_options.h"

namespace simt {

std::vector<std::string> nvrtc_options(const CompileOptions& o, int cc_major, int cc_minor) {
    std::vector<std::string> out = {"--gpu-architecture=sm_" + std::to_string(cc_major) + std::to_string(cc_minor),
                                    "--std=c++17"};
    if (o.fastmath) out.push_back("--use_fast_math");
    if (o.debug) {
        out.push_back("--device-debug");
        if (o.opt) out.push_back("--dopt=on");
    } else if (o.lineinfo) {
        out.push_back("--generate-line-info");
    }
    if (!o.debug && !o.opt) out.push_back("--ptxas-options=-O0");
    if (o.max_registers > 0) out.push_back("--maxrregcount=" + std::to_string(o.max_registers));
    return out;
}

}  // namespace simt
