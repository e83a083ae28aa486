// NVRTC compiles the CUDA C++ the emitter generates (no GPU needed): cubins for sm_90, PTX
// for newer devices, the built-in kernels, readable errors, the cache and the parallel check.
#include <gtest/gtest.h>
#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include "backend/cuda/builtin_kernels.h"
#include "backend/cuda/nvrtc_api.h"
#include "backend/cuda/nvrtc_check.h"
#include "backend/cuda/nvrtc_compile.h"
#include "backend/cuda/ptx_compiler.h"
#include "codegen/emitter.h"
#include "runtime/disk_cache.h"
#include "sema/sema.h"
#include "support/error.h"
#include "test_helpers.h"

using namespace simt;

namespace {

class Nvrtc : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        char dir[] = "/tmp/simt-nvrtc-test-XXXXXX";
        ASSERT_NE(::mkdtemp(dir), nullptr);
        ::setenv("SIMT_CACHE_DIR", dir, 0);  // only if no other suite chose one first
    }
    void SetUp() override {
        std::string why;
        if (!nvrtc_available(&why)) GTEST_SKIP() << "NVRTC not found: " << why;
    }
};

const Type* f64_array() { return array_type(DType::Float64, 1, Layout::C); }

GeneratedSource cuda_source(const std::string& text, std::vector<const Type*> types, CompileOptions options = {}) {
    auto unit = analyze_kernel(test::source(text), test::standard_names, types, options);
    return emit_unit(*unit, Target::Cuda);
}

NvrtcRequest request(const GeneratedSource& g, int arch = 90, CompileOptions options = {}) {
    NvrtcRequest r;
    r.source = g.full_source;
    r.name = "kernel '" + g.entry_name + "'";
    r.options = options;
    r.arch = arch;
    return r;
}

bool is_elf(const std::string& bytes) { return bytes.size() > 4 && bytes.compare(0, 4, "\x7f" "ELF") == 0; }

// Kernels covering the language the emitter supports today; each must compile for sm_90.
const char* const kKernels[] = {
    "def k(A, B, C):\n    i = cuda.grid(1)\n    C[i] = A[i] + B[i]\n",
    "def k(A, B, C):\n    x, y = cuda.grid(2)\n    if x < A.shape[0] and y < 4:\n        C[x] = A[x] * B[y]\n",
    "def k(A, B, C):\n    i = cuda.grid(1)\n    s = 0.0\n    for j in range(N):\n        s += math.sin(A[j]) * SCALE\n    C[i] = s // 2 + B[i] % 3\n",
    "def k(A, B, C):\n    i = cuda.grid(1)\n    n = 7\n    while n > 1:\n        n = n // 2 if n % 2 == 0 else 3 * n + 1\n    C[i] = n ** 2 + abs(-A[i]) + min(A[i], B[i]) + max(1, 2)\n",
    "def k(A, B, C):\n    i = cuda.grid(1)\n    t = (1, 2.5)\n    C[i] = t[0] + t[1] + A[-1] + (1 << 3) + math.sqrt(4.0) + round(2.5)\n",
    "def k(A, B, C):\n    i = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x\n    if i >= cuda.gridDim.x * cuda.blockDim.x:\n        return\n    C[i] = float(int(A[i])) + complex(1, 2).real + len(A)\n",
};

}  // namespace

TEST_F(Nvrtc, GeneratedKernelsCompileToSm90Cubins) {
    for (const char* text : kKernels) {
        SCOPED_TRACE(text);
        GeneratedSource g = cuda_source(text, {f64_array(), f64_array(), f64_array()});
        CudaImage image = compile_for_device(request(g));
        EXPECT_TRUE(image.is_cubin);
        EXPECT_EQ(image.target, "sm_90");
        EXPECT_TRUE(is_elf(image.bytes));
    }
}

TEST_F(Nvrtc, BoundscheckKernelsExportTheirErrorRecord) {
    CompileOptions o;
    o.bounds = BoundsMode::Checked;
    GeneratedSource g = cuda_source(kKernels[0], {f64_array(), f64_array(), f64_array()}, o);
    std::string ptx = compile_ptx_text(request(g, 90, o));
    EXPECT_NE(ptx.find(".visible .entry k("), std::string::npos) << ptx.substr(0, 2000);
    EXPECT_NE(ptx.find("simt_errors[144]"), std::string::npos);  // sizeof(BoundsErrorRecord)
    EXPECT_EQ(sizeof(BoundsErrorRecord), 144u);
}

TEST_F(Nvrtc, OptionsReachNvrtc) {
    CompileOptions o;
    o.fastmath = true;
    o.lineinfo = true;
    o.max_registers = 32;
    NvrtcRequest r;
    r.options = o;
    std::vector<std::string> opts = nvrtc_options(r);
    for (const char* want : {"--use_fast_math", "--generate-line-info", "--maxrregcount=32"})
        EXPECT_NE(std::find(opts.begin(), opts.end(), want), opts.end()) << want;
    GeneratedSource g = cuda_source(kKernels[2], {f64_array(), f64_array(), f64_array()}, o);
    std::string ptx = compile_ptx_text(request(g, 90, o));
    EXPECT_NE(ptx.find(".loc"), std::string::npos);  // line info present
}

