// numba-style signature strings: "void(float32[:], float32[::1], int64)", "f8(f8, i4)",
// "float32[:, ::1]" (C layout), "UniTuple(int64, 2)". Used for eager compilation and compile_ptx.
#pragma once
#include <string>
#include <vector>
#include "types/type.h"

namespace simt {

struct Signature {
    const Type* return_type = nullptr;  // void_type() for kernels; null when the string had none
    std::vector<const Type*> args;
};

// Parses "ret(args...)" or a bare argument list "(args...)" / "arg, arg". Raises
// Error(Type) naming the offending part.
Signature parse_signature(const std::string& text);
// Parses one type, e.g. "float32[:, ::1]".
const Type* parse_type(const std::string& text);

}  // namespace simt
