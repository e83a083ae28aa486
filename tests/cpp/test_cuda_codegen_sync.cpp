// The CUDA C++ generated for memory spaces, barriers, atomics (every type), warp and bit
// operations and print compiles for sm_90 with nvcc (no GPU needed; skipped without nvcc).
#include <gtest/gtest.h>
#include <cstdlib>
#include <unistd.h>
#include "codegen/emitter.h"
#include "sema/sema.h"
#include "support/files.h"
#include "types/signature.h"
#include "test_helpers.h"

using namespace simt;

namespace {

GlobalValue kernel_names(const std::string& name) {
    if (name == "print") return GlobalValue::function("print");
    if (name == "TABLE") {  // a float32 NumPy array [1, 2, 3, nan] frozen into constant memory
        GlobalValue g;
        g.kind = GlobalValue::Kind::HostArray;
        g.dtype = DType::Float32;
        g.shape = {4};
        g.bytes = std::string("\0\0\x80\x3f\0\0\0\x40\0\0\x40\x40\0\0\xc0\x7f", 16);
        return g;
    }
    return test::standard_names(name);
}

std::string nvcc_path() {
    std::string p = find_in_path("nvcc");
    if (p.empty() && file_exists("/usr/local/cuda/bin/nvcc")) p = "/usr/local/cuda/bin/nvcc";
    return p;
}

std::string cuda_source(const std::string& text) {
    std::vector<const Type*> types;
    for (const char* t : {"int32[::1]", "float32[::1]", "uint32[::1]", "uint64[::1]", "int64[::1]", "float64[::1]"})
        types.push_back(parse_type(t));
    auto unit = analyze_kernel(test::source(text), kernel_names, types, CompileOptions{});
    return emit_unit(*unit, Target::Cuda).full_source;
}

void expect_nvcc_compiles(const std::string& text, const char* tag) {
    std::string nvcc = nvcc_path();
    if (nvcc.empty()) GTEST_SKIP() << "nvcc not found (install the CUDA toolkit to check the generated CUDA C++)";
    std::string base = std::string("/tmp/simt-cuda-sync-") + tag + "-" + unique_suffix();
    write_file_atomic(base + ".cu", cuda_source(text));
    ProcessResult r = run_process({nvcc, "-arch=sm_90", "-cubin", "-o", base + ".cubin", base + ".cu"});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    ::unlink((base + ".cu").c_str());
    ::unlink((base + ".cubin").c_str());
}

const char* const kMemorySyncAtomics = R"PY(
def k(a, f, u, u64, i64, f64):
    s = cuda.shared.array((8, 4), np.float32)
    d = cuda.shared.array(0, np.int32)
    loc = cuda.local.array(5, np.float64)
    t = cuda.threadIdx.x
    s[t % 8, t % 4] = f[t]
    loc[t % 5] = f64[t]
    cuda.syncthreads()
    n = cuda.syncthreads_count(t > 3) + cuda.syncthreads_and(t > 3) + cuda.syncthreads_or(t > 3)
    cuda.syncwarp()
    cuda.syncwarp(0xffff)
    cuda.threadfence(); cuda.threadfence_block(); cuda.threadfence_system()
    a[t] = cuda.atomic.add(a, t, 1) + cuda.atomic.sub(a, 0, 1) + cuda.atomic.and_(a, 1, 3) + cuda.atomic.or_(a, 1, 3) + cuda.atomic.xor(a, 1, 3)
    a[t] += cuda.atomic.exch(a, 0, 2) + cuda.atomic.max(a, 0, 2) + cuda.atomic.min(a, 0, 2) + cuda.atomic.nanmax(a, 0, 2) + cuda.atomic.nanmin(a, 0, 2)
    a[t] += cuda.atomic.cas(a, 0, 1, 2) + cuda.atomic.compare_and_swap(a, 1, 2) + d[t] + n
    f[t] += cuda.atomic.add(f, 0, 1.0) + cuda.atomic.sub(f, 0, 1.0) + cuda.atomic.max(f, 0, 1.0) + cuda.atomic.min(f, 0, 1.0) + cuda.atomic.nanmax(f, 0, 1.0) + cuda.atomic.nanmin(f, 0, 1.0) + s[1, 1]
    f64[t] += cuda.atomic.add(f64, 0, 1.0) + cuda.atomic.sub(f64, 0, 1.0) + cuda.atomic.max(f64, 0, 1.0) + cuda.atomic.nanmin(f64, 0, 1.0) + loc[2]
    u[t] += cuda.atomic.inc(u, 0, 5) + cuda.atomic.dec(u, 0, 5) + cuda.atomic.add(u, 0, 5) + cuda.atomic.max(u, 0, 5) + cuda.atomic.cas(u, 0, 5, 6) + cuda.atomic.exch(u, 0, 5) + cuda.atomic.sub(u, 0, 1)
    u64[t] += cuda.atomic.inc(u64, 0, 5) + cuda.atomic.dec(u64, 0, 5) + cuda.atomic.add(u64, 0, 5) + cuda.atomic.min(u64, 0, 5) + cuda.atomic.and_(u64, 0, 5) + cuda.atomic.exch(u64, 0, 5) + cuda.atomic.sub(u64, 0, 1)
    i64[t] += cuda.atomic.add(i64, 0, 5) + cuda.atomic.max(i64, 0, 5) + cuda.atomic.min(i64, 0, 5) + cuda.atomic.or_(i64, 0, 5) + cuda.atomic.cas(i64, 0, 5, 3) + cuda.atomic.sub(i64, 0, 1) + cuda.atomic.exch(i64, 0, 1)
    i64[t] += cuda.atomic.add(i64, (0,), 5)
)PY";

