"""Kernel arguments of simt.core.launch as simt's raw-kernel launch path takes them (cuda.core's rules)."""
import ctypes

import numpy as np

from .._ndarray import ndarray
from ._buffer import Buffer

# ctypes scalars as the NumPy scalar of the same C type (the launch path packs NumPy scalars' bytes).
_CTYPES = {ctypes.c_bool: np.bool_, ctypes.c_int8: np.int8, ctypes.c_int16: np.int16, ctypes.c_int32: np.int32,
           ctypes.c_int64: np.int64, ctypes.c_uint8: np.uint8, ctypes.c_uint16: np.uint16,
           ctypes.c_uint32: np.uint32, ctypes.c_uint64: np.uint64, ctypes.c_float: np.float32,
           ctypes.c_double: np.float64}


def kernel_argument(value, index, kernel):
    """`value` as the launch path packs it (cuda.core's rules; docs/core.md)."""
    # A Buffer or device array as a pointer; Python int, float, complex and bool as intptr_t, double,
    # double complex and bool; NumPy and ctypes scalars as their own type.
    if isinstance(value, Buffer):
        if value._memory is None:
            raise RuntimeError(f"argument {index} of kernel '{kernel}' is a closed Buffer")
        return value._memory
    if isinstance(value, (ndarray, bool, int, float, complex, np.generic, np.ndarray)):
        return value  # (a NumPy array is refused by the launch path with how to copy it to the device)
    scalar = _CTYPES.get(type(value))
    if scalar is not None:
        return scalar(value.value)
    from .._interop import device_view
    view = device_view(value)
    if view is None:
        raise TypeError(f"argument {index} of kernel '{kernel}' is a {type(value).__name__}: pass Buffers, device "
                        "arrays, NumPy or ctypes scalars, or Python int (pointer-sized), float, complex or bool")
    return view