TEST_F(Nvrtc, TargetsFollowWhatNvrtcSupports) {
    bool cubin = false;
    EXPECT_EQ(nvrtc_target_for(90, &cubin), "sm_90");
    EXPECT_TRUE(cubin);
    // A device newer than NVRTC gets PTX for the newest architecture NVRTC knows.
    int newest = nvrtc_supported_archs().back();
    EXPECT_EQ(nvrtc_target_for(newest + 500, &cubin), "compute_" + std::to_string(newest));
    EXPECT_FALSE(cubin);
    GeneratedSource g = cuda_source(kKernels[0], {f64_array(), f64_array(), f64_array()});
    CudaImage image = compile_for_device(request(g, newest + 500));
    EXPECT_FALSE(image.is_cubin);
    EXPECT_NE(image.bytes.find(".target sm_" + std::to_string(newest)), std::string::npos);
    EXPECT_EQ(image.bytes.back(), '\0');  // cuModuleLoadData needs NUL-terminated PTX
    // Older than anything NVRTC supports: a clear error.
    try {
        nvrtc_target_for(20, &cubin);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Compiler);
        EXPECT_NE(std::string(e.what()).find("cannot compile for compute capability 2.0"), std::string::npos);
    }
}

TEST_F(Nvrtc, SecondCompileComesFromTheDiskCache) {
    GeneratedSource g = cuda_source("def k(A, B, C):\n    C[cuda.grid(1)] = A[3] * 7.25\n", {f64_array(), f64_array(), f64_array()});
    CompileCounters before = compile_counters();
    CudaImage first = compile_for_device(request(g));
    CudaImage second = compile_for_device(request(g));
    EXPECT_EQ(first.bytes, second.bytes);
    EXPECT_EQ(compile_counters().compiled, before.compiled + 1);
    EXPECT_EQ(compile_counters().disk_hits, before.disk_hits + 1);
}

TEST_F(Nvrtc, CompileErrorsShowTheLogAndThePythonLine) {
    char path[] = "/tmp/simt-nvrtc-src-XXXXXX.py";
    int fd = ::mkstemps(path, 3);
    ASSERT_GE(fd, 0);
    ::close(fd);
    std::ofstream(path) << "def k(A):\n    A[0] = undefined_thing\n";
    NvrtcRequest r;
    r.name = "kernel 'k'";
    r.source = std::string("extern \"C\" __global__ void k(double* a) {\n#line 2 \"") + path + "\"\n  a[0] = undefined_thing;\n}\n";
    try {
        compile_for_device(r);
        FAIL() << "expected a compile error";
    } catch (const Error& e) {
        std::string msg = e.what();
        EXPECT_EQ(e.kind(), ErrorKind::Compiler);
        EXPECT_NE(msg.find("NVRTC could not compile kernel 'k' for sm_90"), std::string::npos) << msg;
        EXPECT_NE(msg.find("undefined_thing"), std::string::npos) << msg;
        EXPECT_NE(msg.find(std::string(path) + ":2:     A[0] = undefined_thing"), std::string::npos) << msg;
    }
    ::unlink(path);
}

TEST_F(Nvrtc, LogAnnotationOnlyQuotesExistingPythonFiles) {
    std::string log = "/nonexistent/file.py(3): error: something\nsimt-generated(4): error: other\n";
    EXPECT_EQ(annotate_nvrtc_log(log), "/nonexistent/file.py(3): error: something\nsimt-generated(4): error: other");
}

TEST_F(Nvrtc, BuiltinKernelsCompile) {
    NvrtcRequest r;
    r.source = builtin_kernels_source();
    r.name = "built-in kernels";
    r.extra = {"--fmad=false"};
    std::string ptx = compile_ptx_text(r);
    for (const char* entry : {"simt_fill_u64", "simt_fill_u128", "simt_uniform_f64", "simt_uniform_f32", "simt_normal_f64",
                              "simt_normal_f32", "simt_integers_1", "simt_integers_2", "simt_integers_4", "simt_integers_8"})
        EXPECT_NE(ptx.find(std::string(".entry ") + entry + "("), std::string::npos) << entry;
    // No contraction of `lo + span * u`: the uniform kernels use separate multiply and add.
    size_t begin = ptx.find(".entry simt_uniform_f64("), end = ptx.find(".entry", begin + 1);
    std::string body = ptx.substr(begin, end - begin);
    EXPECT_EQ(body.find("fma.rn.f64"), std::string::npos);
    EXPECT_NE(body.find("mul.rn.f64"), std::string::npos);
    EXPECT_TRUE(is_elf(compile_for_device([&] { r.arch = 90; return r; }()).bytes));
}

