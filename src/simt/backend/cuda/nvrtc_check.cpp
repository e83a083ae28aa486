// Parallel NVRTC compiles of recorded sources (NVRTC is thread-safe across programs).
#include "backend/cuda/nvrtc_check.h"
#include <atomic>
#include <mutex>
#include <thread>
#include "backend/cuda/nvrtc_api.h"
#include "backend/cuda/nvrtc_compile.h"
#include "backend/cuda/nvvm_compile.h"
#include "support/error.h"

namespace simt {

NvrtcCheckReport check_with_nvrtc(const std::vector<RecordedCudaSource>& sources, int arch, int threads, bool full) {
    NvrtcCheckReport report;
    std::vector<std::string> failure(sources.size());
    std::atomic<size_t> next{0};
    std::string why;
    const bool nvvm_ok = nvvm_available(&why);
    std::atomic<int> nvvm_compiled{0};
    auto work = [&] {
        for (size_t i = next++; i < sources.size(); i = next++) {
            const RecordedCudaSource& s = sources[i];
            if (!s.codegen_error.empty()) {
                failure[i] = "kernel '" + s.kernel + "': CUDA code generation failed: " + s.codegen_error;
                continue;
            }
            NvrtcRequest req;
            req.source = s.source;
            req.name = "kernel '" + s.kernel + "'";
            req.options = s.options;
            req.extra = s.extra;
            req.minimal = !s.raw && !s.toolkit_headers;
            req.arch = arch;
            try {
                if (full) compile_for_device(req);
                else check_device_code(req);
                if (s.nvvm && nvvm_ok) {
                    nvvm_ptx(*s.nvvm, arch);
                    ++nvvm_compiled;
                }
            } catch (const Error& e) {
                failure[i] = e.what();
            }
        }
    };
    nvrtc();  // raises here, once, when NVRTC is missing
    size_t n = threads < 1 ? 1 : size_t(threads);
    if (n > sources.size()) n = sources.size();
    std::vector<std::thread> pool;
    for (size_t t = 1; t < n; ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
    report.checked = int(sources.size());
    report.nvvm_checked = nvvm_compiled.load();
    report.nvvm_skipped = nvvm_ok ? "" : why;
    for (const RecordedCudaSource& s : sources)
        if (!s.raw && s.codegen_error.empty() && !s.nvvm) report.not_covered.push_back(s.nvvm_why);
    for (std::string& f : failure)
        if (!f.empty()) report.failures.push_back(std::move(f));
    return report;
}

}  // namespace simt
