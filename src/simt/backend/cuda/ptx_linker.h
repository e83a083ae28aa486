// PTX → cubin through the driver's JIT linker (opt-in: SIMT_DRIVER_LINK=1). NVRTC's own cubin
// output costs a fixed ~16 ms per compile on an H200 host (its embedded assembler starting up);
// the driver's linker turns the same PTX into a cubin in less, so new kernels reach the GPU
// sooner, but its code was slower there (see cuda_backend.cpp). The cubin is cached like NVRTC's.
#pragma once
#include <string>
#include "sema/typed_function.h"

namespace simt {

// Whether the loaded driver has the linker entry points.
bool ptx_linker_available();

// Links NUL-terminated or plain `ptx` for the device of the current context. Returns false with
// the driver's message in *why when it cannot (e.g. PTX newer than the driver): the caller then
// lets NVRTC make the cubin.
bool link_ptx_to_cubin(const std::string& ptx, const CompileOptions& options, std::string* cubin, std::string* why);

}  // namespace simt
