// Handing the cuda prelude to NVRTC as a precompilable header.
#include "backend/cuda/nvrtc_prelude.h"
#include <cstdlib>
#include <cstring>
#include <mutex>
#include "backend/cuda/nvrtc_api.h"
#include "codegen/emitter.h"

namespace simt {

namespace {
constexpr const char* kHeaderName = "simt_prelude.cuh";

// SIMT_NVRTC_PCH=0 turns precompiling off (to measure what it saves).
bool pch_wanted() {
    const cu::NvrtcApi& api = nvrtc();
    const char* env = std::getenv("SIMT_NVRTC_PCH");
    return !(env && std::strcmp(env, "0") == 0) && nvrtc_version() >= 12080 && api.nvrtcGetPCHCreateStatus &&
           api.nvrtcGetPCHHeapSizeRequired && api.nvrtcSetPCHHeapSize;
}
}  // namespace

NvrtcInput nvrtc_input_for(const std::string& source) {
    NvrtcInput in;
    const std::string& prelude = prelude_source(Target::Cuda);
    if (!pch_wanted() || source.compare(0, prelude.size(), prelude) != 0) {
        in.source = source;
        return in;
    }
    // The #line that follows the prelude in generated code keeps the kernel's own line numbers.
    in.source = std::string("#include \"") + kHeaderName + "\"\n" + source.substr(prelude.size());
    in.header_names.push_back(kHeaderName);
    in.headers.push_back(prelude.c_str());
    // 20283: "PCH creation disabled because #line directive encountered" is said of the code
    // after the header, which is never meant to be precompiled.
    in.options = {"--pch", "--pch-messages=false", "--pch-verbose=false", "--diag-suppress=20283"};
    return in;
}

void grow_pch_heap_if_needed(cu::NvrtcProgram program) {
    const cu::NvrtcApi& api = nvrtc();
    if (!api.nvrtcGetPCHCreateStatus || api.nvrtcGetPCHCreateStatus(program) != cu::kNvrtcPchCreateHeapExhausted) return;
    size_t required = 0;
    if (api.nvrtcGetPCHHeapSizeRequired(program, &required) != cu::kNvrtcSuccess || required == 0) return;
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    api.nvrtcSetPCHHeapSize(required + required / 4);  // a failure only means no PCH: compiles still work
}

}  // namespace simt
