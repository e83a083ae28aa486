// The pathfinder: where libcuda (the driver), NVRTC, the CUDA headers and libdevice are on
// this machine, with every place tried recorded so a failure can say where it looked.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace simt {

struct SearchResult {
    std::string path;                // empty when not found
    std::string found_by;            // which rule found it: "CUDA_PATH", "site-packages", "OS loader", ...
    std::vector<std::string> tried;  // every place looked, in order, each with why it did not qualify
    bool found() const { return !path.empty(); }
    // "<what> was not found. Looked in: ...", one place per line, and how to fix it.
    std::string not_found_message(const std::string& what, const std::string& hint) const;
};

// Everything a search depends on, so tests can run it against a fake file tree and loader.
struct SearchInputs {
    std::string cuda_path;                    // $CUDA_PATH
    std::string cuda_home;                    // $CUDA_HOME
    std::vector<std::string> site_packages;   // Python's site-packages directories (NVIDIA wheels)
    std::string default_root = "/usr/local/cuda";
    // Asks the OS loader for a library by name: its resolved path, or "" with the reason in *error.
    std::function<std::string(const std::string& name, std::string* error)> os_loader;
};

// The inputs of this process: the environment, the site-packages registered by the Python
// module, and dlopen as the OS loader.
SearchInputs system_search_inputs();
// Registered by simt/__init__.py before the backend is chosen.
void set_python_site_packages(std::vector<std::string> dirs);

// libcuda.so.1, through the OS loader only (the driver belongs to the installed kernel module).
SearchResult find_libcuda(const SearchInputs& in);
// libnvrtc: $CUDA_PATH, $CUDA_HOME, NVIDIA wheels in site-packages, the OS loader, /usr/local/cuda.
SearchResult find_nvrtc(const SearchInputs& in);
// The directory holding cuda_runtime.h (same places, plus next to the NVRTC that was found).
SearchResult find_cuda_include(const SearchInputs& in, const std::string& nvrtc_path);
// libdevice.10.bc (the NVVM IR path links it for math functions; NVRTC carries its own copy).
SearchResult find_libdevice(const SearchInputs& in);
// libNVVM (the NVVM IR path, codegen/nvvm_ir.h): $CUDA_PATH, $CUDA_HOME, NVIDIA wheels, the OS
// loader, /usr/local/cuda; each under nvvm/lib64.
SearchResult find_libnvvm(const SearchInputs& in);

// The newest libnvrtc.so.<version> in `dir` (ignoring the builtins and .alt variants), else
// libnvrtc.so, else "".
std::string newest_nvrtc_in(const std::string& dir);

// The process-wide results, searched once.
const SearchResult& libcuda_location();
const SearchResult& nvrtc_location();
const SearchResult& cuda_include_location();
const SearchResult& libnvvm_location();
const SearchResult& libdevice_location();  // (raw CUDA C++ may include the toolkit's headers)

}  // namespace simt
