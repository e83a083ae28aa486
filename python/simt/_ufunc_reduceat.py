"""ufunc.reduceat (NumPy's and CuPy's): the fold of each run [indices[i], indices[i+1]) of an
axis (a[indices[i]] alone where the next index is not larger; the last run goes to the end).
One generated kernel, one thread per output element, folding its run in order."""
import operator

import numpy as np

from . import _kernelgen as kg
from . import _simt
from ._ndarray import ndarray

ufunc = _simt.ufunc

# Each ufunc's fold of the running value x and the next element y (inputs already in the result's
# dtype; the logical ones as booleans). max/min keep a NaN, fmax/fmin drop it, as NumPy's do.
_FOLDS = {"add": "x + y", "subtract": "x - y", "multiply": "x * y",
          "maximum": "x if x > y or x != x else y", "minimum": "x if x < y or x != x else y",
          "fmax": "y if x < y or x != x else x", "fmin": "y if x > y or x != x else x",
          "bitwise_and": "x & y", "bitwise_or": "x | y", "bitwise_xor": "x ^ y",
          "logical_and": "x & y", "logical_or": "x | y", "logical_xor": "x ^ y"}
_ORDERED = ("maximum", "minimum", "fmax", "fmin")


def _source(name, dt):
    t = kg.type_name(dt)
    return (f"def simt_reduceat(src, idx, out, n, k, width):\n"
            f"    t = cuda.grid(1)\n"
            f"    if t < k * width:\n"
            f"        i = t // width\n"
            f"        c = t - i * width\n"
            f"        start = idx[i]\n"
            f"        stop = n\n"
            f"        if i + 1 < k:\n"
            f"            stop = idx[i + 1]\n"
            f"        acc = src[start * width + c]\n"
            f"        for j in range(start + 1, stop):\n"
            f"            x = acc\n"
            f"            y = src[j * width + c]\n"
            f"            acc = {t}({_FOLDS[name]})\n"
            f"        out[t] = acc\n")


def _indices(indices, n, name):
    """The run starts as an int64 device array, each checked to lie in [0, n) (NumPy's IndexError;
    a device array of them is checked with one wait for the device)."""
    from ._creation import asarray
    from ._selection import flatnonzero, take
    if isinstance(indices, ndarray):
        idx = indices
    else:
        host = np.asarray(indices)
        if host.dtype.kind not in "iu" and host.size:
            raise TypeError(f"{name}.reduceat: indices must be integers, not {host.dtype}")
        if host.ndim > 1:
            raise ValueError(f"{name}.reduceat: indices must be 1-D (got shape {host.shape})")
        bad = host[(host < 0) | (host >= n)] if host.size else host
        if bad.size:
            raise IndexError(f"index {int(bad[0])} out-of-bounds in {name}.reduceat [0, {n})")
        return asarray(host.astype(np.int64).reshape(-1))
    if idx.dtype.kind not in "iu":
        raise TypeError(f"{name}.reduceat: indices must be integers, not {idx.dtype}")
    if idx.ndim != 1:
        raise ValueError(f"{name}.reduceat: indices must be 1-D (got shape {idx.shape})")
    idx = idx.astype(np.int64)
    bad = flatnonzero((idx < 0) | (idx >= n))
    if bad.size:
        raise IndexError(f"index {int(take(idx, bad[:1]).get()[0])} out-of-bounds in {name}.reduceat [0, {n})")
    return idx


def _reduceat(self, array, indices, axis=0, dtype=None, out=None):
    """For each i: the fold of array[indices[i]:indices[i+1]] along `axis` with this ufunc, or
    array[indices[i]] where indices[i] >= indices[i+1] (the last run reaches the end)."""
    from ._creation import empty
    from ._manipulation import _device_array, moveaxis
    name = self.__name__
    if name not in _FOLDS:
        raise TypeError(f"simt.{name}.reduceat is not supported; simt has reduceat for {', '.join(sorted(_FOLDS))}")
    a = _device_array(array, f"{name}.reduceat's argument")
    if a.ndim == 0:
        raise TypeError(f"{name}.reduceat: cannot reduceat a 0-d array (it has no axis)")
    ax = _simt._normalize_axis(operator.index(axis), a.ndim)
    # The result's dtype by NumPy's own rules (add of small integers widens, logical ops give bools, ...).
    probe = getattr(np, name).reduceat(np.zeros(1, a.dtype), [0], dtype=dtype)
    dt = probe.dtype
    if name in _ORDERED and dt.kind == "c":
        raise TypeError(f"simt.{name}.reduceat does not order complex numbers")
    n = a.shape[ax]
    idx = _indices(indices, n, name)
    k = idx.shape[0]
    moved = moveaxis(a, ax, 0)
    rest = moved.shape[1:]
    src = moved.astype(dt, order="C")  # (a contiguous copy in the dtype folded)
    width = src.size // n if n else 0
    res = empty((k,) + rest, dt)
    if res.size:
        kern = kg.kernel("simt_reduceat", _source(name, dt))
        kg.launch_1d(kern, res.size, kg.flat(src), idx, kg.flat(res), n, k, width)
    res = moveaxis(res, 0, ax)
    if out is not None:
        if not isinstance(out, ndarray):
            raise TypeError(f"{name}.reduceat: out must be a simt array")
        if out.shape != res.shape:
            raise ValueError(f"{name}.reduceat: out has shape {out.shape}, the result has shape {res.shape}")
        out[...] = res
        return out
    return res


ufunc.reduceat = _reduceat
