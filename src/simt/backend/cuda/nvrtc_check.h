// Compiling recorded kernel sources with NVRTC for one architecture, in parallel: the CI check
// that every kernel the test suite generated is valid CUDA C++ for sm_90.
#pragma once
#include <string>
#include <vector>
#include "codegen/cuda_source_log.h"

namespace simt {

struct NvrtcCheckReport {
    int checked = 0;                    // sources checked
    int claimed_elsewhere = 0;          // sources skipped: another process sharing claim_dir checked them
    std::vector<std::string> failures;  // one message per failing kernel: its name and NVRTC's (or libNVVM's) log
    int nvvm_checked = 0;               // kernels whose NVVM IR libNVVM compiled
    std::string nvvm_skipped;           // why the NVVM IR was not checked ("" when it was)
    std::vector<std::string> not_covered;  // per kernel outside the NVVM IR path: what it uses
};

// Each kernel's NVVM IR (where the IR emission covers it) is compiled by libNVVM as well, when
// libNVVM is found. `full`: compile to a cubin (through the disk cache); else NVRTC's device front end only, which
// reports the same source errors in about half the time (see check_device_code).
// `claim_dir` (optional): processes checking in parallel (pytest-xdist workers) share it, and a
// source is checked by the first to claim its digest there (a file created exclusively), so
// kernels that several processes generated are compiled once.
NvrtcCheckReport check_with_nvrtc(const std::vector<RecordedCudaSource>& sources, int arch, int threads, bool full,
                                  const std::string& claim_dir = "");

}  // namespace simt
