// Handing the cuda prelude to NVRTC as a precompilable header.
#include "backend/cuda/nvrtc_prelude.h"
#include <unistd.h>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include "backend/cuda/nvrtc_api.h"
#include "codegen/emitter.h"
#include "runtime/disk_cache.h"
#include "support/error.h"

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
pid_t g_pch_owner = 0;
const std::string* g_pch_directory = nullptr;  // never destroyed: the atexit handler reads it

void remove_pch_directory() {
    if (::getpid() != g_pch_owner) return;  // a fork()ed child leaves its parent's directory alone
    std::error_code ignored;
    std::filesystem::remove_all(*g_pch_directory, ignored);
}
}  // namespace

const std::string& nvrtc_pch_directory() {
    static std::once_flag once;
    std::call_once(once, [] {
        std::string dir;
        try {
            dir = DiskCache::instance().temp_dir() + "/nvrtc-pch-XXXXXX";
            if (!::mkdtemp(dir.data())) dir.clear();
        } catch (const Error&) {
            dir.clear();  // NVRTC's own directory, then
        }
        g_pch_directory = new std::string(dir);
        if (!dir.empty()) {
            g_pch_owner = ::getpid();
            std::atexit(remove_pch_directory);
        }
    });
    return *g_pch_directory;
}

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
    if (!nvrtc_pch_directory().empty()) in.options.push_back("--pch-dir=" + nvrtc_pch_directory());
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
