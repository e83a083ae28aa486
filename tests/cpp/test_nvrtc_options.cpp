// CompileOptions → NVRTC options (the strings are checked against NVRTC itself by
// tests/python/test_cuda_source.py where NVRTC is installed).
#include <gtest/gtest.h>
#include <algorithm>
#include "codegen/nvrtc_options.h"

using namespace simt;

namespace {
bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }
}  // namespace

TEST(NvrtcOptions, DefaultsNameTheArchitectureOnly) {
    std::vector<std::string> o = nvrtc_options(CompileOptions{}, 9, 0);
    EXPECT_TRUE(has(o, "--gpu-architecture=sm_90"));
    EXPECT_FALSE(has(o, "--use_fast_math"));
    EXPECT_FALSE(has(o, "--device-debug"));
    EXPECT_EQ(o.size(), 2u);
}

TEST(NvrtcOptions, EachKernelOptionMapsToItsFlag) {
    CompileOptions c;
    c.fastmath = true;
    c.lineinfo = true;
    c.max_registers = 40;
    std::vector<std::string> o = nvrtc_options(c, 8, 6);
    EXPECT_TRUE(has(o, "--gpu-architecture=sm_86"));
    EXPECT_TRUE(has(o, "--use_fast_math"));
    EXPECT_TRUE(has(o, "--generate-line-info"));
    EXPECT_TRUE(has(o, "--maxrregcount=40"));

    CompileOptions d;
    d.debug = true;
    d.opt = false;
    o = nvrtc_options(d, 9, 0);
    EXPECT_TRUE(has(o, "--device-debug"));
    EXPECT_FALSE(has(o, "--dopt=on"));
    d.opt = true;
    EXPECT_TRUE(has(nvrtc_options(d, 9, 0), "--dopt=on"));

    CompileOptions n;
    n.opt = false;
    EXPECT_TRUE(has(nvrtc_options(n, 9, 0), "--ptxas-options=-O0"));
}
