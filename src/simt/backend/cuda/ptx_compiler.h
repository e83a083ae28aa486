// numba's compile_ptx: a Python function + signature → PTX for a compute capability, through
// the same front end and CUDA code generation as launched kernels, and NVRTC. No GPU needed.
#pragma once
#include <string>
#include "runtime/dispatcher.h"

namespace simt {

struct PtxResult {
    std::string ptx;
    std::string return_type;  // "void" for kernels; the inferred type for device functions
};

// Analyzes `def` for the argument types of `signature` ("void(float32[:], int64)" or
// "(float32[:], int64)"): as a kernel, or with `device` as a device function exported under its
// Python name with C linkage. `arch` is major * 10 + minor.
PtxResult compile_ptx(const KernelDefinition& def, const std::string& signature, bool device, int arch, bool optimize);

// PTX of an analyzed kernel's CUDA emission (inspect_asm on a backend that is not cuda).
std::string cuda_ptx_of_unit(const CompileUnit& unit, int arch);

}  // namespace simt
