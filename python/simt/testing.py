"""simt.testing (cupy.testing's assertions): NumPy's array assertions taking simt arrays as well
as host arrays and scalars; simt arrays are copied to the host to be compared."""
import numpy as np
import numpy.testing as _npt

from ._ndarray import ndarray
from ._xp_allclose import numpy_cupy_allclose  # noqa: F401

__all__ = ["numpy_cupy_allclose", "assert_allclose", "assert_array_almost_equal", "assert_array_almost_equal_nulp", "assert_array_equal",
           "assert_array_less", "assert_array_max_ulp", "assert_array_list_equal"]


def _host(x):
    return x.get() if isinstance(x, ndarray) else x


def assert_allclose(actual, desired, rtol=1e-7, atol=0, err_msg="", verbose=True):
    _npt.assert_allclose(_host(actual), _host(desired), rtol=rtol, atol=atol, err_msg=err_msg, verbose=verbose)


def assert_array_almost_equal(x, y, decimal=6, err_msg="", verbose=True):
    _npt.assert_array_almost_equal(_host(x), _host(y), decimal=decimal, err_msg=err_msg, verbose=verbose)


def assert_array_almost_equal_nulp(x, y, nulp=1):
    _npt.assert_array_almost_equal_nulp(_host(x), _host(y), nulp=nulp)


def assert_array_max_ulp(a, b, maxulp=1, dtype=None):
    _npt.assert_array_max_ulp(_host(a), _host(b), maxulp=maxulp, dtype=dtype)


def assert_array_equal(x, y, err_msg="", verbose=True, strict=False):
    _npt.assert_array_equal(_host(x), _host(y), err_msg=err_msg, verbose=verbose, strict=strict)


def assert_array_less(x, y, err_msg="", verbose=True):
    _npt.assert_array_less(_host(x), _host(y), err_msg=err_msg, verbose=verbose)


def assert_array_list_equal(xlist, ylist, err_msg="", verbose=True):
    """Two sequences of arrays, equal pairwise (and of the same length)."""
    if len(xlist) != len(ylist):
        raise AssertionError(f"lengths differ: {len(xlist)} and {len(ylist)}")
    for x, y in zip(xlist, ylist):
        _npt.assert_array_equal(_host(x), _host(y), err_msg=err_msg, verbose=verbose)


del np
