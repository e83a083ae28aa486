"""The dtypes simt supports, in the order of the C++ DType enum (src/simt/types/type.h)."""
import numpy as np

SUPPORTED = [
    np.dtype(np.bool_), np.dtype(np.int8), np.dtype(np.int16), np.dtype(np.int32), np.dtype(np.int64),
    np.dtype(np.uint8), np.dtype(np.uint16), np.dtype(np.uint32), np.dtype(np.uint64),
    np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64),
    np.dtype(np.complex64), np.dtype(np.complex128),
]

DEFAULT_FLOAT = np.dtype(np.float64)


_checked = {}  # dtype-like objects (np.float32, "f4", np.dtype(...)) already normalized


def normalize(dtype, default=DEFAULT_FLOAT):
    """np.dtype of `dtype` (None means `default`), checked against what simt supports."""
    if dtype is None:
        dtype = default
    try:
        return _checked[dtype]
    except (KeyError, TypeError):  # TypeError: an unhashable dtype-like
        pass
    dt = np.dtype(dtype)
    if dt.byteorder == ">":
        raise TypeError(f"simt arrays are little-endian; got the big-endian dtype {dt}")
    dt = dt.newbyteorder("=") if dt.byteorder not in ("=", "|") else dt
    if dt not in SUPPORTED:
        raise TypeError(f"simt does not support the data type {dt}")
    try:
        _checked[dtype] = dt
    except TypeError:
        pass
    return dt
