"""NumPy's questions about dtypes and shapes (result_type, can_cast, promote_types, finfo,
iinfo, isscalar, ndim, shape, size): answered by NumPy from a simt array's dtype or shape, so no
data moves."""
import math

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from ._ndarray import ndarray

promote_types = np.promote_types
isscalar = np.isscalar  # (a simt array, even 0-d, is not a scalar, as a NumPy array is not)


def _dtype_of(x):
    return x.dtype if isinstance(x, ndarray) else x


def result_type(*arrays_and_dtypes):
    """The dtype NumPy's promotion gives these arrays, dtypes and scalars."""
    return np.result_type(*map(_dtype_of, arrays_and_dtypes))


def can_cast(from_, to, casting="safe"):
    """Whether NumPy's `casting` rule allows a cast from `from_` (a dtype or an array's dtype)."""
    return np.can_cast(_dtype_of(from_), to, casting)


def finfo(dtype):
    """Machine limits of a float dtype (or of a simt array's dtype)."""
    return np.finfo(_dtype_of(dtype))


def iinfo(int_type):
    """Machine limits of an integer dtype (or of a simt array's dtype)."""
    return np.iinfo(_dtype_of(int_type))


def ndim(a):
    return a.ndim if isinstance(a, ndarray) else np.ndim(a)


def shape(a):
    return tuple(a.shape) if isinstance(a, ndarray) else np.shape(a)


def size(a, axis=None):
    """Number of elements (along `axis`: an int or a tuple of ints)."""
    if not isinstance(a, ndarray):
        return np.size(a, axis)
    if axis is None:
        return a.size
    return math.prod(a.shape[ax] for ax in normalize_axis_tuple(axis, a.ndim))


def common_type(*arrays):
    """The inexact scalar type NumPy's common_type gives arrays of these dtypes (simt's or NumPy's)."""
    return np.common_type(*(np.empty(0, a.dtype) if isinstance(a, ndarray) else a for a in arrays))
