// A record of the CUDA C++ of every kernel generated in this process (off unless switched on),
// so a test session can check that NVRTC compiles all of them for sm_90 even on a machine
// without a GPU (see tests/python/conftest.py).
#pragma once
#include <string>
#include <vector>
#include "codegen/emitter.h"

namespace simt {

struct RecordedCudaSource {
    std::string kernel;       // kernel name, for messages
    std::string source;       // complete CUDA translation unit (empty if codegen failed)
    CompileOptions options;
    std::string codegen_error;  // set when emitting CUDA C++ for the kernel failed
    bool raw = false;                // the user's own CUDA C++ (simt.RawKernel): NVRTC without --minimal
    bool toolkit_headers = false;    // generated code with linked CUDA C++ (cuda.declare_device): likewise
    std::vector<std::string> extra;  // ... with the user's NVRTC options
    std::optional<NvvmModule> nvvm;  // the kernel as NVVM IR, where the IR emission covers it
    std::string nvvm_why;            // ... else the first construct it does not cover
};

void set_cuda_source_recording(bool on);
bool cuda_source_recording();
// Called by emit_unit: records the unit's CUDA source (emitting it if `cuda` is null).
void record_cuda_source(const CompileUnit& unit, const GeneratedSource* cuda);
// Records raw CUDA C++ (simt.RawKernel) as NVRTC gets it on the cuda backend.
void record_raw_cuda_source(const std::string& kernel, const GeneratedSource& cuda);
// The distinct sources recorded so far; clears the record.
std::vector<RecordedCudaSource> take_recorded_cuda_sources();

}  // namespace simt
