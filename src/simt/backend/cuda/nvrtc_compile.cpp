// NVRTC compilation with the disk cache, and readable compile errors.
#include "backend/cuda/nvrtc_compile.h"
#include <sys/stat.h>
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include "backend/cuda/nvrtc_api.h"
#include "backend/cuda/nvrtc_prelude.h"
#include "backend/cuda/pathfinder.h"
#include "runtime/disk_cache.h"
#include "support/error.h"
#include "support/files.h"
#include "support/sha256.h"
#include "support/stopwatch.h"

namespace simt {

namespace {

// Destroys the program on every path out of a compile.
struct Program {
    cu::NvrtcProgram handle = nullptr;
    ~Program() {
        if (handle) nvrtc().nvrtcDestroyProgram(&handle);
    }
};

void check_nvrtc(cu::NvrtcResult r, const char* call) {
    if (r == cu::kNvrtcSuccess) return;
    const char* text = nvrtc().nvrtcGetErrorString(r);
    throw Error(ErrorKind::Compiler, std::string("NVRTC: ") + call + " failed: " + (text ? text : "unknown error"));
}

std::string program_log(cu::NvrtcProgram p) {
    size_t size = 0;
    if (nvrtc().nvrtcGetProgramLogSize(p, &size) != cu::kNvrtcSuccess || size <= 1) return "";
    std::string log(size, '\0');
    if (nvrtc().nvrtcGetProgramLog(p, log.data()) != cu::kNvrtcSuccess) return "";
    log.resize(size - 1);  // the size counts the terminating NUL
    return log;
}

// The counters are shared with compiles on other threads (the parallel NVRTC check).
std::mutex& counters_mutex() {
    static std::mutex mutex;
    return mutex;
}
void count(int64_t CompileCounters::*which) {
    std::lock_guard<std::mutex> lock(counters_mutex());
    ++(compile_counters().*which);
}
void record_ms(double CompileCounters::*which, double ms) {
    std::lock_guard<std::mutex> lock(counters_mutex());
    compile_counters().*which = ms;
}

// Runs NVRTC on `req` for `target` with `more` options; throws NVRTC's annotated log on failure.
void compile_program(const NvrtcRequest& req, const std::string& target, const std::vector<std::string>& more, Program& p) {
    const cu::NvrtcApi& api = nvrtc();
    std::vector<std::string> opts = nvrtc_options(req);
    opts.insert(opts.begin(), "--gpu-architecture=" + target);
    opts.insert(opts.end(), more.begin(), more.end());
    NvrtcInput in = nvrtc_input_for(req.source);
    std::vector<const char*> argv;
    for (const std::string& o : opts) argv.push_back(o.c_str());
    for (const std::string& o : in.options) argv.push_back(o.c_str());
    check_nvrtc(api.nvrtcCreateProgram(&p.handle, in.source.c_str(), "simt_kernel.cu", int(in.headers.size()),
                                       in.headers.data(), in.header_names.data()),
                "nvrtcCreateProgram");
    for (const std::string& e : req.name_expressions) check_nvrtc(api.nvrtcAddNameExpression(p.handle, e.c_str()), "nvrtcAddNameExpression");
    Stopwatch compiling;
    cu::NvrtcResult r = api.nvrtcCompileProgram(p.handle, int(argv.size()), argv.data());
    if (!req.background) record_ms(&CompileCounters::last_compiler_ms, compiling.ms());
    if (!in.headers.empty()) grow_pch_heap_if_needed(p.handle);
    if (r != cu::kNvrtcSuccess) {
        std::string log = program_log(p.handle);
        std::string options;
        for (const std::string& o : opts) options += " " + o;
        throw Error(ErrorKind::Compiler, "NVRTC could not compile " + req.name + " for " + target + " (" +
                                             (api.nvrtcGetErrorString(r) ? api.nvrtcGetErrorString(r) : "error") +
                                             "; options:" + options + ")\n" + annotate_nvrtc_log(log) +
                                             "\n(the generated CUDA C++ is shown by kernel.inspect_source())");
    }
}

// Runs NVRTC: PTX for a compute_ target, cubin for an sm_ target; the lowered names of the
// request's name expressions into *lowered.
std::string run_nvrtc(const NvrtcRequest& req, const std::string& target, bool cubin, std::vector<std::string>* lowered) {
    const cu::NvrtcApi& api = nvrtc();
    Program p;
    compile_program(req, target, {}, p);
    for (const std::string& e : req.name_expressions) {
        const char* name = nullptr;
        check_nvrtc(api.nvrtcGetLoweredName(p.handle, e.c_str(), &name), "nvrtcGetLoweredName");
        lowered->push_back(name ? name : "");
    }
    std::string out;
    size_t size = 0;
    if (cubin) {
        if (!api.nvrtcGetCUBINSize || !api.nvrtcGetCUBIN)
            throw Error(ErrorKind::Compiler, "NVRTC is too old to emit cubins (CUDA 11.1 or newer is needed)");
        check_nvrtc(api.nvrtcGetCUBINSize(p.handle, &size), "nvrtcGetCUBINSize");
        out.resize(size);
        check_nvrtc(api.nvrtcGetCUBIN(p.handle, out.data()), "nvrtcGetCUBIN");
    } else {
        check_nvrtc(api.nvrtcGetPTXSize(p.handle, &size), "nvrtcGetPTXSize");
        out.resize(size);  // includes the NUL cuModuleLoadData needs at the end of PTX
        check_nvrtc(api.nvrtcGetPTX(p.handle, out.data()), "nvrtcGetPTX");
    }
    if (out.empty()) throw Error(ErrorKind::Compiler, "NVRTC produced no output for " + req.name);
    return out;
}

std::string cache_key(const NvrtcRequest& req, const std::string& target) {
    Sha256 h;
    h.update("simt-cuda-kernel-v1\nnvrtc " + std::to_string(nvrtc_version()) + "\n" + target);
    for (const std::string& o : nvrtc_options(req)) h.update("\n" + o);
    for (const std::string& e : req.name_expressions) h.update("\nname expression " + e);
    h.update("\n");
    h.update(req.source);
    return h.hex_digest();
}

std::string joined_lines(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& l : lines) out += l + "\n";
    return out;
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

// The image for `target` when the disk cache holds it (and, with name expressions, their lowered
// names, cached beside it as ".names", one per line); counted as a disk hit.
bool cached_image(const NvrtcRequest& req, const std::string& target, bool cubin, std::string* bytes,
                  std::vector<std::string>* lowered) {
    const std::string key = cache_key(req, target);
    DiskCache& cache = DiskCache::instance();
    std::string path, names;
    if (!cache.lookup("cuda", key, cubin ? ".cubin" : ".ptx", path, bytes) || bytes->empty()) return false;
    if (!req.name_expressions.empty() &&
        !(cache.lookup("cuda", key, ".names", path, &names) && split_lines(names).size() == req.name_expressions.size()))
        return false;
    if (!req.background) count(&CompileCounters::disk_hits);
    if (!req.name_expressions.empty()) *lowered = split_lines(names);
    return true;
}

// From the disk cache, or compiled by NVRTC and stored.
std::string cached_compile(const NvrtcRequest& req, const std::string& target, bool cubin,
                           std::vector<std::string>* lowered) {
    std::string bytes;
    if (cached_image(req, target, cubin, &bytes, lowered)) return bytes;
    const std::string key = cache_key(req, target);
    const char* suffix = cubin ? ".cubin" : ".ptx";
    DiskCache& cache = DiskCache::instance();
    if (!req.background) count(&CompileCounters::compiled);
    lowered->clear();
    bytes = run_nvrtc(req, target, cubin, lowered);
    try {
        if (!req.name_expressions.empty()) cache.store("cuda", key, ".names", joined_lines(*lowered));
        cache.store("cuda", key, suffix, bytes);
    } catch (const Error&) {
        // A cache that cannot be written only costs a recompile next time.
    }
    return bytes;
}

std::string read_line(const std::string& path, int line) {
    std::string text;
    if (line <= 0 || !read_file(path, text)) return "";
    size_t pos = 0;
    for (int i = 1; i < line; ++i) {
        pos = text.find('\n', pos);
        if (pos == std::string::npos) return "";
        ++pos;
    }
    size_t end = text.find('\n', pos);
    return text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
}

}  // namespace

std::string nvrtc_target_for(int arch, bool* cubin) {
    const std::vector<int>& archs = nvrtc_supported_archs();
    if (std::find(archs.begin(), archs.end(), arch) != archs.end()) {
        *cubin = true;
        return "sm_" + std::to_string(arch);
    }
    int best = 0;
    for (int a : archs)
        if (a <= arch && a > best) best = a;
    if (best == 0) {
        int v = nvrtc_version();
        throw Error(ErrorKind::Compiler, "NVRTC " + std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10) +
                                             " cannot compile for compute capability " + std::to_string(arch / 10) +
                                             "." + std::to_string(arch % 10) + " (its oldest target is sm_" +
                                             std::to_string(archs.empty() ? 0 : archs.front()) +
                                             "); use an NVRTC from an older CUDA toolkit");
    }
    *cubin = false;  // the device is newer than NVRTC: the driver JIT-compiles PTX for it
    return "compute_" + std::to_string(best);
}

