// Compiling CUDA C++ with NVRTC: cubin for a device's architecture (or PTX for the driver to
// JIT when NVRTC is older than the device), through the disk cache; PTX for inspection and
// compile_ptx; and errors that show NVRTC's log with the user's Python line under each error.
#pragma once
#include <string>
#include <vector>
#include "sema/typed_function.h"

namespace simt {

struct NvrtcRequest {
    std::string source;               // complete translation unit
    std::string name;                 // what is compiled, for messages ("kernel 'vecadd'")
    CompileOptions options;           // fastmath, debug, lineinfo, max_registers
    int arch = 90;                    // compute capability as major * 10 + minor
    std::vector<std::string> extra;   // further NVRTC options (e.g. --fmad=false)
    bool relocatable = false;         // -rdc=true: keep external device functions (compile_ptx device=True)
    bool optimize = true;             // false: --Ofast-compile=max (compile_ptx opt=False)
    bool minimal = true;              // --minimal (false for users' raw CUDA C++, which may need all of it)
    // C++ names of template kernels to instantiate (RawModule's name_expressions): the image
    // comes with each one's lowered (mangled) symbol name.
    std::vector<std::string> name_expressions;
    bool background = false;  // a cache fill on the backfill thread: counted in no compile counter
};

struct CudaImage {
    std::string bytes;   // a cubin, or NUL-terminated PTX text
    bool is_cubin = false;
    std::string target;  // "sm_90" or "compute_90"
    std::vector<std::string> lowered_names;  // of the request's name_expressions, in order
};

// What NVRTC is asked to target for a device of compute capability `arch`: the real arch when
// NVRTC supports it (cubin), else the newest virtual arch below it (PTX). Raises when NVRTC is
// too new for the device.
std::string nvrtc_target_for(int arch, bool* cubin);

// Cubin or PTX for a device of compute capability `request.arch`, from the disk cache (kind
// "cuda", key: NVRTC version, target, options, source) or compiled and stored there. With
// `ptx_for_driver`, PTX for the driver to compile even where NVRTC could make the cubin (not for
// debug or relocatable code).
CudaImage compile_for_device(const NvrtcRequest& request, bool ptx_for_driver = false);
// The cubin for `request`'s device when the disk cache already holds it (counted as a disk hit);
// false when NVRTC would have to compile it (or could only make PTX for this device).
bool cached_cubin(const NvrtcRequest& request, CudaImage* image);
// Runs NVRTC's device front end only (parsing, semantic checks, template instantiation; no
// optimizer or assembler): the request's errors, a fraction of a full compile's time.
void check_device_code(const NvrtcRequest& request);
// PTX for virtual arch compute_<arch> (cached too, suffix .ptx).
std::string compile_ptx_text(const NvrtcRequest& request);

// The NVRTC options of a request (without the target), as they enter cache keys.
std::vector<std::string> nvrtc_options(const NvrtcRequest& request);
// NVRTC's log with, under each error that points into an existing Python file, that line.
std::string annotate_nvrtc_log(const std::string& log);

}  // namespace simt
