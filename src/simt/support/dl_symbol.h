// Opening a shared library with dlopen, and binding function pointers to its symbols, collecting
// the names of required symbols the library lacks (for one "it lacks a, b, c" message).
#pragma once
#include <dlfcn.h>
#include <string>

namespace simt {

// The library at `path`, or null with `why` saying "cannot load <what> <path>: <dlerror>".
inline void* open_library(const std::string& path, const std::string& what, std::string& why) {
    void* lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char* e = ::dlerror();
        why = "cannot load " + what + " " + path + ": " + (e ? e : "unknown error");
    }
    return lib;
}

template <class F>
void bind_symbol(void* lib, F& slot, const char* name, std::string& missing, bool required = true) {
    slot = reinterpret_cast<F>(::dlsym(lib, name));
    if (!slot && required) missing += (missing.empty() ? "" : ", ") + std::string(name);
}

}  // namespace simt
