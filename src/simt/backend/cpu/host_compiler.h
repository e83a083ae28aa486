// The host C++ compiler the cpu backend compiles kernels with: $CXX, else c++, g++ or clang++
// on PATH. It is started directly (posix_spawn), never through a shell.
#pragma once
#include <string>
#include <vector>
#include "sema/typed_function.h"

namespace simt {

struct HostCompiler {
    std::vector<std::string> command;  // program path, then any arguments $CXX carried
    std::string identity;              // changes when the compiler binary changes (part of cache keys)
};

// Finds the compiler once per process; raises Error(Compiler) naming everything tried.
const HostCompiler& host_compiler();

// Flags a kernel is compiled with: the fixed ones plus those its options ask for (fastmath:
// the parts of -ffast-math; debug: -g; lineinfo: -g1; opt=False: -O0 instead of -O3).
std::vector<std::string> host_compile_flags(const CompileOptions& options);

// Compiles `source_path` into the shared object `output_path`; raises Error(Compiler) with the
// compiler's diagnostics on failure.
void compile_shared_object(const std::string& source_path, const std::string& output_path,
                           const std::vector<std::string>& flags);

}  // namespace simt
