// The driver's JIT linker, used as a PTX assembler.
#include "backend/cuda/ptx_linker.h"
#include "backend/cuda/driver_api.h"

namespace simt {

bool ptx_linker_available() {
    const cu::DriverApi& d = driver();
    return d.cuLinkCreate && d.cuLinkAddData && d.cuLinkComplete && d.cuLinkDestroy;
}

bool link_ptx_to_cubin(const std::string& ptx, const CompileOptions& options, std::string* cubin, std::string* why) {
    if (!ptx_linker_available()) {
        *why = "the driver has no JIT linker";
        return false;
    }
    const cu::DriverApi& d = driver();
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
    cu::LinkState state = nullptr;
    cu::Result r = d.cuLinkCreate(n, keys, values, &state);
    if (r != cu::kSuccess) {
        *why = driver_error_text(r);
        return false;
    }
    std::string text = ptx;
    if (text.empty() || text.back() != '\0') text.push_back('\0');
    r = d.cuLinkAddData(state, cu::kJitInputPtx, text.data(), text.size(), "simt_kernel.ptx", 0, nullptr, nullptr);
    void* image = nullptr;
    size_t size = 0;
    if (r == cu::kSuccess) r = d.cuLinkComplete(state, &image, &size);
    if (r == cu::kSuccess && image && size) cubin->assign(static_cast<const char*>(image), size);  // before destroy frees it
    d.cuLinkDestroy(state);
    if (r != cu::kSuccess || cubin->empty()) {
        *why = (r != cu::kSuccess ? driver_error_text(r) : std::string("the linker produced no cubin")) +
               (log[0] ? std::string("\n") + log : std::string());
        return false;
    }
    return true;
}

}  // namespace simt
