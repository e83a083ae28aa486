// PTX through the driver's JIT compiler.
#include "backend/cuda/ptx_module.h"

namespace simt {

PtxLoad load_ptx_module(const cu::DriverApi& d, const std::string& ptx, const CompileOptions& options) {
    PtxLoad out;
    char log[4096] = {};
    int keys[4];
    void* values[4];
    unsigned n = 0;
    keys[n] = cu::kJitErrorLogBuffer;
    values[n++] = log;
    keys[n] = cu::kJitErrorLogBufferSizeBytes;
    values[n++] = reinterpret_cast<void*>(uintptr_t(sizeof log - 1));
    if (options.lineinfo) {
        keys[n] = cu::kJitGenerateLineInfo;
        values[n++] = reinterpret_cast<void*>(uintptr_t(1));
    }
    if (options.max_registers > 0) {
        keys[n] = cu::kJitMaxRegisters;
        values[n++] = reinterpret_cast<void*>(uintptr_t(options.max_registers));
    }
    std::string text = ptx;
    if (text.empty() || text.back() != '\0') text.push_back('\0');
    out.result = d.cuModuleLoadDataEx(&out.module, text.data(), n, keys, values);
    if (out.result != cu::kSuccess) out.log = log;
    return out;
}

bool driver_declined_ptx(cu::Result r) {
    return r == cu::kErrorInvalidPtx || r == cu::kErrorJitCompilerNotFound || r == cu::kErrorUnsupportedPtxVersion ||
           r == cu::kErrorJitCompilationDisabled;
}

}  // namespace simt
