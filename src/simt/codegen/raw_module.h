// Raw CUDA C++ modules (simt.RawKernel, simt.RawModule): the user's own CUDA C++, as each backend
// compiles it: NVRTC as written, or the host compiler over the raw prelude (raw_cuda_cpu.h).
#pragma once
#include <string>
#include <vector>
#include "codegen/emitter.h"

namespace simt {

struct RawModuleSource {
    std::string code;                  // the user's CUDA C++
    std::vector<std::string> options;  // NVRTC options as the user gave them ("-DN=4", "--use_fast_math")
    std::string label;                 // names the code in compiler messages (#line)
    // C++ names of template kernels such as "k<float, 4>" (CuPy's name_expressions): kernels taken
    // by one of these are instantiated by that name.
    std::vector<std::string> name_expressions;
    // The kernels (names or name expressions) loaded from one compiled module, so that they share
    // its __device__ variables: the cpu backend's shared object has an entry for each (the cuda
    // backend's module has them all anyway). Empty: the kernel asked for alone.
    std::vector<std::string> kernels;
};

// Names of the non-template __global__ functions in `code`, in order of first appearance.
std::vector<std::string> raw_kernel_names(const std::string& code);

// What the backend for `target` compiles and loads for kernel `name` of the module, and the
// options to load it with. Raises CompilerError for code the cpu backend cannot take (headers
// it has no host version of).
GeneratedSource raw_kernel_source(const RawModuleSource& module, const std::string& name, Target target,
                                  CompileOptions* options);

// CUDA C++ linked into a generated kernel (cuda.declare_device) on the cpu backend: what goes
// before the cpu prelude (system headers), and after the generated code (the raw prelude, its
// barriers and warp functions reporting entry `sync_site` of the kernel's site table, then the
// code as the host compiler takes it, as for raw kernels); raises CompilerError for headers with
// no host version.
std::string linked_cpu_head();
std::string linked_cpu_code(const std::vector<LinkedSource>& sources, int sync_site);
// Whether linked code (or a file it includes) uses barriers or warp functions (the block's
// threads then run as fibers).
bool linked_code_waits(const std::vector<LinkedSource>& sources);
// Whether `code` has `name` as an identifier followed by `(` outside comments and literals.
bool cuda_code_mentions(const std::string& code, const std::string& name);

}  // namespace simt
