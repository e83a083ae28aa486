// Disk cache of compiled kernels with checksummed entries.
#include "runtime/disk_cache.h"
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "support/error.h"
#include "support/files.h"
#include "support/sha256.h"

namespace simt {

std::string default_cache_root() {
    if (const char* dir = std::getenv("SIMT_CACHE_DIR"); dir && *dir) return dir;
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/simt";
    const char* home = std::getenv("HOME");
    return std::string(home && *home ? home : "/tmp") + "/.cache/simt";
}

CompileCounters& compile_counters() {
    static CompileCounters counters;
    return counters;
}

DiskCache& DiskCache::instance() {
    static DiskCache* cache = [] {
        std::string root = default_cache_root();
        try {
            make_private_directory(root);
            return new DiskCache(root);
        } catch (const Error& e) {
            std::fprintf(stderr, "simt: warning: %s; using a temporary cache for this process\n", e.what());
            char templ[] = "/tmp/simt-cache-XXXXXX";
            const char* dir = ::mkdtemp(templ);
            return new DiskCache(dir ? dir : "/tmp");
        }
    }();
    return *cache;
}

DiskCache::DiskCache(std::string root) : root_(std::move(root)) {}

std::string DiskCache::path_for(const std::string& kind, const std::string& key, const std::string& suffix) const {
    return root_ + "/" + kind + "/" + key.substr(0, 2) + "/" + key + suffix;
}

std::string DiskCache::temp_dir() const {
    std::string dir = root_ + "/tmp";
    make_private_directory(dir);
    return dir;
}

bool DiskCache::lookup(const std::string& kind, const std::string& key, const std::string& suffix, std::string& path,
                       std::string* bytes) {
    path = path_for(kind, key, suffix);
    std::string data, sum;
    if (!read_file(path, data)) return false;
    if (!read_file(path + ".sha256", sum) || sum.substr(0, 64) != sha256_hex(data)) {
        std::fprintf(stderr, "simt: warning: cache entry %s is corrupt; recompiling\n", path.c_str());
        ::unlink(path.c_str());
        ::unlink((path + ".sha256").c_str());
        return false;
    }
    if (bytes) *bytes = std::move(data);
    return true;
}

std::string DiskCache::store(const std::string& kind, const std::string& key, const std::string& suffix, const std::string& bytes) {
    std::string path = path_for(kind, key, suffix);
    make_private_directory(path.substr(0, path.rfind('/')));
    write_file_atomic(path + ".sha256", sha256_hex(bytes) + "\n");
    write_file_atomic(path, bytes);
    return path;
}

std::string DiskCache::adopt(const std::string& kind, const std::string& key, const std::string& suffix, const std::string& temp_path) {
    std::string data;
    if (!read_file(temp_path, data)) raise(ErrorKind::Os, "cannot read compiler output %s", temp_path.c_str());
    std::string path = path_for(kind, key, suffix);
    make_private_directory(path.substr(0, path.rfind('/')));
    write_file_atomic(path + ".sha256", sha256_hex(data) + "\n");
    if (std::rename(temp_path.c_str(), path.c_str()) != 0) {
        int err = errno;
        raise(ErrorKind::Os, "cannot move %s into the cache: %s", temp_path.c_str(), std::strerror(err));
    }
    return path;
}

}  // namespace simt