TEST_F(Nvrtc, CompilePtxForKernelsAndDeviceFunctions) {
    KernelDefinition d;
    d.name = "k";
    d.source = test::source(kKernels[0]);
    d.resolve = test::standard_names;
    PtxResult k = compile_ptx(d, "void(float32[:], float32[:], float32[:])", false, 80, true);
    EXPECT_EQ(k.return_type, "void");
    EXPECT_NE(k.ptx.find(".target sm_80"), std::string::npos);
    EXPECT_NE(k.ptx.find(".entry k("), std::string::npos);
    EXPECT_NE(k.ptx.find("add.f32"), std::string::npos);  // float32 arrays stay float32

    KernelDefinition f;
    f.name = "add";
    f.source = test::source("def add(a, b):\n    return a * b + 1\n");
    f.resolve = test::standard_names;
    f.device = true;
    PtxResult dev = compile_ptx(f, "(float64, int32)", true, 90, true);
    EXPECT_EQ(dev.return_type, "float64");
    EXPECT_NE(dev.ptx.find(".visible .func  (.param .b64 func_retval0) add("), std::string::npos) << dev.ptx;

    EXPECT_THROW(compile_ptx(d, "int32(float32[:], float32[:], float32[:])", false, 90, true), Error);
    EXPECT_THROW(compile_ptx(f, "int32(float64, int32)", true, 90, true), Error);
}

// The first `good` of kKernels as recorded sources, then one that does not compile.
static std::vector<RecordedCudaSource> good_then_bad_sources(int good) {
    std::vector<RecordedCudaSource> sources;
    for (int i = 0; i < good; ++i) {
        RecordedCudaSource s;
        s.kernel = "ok" + std::to_string(i);
        s.source = cuda_source(kKernels[i], {f64_array(), f64_array(), f64_array()}).full_source;
        sources.push_back(s);
    }
    RecordedCudaSource bad;
    bad.kernel = "bad";
    bad.source = "extern \"C\" __global__ void bad() { this_does_not_compile; }\n";
    sources.push_back(bad);
    return sources;
}

TEST_F(Nvrtc, ParallelCheckReportsEveryFailingKernel) {
    std::vector<RecordedCudaSource> sources = good_then_bad_sources(3);
    // An error that only template instantiation finds: the front-end check must see it too.
    RecordedCudaSource bad_instance;
    bad_instance.kernel = "bad_instance";
    bad_instance.source = "template <class T> __device__ T member_of(T x) { return x.missing_member; }\n"
                          "extern \"C\" __global__ void bad_instance(int* p) { *p = member_of(*p); }\n";
    sources.push_back(bad_instance);
    RecordedCudaSource nocode;
    nocode.kernel = "nocode";
    nocode.codegen_error = "no CUDA spelling for this";
    sources.push_back(nocode);
    for (bool full : {false, true}) {
        SCOPED_TRACE(full ? "full compile" : "front end only");
        NvrtcCheckReport report = check_with_nvrtc(sources, 90, 2, full);
        EXPECT_EQ(report.checked, 6);
        ASSERT_EQ(report.failures.size(), 3u);
        EXPECT_NE(report.failures[0].find("kernel 'bad'"), std::string::npos);
        EXPECT_NE(report.failures[0].find("this_does_not_compile"), std::string::npos);
        EXPECT_NE(report.failures[1].find("kernel 'bad_instance'"), std::string::npos);
        EXPECT_NE(report.failures[1].find("missing_member"), std::string::npos);
        EXPECT_NE(report.failures[2].find("kernel 'nocode': CUDA code generation failed"), std::string::npos);
    }
}

TEST_F(Nvrtc, ProcessesSharingAClaimDirectoryCheckEachSourceOnce) {
    char dir[] = "/tmp/simt-claims-test-XXXXXX";
    ASSERT_NE(::mkdtemp(dir), nullptr);
    std::vector<RecordedCudaSource> sources = good_then_bad_sources(2);
    NvrtcCheckReport first = check_with_nvrtc(sources, 90, 2, false, dir);
    EXPECT_EQ(first.checked, 3);
    EXPECT_EQ(first.claimed_elsewhere, 0);
    ASSERT_EQ(first.failures.size(), 1u);  // the claimant reports the failure
    // A second process with the same kernels finds them all claimed.
    NvrtcCheckReport second = check_with_nvrtc(sources, 90, 2, false, dir);
    EXPECT_EQ(second.checked, 0);
    EXPECT_EQ(second.claimed_elsewhere, 3);
    EXPECT_TRUE(second.failures.empty());
    // Other compile options are another check of the same source.
    sources[0].options.fastmath = true;
    NvrtcCheckReport third = check_with_nvrtc(sources, 90, 2, false, dir);
    EXPECT_EQ(third.checked, 1);
    EXPECT_EQ(third.claimed_elsewhere, 2);
    // Without a claim directory every source is checked.
    EXPECT_EQ(check_with_nvrtc(sources, 90, 2, false).checked, 3);
    std::filesystem::remove_all(dir);
}
