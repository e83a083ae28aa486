"""NumPy views of the cpu backend's device memory (which is host memory), for the few library
calls that hand work to NumPy's compiled code (its BLAS, for matmul), as the cuda backend hands
them to cuBLAS. Callers order such work after the current stream's (see host_call)."""
import ctypes

import numpy as np

from . import _kernelgen as kg


def numpy_view(x):
    """A writable NumPy array over the memory of cpu-backend array `x`: same shape, dtype and
    strides (negative and zero strides too). Valid while x is alive."""
    if kg.backend_kind() != "cpu":
        raise RuntimeError("internal: NumPy views exist only of the cpu backend's arrays")
    shape, strides = x.shape, x.strides
    if x.size == 0:
        return np.empty(shape, x.dtype)
    low = sum(s * (n - 1) for n, s in zip(shape, strides) if s < 0)
    high = sum(s * (n - 1) for n, s in zip(shape, strides) if s > 0) + x.itemsize
    memory = (ctypes.c_char * (high - low)).from_address(x._ptr + low)
    return np.ndarray(shape, x.dtype, buffer=memory, offset=-low, strides=strides)


def host_call(fn, *arrays):
    """fn(*NumPy views of `arrays`) once the current stream's earlier work is done, so that it
    reads what launched kernels wrote and later launches see what it wrote (it runs on the
    calling thread, in stream order by waiting)."""
    kg.current_stream().synchronize()
    return fn(*[numpy_view(a) for a in arrays])
