"""simt.r_ and simt.c_: NumPy's (and CuPy's) index tricks that build an array by concatenation.
Items are arrays, sequences, scalars and slices (start:stop:step is arange, a complex step
start:stop:Nj is N evenly spaced points, stop included); an optional first string sets the axis,
the minimum number of dimensions and where the original axes go ('0', '1,2', '0,2,-1')."""
import numbers

import numpy as np

from ._creation import asarray
from ._manipulation import arange, concatenate, linspace
from ._ndarray import ndarray


def _range_of(s):
    """The 1-D array a slice item stands for."""
    step, start, stop = s.step, s.start, s.stop
    start = 0 if start is None else start
    if stop is None:
        raise ValueError("r_/c_: a slice needs a stop (start:stop or start:stop:step)")
    if isinstance(step, (complex, np.complexfloating)):
        return linspace(start, stop, num=int(abs(step)))
    return arange(start, stop, 1 if step is None else step)


def _place_axes(a, ndmin, trans1d):
    """a with leading length-1 axes up to ndmin dimensions, its own axes moved to start at
    position trans1d of the result (negative: counted so that -1 keeps them last)."""
    added = ndmin - a.ndim
    if added <= 0:
        return a
    b = a.reshape((1,) * added + a.shape)
    if trans1d == -1:
        return b
    start = trans1d + added + 1 if trans1d < 0 else trans1d
    new, old = list(range(added)), list(range(added, ndmin))
    return b.transpose(new[:start] + old + new[start:])


class AxisConcatenator:
    """Joins the items of an index expression along an axis (NumPy's class behind r_ and c_)."""

    def __init__(self, axis=0, matrix=False, ndmin=1, trans1d=-1):
        self.axis, self.matrix, self.ndmin, self.trans1d = axis, matrix, ndmin, trans1d

    def __getitem__(self, key):
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        items = key if isinstance(key, tuple) else (key,)
        arrays, dtypes = [], []
        for i, item in enumerate(items):
            if isinstance(item, str):
                if i != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    raise NotImplementedError("r_/c_: the 'r' and 'c' directives make a numpy.matrix, which simt "
                                              "does not have")
                try:
                    parts = [int(p) for p in item.split(",")]
                except ValueError:
                    raise ValueError(f"unknown special directive {item!r}") from None
                if len(parts) > 3:
                    raise ValueError(f"unknown special directive {item!r}")
                axis = parts[0]
                if len(parts) > 1:
                    ndmin = parts[1]
                if len(parts) > 2:
                    trans1d = parts[2]
                continue
            if isinstance(item, slice):
                a = _range_of(item)
                if ndmin > 1:
                    a = a.reshape((1,) * (ndmin - 1) + a.shape)
                    if trans1d != -1:
                        a = a.swapaxes(-1, trans1d)
                dtypes.append(a.dtype)
            elif isinstance(item, (numbers.Number, np.generic)) and not isinstance(item, ndarray):
                a = asarray(item).reshape((1,) * ndmin)
                # (a Python number is weak in NumPy 2's promotion; a NumPy scalar has its dtype)
                dtypes.append(item if isinstance(item, (bool, int, float, complex)) else np.asarray(item).dtype)
            else:
                a = item if isinstance(item, ndarray) else asarray(item)
                a = _place_axes(a, ndmin, trans1d)
                dtypes.append(a.dtype)
            arrays.append(a)
        if not arrays:
            return asarray(np.empty(0))
        dt = np.result_type(*dtypes)
        return concatenate([a.astype(dt, copy=False) for a in arrays], axis=axis)

    def __len__(self):
        return 0


class RClass(AxisConcatenator):
    """simt.r_: items joined along the first axis."""

    def __init__(self):
        super().__init__(0)


class CClass(AxisConcatenator):
    """simt.c_: items joined along the last axis, 1-D ones as columns (r_['-1,2,0', ...])."""

    def __init__(self):
        super().__init__(-1, ndmin=2, trans1d=0)


r_ = RClass()
c_ = CClass()
