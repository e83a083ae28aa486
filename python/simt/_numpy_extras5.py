"""NumPy's and CuPy's diagflat, broadcast (the object), require and trapz (NumPy 1's name of
trapezoid, which CuPy keeps)."""
import numbers

import numpy as np

from ._creation import asarray
from ._manipulation import broadcast_shapes, broadcast_to
from ._matrix_shapes import diag
from ._ndarray import ndarray
from ._numpy_extras import _operand
from ._numpy_extras4 import trapezoid


def diagflat(v, k=0):
    """A 2-D array with the elements of v (flattened) on its k-th diagonal, zeros elsewhere."""
    return diag(_operand(v, "diagflat's argument").ravel(), k)


def trapz(y, x=None, dx=1.0, axis=-1):
    """The trapezoidal rule (NumPy 1's name of trapezoid, kept by CuPy)."""
    return trapezoid(y, x, dx, axis)


_MAX_BROADCAST_ARGS = 64  # (NumPy 2's limit on the arrays one broadcast object takes)


class broadcast:  # noqa: N801 (NumPy's and CuPy's class name)
    """The broadcast of arrays (and scalars) against each other: its shape, ndim (nd), size and
    numiter, and `values`, each argument broadcast to the shape (views; CuPy's attribute)."""

    def __init__(self, *arrays):
        if len(arrays) > _MAX_BROADCAST_ARGS:
            raise ValueError(f"Need at most {_MAX_BROADCAST_ARGS} array objects.")
        devices = []
        for i, a in enumerate(arrays):
            if isinstance(a, broadcast):  # NumPy accepts broadcast objects: their arrays take part
                devices.extend(a.values)
            elif isinstance(a, ndarray):
                devices.append(a)
            elif isinstance(a, (numbers.Number, np.generic)):
                devices.append(asarray(a))
            else:
                devices.append(_operand(a, f"broadcast's argument {i + 1}"))
        self._shape = broadcast_shapes(*(a.shape for a in devices))
        self.values = tuple(broadcast_to(a, self._shape) for a in devices)

    @property
    def shape(self):
        return self._shape

    @property
    def ndim(self):
        return len(self._shape)

    nd = ndim

    @property
    def size(self):
        n = 1
        for d in self._shape:
            n *= d
        return n

    @property
    def numiter(self):
        return len(self.values)

    def __repr__(self):
        return f"<simt.broadcast of {self.numiter} arrays to shape {self._shape}>"


_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F", "FORTRAN": "F",
                 "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O", "OWNDATA": "O", "E": "E",
                 "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None):
    """a as a simt array of `dtype` meeting `requirements` ('C' or 'F' contiguous, 'O' owning its
    memory; 'A'ligned, 'W'riteable and 'E'nsure-array always hold for simt arrays), copied only
    when it does not already."""
    if requirements is None or requirements == "" or (not isinstance(requirements, str) and not requirements):
        return asarray(a, dtype=dtype)
    items = list(requirements)  # (a string is its letters, as in NumPy: "CO", "FA")
    wanted = set()
    for r in items:
        key = r.upper() if isinstance(r, str) else r
        if key not in _REQUIREMENTS:
            raise KeyError(f"require: unknown requirement {r!r} (use 'C', 'F', 'A', 'W', 'O' or 'E')")
        wanted.add(_REQUIREMENTS[key])
    if {"C", "F"} <= wanted:
        raise ValueError('Cannot specify both "C" and "F" order')
    order = "F" if "F" in wanted else "C"
    arr = asarray(a, dtype=dtype)
    if ("C" in wanted and not arr.flags.c_contiguous) or ("F" in wanted and not arr.flags.f_contiguous) \
            or ("O" in wanted and arr.base is not None):
        return arr.copy(order=order)
    return arr
