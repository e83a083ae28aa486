// Loading PTX into a module: the driver compiles it for the current device as a whole program
// (the same code NVRTC's own cubin has; the driver's *linker* compiles PTX as relocatable code,
// which came out slower). Used when NVRTC is older than the device, and on request
// (SIMT_DRIVER_JIT=1) for every kernel: NVRTC then skips its cubin step, whose fixed cost
// (~10-16 ms per compile) is most of a small kernel's compile time.
#pragma once
#include <string>
#include "backend/cuda/cuda_api.h"
#include "sema/typed_function.h"

namespace simt {

struct PtxLoad {
    cu::Result result = cu::kSuccess;
    cu::Module module = nullptr;
    std::string log;  // the driver's JIT error log, when it failed
};

// `ptx` is NUL-terminated text; the kernel options that reach the assembler (max_registers,
// lineinfo) go with it.
PtxLoad load_ptx_module(const cu::DriverApi& d, const std::string& ptx, const CompileOptions& options);

// Whether a failed load means the driver cannot compile this PTX at all (too new for it, no
// JIT compiler, JIT disabled), rather than an error in the kernel.
bool driver_declined_ptx(cu::Result r);

}  // namespace simt
