# Seed listing 2.2.2.3 (thread and grid index intrinsics), imports changed to simt. The listing
# shows the kernel; a launch and a check are added so it runs.
import numpy as np
import simt
from simt import cuda

# C = A + B vector addition
@cuda.jit
def vecadd(A, B, C):
    idx = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
    C[idx] = A[idx] + B[idx]

N = 1000
A = simt.random.uniform(-1, 1, N)
B = simt.random.uniform(-1, 1, N)
C = simt.zeros_like(A)
vecadd[(N + 127) // 128, 128](A, B, C)
np.testing.assert_array_almost_equal(C.get(), A.get() + B.get())
print("Thread indexing succeeded")
