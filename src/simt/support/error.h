// Error types raised by the simt core; the Python bindings map each kind to a Python exception.
#pragma once
#include <stdexcept>
#include <string>
#include <cstdint>

namespace simt {

// Which Python exception a user-facing error becomes.
enum class ErrorKind {
    Value,           // ValueError
    Type,            // TypeError
    Index,           // IndexError (bounds-checked kernel access)
    Runtime,         // RuntimeError
    NotImplemented,  // NotImplementedError
    OutOfMemory,     // simt.cuda.OutOfMemoryError (a MemoryError)
    Cuda,            // simt.cuda.CUDAError (a RuntimeError)
    Typing,          // simt.cuda.TypingError: kernel source does not type-check
    Unsupported,     // simt.cuda.UnsupportedError: kernel uses syntax simt does not compile
    Compiler,        // simt.cuda.CompilerError: the host compiler or NVRTC rejected generated code
    Os,              // OSError: files, processes
    Axis,            // numpy.exceptions.AxisError (both a ValueError and an IndexError)
    Overflow,        // OverflowError: a Python integer out of range for an array's dtype
    Assertion,       // AssertionError: a kernel's assert failed (debug=True)
    Raised,          // a builtin exception a kernel raised (debug=True): message "ClassName\ntext"
};

// A user-facing error: bad input, failed CUDA call, failed compile. Internal invariants abort instead.
class Error : public std::runtime_error {
public:
    Error(ErrorKind kind, std::string message) : std::runtime_error(std::move(message)), kind_(kind) {}
    ErrorKind kind() const { return kind_; }
private:
    ErrorKind kind_;
};

// A CUDA driver failure (or the cpu backend's model of one): text is "NAME: description".
class CudaError : public Error {
public:
    CudaError(int code, const std::string& name, const std::string& description)
        : Error(ErrorKind::Cuda, name + ": " + description), code_(code), name_(name) {}
    int code() const { return code_; }
    const std::string& name() const { return name_; }
private:
    int code_;
    std::string name_;
};

// Formats like printf and throws Error(kind, text).
[[noreturn]] void raise(ErrorKind kind, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

// printf into a std::string.
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// Internal invariant violated: print and abort (never a user error).
[[noreturn]] void fail_internal(const char* file, int line, const char* what);
#define SIMT_ASSERT(cond) \
    do { if (!(cond)) ::simt::fail_internal(__FILE__, __LINE__, #cond); } while (0)

}  // namespace simt
