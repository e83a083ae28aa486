"""simt's ufuncs (simt.add, simt.sqrt, ...; the objects are C++) and NumPy's __array_ufunc__
protocol, so np.sin(d) and np.add(d, e) run on simt and return simt arrays."""
import numpy as np

from . import _simt
from ._ndarray import ndarray

ufunc = _simt.ufunc
_UFUNCS = dict(_simt.ufuncs)
_FUNCTIONS = ("where", "clip")  # ufuncs internally, functions in NumPy's API

__all__ = sorted(name for name in _UFUNCS if name not in _FUNCTIONS) + ["ufunc", "where", "clip"]
globals().update({name: f for name, f in _UFUNCS.items() if name not in _FUNCTIONS})

_HOST_DATA = ("simt arrays never combine with host (NumPy) arrays implicitly; copy it to the device with "
              "simt.asarray(x), or copy simt arrays to the host with .get() / simt.asnumpy()")


def where(condition, x=None, y=None):
    """Elements of `x` where `condition` is true, else of `y` (broadcast together)."""
    if x is None and y is None:
        from ._selection import nonzero
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    return _UFUNCS["where"](condition, x, y)


def clip(a, a_min=None, a_max=None, out=None, **kwargs):
    """Values of `a` limited to [a_min, a_max] (None leaves that side open)."""
    if kwargs.get("min") is not None:
        a_min = kwargs.pop("min")
    if kwargs.get("max") is not None:
        a_max = kwargs.pop("max")
    if a_min is None and a_max is None:
        raise ValueError("at least one of a_min and a_max must be given")
    if a_min is None:
        return _UFUNCS["minimum"](a, a_max, out=out)
    if a_max is None:
        return _UFUNCS["maximum"](a, a_min, out=out)
    return _UFUNCS["clip"](a, a_min, a_max, out=out)


def _array_ufunc(self, np_ufunc, method, *inputs, **kwargs):
    if method != "__call__":
        return NotImplemented
    f = _UFUNCS.get(np_ufunc.__name__)
    if f is None or np_ufunc.__name__ in _FUNCTIONS:
        raise TypeError(f"simt does not implement numpy.{np_ufunc.__name__} for simt arrays")
    for i, x in enumerate(inputs):
        if isinstance(x, np.ndarray):
            raise TypeError(f"numpy.{np_ufunc.__name__}: argument {i + 1} is a NumPy array in host memory; " + _HOST_DATA)
    out = kwargs.pop("out", None)
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError(f"numpy.{np_ufunc.__name__} has one output")
        out = out[0]
    if isinstance(out, np.ndarray):
        raise TypeError(f"numpy.{np_ufunc.__name__}: out= is a NumPy array in host memory; " + _HOST_DATA)
    return f(*inputs, out=out, **kwargs)


def _clip_method(self, min=None, max=None, out=None, **kwargs):
    return clip(self, min, max, out=out, **kwargs)


ndarray.__array_ufunc__ = _array_ufunc
ndarray.clip = _clip_method
ndarray.conj = ndarray.conjugate = lambda self: _UFUNCS["conjugate"](self)