const char* const kWarpBitsPrint = R"PY(
def k(a, f, u, u64, i64, f64):
    t = cuda.threadIdx.x
    m = 0xffffffff
    a[t] = cuda.shfl_sync(m, a[t], 3) + cuda.shfl_up_sync(m, a[t], 1) + cuda.shfl_down_sync(m, a[t], 1) + cuda.shfl_xor_sync(m, a[t], 1)
    f[t] = cuda.shfl_sync(m, f[t], 3) + cuda.shfl_xor_sync(m, f[t], 2)
    f64[t] = cuda.shfl_sync(m, f64[t], 3) + cuda.shfl_down_sync(m, f64[t], 2)
    i64[t] = cuda.shfl_sync(m, i64[t], 3) + cuda.shfl_up_sync(m, i64[t], 2)
    u[t] = cuda.shfl_sync(m, u[t], 3)
    u64[t] = cuda.shfl_sync(m, u64[t], 3)
    a[t] += cuda.all_sync(m, t > 2) + cuda.any_sync(m, t > 2) + cuda.eq_sync(m, t > 2) + cuda.ballot_sync(m, t > 2)
    a[t] += cuda.match_any_sync(m, a[t]) + cuda.match_any_sync(m, f64[t]) + cuda.match_any_sync(m, i64[t]) + cuda.match_any_sync(m, f[t])
    mm, p = cuda.match_all_sync(m, f[t])
    a[t] += mm + p + cuda.activemask() + cuda.lanemask_lt() + cuda.laneid
    a[t] += cuda.popc(a[t]) + cuda.clz(a[t]) + cuda.ffs(a[t]) + cuda.popc(i64[t]) + cuda.clz(i64[t]) + cuda.ffs(u64[t]) + cuda.popc(u[t]) + cuda.clz(u[t])
    u[t] = cuda.brev(u[t])
    u64[t] = cuda.brev(u64[t])
    f[t] = cuda.fma(f[t], f[t], f[t]) + cuda.cbrt(f[t])
    f64[t] = cuda.fma(f64[t], f64[t], 1.0) + cuda.cbrt(f64[t]) + TABLE[t % 4] + cuda.const.array_like(TABLE)[0]
    print("hello", t, f[t], u[t], t > 3)
)PY";

TEST(CudaCodegen, MemorySpacesBarriersAndAtomicsCompileForSm90) { expect_nvcc_compiles(kMemorySyncAtomics, "memory"); }

TEST(CudaCodegen, WarpBitOperationsAndPrintCompileForSm90) { expect_nvcc_compiles(kWarpBitsPrint, "warp"); }

}  // namespace
