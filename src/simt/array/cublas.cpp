// cuBLAS through dlopen: the few declarations simt needs, a handle per device, and the mapping
// of row-major / column-major strided operands onto cublasGemmStridedBatchedEx.
#include "array/cublas.h"
#include <dlfcn.h>
#include <climits>
#include <map>
#include <mutex>
#include "support/error.h"

namespace simt {

namespace {

// Our own declarations of the cuBLAS ABI (cublas_api.h, library_types.h).
using Handle = void*;
enum Operation : int { kOpN = 0, kOpT = 1 };
enum CudaDataType : int { kR16F = 2, kR32F = 0, kR64F = 1, kC32F = 4, kC64F = 5 };
enum ComputeType : int { kCompute32F = 68, kCompute64F = 70 };
constexpr int kGemmDefault = -1;
using CreateFn = int (*)(Handle*);
using DestroyFn = int (*)(Handle);
using SetStreamFn = int (*)(Handle, void*);
using GemmStridedBatchedExFn = int (*)(Handle, int, int, int, int, int, const void*, const void*, int, int, long long,
                                       const void*, int, int, long long, const void*, void*, int, int, long long, int,
                                       int, int);

struct Api {
    void* library = nullptr;
    std::string path;
    CreateFn create = nullptr;
    DestroyFn destroy = nullptr;
    SetStreamFn set_stream = nullptr;
    GemmStridedBatchedExFn gemm = nullptr;
};

std::mutex g_mutex;
std::vector<std::string> g_candidates;
Api* g_api = nullptr;
bool g_searched = false;
std::map<void*, Handle> g_handles;  // per CUDA context, created on first use

Api* load_api() {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_searched) return g_api;
    g_searched = true;
    std::vector<std::string> names = g_candidates;
    for (const char* n : {"libcublas.so.13", "libcublas.so.12", "libcublas.so.11", "/usr/local/cuda/lib64/libcublas.so"})
        names.push_back(n);
    for (const std::string& name : names) {
        void* lib = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!lib) continue;
        auto api = new Api();
        api->library = lib;
        api->path = name;
        api->create = reinterpret_cast<CreateFn>(::dlsym(lib, "cublasCreate_v2"));
        api->destroy = reinterpret_cast<DestroyFn>(::dlsym(lib, "cublasDestroy_v2"));
        api->set_stream = reinterpret_cast<SetStreamFn>(::dlsym(lib, "cublasSetStream_v2"));
        api->gemm = reinterpret_cast<GemmStridedBatchedExFn>(::dlsym(lib, "cublasGemmStridedBatchedEx"));
        if (api->create && api->destroy && api->set_stream && api->gemm) {
            g_api = api;
            return g_api;
        }
        ::dlclose(lib);
        delete api;
    }
    return nullptr;
}

// The current CUDA context, through the driver already loaded by the cuda backend (handles
// are per context; cuBLAS shares the primary context the backend makes current).
void* current_context() {
    using GetCtx = int (*)(void**);
    static GetCtx get = reinterpret_cast<GetCtx>(::dlsym(RTLD_DEFAULT, "cuCtxGetCurrent"));
    if (!get) {
        void* driver = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
        if (driver) get = reinterpret_cast<GetCtx>(::dlsym(driver, "cuCtxGetCurrent"));
    }
    void* ctx = nullptr;
    if (get) get(&ctx);
    return ctx;
}

[[noreturn]] void cublas_failure(const char* what, int status) {
    throw Error(ErrorKind::Cuda, format("CUBLAS_STATUS %d: %s failed", status, what));
}

// A column-major matrix for cuBLAS: the operation that presents `m` as its rows x cols, and its
// leading dimension. False when neither dimension is unit-stride.
bool as_column_major(const GemmMatrix& m, int& op, int64_t& ld) {
    int64_t rows = m.rows > 0 ? m.rows : 1, cols = m.cols > 0 ? m.cols : 1;
    if (m.rows == 1 || m.row_stride == 1) {  // column-major: element (i, j) at i + j * ld
        op = kOpN;
        ld = m.cols == 1 ? rows : m.col_stride;
        if (ld >= rows) return true;
    }
    if (m.cols == 1 || m.col_stride == 1) {  // row-major: the column-major transpose
        op = kOpT;
        ld = m.rows == 1 ? cols : m.row_stride;
        if (ld >= cols) return true;
    }
    return false;
}

