"""simt: CUDA Python with a C++ engine.

SIMT kernels written in Python (simt.cuda.jit) and CuPy-style device arrays, on an NVIDIA GPU
(cuda backend) or on the host's cores (cpu backend), with the same results on both."""
import builtins as _builtins

import numpy as _np

from . import _dtypes, _simt

_simt._set_dtypes(_dtypes.SUPPORTED)
# Where NVIDIA's wheels (NVRTC) may be installed, for the pathfinder; set before the backend is chosen.
_simt._set_site_packages([_p for _p in __import__("sys").path if _p.endswith(("site-packages", "dist-packages"))])
_simt.select_default_backend()
# NVRTC cubins being made in the background for the disk cache (kernels the NVVM IR path loaded)
# are finished, or dropped, before the interpreter and the C++ statics they use go away.
__import__("atexit").register(_simt._finish_cubin_backfill)

from . import cuda, pathfinder, random  # noqa: E402
from ._creation import (array, asarray, asnumpy, empty, empty_like, full, full_like, ones, ones_like,  # noqa: E402
                        zeros, zeros_like)
from ._ndarray import ndarray  # noqa: E402
from . import _ndarray_protocols  # noqa: E402,F401  (format, pickle, copy, .data, .view)
from .cuda import get_default_memory_pool, get_default_pinned_memory_pool  # noqa: E402
from ._ufuncs import *  # noqa: E402,F401,F403  (simt.add, simt.sqrt, ..., simt.where, simt.clip, simt.round)
from . import _ufunc_methods, _ufunc_reduceat  # noqa: E402,F401  (ufunc.reduce, accumulate, outer, at, reduceat)
from ._manipulation import (arange, ascontiguousarray, asfortranarray, astype, atleast_1d, atleast_2d,  # noqa: E402
                            atleast_3d, broadcast_arrays, broadcast_shapes, broadcast_to, column_stack, concatenate,
                            copy, dstack, expand_dims, eye, hstack, identity, imag, linspace, moveaxis, ravel,
                            real, reshape, squeeze, stack, swapaxes, transpose, vstack)
from ._fusion import fuse, vectorize  # noqa: E402
from ._gufunc import guvectorize  # noqa: E402
from ._raw_kernels import RawKernel, RawModule  # noqa: E402
from ._elementwise_kernel import ElementwiseKernel  # noqa: E402
from ._reduction_kernel import ReductionKernel  # noqa: E402
from ._reductions import (all, amax, amin, any, argmax, argmin, max, mean, min, prod, std, sum,  # noqa: E402
                          var)
from ._scan import cumprod, cumsum  # noqa: E402
from ._matmul import dot, matmul, outer  # noqa: E402
from ._interop import from_dlpack, fromDlpack  # noqa: E402
from ._selection import (argwhere, compress, count_nonzero, extract, flatnonzero, nonzero, put,  # noqa: E402
                         take)
from ._rearrange import flip, fliplr, flipud, repeat, roll, tile  # noqa: E402
from ._nan_reductions import (nanargmax, nanargmin, nanmax, nanmean, nanmin, nanprod, nanstd, nansum,  # noqa: E402
                              nanvar)
from ._statistics import average, ptp  # noqa: E402
from ._matrix_shapes import diag, diagonal, trace, tril, triu  # noqa: E402
from ._splitting import array_split, dsplit, hsplit, split, vsplit  # noqa: E402
from ._comparison import allclose, array_equal, isclose  # noqa: E402
from ._differences import diff  # noqa: E402
from ._grids import meshgrid, mgrid, ogrid  # noqa: E402
from ._float_parts import frexp, modf, nan_to_num  # noqa: E402
from ._copyto import copyto  # noqa: E402
from ._histograms import bincount, digitize, histogram, interp  # noqa: E402
from ._covariance import corrcoef, cov  # noqa: E402
from ._dtype_queries import (can_cast, finfo, iinfo, isscalar, ndim, promote_types, result_type,  # noqa: E402
                             shape, size)
from ._sorting import argpartition, argsort, lexsort, partition, sort  # noqa: E402
from ._searchsorted import searchsorted  # noqa: E402
from ._unique import unique  # noqa: E402
from ._quantiles import median, nanmedian, nanpercentile, nanquantile, percentile, quantile  # noqa: E402
from ._einsum import einsum  # noqa: E402
from ._convolve import convolve, correlate  # noqa: E402
from ._numpy_extras import (acos, acosh, angle, append, asin, asinh, atan, atan2, atanh,  # noqa: E402
                            bitwise_invert, bitwise_left_shift, bitwise_right_shift, concat, cross, delete,
                            fix, geomspace, indices, inner, isin, ix_, kron, logspace, pad, permute_dims,
                            polyval, pow, ravel_multi_index, resize, rot90, setdiff1d, sinc, take_along_axis,
                            tensordot, tri, unravel_index, vdot)
