// The cuda backend. Until the driver layer lands (issue: cuda backend), no GPU is used and
// the default backend falls back to cpu.
#include <memory>
#include "runtime/backend.h"

namespace simt {

std::unique_ptr<Backend> make_cuda_backend() { return nullptr; }

}  // namespace simt
