// Helpers shared by the C++ tests: kernels from source text and a resolver for common names.
#pragma once
#include <gtest/gtest.h>
#include <cstdlib>
#include <string>
#include "runtime/backend.h"
#include "frontend/source.h"
#include "sema/globals.h"

namespace simt::test {

inline SourceText source(const std::string& text, const std::string& filename = "/tmp/simt_test_kernel.py") {
    SourceText s;
    s.text = text;
    s.filename = filename;
    s.first_line = 1;
    return s;
}

// Resolves the names a typical kernel file has: cuda, math, np, operator and Python's builtins.
inline GlobalValue standard_names(const std::string& name) {
    if (name == "cuda") return GlobalValue::module("cuda");
    if (name == "math") return GlobalValue::module("math");
    if (name == "np") return GlobalValue::module("numpy");
    if (name == "operator") return GlobalValue::module("operator");
    for (const char* b : {"abs", "min", "max", "int", "float", "bool", "complex", "len", "range", "round", "pow", "divmod",
                          "enumerate", "zip"})
        if (name == b) return GlobalValue::function(name);
    if (name == "N") return GlobalValue::constant(ConstValue::integer(16));
    if (name == "SCALE") return GlobalValue::constant(ConstValue::real(0.5));
    return GlobalValue::undefined();
}

// Selects the cpu backend with a fresh private kernel cache (tests that launch kernels).
inline void use_cpu_backend_with_private_cache() {
    char dir[] = "/tmp/simt-cpp-test-XXXXXX";
    ASSERT_NE(::mkdtemp(dir), nullptr);
    ::setenv("SIMT_CACHE_DIR", dir, 1);
    select_backend("cpu");
}

}  // namespace simt::test
