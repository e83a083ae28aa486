// NVRTC command-line options for generated CUDA C++: the target architecture and what the
// kernel options ask for. The cuda backend passes these to nvrtcCompileProgram.
#pragma once
#include <string>
#include <vector>
#include "sema/typed_function.h"

namespace simt {

// fastmath: --use_fast_math (flush to zero, approximate division and sqrt, fused multiply-add;
// the emitter also picks the __sinf-style intrinsics); debug: --device-debug (-G), which turns
// optimization off unless opt=True is given too (--dopt=on); lineinfo: --generate-line-info;
// max_registers: --maxrregcount; opt=False without debug: ptxas at -O0 (applies when NVRTC
// produces the cubin, i.e. for an sm_XY architecture).
std::vector<std::string> nvrtc_options(const CompileOptions& options, int cc_major, int cc_minor);

// launch_bounds as CUDA C++ writes them ("__launch_bounds__(256, 2) ", or "" when not given) and
// as NVVM IR annotates a kernel (", !\"maxntidx\", i32 256, !\"minctasm\", i32 2": pairs to append to
// the kernel's nvvm.annotations node).
std::string launch_bounds_attribute(const CompileOptions& options);
std::string launch_bounds_annotations(const CompileOptions& options);

}  // namespace simt
