"""simt's ufuncs (simt.add, simt.sqrt, ...; the objects are C++) and NumPy's __array_ufunc__
protocol, so np.sin(d) and np.add(d, e) run on simt and return simt arrays."""
import operator

import numpy as np

from . import _simt
from ._ndarray import ndarray

ufunc = _simt.ufunc
_UFUNCS = dict(_simt.ufuncs)
_FUNCTIONS = ("where", "clip")  # ufuncs internally, functions in NumPy's API
# NumPy ufuncs that simt has as Python functions (np.logaddexp2(d, e), np.matvec(d, e), np.divmod(d, e)
# ...), filled in by the modules that define them (_numpy_extras2.py)
FUNCTION_UFUNCS = {}

__all__ = sorted(name for name in _UFUNCS if name not in _FUNCTIONS) + ["ufunc", "where", "clip", "around", "round"]
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
    a_min, a_max = _within_int_range(a_min, a), _within_int_range(a_max, a)
    if a_min is None:
        return _UFUNCS["minimum"](a, a_max, out=out)
    if a_max is None:
        return _UFUNCS["maximum"](a, a_min, out=out)
    return _UFUNCS["clip"](a, a_min, a_max, out=out)


def _within_int_range(bound, a):
    """A Python int bound of an integer array's clip, saturated to its dtype's range (NumPy 2's
    clip: clip(uint8 array, 10, 300) limits to 10..255 rather than failing to convert 300)."""
    kind = getattr(getattr(a, "dtype", None), "kind", "")
    if type(bound) is int and kind in ("i", "u"):
        info = np.iinfo(a.dtype)
        return min(max(bound, int(info.min)), int(info.max))
    return bound


def _power_of_ten(n):
    """10.0**n as NumPy's round computes it (exact up to 1e22, then repeated products)."""
    p = 1.0
    for _ in range(n):
        p *= 10.0
    return p


def around(a, decimals=0, out=None):
    """Evenly round to `decimals` places, as NumPy: half to even after scaling by 10**decimals
    (negative decimals: to tens, hundreds, ...); complex parts separately; integer arrays stay
    integers."""
    from ._creation import empty
    from ._manipulation import _device_array
    a = _device_array(a, "round's argument")
    decimals = operator.index(decimals)
    rint, multiply, true_divide = _UFUNCS["rint"], _UFUNCS["multiply"], _UFUNCS["true_divide"]
    if a.dtype.kind == "c":
        out = empty(a.shape, a.dtype) if out is None else out
        around(a.real, decimals, out.real)
        around(a.imag, decimals, out.imag)
        return out
    if decimals >= 0:
        if a.dtype.kind in "iu":  # already whole
            if out is None:
                return a.copy()
            out[...] = a
            return out
        if decimals == 0:
            return rint(a, out=out)
        scale, unscale = multiply, true_divide
    else:
        scale, unscale = true_divide, multiply
        decimals = -decimals
    integer = out is None and a.dtype.kind in "iu"  # computed in float64, cast back at the end
    if out is None:
        out = empty(a.shape, np.float64 if integer else a.dtype)
    f = _power_of_ten(decimals)  # a Python float: weak, so float32 input stays float32
    scale(a, f, out=out)
    rint(out, out=out)
    unscale(out, f, out=out)
    # (through int64: NumPy rounds integers in their own type, so -130 in int8 wraps to 126)
    return out.astype(np.int64).astype(a.dtype) if integer else out


round = around


def _array_ufunc(self, np_ufunc, method, *inputs, **kwargs):
    if method in ("reduce", "accumulate", "outer", "at"):  # np.add.reduce(d): simt's ufunc method
        f = _UFUNCS.get(np_ufunc.__name__)
        if f is None or np_ufunc.__name__ in _FUNCTIONS:
            raise TypeError(f"simt does not implement numpy.{np_ufunc.__name__}.{method} for simt arrays")
        if isinstance(kwargs.get("out"), tuple):  # (NumPy hands out= over as a tuple)
            if len(kwargs["out"]) != 1:
                raise ValueError(f"numpy.{np_ufunc.__name__}.{method} has one output")
            kwargs["out"] = kwargs["out"][0]
        return getattr(f, method)(*inputs, **kwargs)
    if method != "__call__":
        return NotImplemented
    two_outputs = np_ufunc.__name__ in ("modf", "frexp", "divmod")  # ufuncs in NumPy, functions in simt
    if np_ufunc is np.matmul:  # a ufunc in NumPy (a gufunc), a function in simt
        from ._matmul import matmul as f
    elif np_ufunc.__name__ in FUNCTION_UFUNCS:
        f = FUNCTION_UFUNCS[np_ufunc.__name__]
    elif two_outputs:
        from . import _float_parts
        f = getattr(_float_parts, np_ufunc.__name__)
    else:
        f = _UFUNCS.get(np_ufunc.__name__)
    if f is None or np_ufunc.__name__ in _FUNCTIONS:
        raise TypeError(f"simt does not implement numpy.{np_ufunc.__name__} for simt arrays")
    for i, x in enumerate(inputs):
        if isinstance(x, np.ndarray):
            raise TypeError(f"numpy.{np_ufunc.__name__}: argument {i + 1} is a NumPy array in host memory; " + _HOST_DATA)
    if two_outputs:
        return f(*inputs, **kwargs)
    out = kwargs.pop("out", None)
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError(f"numpy.{np_ufunc.__name__} has one output")
        out = out[0]
    if isinstance(out, np.ndarray):
        raise TypeError(f"numpy.{np_ufunc.__name__}: out= is a NumPy array in host memory; " + _HOST_DATA)
    if np_ufunc is np.matmul:
        if out is not None and not isinstance(out, ndarray):
            raise TypeError("numpy.matmul: out= must be a simt array, not "
                            f"{type(out).__module__}.{type(out).__qualname__}")
        if kwargs:
            raise TypeError(f"numpy.matmul on simt arrays does not support the argument(s) {', '.join(sorted(kwargs))}")
    return f(*inputs, out=out, **kwargs)


def _clip_method(self, min=None, max=None, out=None, **kwargs):
    return clip(self, min, max, out=out, **kwargs)


def _round_method(self, decimals=0, out=None):
    return around(self, decimals, out)


ndarray.__array_ufunc__ = _array_ufunc
ndarray.clip = _clip_method
ndarray.round = _round_method
ndarray.conj = ndarray.conjugate = lambda self: _UFUNCS["conjugate"](self)
