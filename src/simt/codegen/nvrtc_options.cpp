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

std::string launch_bounds_attribute(const CompileOptions& o) {
    if (o.launch_bounds[0] <= 0) return "";
    std::string s = "__launch_bounds__(" + std::to_string(o.launch_bounds[0]);
    for (int k = 1; k < 3 && o.launch_bounds[k] > 0; ++k) s += ", " + std::to_string(o.launch_bounds[k]);
    return s + ") ";
}

std::string launch_bounds_annotations(const CompileOptions& o) {
    std::string s;
    const char* keys[3] = {"maxntidx", "minctasm", "cluster_max_blocks"};
    for (int k = 0; k < 3; ++k)
        if (o.launch_bounds[k] > 0) s += std::string(", !\"") + keys[k] + "\", i32 " + std::to_string(o.launch_bounds[k]);
    return s;
}

}  // namespace simt
