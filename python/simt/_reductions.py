"""simt.sum/prod/min/max/mean/var/std/argmin/argmax/all/any and the matching ndarray methods,
with NumPy's signatures, result dtypes and empty-input behaviour."""
from . import _reduce_masked as _masked
from ._reduce_passes import reduce as _reduce


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Sum of elements over `axis` (None: all; int or tuple; negative counts from the end);
    `initial` is added to each sum, `where` selects the elements that count."""
    return _masked.reduce("sum", a, "sum", axis, dtype, out, keepdims, initial, where)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Product of elements over `axis` (times `initial`; over the elements `where` selects)."""
    return _masked.reduce("prod", a, "prod", axis, dtype, out, keepdims, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Smallest element over `axis`; NaN if any is NaN; ValueError for an empty reduction unless
    `initial` is given (it joins every reduction; `where` needs it)."""
    return _masked.reduce("min", a, "min", axis, None, out, keepdims, initial, where)


def max(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Largest element over `axis`; NaN if any is NaN; ValueError for an empty reduction unless
    `initial` is given (it joins every reduction; `where` needs it)."""
    return _masked.reduce("max", a, "max", axis, None, out, keepdims, initial, where)


amin, amax = min, max


def mean(a, axis=None, dtype=None, out=None, keepdims=False, where=True):
    """Arithmetic mean over `axis` (float64 for integer input), of the elements `where` selects."""
    return _masked.mean(a, axis, dtype, out, keepdims, where)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    """Variance over `axis`: mean of |x - mean|**2 with divisor N - ddof."""
    return _reduce("var", a, "var", axis, dtype, out, keepdims, ddof)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    """Standard deviation over `axis` (square root of var)."""
    return _reduce("std", a, "std", axis, dtype, out, keepdims, ddof)


def argmin(a, axis=None, out=None, keepdims=False):
    """Index of the smallest element (flat index for axis=None; the first one on ties or NaN)."""
    return _reduce("argmin", a, "argmin", axis, None, out, keepdims)


def argmax(a, axis=None, out=None, keepdims=False):
    """Index of the largest element (flat index for axis=None; the first one on ties or NaN)."""
    return _reduce("argmax", a, "argmax", axis, None, out, keepdims)


def all(a, axis=None, out=None, keepdims=False, where=True):
    """Whether every element over `axis` (that `where` selects) is nonzero."""
    return _masked.reduce("all", a, "all", axis, None, out, keepdims, None, where)


def any(a, axis=None, out=None, keepdims=False, where=True):
    """Whether any element over `axis` (that `where` selects) is nonzero."""
    return _masked.reduce("any", a, "any", axis, None, out, keepdims, None, where)


def _attach_methods(ndarray):
    from ._scan import cumprod, cumsum
    for fn in (sum, prod, min, max, mean, var, std, argmin, argmax, all, any, cumsum, cumprod):
        def method(self, *args, _fn=fn, **kwargs):
            return _fn(self, *args, **kwargs)
        method.__name__ = fn.__name__
        method.__doc__ = fn.__doc__
        setattr(ndarray, fn.__name__, method)
