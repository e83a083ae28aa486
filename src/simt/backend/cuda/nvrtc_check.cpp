// Parallel NVRTC compiles of recorded sources (NVRTC is thread-safe across programs).
#include "backend/cuda/nvrtc_check.h"
#include <fcntl.h>
#include <unistd.h>
#include <atomic>
#include <cerrno>
#include <mutex>
#include <thread>
#include "backend/cuda/nvrtc_api.h"
#include "backend/cuda/nvrtc_compile.h"
#include "backend/cuda/nvvm_compile.h"
#include "support/error.h"
#include "support/sha256.h"

namespace simt {

namespace {
// Everything that decides what NVRTC and libNVVM are given for `req` and `s`.
std::string check_digest(const NvrtcRequest& req, const RecordedCudaSource& s) {
    Sha256 h;
    h.update("simt-nvrtc-check-v1\n");
    for (const std::string& o : nvrtc_options(req)) h.update(o + "\n");
    h.update(req.minimal ? "minimal\n" : "full\n");
    h.update(req.source);
    if (s.nvvm) {
        h.update("\nnvvm " + s.nvvm->entry + (s.nvvm->uses_libdevice ? " libdevice\n" : "\n"));
        h.update(s.nvvm->ir);
    }
    return h.hex_digest();
}

// True when this process is the first to claim `digest` in `dir` (or claims are off or fail:
// then it checks the source itself rather than risk checking it nowhere).
bool claim(const std::string& dir, const std::string& digest) {
    if (dir.empty()) return true;
    int fd = ::open((dir + "/" + digest).c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
    if (fd >= 0) {
        ::close(fd);
        return true;
    }
    return errno != EEXIST;
}
}  // namespace

NvrtcCheckReport check_with_nvrtc(const std::vector<RecordedCudaSource>& sources, int arch, int threads, bool full,
                                  const std::string& claim_dir) {
    NvrtcCheckReport report;
    std::vector<std::string> failure(sources.size());
    std::atomic<size_t> next{0};
    std::string why;
    const bool nvvm_ok = nvvm_available(&why);
    std::atomic<int> nvvm_compiled{0};
    std::atomic<int> elsewhere{0};
    std::vector<char> mine(sources.size(), 0);  // checked here (not claimed by another process)
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
            if (!claim(claim_dir, check_digest(req, s))) {
                ++elsewhere;
                continue;
            }
            mine[i] = 1;
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
    report.claimed_elsewhere = elsewhere.load();
    report.checked = int(sources.size()) - report.claimed_elsewhere;
    report.nvvm_checked = nvvm_compiled.load();
    report.nvvm_skipped = nvvm_ok ? "" : why;
    for (size_t i = 0; i < sources.size(); ++i) {
        const RecordedCudaSource& s = sources[i];
        if (mine[i] && !s.raw && !s.nvvm) report.not_covered.push_back(s.nvvm_why);
    }
    for (std::string& f : failure)
        if (!f.empty()) report.failures.push_back(std::move(f));
    return report;
}

}  // namespace simt
