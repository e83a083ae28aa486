// End-to-end on the cpu backend from C++: source → analysis → C++ → host compiler → launch.
#include <gtest/gtest.h>
#include <cmath>
#include <cstdlib>
#include <random>
#include <algorithm>
#include "array/ndarray.h"
#include "backend/cpu/host_compiler.h"
#include "runtime/dispatcher.h"
#include "runtime/disk_cache.h"
#include "support/error.h"
#include "test_helpers.h"

using namespace simt;

namespace {

class CpuBackend : public ::testing::Test {
protected:
    static void SetUpTestSuite() { test::use_cpu_backend_with_private_cache(); }
};

Dispatcher kernel(const std::string& text, CompileOptions options = {}) {
    KernelDefinition d;
    d.source = test::source(text);
    d.name = "k";
    d.resolve = test::standard_names;
    d.options = options;
    return Dispatcher(d);
}

NdArray device_copy(const std::vector<double>& host) {
    NdArray a = empty_array(DType::Float64, {int64_t(host.size())});
    copy_from_host(a, host.data());
    return a;
}

std::vector<double> host_copy(const NdArray& a) {
    std::vector<double> out(size_t(a.size()));
    copy_to_host(a, out.data());
    return out;
}

std::vector<double> random_vector(size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> dist(-10, 10);
    std::vector<double> v(n);
    for (double& x : v) x = dist(rng);
    return v;
}

void launch(Dispatcher& d, Dim3 grid, Dim3 block, std::vector<const NdArray*> arrays, std::vector<double> scalars = {}) {
    ArgumentPack pack;
    std::vector<const Type*> types;
    for (const NdArray* a : arrays) {
        a->pack_into(pack);
        types.push_back(a->kernel_type());
    }
    for (double s : scalars) {
        pack.add(&s, 8, 8);
        types.push_back(float64_type());
    }
    CompiledKernel& k = d.specialize(types);
    LaunchConfig c;
    c.grid = grid;
    c.block = block;
    backend().launch(*k.loaded, c, pack);
}

}  // namespace

TEST_F(CpuBackend, VectorAddWithoutBoundsCheckingInTheKernel) {
    const size_t n = 1000;  // not a multiple of the block size: the last block runs past the end
    auto ha = random_vector(n, 1), hb = random_vector(n, 2);
    NdArray a = device_copy(ha), b = device_copy(hb), c = device_copy(std::vector<double>(n + 0, 0.0));
    Dispatcher d = kernel("def vecadd(A, B, C):\n    i = cuda.grid(1)\n    C[i] = A[i] + B[i]\n");
    launch(d, {(int64_t(n) + 127) / 128, 1, 1}, {128, 1, 1}, {&a, &b, &c});
    auto hc = host_copy(c);
    for (size_t i = 0; i < n; ++i) ASSERT_DOUBLE_EQ(hc[i], ha[i] + hb[i]) << i;
}

TEST_F(CpuBackend, PythonIntegerAndFloatSemantics) {
    const size_t n = 64;
    auto hx = random_vector(n, 3);
    NdArray x = device_copy(hx), out = device_copy(std::vector<double>(n * 4, 0.0));
    out.shape[0] = int64_t(n);  // view the output as 4 rows of n
    Dispatcher d = kernel(
        "def k(X, O):\n"
        "    i = cuda.grid(1)\n"
        "    v = int(X[i] * 3)\n"
        "    O[i] = v // 7\n"
        "    O[i] += (v % 7) * 1000\n"
        "    O[i] += 1e6 * (X[i] % 2.5)\n");
    launch(d, {1, 1, 1}, {int64_t(n), 1, 1}, {&x, &out});
    auto ho = host_copy(out);
    for (size_t i = 0; i < n; ++i) {
        int64_t v = int64_t(hx[i] * 3);
        int64_t q = v / 7 - ((v % 7 != 0) && ((v < 0) != (7 < 0)));
        int64_t r = v - 7 * q;
        double m = std::fmod(hx[i], 2.5);
        if (m != 0 && (m < 0) != (2.5 < 0)) m += 2.5;
        ASSERT_NEAR(ho[i], double(q) + double(r) * 1000 + 1e6 * m, 1e-6) << "x=" << hx[i];
    }
}

