"""NumPy views of the cpu backend's device memory (which is host memory), for the library calls
that hand work to NumPy's compiled code (its BLAS for matmul, as the cuda backend hands that to
cuBLAS; its LAPACK for simt.linalg, its FFT for simt.fft). Callers order such work after the
current stream's (see host_call)."""
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


def host_results(fname, fn, *arrays):
    """fn(NumPy arrays holding `arrays`' values) with its results as new simt arrays (tuples and
    NumPy's named result tuples keep their type): simt.linalg's LAPACK calls and simt.fft. On
    the cpu backend fn reads the arrays' own memory; on the cuda backend, copies on the host."""
    from ._creation import asarray
    from ._reduce_passes import require_array
    arrays = [require_array(a, fname) for a in arrays]
    if kg.backend_kind() == "cpu":
        result = host_call(fn, *arrays)
    else:
        result = fn(*[a.get() for a in arrays])

    def back(r):
        return asarray(r) if isinstance(r, (np.ndarray, np.generic)) else r
    if isinstance(result, tuple):
        items = [back(r) for r in result]
        return type(result)(*items) if hasattr(result, "_fields") else tuple(items)
    return back(result)
