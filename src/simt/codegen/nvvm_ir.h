// NVVM IR for a kernel: the cuda backend's fast path. libNVVM compiles LLVM IR without a C++
// front end, so a new kernel costs about half of what NVRTC takes for the same CUDA C++ (measured
// in bench/probes/nvvm_compile.cpp). The IR covers the kernel language's core, written with the
// same semantics as the CUDA C++ emission (masked element access, Python's integer arithmetic,
// saturating float-to-int conversion); a kernel using anything else is compiled by NVRTC as
// before, so the path is an optimization and never a restriction.
#pragma once
#include <optional>
#include <string>
#include "sema/typed_function.h"

namespace simt {

struct NvvmModule {
    std::string ir;          // textual NVVM IR (LLVM 7 dialect, typed pointers)
    std::string entry;       // the kernel's symbol: the same name the CUDA C++ emission gives it
    bool uses_libdevice = false;  // calls __nv_* math functions: libdevice joins the program
};

// The unit's kernel as NVVM IR, or nothing when it uses a construct the IR emission does not
// cover; then *why (if given) names the first such construct.
std::optional<NvvmModule> emit_nvvm_ir(const CompileUnit& unit, std::string* why = nullptr);

}  // namespace simt
