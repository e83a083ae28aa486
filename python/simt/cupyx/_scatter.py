"""cupyx.scatter_add / scatter_max / scatter_min: a[slices] op= value with repeated indices all
applied (NumPy's ufunc.at), and cupyx.rsqrt."""
from .. import ElementwiseKernel, add, asarray, float64, maximum, minimum


def scatter_add(a, slices, value):
    """a[slices] += value, every repeated index counted (np.add.at(a, slices, value))."""
    add.at(a, slices, value)


def scatter_max(a, slices, value):
    """a[slices] = maximum(a[slices], value), over repeated indices too."""
    maximum.at(a, slices, value)


def scatter_min(a, slices, value):
    """a[slices] = minimum(a[slices], value), over repeated indices too."""
    minimum.at(a, slices, value)


_rsqrt = ElementwiseKernel("T x", "T y", "y = 1 / sqrt(x)", "simt_cupyx_rsqrt")


def rsqrt(x, out=None):
    """1 / sqrt(x) elementwise (floating dtypes; integers become float64 first, as in NumPy's sqrt)."""
    x = asarray(x)
    if x.dtype.kind not in "fc":
        x = x.astype(float64)
    return _rsqrt(x) if out is None else _rsqrt(x, out)
