// Locating and running the host C++ compiler.
#include "backend/cpu/host_compiler.h"
#include <sys/stat.h>
#include <climits>
#include <cstdlib>
#include "support/error.h"
#include "support/files.h"

namespace simt {

namespace {

std::string identity_of(const std::string& path) {
    char real[PATH_MAX];
    std::string resolved = ::realpath(path.c_str(), real) ? real : path;
    struct stat st;
    if (::stat(resolved.c_str(), &st) != 0) return resolved;
    return resolved + ":" + std::to_string((long long)st.st_size) + ":" + std::to_string((long long)st.st_mtime);
}
}  // namespace

const HostCompiler& host_compiler() {
    static const HostCompiler compiler = [] {
        std::vector<std::string> tried;
        std::vector<std::vector<std::string>> candidates;
        if (const char* cxx = std::getenv("CXX"); cxx && *cxx) candidates.push_back(split(cxx, " \t\n"));
        for (const char* name : {"c++", "g++", "clang++"}) candidates.push_back({name});
        for (std::vector<std::string>& cmd : candidates) {
            if (cmd.empty()) continue;
            std::string path = find_in_path(cmd[0]);
            tried.push_back(cmd[0]);
            if (path.empty()) continue;
            HostCompiler c;
            c.command = cmd;
            c.command[0] = path;
            c.identity = identity_of(path);
            for (size_t i = 1; i < cmd.size(); ++i) c.identity += " " + cmd[i];
            return c;
        }
        std::string list;
        for (const std::string& t : tried) list += (list.empty() ? "" : ", ") + t;
        throw Error(ErrorKind::Compiler, "the cpu backend needs a C++ compiler and found none (tried $CXX, " + list +
                                             " on PATH); install g++ or clang++, or set CXX");
    }();
    return compiler;
}

namespace {
// AVX2 and FMA where this CPU and OS have them (NumPy's loops use them too: simt's elementwise
// kernels ran 17-20% faster with them). Named feature by feature rather than -march=native, so
// that the flags, and with them the disk cache's key, say what the code needs (a cache shared
// with an older machine never hands it this code) and any g++ or clang++ accepts them.
void add_vector_extensions(std::vector<std::string>& flags) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                             __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
    if (avx2)
        for (const char* f : {"-mavx2", "-mfma", "-mbmi", "-mbmi2"}) flags.push_back(f);
#else
    (void)flags;
#endif
}
}  // namespace

std::vector<std::string> host_compile_flags(const CompileOptions& options) {
    std::vector<std::string> flags = {"-std=c++17", "-fPIC", "-shared", "-fno-exceptions", "-fno-rtti", "-fwrapv",
                                      "-fno-math-errno", "-fvisibility=hidden", "-w",
                                      // probes large frames page by page: a fiber stack overflow hits the guard region
                                      "-fstack-clash-protection"};
    flags.push_back(options.opt ? "-O3" : "-O0");
    add_vector_extensions(flags);
    if (options.debug) flags.push_back("-g");
    else if (options.lineinfo) flags.push_back("-g1");  // line tables only
    // -ffast-math's parts, not the flag itself: linking with -ffast-math adds crtfastmath.o, whose
    // constructor turns on flush-to-zero for the whole process when the kernel is loaded.
    if (options.fastmath)
        for (const char* f : {"-fno-trapping-math", "-ffinite-math-only", "-fno-signed-zeros", "-fassociative-math",
                              "-freciprocal-math", "-ffp-contract=fast"})
            flags.push_back(f);
    else
        flags.push_back("-ffp-contract=off");  // a * b + c rounds twice, as NumPy's does (clang would fuse it with FMA)
    return flags;
}

void compile_shared_object(const std::string& source_path, const std::string& output_path,
                           const std::vector<std::string>& flags) {
    const HostCompiler& cc = host_compiler();
    std::vector<std::string> argv = cc.command;
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.push_back(source_path);
    argv.push_back("-o");
    argv.push_back(output_path);
    ProcessResult r = run_process(argv);
    if (r.exit_code != 0) {
        std::string cmd;
        for (const std::string& a : argv) cmd += (cmd.empty() ? "" : " ") + a;
        throw Error(ErrorKind::Compiler, "the host compiler rejected the generated code (exit " + std::to_string(r.exit_code) +
                                             ")\ncommand: " + cmd + "\n" + r.output);
    }
}

}  // namespace simt
