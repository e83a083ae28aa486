"""Kernels in the kernel language shared by simt and numba-cuda: one source, compiled by each.

The functions below are not decorated; `compile_with(cuda_module, func)` binds their free name `cuda`
to simt.cuda or numba.cuda and jit-compiles them, so both compilers see the same text."""
import types

SPIN_STEP = 0.999999  # x -> x*SPIN_STEP + SPIN_ADD: a dependent chain the compiler cannot shorten
SPIN_ADD = 1e-6


def vecadd(A, B, C):  # the seed's kernel
    work_index = cuda.grid(1)  # noqa: F821 (bound by compile_with)
    C[work_index] = A[work_index] + B[work_index]


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
