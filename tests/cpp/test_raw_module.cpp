// Raw CUDA C++ modules (codegen/raw_module.cpp): which kernels a module's entries cover, and how
// the user's code is rewritten for the host compiler.
#include <gtest/gtest.h>
#include "codegen/raw_module.h"
#include "support/error.h"

using namespace simt;

namespace {

std::string cpu_source(const std::string& code, const std::string& name, std::vector<std::string> options = {},
                       CompileOptions* out = nullptr) {
    CompileOptions o;
    GeneratedSource g = raw_kernel_source(RawModuleSource{code, std::move(options), "k.cu"}, name, Target::Cpu, &o);
    if (out) *out = o;
    return g.full_source;
}

TEST(RawModule, KernelNamesSkipTemplatesAndRepeats) {
    std::string code =
        "extern \"C\" __global__ void a(float* x);\n"
        "extern \"C\" __global__ void a(float* x) { }\n"
        "template <class T> __global__ void t(T* x) { }\n"
        "extern \"C\" __global__ void __launch_bounds__(256, 2) b(int n) { }\n"
        "extern \"C\" {\n__global__\nvoid\nc(double* y) { }\n}\n"
        "__device__ void not_a_kernel(float* x) { }\n";
    EXPECT_EQ(raw_kernel_names(code), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(RawModule, CudaTargetKeepsTheCodeAndOptions) {
    CompileOptions o;
    GeneratedSource g = raw_kernel_source(RawModuleSource{"__global__ void k() {}", {"-DN=4"}, "k.cu"}, "k",
                                          Target::Cuda, &o);
    EXPECT_EQ(g.entry_name, "k");
    EXPECT_TRUE(g.raw_cuda);
    EXPECT_EQ(g.compiler_options, std::vector<std::string>{"-DN=4"});
    EXPECT_EQ(g.full_source, "#line 1 \"k.cu\"\n__global__ void k() {}");
}

TEST(RawModule, TheCpuEntryIsTheRequestedKernelsAlone) {
    // (another __global__ function of the text may sit in an `#if 0` block the compiler never sees)
    CompileOptions o;
    GeneratedSource g = raw_kernel_source(
        RawModuleSource{"#if 0\n__global__ void a(int* x) {}\n#endif\nextern \"C\" __global__ void b(int* x) {}", {}, "k.cu"},
        "b", Target::Cpu, &o);
    EXPECT_EQ(g.entry_name, "simt_raw_entry_0");
    EXPECT_EQ(g.parameter_table, "simt_raw_params_0");
    EXPECT_NE(g.full_source.find("simt_raw::run(L, args, begin, end, (&b), false"), std::string::npos);
    EXPECT_EQ(g.full_source.find("(&a)"), std::string::npos);
}

TEST(RawModule, KernelsInCommentsAreNotKernels) {
    std::string code =
        "// __global__ void old_version(float* x) {}\n"
        "/* __global__ void older(float* x) {} */\n"
        "const char* s = \"__global__ void in_a_string(\";\n"
        "extern \"C\" __global__ void scale(float* x) {}\n";
    EXPECT_EQ(raw_kernel_names(code), std::vector<std::string>{"scale"});
}

TEST(RawModule, BarriersOrWarpFunctionsRunThreadsAsFibers) {
    std::string src = cpu_source("extern \"C\" __global__ void k(int* x) { __syncthreads(); }", "k");
    EXPECT_NE(src.find("(&k), true"), std::string::npos);
    src = cpu_source("extern \"C\" __global__ void k(int* x) { x[0] = __shfl_down_sync(~0u, x[0], 1); }", "k");
    EXPECT_NE(src.find("(&k), true"), std::string::npos);
}

TEST(RawModule, DynamicSharedArraysBecomePointersIntoTheBlocksMemory) {
    std::string src = cpu_source(
        "extern __shared__ double at_file_scope[];\n"
        "extern \"C\" __global__ void k(float* x) {\n"
        "    extern __shared__ float s[];\n"
        "    extern __shared__ __align__(16) unsigned char raw[];\n"
        "    if (x) { /* { */ }\n"
        "}\n"
        "extern __shared__ int after[];\n",
        "k");
    // A view that finds the block's memory when used: no code runs when the library loads, so it
    // may stand at file scope too (a pointer initialized there crashed the process).
    EXPECT_NE(src.find("constexpr simt_dynamic_shared<float> s{};"), std::string::npos);
    EXPECT_NE(src.find("constexpr simt_dynamic_shared<unsigned char> raw{};"), std::string::npos);
    EXPECT_NE(src.find("constexpr simt_dynamic_shared<double> at_file_scope{};"), std::string::npos);
    EXPECT_NE(src.find("constexpr simt_dynamic_shared<int> after{};"), std::string::npos);
}

TEST(RawModule, ProvidedHeadersAreDroppedAndMacrosPrecedeTheCode) {
    CompileOptions o;
    std::string src = cpu_source("#include <cuda_runtime.h>\n#include <cassert>\n__global__ void k() {}", "k",
                                 {"-DBLOCK=128", "--define-macro=FLAG", "-U", "OLD", "--use_fast_math", "-I/inc"}, &o);
    EXPECT_NE(src.find("// (provided by simt's raw prelude) #include <cuda_runtime.h>"), std::string::npos);
    EXPECT_NE(src.find("// (provided by simt's raw prelude) #include <cassert>"), std::string::npos);
    EXPECT_NE(src.find("#define BLOCK 128\n#define FLAG 1\n#undef OLD\n"), std::string::npos);
    EXPECT_TRUE(o.fastmath);
    CompileOptions again;
    GeneratedSource g = raw_kernel_source(RawModuleSource{"__global__ void k() {}", {"-I/inc", "-DX"}, "k.cu"}, "k",
                                          Target::Cpu, &again);
    EXPECT_EQ(g.compiler_options, std::vector<std::string>{"-I/inc"});  // (macros are #define lines, not flags)
}

TEST(RawModule, DeviceOnlyHeadersAreAClearErrorOnTheCpu) {
    try {
        cpu_source("// half types\n#include <cuda_fp16.h>\n__global__ void k() {}", "k");
        FAIL() << "expected a CompilerError";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Compiler);
        EXPECT_NE(std::string(e.what()).find("k.cu, line 2: <cuda_fp16.h> has no host version"), std::string::npos) << e.what();
    }
}

}  // namespace
