"""Kernels in the kernel language shared by simt and numba-cuda: one source, compiled by each.

The functions below are not decorated; `compile_with(cuda_module, func)` binds their free name `cuda`
to simt.cuda or numba.cuda and jit-compiles them, so both compilers see the same text."""
import types

from numpy import float32

SPIN_STEP = 0.999999  # x -> x*SPIN_STEP + SPIN_ADD: a dependent chain the compiler cannot shorten
SPIN_ADD = 1e-6


def vecadd(A, B, C):  # the seed's kernel
    work_index = cuda.grid(1)  # noqa: F821 (bound by compile_with)
    C[work_index] = A[work_index] + B[work_index]


def scaled_difference(A, B, C):  # a second, different kernel: compile latency of a later one
    i = cuda.grid(1)  # noqa: F821 (bound by compile_with)
    if i < C.size:
        C[i] = 2.0 * A[i] - B[i]


def empty0():
    pass


def empty1(a):
    pass


def empty3(a, b, c):
    pass


def spin(out, iters):
    # Busy for a time proportional to iters; the result is stored so the loop is not removed.
    x = out[0]
    for i in range(iters):
        x = x * SPIN_STEP + SPIN_ADD
    out[0] = x


TPB = 16  # tile width of tiled_matmul: threads per block along x and y


def tiled_matmul(A, B, C):
    # numba's documented shared-memory matrix product: each block stages TPB x TPB tiles of A and
    # B in shared memory, every thread accumulates one element of C.
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)  # noqa: F821
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)  # noqa: F821
    x, y = cuda.grid(2)  # noqa: F821
    tx = cuda.threadIdx.x  # noqa: F821
    ty = cuda.threadIdx.y  # noqa: F821
    bpg = cuda.gridDim.x  # noqa: F821
    tmp = float32(0.0)
    for i in range(bpg):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and tx + i * TPB < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and ty + i * TPB < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]
        cuda.syncthreads()  # noqa: F821
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()  # noqa: F821
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


def launch_tiled_matmul(kernel, a, b, c):
    n = c.shape[0]
    blocks = (n + TPB - 1) // TPB
    kernel[(blocks, blocks), (TPB, TPB)](a, b, c)


def compile_with(cuda_module, func, **options):
    """`func` above with its free name `cuda` bound to `cuda_module`, decorated by its jit."""
    rebound = types.FunctionType(func.__code__, dict(globals(), cuda=cuda_module), func.__name__)
    return cuda_module.jit(rebound, **options)


class Compiled:
    """The kernels above, jit-compiled (lazily, at first launch) by one compiler."""

    def __init__(self, cuda_module):
        def jit(func):
            return compile_with(cuda_module, func)

        self.vecadd = jit(vecadd)
        self.empties = {0: jit(empty0), 1: jit(empty1), 3: jit(empty3)}
        self.spin = jit(spin)
        self.tiled_matmul = jit(tiled_matmul)
        # numba compiles without bounds checks by default (and takes no boundscheck option here);
        # simt masks out-of-range accesses unless told otherwise.
        if cuda_module.__name__.startswith("numba"):
            self.tiled_matmul_unchecked = self.tiled_matmul
        else:
            self.tiled_matmul_unchecked = compile_with(cuda_module, tiled_matmul, boundscheck=False)


def launch_burst(kernel, args, count):
    """`count` launches of kernel[1, 32](*args), written out per arity so the loop costs nothing
    beyond the launch itself."""
    if len(args) == 0:
        for _ in range(count):
            kernel[1, 32]()
    elif len(args) == 1:
        a, = args
        for _ in range(count):
            kernel[1, 32](a)
    else:
        a, b, c = args
        for _ in range(count):
            kernel[1, 32](a, b, c)
