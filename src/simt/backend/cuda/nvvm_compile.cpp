// libNVVM through dlopen: the handful of calls that turn NVVM IR into PTX. libdevice (the math
// library, LLVM bitcode) joins a program only when its IR calls __nv_* functions, and lazily, so
// that only the functions used are linked in.
#include "backend/cuda/nvvm_compile.h"
#include <cstdlib>
#include "backend/cuda/pathfinder.h"
#include "runtime/disk_cache.h"
#include "support/dl_symbol.h"
#include "support/error.h"
#include "support/files.h"
#include "support/sha256.h"
#include "support/stopwatch.h"

namespace simt {

namespace {

using Program = void*;
using Result = int;  // nvvmResult: 0 is success

struct NvvmApi {
    Result (*nvvmVersion)(int*, int*) = nullptr;
    Result (*nvvmCreateProgram)(Program*) = nullptr;
    Result (*nvvmDestroyProgram)(Program*) = nullptr;
    Result (*nvvmAddModuleToProgram)(Program, const char*, size_t, const char*) = nullptr;
    Result (*nvvmLazyAddModuleToProgram)(Program, const char*, size_t, const char*) = nullptr;
    Result (*nvvmCompileProgram)(Program, int, const char**) = nullptr;
    Result (*nvvmGetCompiledResultSize)(Program, size_t*) = nullptr;
    Result (*nvvmGetCompiledResult)(Program, char*) = nullptr;
    Result (*nvvmGetProgramLogSize)(Program, size_t*) = nullptr;
    Result (*nvvmGetProgramLog)(Program, char*) = nullptr;
};

struct Library {
    NvvmApi api;
    std::string libdevice_path;  // libdevice.10.bc, read when a program first needs it
    int version = 0;
    std::string why;             // why it is unavailable ("" when usable)
};

Library load() {
    Library l;
    const char* off = std::getenv("SIMT_NVVM");
    if (off && std::string(off) == "0") {
        l.why = "SIMT_NVVM=0";
        return l;
    }
    const SearchResult& where = libnvvm_location();
    if (!where.found()) {
        l.why = where.not_found_message("libNVVM", "");
        return l;
    }
    const SearchResult& bc = libdevice_location();
    if (!bc.found()) {
        l.why = bc.not_found_message("libdevice", "");
        return l;
    }
    l.libdevice_path = bc.path;
    void* lib = open_library(where.path, "libNVVM", l.why);
    if (!lib) return l;
    NvvmApi& a = l.api;
    std::string missing;
    bind_symbol(lib, a.nvvmVersion, "nvvmVersion", missing);
    bind_symbol(lib, a.nvvmCreateProgram, "nvvmCreateProgram", missing);
    bind_symbol(lib, a.nvvmDestroyProgram, "nvvmDestroyProgram", missing);
    bind_symbol(lib, a.nvvmAddModuleToProgram, "nvvmAddModuleToProgram", missing);
    bind_symbol(lib, a.nvvmLazyAddModuleToProgram, "nvvmLazyAddModuleToProgram", missing);
    bind_symbol(lib, a.nvvmCompileProgram, "nvvmCompileProgram", missing);
    bind_symbol(lib, a.nvvmGetCompiledResultSize, "nvvmGetCompiledResultSize", missing);
    bind_symbol(lib, a.nvvmGetCompiledResult, "nvvmGetCompiledResult", missing);
    bind_symbol(lib, a.nvvmGetProgramLogSize, "nvvmGetProgramLogSize", missing);
    bind_symbol(lib, a.nvvmGetProgramLog, "nvvmGetProgramLog", missing);
    int major = 0, minor = 0;
    if (!missing.empty()) l.why = "libNVVM " + where.path + " lacks " + missing;
    else if (a.nvvmVersion(&major, &minor) != 0 || major < 2) l.why = "libNVVM " + where.path + " is too old";
    l.version = major * 1000 + minor * 10;
    return l;
}

const Library& library() {
    static const Library l = load();
    return l;
}

// libdevice's bytes (about 0.5 MB), read once, on the first program that calls a math function.
const std::string& libdevice() {
    static const std::string bytes = [] {
        std::string b;
        if (!read_file(library().libdevice_path, b) || b.empty())
            throw Error(ErrorKind::Compiler, "cannot read libdevice " + library().libdevice_path);
        return b;
    }();
    return bytes;
}

struct ProgramHandle {
    Program p = nullptr;
    ~ProgramHandle() {
        if (p) library().api.nvvmDestroyProgram(&p);
    }
};

std::string program_log(Program p) {
    const NvvmApi& a = library().api;
    size_t size = 0;
    if (a.nvvmGetProgramLogSize(p, &size) != 0 || size <= 1) return "";
    std::string log(size, '\0');
    if (a.nvvmGetProgramLog(p, log.data()) != 0) return "";
    log.resize(size - 1);
    return log;
}

std::string compile(const NvvmModule& m, int arch) {
    const Library& l = library();
    const NvvmApi& a = l.api;
    ProgramHandle h;
    auto fail = [&](const char* what) -> std::string {
        throw Error(ErrorKind::Compiler, std::string("libNVVM: ") + what + " failed for kernel '" + m.entry + "'" +
                                             (h.p ? ":\n" + program_log(h.p) : std::string()));
    };
    if (a.nvvmCreateProgram(&h.p) != 0) fail("nvvmCreateProgram");
    if (a.nvvmAddModuleToProgram(h.p, m.ir.data(), m.ir.size(), m.entry.c_str()) != 0) fail("adding the kernel's IR");
    if (m.uses_libdevice &&
        a.nvvmLazyAddModuleToProgram(h.p, libdevice().data(), libdevice().size(), "libdevice.10.bc") != 0)
        fail("adding libdevice");
    std::string target = "-arch=compute_" + std::to_string(arch);
    const char* options[] = {target.c_str()};
    if (a.nvvmCompileProgram(h.p, 1, options) != 0) fail("compiling");
    size_t size = 0;
    if (a.nvvmGetCompiledResultSize(h.p, &size) != 0 || size == 0) fail("nvvmGetCompiledResultSize");
    std::string ptx(size, '\0');  // the size counts the NUL the driver needs at the end
    if (a.nvvmGetCompiledResult(h.p, ptx.data()) != 0) fail("nvvmGetCompiledResult");
    return ptx;
}

}  // namespace

bool nvvm_available(std::string* why) {
    const Library& l = library();
    if (why) *why = l.why;
    return l.why.empty();
}

int nvvm_version() { return nvvm_available() ? library().version : 0; }

// libNVVM 2.0 (CUDA 12.x, 13.x) targets compute_75 and newer; the newest it knows is checked
// when it compiles (an unknown arch fails there and the kernel goes to NVRTC).
bool nvvm_supports_arch(int arch) { return nvvm_available() && arch >= 75; }

std::string nvvm_ptx(const NvvmModule& m, int arch) {
    if (!nvvm_available()) throw Error(ErrorKind::Compiler, "libNVVM is not available: " + library().why);
    Sha256 h;
    h.update("simt-nvvm-v1\nnvvm " + std::to_string(library().version) + "\ncompute_" + std::to_string(arch) +
             (m.uses_libdevice ? "\nlibdevice" : "") + "\n");
    h.update(m.ir);
    std::string key = h.hex_digest();
    DiskCache& cache = DiskCache::instance();
    std::string path, bytes;
    if (cache.lookup("cuda", key, ".nvvm.ptx", path, &bytes) && !bytes.empty() && bytes.back() == '\0') {
        ++compile_counters().disk_hits;
        return bytes;
    }
    Stopwatch compiling;
    bytes = compile(m, arch);
    compile_counters().last_nvvm_ms = compiling.ms();
    ++compile_counters().compiled;
    ++compile_counters().nvvm_compiled;
    try {
        cache.store("cuda", key, ".nvvm.ptx", bytes);
    } catch (const Error&) {
        // A cache that cannot be written only costs a recompile next time.
    }
    return bytes;
}

}  // namespace simt
