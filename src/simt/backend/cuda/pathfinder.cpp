// Locating the CUDA driver, NVRTC, headers and libdevice; see pathfinder.h for the order.
#include "backend/cuda/pathfinder.h"
#include <dirent.h>
#include <dlfcn.h>
#include <link.h>
#include <cstdlib>
#include <mutex>
#include "support/files.h"

namespace simt {

namespace {

#if defined(__aarch64__)
constexpr const char* kTargetDir = "targets/sbsa-linux";
#else
constexpr const char* kTargetDir = "targets/x86_64-linux";
#endif

std::mutex g_site_mutex;
std::vector<std::string> g_site_packages;

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

std::string parent_dir(const std::string& path) {
    size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// dlopen by name; on success the resolved path of the loaded file. The handle stays open: the
// library is about to be used, and dlopen of the same file later only bumps a count.
std::string dlopen_resolve(const std::string& name, std::string* error) {
    void* handle = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* e = ::dlerror();
        if (error) *error = e ? e : "not found";
        return "";
    }
    struct link_map* map = nullptr;
    if (::dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name) return map->l_name;
    return name;  // loaded, path unknown
}

// Version numbers of "libnvrtc.so.13.0.88" → {13, 0, 88}; empty for "libnvrtc.so".
std::vector<int> soname_version(const std::string& file, const std::string& stem) {
    std::vector<int> v;
    if (file.size() <= stem.size() + 1) return v;
    std::string rest = file.substr(stem.size() + 1);
    int n = 0;
    bool digits = false;
    for (char c : rest) {
        if (c >= '0' && c <= '9') { n = n * 10 + (c - '0'); digits = true; }
        else if (c == '.' && digits) { v.push_back(n); n = 0; digits = false; }
        else return {};
    }
    if (digits) v.push_back(n);
    return v;
}

// Records a directory search for `what` in `dir`; returns the library path or "".
std::string look_in_dir(SearchResult& r, const std::string& dir, const std::string& label) {
    std::string lib = newest_nvrtc_in(dir);
    if (lib.empty()) r.tried.push_back(dir + " (" + label + "): no libnvrtc.so*");
    return lib;
}

std::vector<std::string> toolkit_lib_dirs(const std::string& root) {
    return {root + "/lib64", root + "/lib", root + "/" + kTargetDir + "/lib"};
}

// The roots named by the environment, in order, with their labels; records unset variables.
std::vector<std::pair<std::string, std::string>> env_roots(const SearchInputs& in, SearchResult& r) {
    std::vector<std::pair<std::string, std::string>> roots;
    if (in.cuda_path.empty()) r.tried.push_back("$CUDA_PATH: not set");
    else roots.emplace_back(in.cuda_path, "CUDA_PATH");
    if (in.cuda_home.empty()) r.tried.push_back("$CUDA_HOME: not set");
    else if (in.cuda_home != in.cuda_path) roots.emplace_back(in.cuda_home, "CUDA_HOME");
    return roots;
}

// Finds a file (or a directory holding `marker`) among candidate paths, recording each.
bool first_existing(SearchResult& r, const std::vector<std::string>& candidates, const std::string& marker,
                    const std::string& label) {
    for (const std::string& c : candidates) {
        std::string probe = marker.empty() ? c : c + "/" + marker;
        if (file_exists(probe)) {
            r.path = c;
            r.found_by = label;
            return true;
        }
        r.tried.push_back(probe + " (" + label + "): not found");
    }
    return false;
}

}  // namespace

std::string SearchResult::not_found_message(const std::string& what, const std::string& hint) const {
    std::string msg = what + " was not found. Looked in:";
    for (const std::string& t : tried) msg += "\n  - " + t;
    if (!hint.empty()) msg += "\n" + hint;
    return msg;
}

void set_python_site_packages(std::vector<std::string> dirs) {
    std::lock_guard<std::mutex> lock(g_site_mutex);
    g_site_packages = std::move(dirs);
}

SearchInputs system_search_inputs() {
    SearchInputs in;
    in.cuda_path = env("CUDA_PATH");
    in.cuda_home = env("CUDA_HOME");
    {
        std::lock_guard<std::mutex> lock(g_site_mutex);
        in.site_packages = g_site_packages;
    }
    in.os_loader = dlopen_resolve;
    return in;
}

std::string newest_nvrtc_in(const std::string& dir) {
    const std::string stem = "libnvrtc.so";
    DIR* d = ::opendir(dir.c_str());
    if (!d) return "";
    std::string best;
    std::vector<int> best_version;
    bool plain = false;
    while (struct dirent* e = ::readdir(d)) {
        std::string name = e->d_name;
        if (name == stem) { plain = true; continue; }
        if (name.rfind(stem + ".", 0) != 0) continue;  // excludes libnvrtc-builtins and libnvrtc.alt
        std::vector<int> v = soname_version(name, stem);
        if (v.empty()) continue;
        if (best.empty() || v > best_version) { best = name; best_version = v; }
    }
    ::closedir(d);
    if (!best.empty()) return dir + "/" + best;
    return plain ? dir + "/" + stem : "";
}

SearchResult find_libcuda(const SearchInputs& in) {
    SearchResult r;
    for (const char* name : {"libcuda.so.1", "libcuda.so"}) {
        std::string error;
        std::string path = in.os_loader ? in.os_loader(name, &error) : "";
        if (!path.empty()) {
            r.path = path;
            r.found_by = "OS loader";
            return r;
        }
        r.tried.push_back(std::string("OS loader, ") + name + ": " + (error.empty() ? "not found" : error));
    }
    return r;
}

SearchResult find_nvrtc(const SearchInputs& in) {
    SearchResult r;
    for (const auto& [root, label] : env_roots(in, r)) {
        for (const std::string& dir : toolkit_lib_dirs(root)) {
            std::string lib = look_in_dir(r, dir, label);
            if (!lib.empty()) { r.path = lib; r.found_by = label; return r; }
        }
    }
    if (in.site_packages.empty()) r.tried.push_back("site-packages: none registered (simt was not imported from Python)");
    for (const std::string& sp : in.site_packages) {
        for (const char* sub : {"nvidia/cu13/lib", "nvidia/cuda_nvrtc/lib"}) {
            std::string lib = look_in_dir(r, sp + "/" + sub, "NVIDIA wheel");
            if (!lib.empty()) { r.path = lib; r.found_by = "site-packages"; return r; }
        }
    }
    for (const char* name : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2", "libnvrtc.so"}) {
        std::string error;
        std::string path = in.os_loader ? in.os_loader(name, &error) : "";
        if (!path.empty()) { r.path = path; r.found_by = "OS loader"; return r; }
        r.tried.push_back(std::string("OS loader, ") + name + ": " + (error.empty() ? "not found" : error));
    }
    for (const std::string& dir : toolkit_lib_dirs(in.default_root)) {
        std::string lib = look_in_dir(r, dir, in.default_root);
        if (!lib.empty()) { r.path = lib; r.found_by = in.default_root; return r; }
    }
    return r;
}

SearchResult find_cuda_include(const SearchInputs& in, const std::string& nvrtc_path) {
    SearchResult r;
    const std::string marker = "cuda_runtime.h";
    for (const auto& [root, label] : env_roots(in, r))
        if (first_existing(r, {root + "/include", root + "/" + kTargetDir + "/include"}, marker, label)) return r;
    for (const std::string& sp : in.site_packages)
        if (first_existing(r, {sp + "/nvidia/cu13/include", sp + "/nvidia/cuda_runtime/include"}, marker, "site-packages"))
            return r;
    if (!nvrtc_path.empty()) {
        std::string root = parent_dir(parent_dir(nvrtc_path));
        if (first_existing(r, {root + "/include"}, marker, "next to NVRTC")) return r;
    }
    first_existing(r, {in.default_root + "/include", in.default_root + "/" + kTargetDir + "/include"}, marker,
                   in.default_root);
    return r;
}

SearchResult find_libdevice(const SearchInputs& in) {
    SearchResult r;
    const std::string file = "nvvm/libdevice/libdevice.10.bc";
    for (const auto& [root, label] : env_roots(in, r))
        if (first_existing(r, {root + "/" + file}, "", label)) return r;
    for (const std::string& sp : in.site_packages)
        if (first_existing(r, {sp + "/nvidia/cu13/" + file, sp + "/nvidia/cuda_nvcc/" + file}, "", "site-packages"))
            return r;
    first_existing(r, {in.default_root + "/" + file}, "", in.default_root);
    return r;
}

SearchResult find_libnvvm(const SearchInputs& in) {
    SearchResult r;
    const std::vector<std::string> names = {"nvvm/lib64/libnvvm.so.4", "nvvm/lib64/libnvvm.so"};
    auto under = [&](const std::string& root) {
        std::vector<std::string> c;
        for (const std::string& n : names) c.push_back(root + "/" + n);
        return c;
    };
    for (const auto& [root, label] : env_roots(in, r))
        if (first_existing(r, under(root), "", label)) return r;
    for (const std::string& sp : in.site_packages)
        if (first_existing(r, {sp + "/nvidia/cu13/lib/libnvvm.so.4", sp + "/nvidia/cuda_nvcc/nvvm/lib64/libnvvm.so.4",
                               sp + "/nvidia/cuda_nvcc/nvvm/lib64/libnvvm.so"},
                           "", "site-packages"))
            return r;
    for (const char* name : {"libnvvm.so.4", "libnvvm.so"}) {
        std::string error;
        std::string path = in.os_loader ? in.os_loader(name, &error) : "";
        if (!path.empty()) { r.path = path; r.found_by = "OS loader"; return r; }
        r.tried.push_back(std::string("OS loader, ") + name + ": " + (error.empty() ? "not found" : error));
    }
    first_existing(r, under(in.default_root), "", in.default_root);
    return r;
}

const SearchResult& libnvvm_location() {
    static const SearchResult r = find_libnvvm(system_search_inputs());
    return r;
}

const SearchResult& libdevice_location() {
    static const SearchResult r = find_libdevice(system_search_inputs());
    return r;
}

const SearchResult& cuda_include_location() {
    static const SearchResult r = find_cuda_include(system_search_inputs(), nvrtc_location().path);
    return r;
}

const SearchResult& libcuda_location() {
    static const SearchResult r = find_libcuda(system_search_inputs());
    return r;
}

const SearchResult& nvrtc_location() {
    static const SearchResult r = find_nvrtc(system_search_inputs());
    return r;
}

}  // namespace simt
