// Raw CUDA C++ modules for both backends (see raw_module.h).
#include "codegen/raw_module.h"
#include <regex>
#include <set>
#include "support/error.h"

namespace simt {

namespace embedded {
extern const char* const prelude_cpu;
extern const char* const prelude_numeric;
extern const char* const prelude_cpu_sync;
extern const char* const prelude_raw_cuda_cpu;
}  // namespace embedded

namespace {

// Functions that make a kernel's threads wait for each other: such kernels run each thread as a
// fiber on the cpu backend (the others run a block's threads as a plain loop).
bool needs_fibers(const std::string& code) {
    static const std::regex sync(R"(__syncthreads|__syncwarp|__shfl|__ballot|__any_sync|__all_sync|__uni_sync|__match_|__activemask|__reduce_)");
    return std::regex_search(code, sync);
}

// The host has these headers' contents in the raw prelude (or needs none of them); assert.h
// would define assert again, and a failing host assert ends the process.
const std::regex& provided_include() {
    static const std::regex r(R"(^[ \t]*#[ \t]*include[ \t]*[<"](cuda_runtime\.h|cuda_runtime_api\.h|device_launch_parameters\.h|device_functions\.h|math_constants\.h|assert\.h|cassert)[>"][^\n]*)",
                              std::regex::multiline);
    return r;
}

// Headers of the CUDA toolkit with no host version (half types, cooperative groups, CUB, ...).
const std::regex& device_only_include() {
    static const std::regex r(R"(^[ \t]*#[ \t]*include[ \t]*[<"]((cuda_fp16|cuda_bf16|cuda_fp8|cooperative_groups|mma|sm_\d+_intrinsics|curand\w*)(\.h)?|(cub|thrust|cuda|cooperative_groups)/[^>"]*)[>"])",
                              std::regex::multiline);
    return r;
}

int line_of(const std::string& code, size_t offset) {
    int line = 1;
    for (size_t i = 0; i < offset && i < code.size(); ++i) line += code[i] == '\n';
    return line;
}

// The user's code as the host compiler takes it: provided headers dropped (lines kept), and
// `extern __shared__ T name[];` turned into a pointer to the block's dynamic shared memory.
std::string host_code(const RawModuleSource& m) {
    std::smatch found;
    if (std::regex_search(m.code, found, device_only_include()))
        raise(ErrorKind::Compiler, "%s, line %d: <%s> has no host version, so this raw kernel cannot run on the cpu backend "
              "(it runs on the cuda backend)", m.label.c_str(), line_of(m.code, size_t(found.position(0))),
              found[1].str().c_str());
    std::string code = std::regex_replace(m.code, provided_include(), "// (provided by simt's raw prelude) $&");
    static const std::regex dynamic_shared(
        R"(extern[ \t]+__shared__[ \t]+((?:(?:__align__|alignas)[ \t]*\([ \t]*\d+[ \t]*\)[ \t]*)*)([A-Za-z_][\w:<>, ]*?[\w>])[ \t]+(\w+)[ \t]*\[[ \t]*\][ \t]*;)");
    return std::regex_replace(code, dynamic_shared, "$2* $3 = ($2*)simt_raw_dynamic_shared();");
}

// NVRTC options that mean something to the host compiler: macros (as #define lines before the
// user's code, so they do not reach the prelude), include paths (flags) and fast math.
std::vector<std::string> host_options(const std::vector<std::string>& options, CompileOptions* out,
                                      std::string* defines) {
    std::vector<std::string> flags;
    for (size_t i = 0; i < options.size(); ++i) {
        const std::string& o = options[i];
        auto value_of = [&](const char* long_form) -> std::string {
            std::string prefix = std::string(long_form) + "=";
            if (o.rfind(prefix, 0) == 0) return o.substr(prefix.size());
            if (o.size() > 2 && o[1] != '-') return o.substr(2);  // -DX, -IX
            return i + 1 < options.size() ? options[++i] : std::string();
        };
        if (o.rfind("-D", 0) == 0 || o.rfind("--define-macro", 0) == 0) {
            std::string d = value_of("--define-macro");
            size_t eq = d.find('=');
            *defines += "#define " + (eq == std::string::npos ? d + " 1" : d.substr(0, eq) + " " + d.substr(eq + 1)) + "\n";
        } else if (o.rfind("-U", 0) == 0 || o.rfind("--undefine-macro", 0) == 0) {
            *defines += "#undef " + value_of("--undefine-macro") + "\n";
        } else if (o.rfind("-I", 0) == 0 || o.rfind("--include-path", 0) == 0) {
            flags.push_back("-I" + value_of("--include-path"));
        } else if (o == "--use_fast_math" || o == "-use_fast_math") {
            out->fastmath = true;
        }
    }
    return flags;
}

}  // namespace

