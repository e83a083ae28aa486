"""CUDA C++ kernels, CuPy's way: RawKernel, ElementwiseKernel and ReductionKernel. The same
program runs on a GPU (NVRTC) and on the cpu backend (the host compiler over simt's CUDA prelude)."""
import numpy as np

import simt as cp

block_sum = cp.RawKernel(r"""
extern "C" __global__ void block_sum(const float* x, float* sums, int n) {
    extern __shared__ float partial[];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    partial[t] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
        if (t < half) partial[t] += partial[t + half];
        __syncthreads();
    }
    if (t == 0) sums[blockIdx.x] = partial[0];
}
""", "block_sum")

squared_diff = cp.ElementwiseKernel("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff")
l2norm = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")

x = cp.random.uniform(-1, 1, 10_000).astype(np.float32)
sums = cp.empty(40, np.float32)
block_sum((40,), (256,), (x, sums, np.int32(x.size)), shared_mem=256 * 4)
assert np.isclose(float(sums.sum()), float(x.sum()), rtol=1e-4)

a = cp.random.uniform(-1, 1, (3, 1000))
d = squared_diff(a, a.mean(axis=1, keepdims=True))        # broadcasting, like any CuPy kernel
norms = l2norm(a, axis=1)
assert np.allclose(cp.asnumpy(norms), np.linalg.norm(cp.asnumpy(a), axis=1))
assert np.allclose(cp.asnumpy(d).sum(axis=1), cp.asnumpy(a).var(axis=1) * 1000)
print("raw CUDA C++ kernels ok on the", cp.backend(), "backend")
