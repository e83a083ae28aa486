// Every generated kernel starts with the same cuda prelude. NVRTC receives that prelude as a
// header it precompiles once per process (automatic PCH, CUDA 12.8+), so a new kernel pays only
// for its own code: about 20 ms less per compile on an H200 host.
#pragma once
#include <string>
#include <vector>
#include "backend/cuda/cuda_api.h"

namespace simt {

struct NvrtcInput {
    std::string source;                   // what nvrtcCreateProgram compiles
    std::vector<const char*> header_names;  // in-memory headers it includes
    std::vector<const char*> headers;
    std::vector<std::string> options;     // options that only change how NVRTC works, not its output
};

// `source` with a leading cuda prelude replaced by an #include of it, and the options for
// automatic PCH; other sources (built-in kernels) are passed through unchanged.
NvrtcInput nvrtc_input_for(const std::string& source);

// Where NVRTC keeps this process's precompiled headers: a private directory made on first use in
// the disk cache's temp directory and removed at exit by this process only. (NVRTC's default,
// /tmp/__nvrtc_auto_pch_<pid>_N, is removed by NVRTC's exit handler, which a fork()ed child also
// runs: the parent's later compiles then fail with "invalid PCH directory", or crash in one under
// way. NVRTC removes its files at exit, never a directory it was given.) Empty: NVRTC's default.
const std::string& nvrtc_pch_directory();

// After a compile with automatic PCH: when the PCH heap was too small to hold the prelude, grows
// it so that the next compile creates the precompiled header.
void grow_pch_heap_if_needed(cu::NvrtcProgram program);

}  // namespace simt
