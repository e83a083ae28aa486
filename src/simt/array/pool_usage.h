// What simt's device arrays hold on each device, and the limit a user may put on it (CuPy's
// MemoryPool.used_bytes / set_limit / get_limit).
#pragma once
#include <cstddef>

namespace simt {

// Counts an allocation of `bytes` on `device`; raises OutOfMemory (naming the limit) when it
// would take the device past its limit. Undone by note_release.
void note_allocation(int device, size_t bytes);
void note_release(int device, size_t bytes) noexcept;
size_t pool_used_bytes(int device);
// 0: no limit.
void set_pool_limit(int device, size_t bytes);
size_t pool_limit(int device);

}  // namespace simt
