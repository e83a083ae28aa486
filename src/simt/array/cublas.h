// Matrix products through cuBLAS, loaded at run time with dlopen (libcublas from the CUDA
// toolkit or NVIDIA's wheels). Absent or unusable cuBLAS means "not handled": callers fall back
// to simt's own matmul kernel.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "types/type.h"

namespace simt {

// One operand of a (batched) matrix product: element strides, batch_stride 0 broadcasts.
struct GemmMatrix {
    void* data = nullptr;
    int64_t rows = 0, cols = 0;
    int64_t row_stride = 0, col_stride = 0, batch_stride = 0;
};

struct GemmRequest {
    DType dtype = DType::Float64;  // of a, b and c alike
    int64_t batch = 1;
    GemmMatrix a, b, c;            // c[i] = a[i] @ b[i]
    uintptr_t stream = 0;          // native CUstream (0: legacy default)
};

// Extra library files to try before the system's (e.g. from NVIDIA's pip wheels).
void set_cublas_candidates(const std::vector<std::string>& paths);
// The loaded library's path, or "" when none was found (the search runs once).
std::string cublas_library();
// Runs the request on cuBLAS. Returns false, having done nothing, when cuBLAS is not found or
// cannot take the request (dtype, layout, sizes beyond 32-bit); raises CUDAError on a cuBLAS failure.
bool cublas_gemm(const GemmRequest& request);

}  // namespace simt
