// cuBLAS through dlopen (array/cublas.h): found or not, it never fails where it cannot run, and
// declines requests it cannot take so that simt's kernel computes them.
#include <gtest/gtest.h>
#include <dlfcn.h>
#include "array/cublas.h"

using namespace simt;

namespace {

GemmRequest request(DType dtype) {
    static double a[6], b[6], c[4];
    GemmRequest r;
    r.dtype = dtype;
    r.a = {a, 2, 3, 3, 1, 0};
    r.b = {b, 3, 2, 2, 1, 0};
    r.c = {c, 2, 2, 2, 1, 0};
    return r;
}

TEST(Cublas, LibrarySearchNeverFails) {
    std::string path = cublas_library();  // "" without a CUDA toolkit or NVIDIA wheel
    if (!path.empty()) EXPECT_NE(path.find("cublas"), std::string::npos);
}

TEST(Cublas, IntegerAndBoolProductsAreLeftToTheKernel) {
    for (DType d : {DType::Bool, DType::Int8, DType::Int32, DType::Int64, DType::UInt64})
        EXPECT_FALSE(cublas_gemm(request(d))) << dtype_name(d);
}

TEST(Cublas, OperandsWithoutAUnitStrideAreLeftToTheKernel) {
    GemmRequest r = request(DType::Float64);
    r.a.row_stride = 6;
    r.a.col_stride = 2;  // every other column: neither row- nor column-major
    EXPECT_FALSE(cublas_gemm(r));
    r = request(DType::Float64);
    r.b.batch_stride = -6;
    EXPECT_FALSE(cublas_gemm(r));
}

bool cuda_context_current() {
    using GetCtx = int (*)(void**);
    auto get = reinterpret_cast<GetCtx>(::dlsym(RTLD_DEFAULT, "cuCtxGetCurrent"));
    void* ctx = nullptr;
    return get && get(&ctx) == 0 && ctx;
}

TEST(Cublas, WithoutACudaContextNothingRuns) {
    // Without a GPU there is no current CUDA context, so even with libcublas installed the
    // request (host pointers here) is declined instead of calling into cuBLAS.
    if (cuda_context_current()) GTEST_SKIP() << "a CUDA context is current (GPU machine): the GPU suite tests cuBLAS";
    EXPECT_FALSE(cublas_gemm(request(DType::Float32)));
    EXPECT_FALSE(cublas_gemm(request(DType::Complex128)));
}

}  // namespace