GemmMatrix transposed(const GemmMatrix& m) {
    GemmMatrix t = m;
    t.rows = m.cols;
    t.cols = m.rows;
    t.row_stride = m.col_stride;
    t.col_stride = m.row_stride;
    return t;
}

bool fits_int(int64_t v) { return v >= 0 && v <= INT_MAX; }

}  // namespace

void set_cublas_candidates(const std::vector<std::string>& paths) {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!g_searched) g_candidates = paths;
}

std::string cublas_library() {
    Api* api = load_api();
    return api ? api->path : std::string();
}

bool cublas_gemm(const GemmRequest& r) {
    int type, compute;
    switch (r.dtype) {
        case DType::Float16: type = kR16F; compute = kCompute32F; break;
        case DType::Float32: type = kR32F; compute = kCompute32F; break;
        case DType::Float64: type = kR64F; compute = kCompute64F; break;
        case DType::Complex64: type = kC32F; compute = kCompute32F; break;
        case DType::Complex128: type = kC64F; compute = kCompute64F; break;
        default: return false;  // integer and bool products use simt's kernel
    }
    // cuBLAS writes a column-major C; a row-major C is the column-major C^T = B^T A^T.
    GemmMatrix x = r.a, y = r.b, c = r.c;
    int op_c;
    int64_t ldc;
    if (!as_column_major(c, op_c, ldc)) return false;
    if (op_c == kOpT) {
        x = transposed(r.b);
        y = transposed(r.a);
        c = transposed(r.c);
        if (!as_column_major(c, op_c, ldc) || op_c != kOpN) return false;
    }
    int op_x, op_y;
    int64_t ldx, ldy;
    if (!as_column_major(x, op_x, ldx) || !as_column_major(y, op_y, ldy)) return false;
    int64_t m = c.rows, n = c.cols, k = x.cols;
    for (int64_t v : {m, n, k, ldx, ldy, ldc, r.batch}) if (!fits_int(v)) return false;
    if (x.batch_stride < 0 || y.batch_stride < 0 || c.batch_stride < 0) return false;
    if (m == 0 || n == 0 || r.batch == 0) return true;
    if (k == 0) return false;  // C = 0: the kernel writes the zeros
    Api* api = load_api();
    if (!api) return false;
    void* ctx = current_context();
    if (!ctx) return false;
    Handle handle;
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        auto it = g_handles.find(ctx);
        if (it == g_handles.end()) {
            Handle h = nullptr;
            int status = api->create(&h);
            if (status != 0) return false;  // e.g. no usable device for the runtime: use the kernel
            it = g_handles.emplace(ctx, h).first;
        }
        handle = it->second;
    }
    if (int s = api->set_stream(handle, reinterpret_cast<void*>(r.stream)); s != 0) cublas_failure("cublasSetStream", s);
    double one[2] = {1, 0}, zero[2] = {0, 0};
    float one_f[2] = {1, 0}, zero_f[2] = {0, 0};
    bool single = compute == kCompute32F;
    const void* alpha = single ? static_cast<const void*>(one_f) : one;
    const void* beta = single ? static_cast<const void*>(zero_f) : zero;
    int s = api->gemm(handle, op_x, op_y, int(m), int(n), int(k), alpha, x.data, type, int(ldx), x.batch_stride, y.data, type,
                      int(ldy), y.batch_stride, beta, c.data, type, int(ldc), c.batch_stride, int(r.batch), compute,
                      kGemmDefault);
    if (s != 0) cublas_failure("cublasGemmStridedBatchedEx", s);
    return true;
}

}  // namespace simt