TEST_F(CpuBackend, BoundsCheckReportsKernelLineIndexAndShape) {
    NdArray a = device_copy(random_vector(10, 4));
    CompileOptions o;
    o.bounds = BoundsMode::Checked;
    Dispatcher d = kernel("def k(A):\n    i = cuda.grid(1)\n    A[i] = 1.0\n", o);
    launch(d, {1, 1, 1}, {32, 1, 1}, {&a});
    try {
        backend().synchronize();
        FAIL() << "expected IndexError";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Index);
        std::string msg = e.what();
        EXPECT_NE(msg.find("out of bounds for axis 0 with size 10"), std::string::npos) << msg;
        EXPECT_NE(msg.find("kernel 'k' at /tmp/simt_test_kernel.py:3"), std::string::npos) << msg;
        EXPECT_NE(msg.find("array 'A' of shape (10,)"), std::string::npos) << msg;
    }
    backend().synchronize();  // the error is reported once; the device keeps working
}

TEST_F(CpuBackend, InvalidLaunchRaisesTheDriversError) {
    NdArray a = device_copy(random_vector(8, 5));
    Dispatcher d = kernel("def k(A):\n    A[0] = 1.0\n");
    try {
        launch(d, {1, 1, 1}, {2048, 1, 1}, {&a});
        FAIL();
    } catch (const CudaError& e) {
        EXPECT_STREQ(e.what(), "CUDA_ERROR_INVALID_VALUE: This indicates that one or more of the parameters passed to the API "
                               "call is not within an acceptable range of values.");
    }
    EXPECT_THROW(launch(d, {0, 1, 1}, {32, 1, 1}, {&a}), CudaError);
    launch(d, {1, 1, 1}, {1, 1, 1}, {&a});  // still usable
    EXPECT_EQ(host_copy(a)[0], 1.0);
}

TEST_F(CpuBackend, SecondLoadComesFromMemoryOrDisk) {
    int64_t compiled = compile_counters().compiled;
    NdArray a = device_copy(random_vector(4, 6));
    Dispatcher d1 = kernel("def k(A):\n    A[1] = 7.0\n");
    launch(d1, {1, 1, 1}, {1, 1, 1}, {&a});
    Dispatcher d2 = kernel("def k(A):\n    A[1] = 7.0\n");
    launch(d2, {1, 1, 1}, {1, 1, 1}, {&a});
    EXPECT_EQ(compile_counters().compiled, compiled + 1);
    EXPECT_EQ(host_copy(a)[1], 7.0);
}

TEST_F(CpuBackend, HostFlagsKeepRoundingAndNameTheVectorExtensions) {
    auto has = [](const std::vector<std::string>& flags, const char* f) {
        return std::find(flags.begin(), flags.end(), f) != flags.end();
    };
    CompileOptions plain, fast;
    fast.fastmath = true;
    std::vector<std::string> p = host_compile_flags(plain), f = host_compile_flags(fast);
    EXPECT_TRUE(has(p, "-ffp-contract=off"));
    EXPECT_FALSE(has(f, "-ffp-contract=off"));
    EXPECT_TRUE(has(f, "-ffp-contract=fast"));
#if defined(__x86_64__)
    const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi") &&
                      __builtin_cpu_supports("bmi2");
    EXPECT_EQ(has(p, "-mavx2"), avx2);
    EXPECT_EQ(has(p, "-mfma"), avx2);
#endif
    for (const std::string& flag : p) EXPECT_NE(flag, "-march=native");  // the flags must say what the code needs
}

TEST_F(CpuBackend, MultiplyAddRoundsTwiceAsNumPyDoes) {
    // With FMA instructions available a compiler may fuse a * b + c into one rounding; NumPy rounds
    // the product and the sum separately, and so must a kernel without fastmath.
    const size_t n = 4096;
    auto ha = random_vector(n, 11), hb = random_vector(n, 12), hc = random_vector(n, 13);
    NdArray a = device_copy(ha), b = device_copy(hb), c = device_copy(hc), out = device_copy(std::vector<double>(n, 0.0));
    Dispatcher d = kernel("def k(A, B, C, O):\n    i = cuda.grid(1)\n    if i < O.size:\n        O[i] = A[i] * B[i] + C[i]\n");
    launch(d, {int64_t(n) / 128, 1, 1}, {128, 1, 1}, {&a, &b, &c, &out});
    auto ho = host_copy(out);
    size_t fused_differs = 0;
    for (size_t i = 0; i < n; ++i) {
        volatile double product = ha[i] * hb[i];  // rounded here, whatever this file's flags
        ASSERT_EQ(ho[i], product + hc[i]) << i;
        fused_differs += std::fma(ha[i], hb[i], hc[i]) != product + hc[i];
    }
    EXPECT_GT(fused_differs, 0u);  // the data tells the two apart
}
