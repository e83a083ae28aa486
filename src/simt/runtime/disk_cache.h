// The on-disk cache of compiled kernels: SIMT_CACHE_DIR (default ~/.cache/simt), private to
// the user. Entries are written to a temporary file and renamed into place; each has a SHA-256
// checksum file that is verified on every read, so a corrupt entry is recompiled, never loaded.
#pragma once
#include <string>

namespace simt {

class DiskCache {
public:
    // The process-wide cache; falls back to a private temporary directory when the configured
    // one cannot be used.
    static DiskCache& instance();
    explicit DiskCache(std::string root);

    const std::string& root() const { return root_; }
    // Path where an entry lives (whether or not it exists).
    std::string path_for(const std::string& kind, const std::string& key, const std::string& suffix) const;
    // Verified lookup: returns true and sets `path` (and `bytes` if non-null) when the entry
    // exists and its checksum matches. A mismatching entry is deleted.
    bool lookup(const std::string& kind, const std::string& key, const std::string& suffix, std::string& path,
                std::string* bytes = nullptr);
    // Stores the bytes; returns the final path.
    std::string store(const std::string& kind, const std::string& key, const std::string& suffix, const std::string& bytes);
    // Adopts a file produced in temp_dir() (e.g. by a compiler), moving it into place.
    std::string adopt(const std::string& kind, const std::string& key, const std::string& suffix, const std::string& temp_path);
    std::string temp_dir() const;

private:
    std::string root_;
};

// How kernels were obtained in this process (for tests and benchmarks).
struct CompileCounters {
    int64_t compiled = 0;     // compiled by the host compiler or NVRTC
    int64_t disk_hits = 0;    // loaded from the disk cache
    int64_t memory_hits = 0;  // already loaded in this process
    int64_t nvvm_compiled = 0;  // of `compiled`, cuda kernels compiled through NVVM IR (codegen/nvvm_ir.h)
    // Where the latest new specialization's time went (milliseconds), for benchmarks.
    double last_front_end_ms = 0;  // parse, types, code generation
    double last_load_ms = 0;       // the backend's load: compile or disk cache, module load
    double last_compiler_ms = 0;   // the host compiler or NVRTC, in the latest compile
    double last_driver_jit_ms = 0; // the driver compiling PTX, in the latest PTX module load
    double last_nvvm_ms = 0;       // libNVVM making PTX of NVVM IR, in the latest NVVM compile
};
CompileCounters& compile_counters();

// SIMT_CACHE_DIR or ~/.cache/simt.
std::string default_cache_root();

}  // namespace simt