std::vector<std::string> nvrtc_options(const NvrtcRequest& req) {
    std::vector<std::string> o = {"--std=c++17"};
    const int version = nvrtc_version();
    // Leaves out texture, device-runtime and driver-type declarations nothing generated uses:
    // less for the front end to parse in every compile.
    if (version >= 12040 && req.minimal) o.push_back("--minimal");
    // Users' raw CUDA C++ may include the toolkit's headers (cuda_runtime.h, ...), as with CuPy.
    if (!req.minimal && cuda_include_location().found()) {
        o.push_back("--include-path=" + cuda_include_location().path);
        // CUDA 13 keeps CCCL (cuda/std/..., cub, thrust), which cooperative_groups.h includes, in include/cccl.
        const std::string cccl = cuda_include_location().path + "/cccl";
        struct stat st;
        if (::stat(cccl.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) o.push_back("--include-path=" + cccl);
    }
    if (req.options.fastmath) o.push_back("--use_fast_math");
    if (req.options.debug) o.push_back("--device-debug");
    if (req.options.lineinfo) o.push_back("--generate-line-info");
    if (req.options.max_registers > 0) o.push_back("--maxrregcount=" + std::to_string(req.options.max_registers));
    if (req.relocatable) o.push_back("--relocatable-device-code=true");
    // NVRTC has no -O0 for device code short of -G; its fastest-compile level is the closest.
    if (!req.optimize && version >= 12080) o.push_back("--Ofast-compile=max");
    o.insert(o.end(), req.extra.begin(), req.extra.end());
    // SIMT_NVRTC_OPTIONS: more NVRTC options, space-separated, for every kernel (to measure what an
    // option does to compile time and code; part of the cache key like every option).
    if (const char* env = std::getenv("SIMT_NVRTC_OPTIONS")) {
        std::istringstream words(env);
        for (std::string w; words >> w;) o.push_back(w);
    }
    return o;
}

CudaImage compile_for_device(const NvrtcRequest& req, bool ptx_for_driver) {
    CudaImage image;
    image.target = nvrtc_target_for(req.arch, &image.is_cubin);
    if (image.is_cubin && ptx_for_driver && !req.options.debug && !req.relocatable) {
        image.target = "compute_" + std::to_string(req.arch);
        image.is_cubin = false;
    }
    image.bytes = cached_compile(req, image.target, image.is_cubin, &image.lowered_names);
    return image;
}

bool cached_cubin(const NvrtcRequest& req, CudaImage* image) {
    image->target = nvrtc_target_for(req.arch, &image->is_cubin);
    return image->is_cubin && cached_image(req, image->target, true, &image->bytes, &image->lowered_names);
}

namespace {
constexpr const char* kSyntaxOnly = "--fdevice-syntax-only";

// Whether this NVRTC knows the front-end-only option (newer ones do): tried once on an empty kernel.
bool nvrtc_has_syntax_only() {
    static const bool known = [] {
        const cu::NvrtcApi& api = nvrtc();
        Program p;
        if (api.nvrtcCreateProgram(&p.handle, "__global__ void k() {}", "probe.cu", 0, nullptr, nullptr) != cu::kNvrtcSuccess)
            return false;
        const char* argv[] = {kSyntaxOnly};
        return api.nvrtcCompileProgram(p.handle, 1, argv) == cu::kNvrtcSuccess;
    }();
    return known;
}
}  // namespace

void check_device_code(const NvrtcRequest& req) {
    bool cubin = false;
    std::string target = nvrtc_target_for(req.arch, &cubin);
    if (!nvrtc_has_syntax_only()) {
        std::vector<std::string> lowered;
        cached_compile(req, target, cubin, &lowered);
        return;
    }
    Program p;
    compile_program(req, target, {kSyntaxOnly}, p);
}

std::string compile_ptx_text(const NvrtcRequest& req) {
    bool cubin = false;
    std::string target = nvrtc_target_for(req.arch, &cubin);
    if (cubin) target = "compute_" + std::to_string(req.arch);
    std::vector<std::string> lowered;
    std::string ptx = cached_compile(req, target, false, &lowered);
    while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
    return ptx;
}

std::string annotate_nvrtc_log(const std::string& log) {
    // NVRTC reports "<file>(<line>): error: <text>"; #line directives make <file> the user's .py.
    std::string out;
    size_t pos = 0;
    while (pos < log.size()) {
        size_t end = log.find('\n', pos);
        std::string line = log.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        pos = end == std::string::npos ? log.size() : end + 1;
        out += line + "\n";
        size_t open = line.find('(');
        size_t close = line.find("): error", open == std::string::npos ? 0 : open);
        if (open == std::string::npos || close == std::string::npos || open == 0) continue;
        std::string file = line.substr(0, open);
        std::string digits = line.substr(open + 1, close - open - 1);
        if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit((unsigned char)c); }))
            continue;
        if (file.size() < 3 || file.compare(file.size() - 3, 3, ".py") != 0) continue;
        std::string source = read_line(file, std::stoi(digits));
        if (!source.empty()) out += "    " + file + ":" + digits + ": " + source + "\n";
    }
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
}

}  // namespace simt