from ._numpy_extras2 import *  # noqa: E402,F401,F403  (choose ... roots: NumPy's second batch, _numpy_extras2/3.py)
from . import _array_function, _dtype_queries, _interop, _matmul, _reductions, _selection, _sorting  # noqa: E402
from ._numpy_extras5 import broadcast, diagflat, require, trapz  # noqa: E402
from ._histogramdd import histogramdd  # noqa: E402
from ._index_tricks import c_, r_  # noqa: E402
from ._npy_files import load, save, savez, savez_compressed  # noqa: E402
# (the poly* functions again: their forms that take and give poly1d objects)
from ._poly1d import poly1d, polyadd, polyder, polyint, polymul, polysub, polyval, roots  # noqa: E402,F811
from ._ndarray_extras import flatiter  # noqa: E402  (ndarray.flat, .mT, tobytes, tofile, dump(s), choose)
from . import fft, lib, linalg, testing  # noqa: E402,F401
from ._runtime_info import clear_memo, is_available, memoize, show_config  # noqa: E402
from .linalg import matrix_transpose, vecdot  # noqa: E402,F401  (NumPy 2's top-level names)

_reductions._attach_methods(ndarray)
_matmul._attach_methods(ndarray)
_interop._attach_methods(ndarray)
_array_function._attach_methods(ndarray)
_selection._attach_methods(ndarray)
_sorting.attach_methods(ndarray)
for _fn in (repeat, trace, ptp):  # (ndarray.ptp: gone from NumPy 2, kept by CuPy)
    setattr(ndarray, _fn.__name__, _selection._method(_fn))

__version__ = "0.1.0"

bool_ = _np.bool_
int8, int16, int32, int64 = _np.int8, _np.int16, _np.int32, _np.int64
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
float16, float32, float64 = _np.float16, _np.float32, _np.float64
complex64, complex128 = _np.complex64, _np.complex128
dtype = _np.dtype
# NumPy's other names for these types and its abstract type classes (CuPy exports them too).
intp, uintp, intc, uintc, int_, uint = _np.intp, _np.uintp, _np.intc, _np.uintc, _np.int_, _np.uint
byte, ubyte, short, ushort, longlong, ulonglong = _np.byte, _np.ubyte, _np.short, _np.ushort, _np.longlong, _np.ulonglong
half, single, double, csingle, cdouble = _np.half, _np.single, _np.double, _np.csingle, _np.cdouble
float_, complex_ = _np.float64, _np.complex128  # (NumPy 1's names, removed in NumPy 2, kept by CuPy)
generic, number, integer, signedinteger, unsignedinteger = (_np.generic, _np.number, _np.integer, _np.signedinteger,
                                                             _np.unsignedinteger)
inexact, floating, complexfloating = _np.inexact, _np.floating, _np.complexfloating
issubdtype, common_type, mintypecode, typename = (_np.issubdtype, _dtype_queries.common_type, _np.mintypecode,
                                                  _np.typename)
# Index helpers that make no arrays (CuPy takes NumPy's).
s_, index_exp, ndindex = _np.s_, _np.index_exp, _np.ndindex

# NumPy's (and CuPy's) constants.
nan, inf, pi, e, euler_gamma = _np.nan, _np.inf, _np.pi, _np.e, _np.euler_gamma
newaxis = None


def backend():
    """The active backend: 'cuda' or 'cpu' (chosen by SIMT_BACKEND, else cuda when a GPU is usable)."""
    return _simt.backend_name()


def synchronize():
    """Wait until all queued device work has finished (cupy.cuda.Device().synchronize())."""
    _simt.synchronize()


def get_array_module(*args):
    """simt if any argument is a simt array, else numpy."""
    import sys
    # (builtins.any: simt.any, the reduction, shadows the builtin in this module)
    return sys.modules[__name__] if _builtins.any(isinstance(a, ndarray) for a in args) else _np


def __getattr__(name):
    if name == "rand":
        raise AttributeError("module 'simt' has no attribute 'rand'; random numbers live in simt.random "
                             "(e.g. simt.random.random(shape) or simt.random.rand(*shape))")
    raise AttributeError(f"module 'simt' has no attribute '{name}'")
