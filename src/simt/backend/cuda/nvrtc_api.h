// NVRTC, loaded at run time on first use. Its version and architectures come from the disk
// cache when NVRTC was seen before, so cached kernels load without loading NVRTC.
#pragma once
#include <string>
#include <vector>
#include "backend/cuda/cuda_api.h"

namespace simt {

// The loaded NVRTC (loaded now if needed). Raises Error(Compiler) listing every place searched
// when it is missing.
const cu::NvrtcApi& nvrtc();
// Whether NVRTC is there (never raises); *why says why not.
bool nvrtc_available(std::string* why = nullptr);
// The NVRTC library in use ("" when none).
std::string nvrtc_path();
// NVRTC's version as major * 1000 + minor * 10 (e.g. 13000), as CUDA_VERSION counts.
int nvrtc_version();
// Architectures NVRTC can emit code for, e.g. {75, 80, 86, 89, 90, 100, 120}.
const std::vector<int>& nvrtc_supported_archs();

}  // namespace simt
