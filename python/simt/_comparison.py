"""simt.isclose, allclose, array_equal. As in CuPy, allclose and array_equal return 0-d bool
arrays, not Python bools: a Python bool would wait for the device and copy to the host."""
import numbers

import numpy as np

from ._creation import asarray
from ._manipulation import _device_array
from ._ndarray import ndarray


def _operand(x, where):
    # Python numbers stay weak scalars (NEP 50), as NumPy's isclose keeps them.
    return x if isinstance(x, (int, float, complex)) else _device_array(x, where)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise |a - b| <= atol + rtol * |b| (infinities close only to themselves; NaNs close
    to each other with `equal_nan`). As in NumPy, `b` is converted to a float type first."""
    from ._ufuncs import absolute, isfinite, isnan, less_equal
    x, y = _operand(a, "isclose's first argument"), _operand(b, "isclose's second argument")
    if isinstance(y, ndarray):
        y = y.astype(np.result_type(y.dtype, 1.0), copy=False)
    elif isinstance(y, numbers.Integral):
        y = float(y)
    if not isinstance(x, ndarray) and not isinstance(y, ndarray):
        x = asarray(np.asarray(x))  # two Python numbers: a 0-d simt result all the same
    result = less_equal(absolute(x - y), atol + rtol * absolute(y)) & isfinite(y) | (x == y)
    if equal_nan:
        result |= isnan(x) & isnan(y)
    return result


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element of `a` is close to `b` (see isclose); a 0-d bool array, as CuPy's."""
    return isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan).all()


def array_equal(a1, a2, equal_nan=False):
    """Whether two arrays have the same shape and elements (NaNs equal with `equal_nan`); a 0-d
    bool array, as CuPy's."""
    from ._ufuncs import isnan
    a1, a2 = _device_array(a1, "array_equal's first argument"), _device_array(a2, "array_equal's second argument")
    if a1.shape != a2.shape:
        return asarray(np.False_)
    same = a1 == a2
    if equal_nan:
        same |= isnan(a1) & isnan(a2)
    return same.all()
