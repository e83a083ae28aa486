"""simt.sum/prod/min/max/mean/var/std/argmin/argmax/all/any and the matching ndarray methods,
with NumPy's signatures, result dtypes and empty-input behaviour."""
from ._reduce_passes import reduce as _reduce


def sum(a, axis=None, dtype=None, out=None, keepdims=False):
    """Sum of elements over `axis` (None: all; int or tuple; negative counts from the end)."""
    return _reduce("sum", a, "sum", axis, dtype, out, keepdims)


def prod(a, axis=None, dtype=None, out=None, keepdims=False):
    """Product of elements over `axis`."""
    return _reduce("prod", a, "prod", axis, dtype, out, keepdims)


def min(a, axis=None, out=None, keepdims=False):
    """Smallest element over `axis`; NaN if any is NaN; ValueError for an empty reduction."""
    return _reduce("min", a, "min", axis, None, out, keepdims)


def max(a, axis=None, out=None, keepdims=False):
    """Largest element over `axis`; NaN if any is NaN; ValueError for an empty reduction."""
    return _reduce("max", a, "max", axis, None, out, keepdims)


amin, amax = min, max


def mean(a, axis=None, dtype=None, out=None, keepdims=False):
    """Arithmetic mean over `axis` (float64 for integer input)."""
    return _reduce("mean", a, "mean", axis, dtype, out, keepdims)


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


def all(a, axis=None, out=None, keepdims=False):
    """Whether every element over `axis` is nonzero."""
    return _reduce("all", a, "all", axis, None, out, keepdims)


def any(a, axis=None, out=None, keepdims=False):
    """Whether any element over `axis` is nonzero."""
    return _reduce("any", a, "any", axis, None, out, keepdims)


def _attach_methods(ndarray):
    from ._scan import cumprod, cumsum
    for fn in (sum, prod, min, max, mean, var, std, argmin, argmax, all, any, cumsum, cumprod):
        def method(self, *args, _fn=fn, **kwargs):
            return _fn(self, *args, **kwargs)
        method.__name__ = fn.__name__
        method.__doc__ = fn.__doc__
        setattr(ndarray, fn.__name__, method)
