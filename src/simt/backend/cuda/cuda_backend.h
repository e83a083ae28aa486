// The cuda backend's entry points outside the Backend interface.
#pragma once
#include <string>

namespace simt {

// Why make_cuda_backend() found no usable GPU (empty when it did, or before it was asked).
std::string cuda_unavailable_reason();

}  // namespace simt