std::vector<std::string> raw_kernel_names(const std::string& code) {
    static const std::regex kernel(
        R"(__global__[ \t\n]+(?:__launch_bounds__[ \t]*\([^)]*\)[ \t\n]*)?void[ \t\n]+(?:__launch_bounds__[ \t]*\([^)]*\)[ \t\n]*)?([A-Za-z_]\w*)[ \t\n]*\()");
    std::vector<std::string> names;
    std::set<std::string> seen;
    for (auto it = std::sregex_iterator(code.begin(), code.end(), kernel); it != std::sregex_iterator(); ++it) {
        // A template kernel has no address until instantiated: skip it (`template <...>` just before).
        size_t start = size_t(it->position(0));
        size_t from = code.find_last_of(";}", start == 0 ? 0 : start - 1);
        std::string before = code.substr(from == std::string::npos ? 0 : from, start - (from == std::string::npos ? 0 : from));
        if (before.find("template") != std::string::npos) continue;
        std::string name = (*it)[1].str();
        if (seen.insert(name).second) names.push_back(name);
    }
    return names;
}

GeneratedSource raw_kernel_source(const RawModuleSource& m, const std::string& name, Target target,
                                  CompileOptions* options) {
    GeneratedSource g;
    g.user_code = m.code;
    g.raw_cuda = true;
    g.prints = m.code.find("printf") != std::string::npos;
    if (target == Target::Cuda) {
        g.full_source = "#line 1 \"" + m.label + "\"\n" + m.code;
        g.entry_name = name;
        g.compiler_options = m.options;
        return g;
    }
    std::vector<std::string> names = raw_kernel_names(m.code);
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    std::string defines;
    g.compiler_options = host_options(m.options, options, &defines);
    const bool fibers = needs_fibers(m.code);
    std::string entries = "\n#line 1 \"simt-generated\"\n";
    for (size_t i = 0; i < names.size(); ++i) {
        const std::string& n = names[i];
        const std::string id = std::to_string(i);
        entries += "static const char* const simt_raw_sites_" + id + "[] = {\"a barrier or warp function of kernel '" + n + "'\"};\n";
        entries += "extern \"C\" SIMT_EXPORT void simt_raw_entry_" + id +
                   "(const simt_launch* L, void* const* args, int64_t begin, int64_t end) {\n    simt_raw::run(L, args, begin, end, &" + n +
                   ", " + (fibers ? "true" : "false") + ", \"" + n + "\", simt_raw_sites_" + id + ");\n}\n";
        entries += "extern \"C\" SIMT_EXPORT const int64_t* simt_raw_params_" + id + "() { return simt_raw::sizes_of(&" + n + "); }\n";
        if (n == name) {
            g.entry_name = "simt_raw_entry_" + id;
            g.parameter_table = "simt_raw_params_" + id;
        }
    }
    g.full_source = std::string("#include <math.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <string.h>\n#include <assert.h>\n") +
                    "#include <type_traits>\n#include <utility>\n#define SIMT_SYSTEM_MATH 1\n" + embedded::prelude_cpu +
                    "\n#line 1 \"simt/prelude/numeric.h\"\n" + embedded::prelude_numeric +
                    "\n#line 1 \"simt/prelude/cpu_sync.h\"\n" + embedded::prelude_cpu_sync +
                    "\n#line 1 \"simt/prelude/raw_cuda_cpu.h\"\n" + embedded::prelude_raw_cuda_cpu +
                    "\n#line 1 \"simt-options\"\n" + defines + "\n#line 1 \"" + m.label + "\"\n" + host_code(m) + entries;
    return g;
}

}  // namespace simt
