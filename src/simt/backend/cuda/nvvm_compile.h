// libNVVM, loaded at run time (found by the pathfinder; optional): NVVM IR → PTX for the cuda
// backend's fast path (codegen/nvvm_ir.h), through the disk cache, and the test session's check
// that every kernel's NVVM IR compiles.
#pragma once
#include <string>
#include "codegen/nvvm_ir.h"

namespace simt {

// Whether libNVVM (and libdevice) can be used; *why says why not. SIMT_NVVM=0 turns the path off.
bool nvvm_available(std::string* why = nullptr);
// libNVVM's version as major * 1000 + minor * 10 (0 when unavailable).
int nvvm_version();
// Whether libNVVM targets compute capability `arch` (major * 10 + minor).
bool nvvm_supports_arch(int arch);

// PTX (NUL-terminated) of the module for virtual arch compute_<arch>, from the disk cache (kind
// "cuda", suffix ".nvvm.ptx") or compiled by libNVVM and stored there. Raises Error(Compiler)
// with libNVVM's log when the IR does not compile.
std::string nvvm_ptx(const NvvmModule& module, int arch);

}  // namespace simt
