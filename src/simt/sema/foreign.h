// Functions written in CUDA C++ that kernels call (cuda.declare_device, numba's FFI): their
// declared signatures, and the CUDA C++ files linked into the kernels that call them.
#pragma once
#include <memory>
#include <string>
#include <vector>
#include "support/included_files.h"
#include "types/type.h"

namespace simt {

struct ForeignParam {
    enum class Kind { Scalar, Pointer, VoidPointer };
    Kind kind = Kind::Scalar;
    DType dtype = DType::Float64;  // Scalar: the value's type; Pointer: the pointee's
};

// cuda.declare_device(name, "float32(float32, CPointer(float32), voidptr)"). Called with numba's
// ABI: `extern "C" __device__ int name(T* return_value, args...)`.
struct ForeignFunction {
    std::string name;             // the function's name in the linked CUDA C++
    std::string signature;        // as declared (for messages)
    const Type* return_type = nullptr;  // a scalar, or void_type()
    std::vector<ForeignParam> params;
    std::vector<std::string> link;  // files declare_device(link=...) named: linked wherever it is called
};

// Parses the declaration; raises Error(Type) naming what is wrong with the signature.
std::shared_ptr<const ForeignFunction> declare_foreign_function(const std::string& name, const std::string& signature,
                                                                std::vector<std::string> link);

// A CUDA C++ file a kernel links (`@cuda.jit(link=[...])`, `declare_device(link=[...])`).
struct LinkedSource {
    std::string path;
    std::string text;
    // The user's files it includes (and those they include), found where the compilers look:
    // beside the including file, then beside each linked file (the include paths simt passes).
    // Read with it, so that the kernel's cache key, the check for definitions and the cpu
    // backend's check for barriers see them too.
    IncludedFiles included;
};

// Reads a file to link; raises Error(Compiler) for one that cannot be read, or whose kind (PTX,
// cubin, fatbin, object code, archives, LTO-IR) simt cannot link: it compiles CUDA C++ with the kernel.
LinkedSource read_linked_source(const std::string& path);
// Fills each source's `included` files (see LinkedSource).
void read_included_files(std::vector<LinkedSource>& sources);

}  // namespace simt
