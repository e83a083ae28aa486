// Loading NVRTC with dlopen (found by the pathfinder), once per process. Its version and target
// architectures (what cache keys need) are remembered in the disk cache, keyed by the search
// inputs and checked against the library's size and time stamp, so a process whose kernels are
// all cached never loads the 100 MB library at all.
#include "backend/cuda/nvrtc_api.h"
#include <sys/stat.h>
#include <cstdlib>
#include <mutex>
#include "backend/cuda/pathfinder.h"
#include "runtime/disk_cache.h"
#include "support/dl_symbol.h"
#include "support/error.h"
#include "support/files.h"
#include "support/sha256.h"

namespace simt {

namespace {

struct Facts {
    bool found = false;
    std::string path;
    std::string why;  // when not found or not loadable
    int version = 0;
    std::vector<int> archs;
};

struct Loaded {
    cu::NvrtcApi api{};
    bool ok = false;
    std::string why;
};

Loaded load_library(const std::string& path) {
    Loaded l;
    void* lib = open_library(path, "NVRTC", l.why);
    if (!lib) return l;
    cu::NvrtcApi& a = l.api;
    std::string missing;
    bind_symbol(lib, a.nvrtcGetErrorString, "nvrtcGetErrorString", missing);
    bind_symbol(lib, a.nvrtcVersion, "nvrtcVersion", missing);
    bind_symbol(lib, a.nvrtcGetNumSupportedArchs, "nvrtcGetNumSupportedArchs", missing);
    bind_symbol(lib, a.nvrtcGetSupportedArchs, "nvrtcGetSupportedArchs", missing);
    bind_symbol(lib, a.nvrtcCreateProgram, "nvrtcCreateProgram", missing);
    bind_symbol(lib, a.nvrtcDestroyProgram, "nvrtcDestroyProgram", missing);
    bind_symbol(lib, a.nvrtcCompileProgram, "nvrtcCompileProgram", missing);
    bind_symbol(lib, a.nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize", missing);
    bind_symbol(lib, a.nvrtcGetProgramLog, "nvrtcGetProgramLog", missing);
    bind_symbol(lib, a.nvrtcGetPTXSize, "nvrtcGetPTXSize", missing);
    bind_symbol(lib, a.nvrtcGetPTX, "nvrtcGetPTX", missing);
    bind_symbol(lib, a.nvrtcGetCUBINSize, "nvrtcGetCUBINSize", missing, false);
    bind_symbol(lib, a.nvrtcGetCUBIN, "nvrtcGetCUBIN", missing, false);
    bind_symbol(lib, a.nvrtcAddNameExpression, "nvrtcAddNameExpression", missing);
    bind_symbol(lib, a.nvrtcGetLoweredName, "nvrtcGetLoweredName", missing);
    bind_symbol(lib, a.nvrtcGetPCHCreateStatus, "nvrtcGetPCHCreateStatus", missing, false);
    bind_symbol(lib, a.nvrtcGetPCHHeapSizeRequired, "nvrtcGetPCHHeapSizeRequired", missing, false);
    bind_symbol(lib, a.nvrtcSetPCHHeapSize, "nvrtcSetPCHHeapSize", missing, false);
    if (!missing.empty()) {
        l.why = "NVRTC " + path + " is too old for simt (it lacks " + missing + "; CUDA 11.2 or newer is needed)";
        return l;
    }
    l.ok = true;
    return l;
}

// Version and architectures from a loaded library.
bool query(const cu::NvrtcApi& a, Facts& f) {
    int major = 0, minor = 0, count = 0;
    if (a.nvrtcVersion(&major, &minor) != cu::kNvrtcSuccess) {
        f.why = "NVRTC " + f.path + " does not report its version";
        return false;
    }
    f.version = major * 1000 + minor * 10;
    if (a.nvrtcGetNumSupportedArchs(&count) == cu::kNvrtcSuccess && count > 0) {
        f.archs.resize(size_t(count));
        if (a.nvrtcGetSupportedArchs(f.archs.data()) != cu::kNvrtcSuccess) f.archs.clear();
    }
    if (f.archs.empty()) {
        f.why = "NVRTC " + f.path + " does not list the architectures it supports";
        return false;
    }
    return true;
}

std::string stamp(const std::string& path) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return "";
    return std::to_string((long long)st.st_size) + ":" + std::to_string((long long)st.st_mtim.tv_sec) + "." +
           std::to_string((long long)st.st_mtim.tv_nsec);
}

// Where the remembered facts for this process's search inputs live.
std::string record_path(const SearchInputs& in) {
    const char* ld = std::getenv("LD_LIBRARY_PATH");
    std::string inputs = "simt-nvrtc-facts-v1\n" + in.cuda_path + "\n" + in.cuda_home + "\n" + (ld ? ld : "") + "\n";
    for (const std::string& sp : in.site_packages) inputs += sp + "\n";
    return DiskCache::instance().root() + "/cuda/nvrtc-" + sha256_hex(inputs).substr(0, 24) + ".txt";
}

// The remembered facts, if the library is unchanged and no place searched before it (other
// than the OS loader, whose answer is covered by LD_LIBRARY_PATH in the key) now has one.
bool recall(const SearchInputs& in, Facts& f) {
    std::string text;
    if (!read_file(record_path(in), text)) return false;
    // Lines: path, stamp, found_by, version, comma-separated archs (see remember()).
    std::vector<std::string> lines = split(text, "\n");
    if (lines.size() < 5) return false;
    const std::string &path = lines[0], &stamped = lines[1], &found_by = lines[2], &archs = lines[4];
    f.version = std::atoi(lines[3].c_str());
    if (stamped.empty() || stamp(path) != stamped) return false;
    SearchInputs no_loader = in;
    no_loader.os_loader = nullptr;
    SearchResult cheap = find_nvrtc(no_loader);
    bool consistent = found_by == "OS loader" ? (!cheap.found() || cheap.found_by == in.default_root)
                                              : cheap.path == path;
    if (!consistent) return false;
    for (const std::string& a : split(archs, ",")) f.archs.push_back(std::atoi(a.c_str()));
    f.path = path;
    f.found = !f.archs.empty();
    return f.found;
}

void remember(const SearchInputs& in, const Facts& f, const std::string& found_by) {
    std::string archs;
    for (int a : f.archs) archs += (archs.empty() ? "" : ",") + std::to_string(a);
    try {
        std::string path = record_path(in);
        make_private_directory(path.substr(0, path.rfind('/')));
        write_file_atomic(path, f.path + "\n" + stamp(f.path) + "\n" + found_by + "\n" + std::to_string(f.version) +
                                    "\n" + archs + "\n");
    } catch (const Error&) {
        // Not remembering only costs loading NVRTC next time.
    }
}

std::mutex g_mutex;
Loaded* g_loaded = nullptr;

const Facts& facts() {
    static const Facts f = [] {
        Facts f;
        SearchInputs in = system_search_inputs();
        if (recall(in, f)) return f;
        f = Facts{};
        const SearchResult& where = nvrtc_location();
        if (!where.found()) {
            f.why = where.not_found_message("NVRTC (libnvrtc.so)",
                                            "Install the CUDA toolkit, or `pip install nvidia-cuda-nvrtc`, or set "
                                            "CUDA_PATH to a CUDA installation.");
            return f;
        }
        f.path = where.path;
        Loaded l = load_library(f.path);
        if (!l.ok) {
            f.why = l.why;
            return f;
        }
        if (!query(l.api, f)) return f;
        f.found = true;
        {
            std::lock_guard<std::mutex> lock(g_mutex);
            g_loaded = new Loaded(l);
        }
        remember(in, f, where.found_by);
        return f;
    }();
    return f;
}

}  // namespace

bool nvrtc_available(std::string* why) {
    const Facts& f = facts();
    if (!f.found && why) *why = f.why;
    return f.found;
}

std::string nvrtc_path() { return facts().path; }

const cu::NvrtcApi& nvrtc() {
    const Facts& f = facts();
    if (!f.found) throw Error(ErrorKind::Compiler, "the cuda backend cannot compile kernels: " + f.why);
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!g_loaded) g_loaded = new Loaded(load_library(f.path));  // facts came from the disk cache
    if (!g_loaded->ok) throw Error(ErrorKind::Compiler, "the cuda backend cannot compile kernels: " + g_loaded->why);
    return g_loaded->api;
}

int nvrtc_version() {
    const Facts& f = facts();
    if (!f.found) nvrtc();  // raises with the reason
    return f.version;
}

const std::vector<int>& nvrtc_supported_archs() {
    const Facts& f = facts();
    if (!f.found) nvrtc();
    return f.archs;
}

}  // namespace simt
