// The structures a cpu kernel entry point receives; must match codegen/prelude/cpu.h.
#pragma once
#include <cstdint>
#include "runtime/backend.h"

namespace simt::cpu_abi {

struct Dim3 { int32_t x, y, z; };

struct Launch {
    Dim3 grid;
    Dim3 block;
    int64_t dynamic_shared_bytes;
    BoundsErrorRecord* errors;
    void* runtime;
};

// extern "C" void kernel(const Launch*, void* const* args, int64_t block_begin, int64_t block_end)
using EntryPoint = void (*)(const Launch*, void* const*, int64_t, int64_t);

static_assert(sizeof(BoundsErrorRecord) == 144, "bounds record layout must match the preludes");

}  // namespace simt::cpu_abi
