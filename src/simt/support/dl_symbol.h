// Binding a function pointer to a symbol of a library opened with dlopen, collecting the names
// of required symbols the library lacks (for one "it lacks a, b, c" message).
#pragma once
#include <dlfcn.h>
#include <string>

namespace simt {

template <class F>
void bind_symbol(void* lib, F& slot, const char* name, std::string& missing, bool required = true) {
    slot = reinterpret_cast<F>(::dlsym(lib, name));
    if (!slot && required) missing += (missing.empty() ? "" : ", ") + std::string(name);
}

}  // namespace simt
