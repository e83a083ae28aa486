// A kernel that NVVM IR brought to the GPU (fast: libNVVM, then the driver's whole-program JIT)
// was loaded from PTX; the next process would have to JIT that PTX again. So NVRTC's cubin of the
// same kernel is made on a worker thread meanwhile and put in the disk cache, where the next
// process finds it, as it finds any cached cubin. At most 128 wait; at exit the worker finishes
// the compile in progress and the queued ones that fit in 1 s; the rest are left for a later process.
#pragma once
#include "backend/cuda/nvrtc_compile.h"

namespace simt {

// Queues `request` (compile_for_device's cubin, stored in the disk cache; counted nowhere).
void backfill_cubin(const NvrtcRequest& request);

// Waits until the queue is empty (tests and benchmarks).
void wait_for_cubin_backfill();

// Stops the worker: the compile in progress completes, queued ones while a 1 s deadline lasts.
// Python calls it at interpreter exit (simt/__init__.py); later requests are dropped.
void finish_cubin_backfill();

}  // namespace simt
