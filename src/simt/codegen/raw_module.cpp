// Raw CUDA C++ modules for both backends (see raw_module.h).
#include "codegen/raw_module.h"
#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>
#include "support/cuda_text.h"
#include "support/error.h"
#include "support/included_files.h"

namespace simt {

namespace embedded {
extern const char* const prelude_cpu;
extern const char* const prelude_numeric;
extern const char* const prelude_cpu_sync;
extern const char* const prelude_raw_cuda_cpu;
}  // namespace embedded

namespace {

// What CUDA C++ on the host includes before the cpu prelude, whose math declarations then step aside.
const std::string kSystemHeaders =
    "#include <math.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <string.h>\n#include <assert.h>\n"
    "#include <type_traits>\n#include <utility>\n#define SIMT_SYSTEM_MATH 1\n";

using cuda_text::included_header;
using cuda_text::is_ident;
using cuda_text::skip_space;
using cuda_text::without_comments;

// After `word` at i (and a balanced parenthesis group when `with_parens`), or npos.
size_t skip_word(const std::string& s, size_t i, const char* word, bool with_parens) {
    size_t n = std::strlen(word);
    if (s.compare(i, n, word) != 0 || (i + n < s.size() && is_ident(s[i + n]))) return std::string::npos;
    i += n;
    if (!with_parens) return i;
    i = skip_space(s, i);
    if (i >= s.size() || s[i] != '(') return std::string::npos;
    for (int depth = 0; i < s.size(); ++i) {
        if (s[i] == '(') ++depth;
        if (s[i] == ')' && --depth == 0) return i + 1;
    }
    return std::string::npos;
}

// Functions that make a kernel's threads wait for each other: such kernels run each thread as a
// fiber on the cpu backend (the others run a block's threads as a plain loop).
bool needs_fibers(const std::string& code) {
    for (const char* f : {"__syncthreads", "__syncwarp", "__shfl", "__ballot", "__any_sync", "__all_sync", "__uni_sync",
                          "__match_", "__activemask", "__reduce_"})
        if (code.find(f) != std::string::npos) return true;
    return false;
}

// The host has these headers' contents in the raw prelude (or needs none of them); assert.h
// would define assert again, and a failing host assert ends the process.
bool provided_header(const std::string& h) {
    for (const char* p : {"cuda_runtime.h", "cuda_runtime_api.h", "device_launch_parameters.h", "device_functions.h",
                          "math_constants.h", "assert.h", "cassert"})
        if (h == p) return true;
    return false;
}

// Headers of the CUDA toolkit with no host version (half types, cooperative groups, CUB, ...).
bool device_only_header(const std::string& h) {
    for (const char* dir : {"cub/", "thrust/", "cuda/", "cooperative_groups/"})
        if (h.rfind(dir, 0) == 0) return true;
    std::string base = h.size() > 2 && h.compare(h.size() - 2, 2, ".h") == 0 ? h.substr(0, h.size() - 2) : h;
    for (const char* name : {"cuda_fp16", "cuda_bf16", "cuda_fp8", "cooperative_groups", "mma"})
        if (base == name) return true;
    return base.rfind("curand", 0) == 0 || (base.rfind("sm_", 0) == 0 && base.find("_intrinsics") != std::string::npos);
}

// `extern __shared__ [__align__(n)] T name[];` starting at i, as a view of the block's dynamic
// shared memory (prelude/raw_cuda_cpu.h), and where it ends; false for anything else.
bool dynamic_shared_declaration(const std::string& s, size_t i, std::string* replacement, size_t* end) {
    size_t j = skip_word(s, i, "extern", false);
    if (j == std::string::npos) return false;
    j = skip_word(s, skip_space(s, j), "__shared__", false);
    if (j == std::string::npos) return false;
    for (;;) {  // alignment specifiers
        j = skip_space(s, j);
        size_t k = skip_word(s, j, "__align__", true);
        if (k == std::string::npos) k = skip_word(s, j, "alignas", true);
        if (k == std::string::npos) break;
        j = k;
    }
    size_t semi = s.find(';', j);
    if (semi == std::string::npos) return false;
    std::string decl = s.substr(j, semi - j);  // "T name[]"
    size_t close = decl.find_last_not_of(" \t\n");
    if (close == std::string::npos || decl[close] != ']') return false;
    size_t open = decl.find_last_not_of(" \t\n", close - 1);
    if (open == std::string::npos || decl[open] != '[') return false;
    size_t name_end = decl.find_last_not_of(" \t\n", open - 1) + 1;
    size_t name_begin = name_end;
    while (name_begin > 0 && is_ident(decl[name_begin - 1])) --name_begin;
    std::string type = decl.substr(0, name_begin);
    type.erase(type.find_last_not_of(" \t\n") + 1);
    if (name_begin == name_end || type.empty()) return false;
    std::string name = decl.substr(name_begin, name_end - name_begin);
    *replacement = "constexpr simt_dynamic_shared<" + type + "> " + name + "{};";
    *end = semi + 1;
    return true;
}

// The user's code as the host compiler takes it: provided headers commented out (lines kept),
// and `extern __shared__ T name[];` turned into a pointer to the block's dynamic shared memory.
std::string host_code(const std::string& source, const std::string& label, const char* what) {
    std::string out;
    size_t line_start = 0;
    int line = 1;
    while (line_start <= source.size()) {
        size_t line_end = source.find('\n', line_start);
        if (line_end == std::string::npos) line_end = source.size();
        std::string text = source.substr(line_start, line_end - line_start);
        std::string header = included_header(text);
        if (device_only_header(header))
            raise(ErrorKind::Compiler, "%s, line %d: <%s> has no host version, so this %s cannot run on the cpu "
                  "backend (it runs on the cuda backend)", label.c_str(), line, header.c_str(), what);
        out += provided_header(header) ? "// (provided by simt's raw prelude) " + text : text;
        if (line_end < source.size()) out += '\n';
        line_start = line_end + 1;
        ++line;
    }
    std::string code;
    for (size_t i = 0; i < out.size();) {
        std::string replacement;
        size_t end = 0;
        if ((i == 0 || !is_ident(out[i - 1])) && dynamic_shared_declaration(out, i, &replacement, &end)) {
            code += replacement;
            i = end;
        } else {
            code += out[i++];
        }
    }
    return code;
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

// The include directories NVRTC options name (-I dir, -Idir, --include-path=dir, --include-path dir).
std::vector<std::string> include_dirs_of(const std::vector<std::string>& options) {
    std::vector<std::string> dirs;
    for (size_t i = 0; i < options.size(); ++i) {
        const std::string& o = options[i];
        if (o == "-I" || o == "--include-path") {
            if (i + 1 < options.size()) dirs.push_back(options[++i]);
        } else if (o.rfind("--include-path=", 0) == 0) {
            dirs.push_back(o.substr(15));
        } else if (o.rfind("-I", 0) == 0) {
            dirs.push_back(o.substr(2));
        }
    }
    return dirs;
}

}  // namespace

std::vector<std::string> raw_kernel_names(const std::string& source) {
    const std::string code = without_comments(source);
    std::vector<std::string> names;
    std::set<std::string> seen;
    for (size_t at = code.find("__global__"); at != std::string::npos; at = code.find("__global__", at + 1)) {
        if (at > 0 && is_ident(code[at - 1])) continue;
        size_t i = skip_space(code, at + 10);
        size_t k = skip_word(code, i, "__launch_bounds__", true);
        if (k != std::string::npos) i = skip_space(code, k);
        i = skip_word(code, i, "void", false);
        if (i == std::string::npos) continue;
        i = skip_space(code, i);
        k = skip_word(code, i, "__launch_bounds__", true);
        if (k != std::string::npos) i = skip_space(code, k);
        size_t name_end = i;
        while (name_end < code.size() && is_ident(code[name_end])) ++name_end;
        if (name_end == i || std::isdigit((unsigned char)code[i]) || skip_space(code, name_end) >= code.size() ||
            code[skip_space(code, name_end)] != '(')
            continue;
        // A template kernel has no address until instantiated: skip it (`template <...>` just before).
        size_t from = at == 0 ? std::string::npos : code.find_last_of(";}", at - 1);
        from = from == std::string::npos ? 0 : from;
        if (code.substr(from, at - from).find("template") != std::string::npos) continue;
        std::string name = code.substr(i, name_end - i);
        if (seen.insert(name).second) names.push_back(name);
    }
    return names;
}

std::string linked_cpu_head() { return kSystemHeaders; }

std::string linked_cpu_code(const std::vector<LinkedSource>& sources, int sync_site) {
    std::string out = "\n#define SIMT_RAW_SITE " + std::to_string(sync_site) + "\n#line 1 \"simt/prelude/raw_cuda_cpu.h\"\n" +
                      std::string(embedded::prelude_raw_cuda_cpu);
    for (const LinkedSource& s : sources) out += "\n#line 1 \"" + s.path + "\"\n" + host_code(s.text, s.path, "linked code") + "\n";
    return out;
}

bool linked_code_waits(const std::vector<LinkedSource>& sources) {
    for (const LinkedSource& s : sources) {
        if (needs_fibers(without_comments(s.text))) return true;
        for (const IncludedFile& f : s.included.files)
            if (needs_fibers(without_comments(f.text))) return true;
    }
    return false;
}

bool cuda_code_mentions(const std::string& code, const std::string& name) {
    const std::string plain = without_comments(code);
    for (size_t at = plain.find(name); at != std::string::npos; at = plain.find(name, at + 1)) {
        size_t end = at + name.size();
        if ((at > 0 && is_ident(plain[at - 1])) || (end < plain.size() && is_ident(plain[end]))) continue;
        size_t next = skip_space(plain, end);
        if (next < plain.size() && plain[next] == '(') return true;
    }
    return false;
}

GeneratedSource raw_kernel_source(const RawModuleSource& m, const std::string& name, Target target,
                                  CompileOptions* options) {
    GeneratedSource g;
    g.user_code = m.code;
    g.raw_cuda = true;
    g.prints = m.code.find("printf") != std::string::npos;
    // (the headers the options' include paths lead to: their texts reach the cache key, and their
    // barriers the choice of fibers)
    const IncludedFiles included = read_included_files(m.code, "", include_dirs_of(m.options));
    if (target == Target::Cuda) {
        g.full_source = "#line 1 \"" + m.label + "\"\n" + m.code + included_files_comment(included.files);
        g.entry_name = name;
        g.entry_is_name_expression =
            std::find(m.name_expressions.begin(), m.name_expressions.end(), name) != m.name_expressions.end();
        g.module_name_expressions = m.name_expressions;
        g.compiler_options = m.options;
        return g;
    }
    // Entries for the kernel asked for, or for each of the module's kernels the caller lists
    // (only those: another __global__ function of the text may sit in an `#if 0` block the host
    // compiler never sees).
    std::string defines;
    g.compiler_options = host_options(m.options, options, &defines);
    bool fibers = needs_fibers(without_comments(m.code));
    for (const IncludedFile& f : included.files) fibers = fibers || needs_fibers(without_comments(f.text));
    std::vector<std::string> kernels = m.kernels;
    if (std::find(kernels.begin(), kernels.end(), name) == kernels.end()) kernels.insert(kernels.begin(), name);
    std::string entries = "\n#line 1 \"simt-generated\"\n";
    for (size_t i = 0; i < kernels.size(); ++i) {
        const std::string& k = kernels[i];
        const std::string n = std::to_string(i), entry = "simt_raw_entry_" + n, table = "simt_raw_params_" + n;
        if (k == name) {
            g.entry_name = entry;
            g.parameter_table = table;
        }
        const std::string kernel = "(&" + k + ")";  // (parenthesized: a name expression may hold commas)
        entries += "static const char* const simt_raw_sites_" + n + "[] = {\"a barrier or warp function of kernel '" + k +
                   "'\"};\n";
        entries += "extern \"C\" SIMT_EXPORT void " + entry +
                   "(const simt_launch* L, void* const* args, int64_t begin, int64_t end) {\n    simt_raw::run(L, args, begin, end, " +
                   kernel + ", " + (fibers ? "true" : "false") + ", \"" + k + "\", simt_raw_sites_" + n + ");\n}\n";
        entries += "extern \"C\" SIMT_EXPORT const int64_t* " + table + "() { return simt_raw::sizes_of(" + kernel + "); }\n";
    }
    g.full_source = kSystemHeaders + embedded::prelude_cpu +
                    "\n#line 1 \"simt/prelude/numeric.h\"\n" + embedded::prelude_numeric +
                    "\n#line 1 \"simt/prelude/cpu_sync.h\"\n" + embedded::prelude_cpu_sync +
                    "\n#line 1 \"simt/prelude/raw_cuda_cpu.h\"\n" + embedded::prelude_raw_cuda_cpu +
                    "\n#line 1 \"simt-options\"\n" + defines + "\n#line 1 \"" + m.label + "\"\n" + host_code(m.code, m.label, "raw kernel") + entries +
                    included_files_comment(included.files);
    return g;
}

}  // namespace simt
