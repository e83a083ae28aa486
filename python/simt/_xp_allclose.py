"""cupy.testing.numpy_cupy_allclose: one test body run with xp=numpy and with xp=simt, and what
the two return compared (shape, dtype, contiguity, values with allclose; NaNs equal)."""
import functools
import inspect

import numpy as np

from ._ndarray import ndarray


def _run(fn, xp, name, args, kwargs):
    try:
        return fn(*args, **{**kwargs, name: xp}), None
    except Exception as e:  # judged against the other library's outcome
        return None, e


def _check_errors(np_error, simt_error, accept_error, returned):
    """Both raised (or one did): pass when accept_error allows the pair, else re-raise."""
    if np_error is None:
        raise simt_error
    if accept_error is False:
        raise np_error
    if simt_error is None:
        raise AssertionError(f"NumPy raised {np_error!r}, simt returned {returned!r}")
    expected = type(np_error) if accept_error is True else accept_error
    if not (isinstance(np_error, expected) and isinstance(simt_error, expected)):
        raise AssertionError(f"NumPy raised {np_error!r}, simt raised {simt_error!r}") from simt_error


def _tolerance(default, by_dtype, dtypes):
    for dt, value in (by_dtype or {}).items():
        if np.dtype(dt) in dtypes:
            default = max(default, value)
    return default


def _compare(expected, actual, rtol, atol, err_msg, verbose, type_check, contiguous_check, by_dtype):
    if isinstance(actual, np.ndarray) and not isinstance(expected, np.ndarray):
        raise AssertionError(f"simt returned a NumPy array {actual!r}; device results must stay simt arrays")
    if contiguous_check and isinstance(expected, np.ndarray) and expected.flags.c_contiguous and \
            isinstance(actual, ndarray) and not actual.flags.c_contiguous:
        raise AssertionError("NumPy's result is C-contiguous and simt's is not")
    a = np.asarray(actual.get() if isinstance(actual, ndarray) else actual)
    e = np.asarray(expected)
    assert a.shape == e.shape, f"shape {a.shape} != NumPy's {e.shape}"
    if type_check:
        assert a.dtype == e.dtype, f"dtype {a.dtype} != NumPy's {e.dtype}"
    if e.dtype == np.bool_ or e.dtype.kind in "iu":
        np.testing.assert_array_equal(a, e, err_msg=err_msg, verbose=verbose)
    else:
        dtypes = (a.dtype, e.dtype)
        np.testing.assert_allclose(a, e, rtol=_tolerance(rtol, by_dtype[0], dtypes),
                                   atol=_tolerance(atol, by_dtype[1], dtypes), err_msg=err_msg, verbose=verbose,
                                   equal_nan=True)


def numpy_cupy_allclose(rtol=1e-7, atol=0, err_msg="", verbose=True, name="xp", type_check=True,
                        accept_error=False, sp_name=None, scipy_name=None, contiguous_check=True, *,
                        rtol_by_dtype=None, atol_by_dtype=None):
    """Decorates a test taking the array module as keyword `name` (default 'xp'): runs it with
    numpy and with simt and compares the results (an array, a scalar, or a tuple/list of them).
    accept_error: False (an error fails the test), True (both must raise, simt an instance of
    NumPy's error's type) or an exception type both must raise. rtol_by_dtype/atol_by_dtype
    ({dtype: tol}, simt's addition) loosen the tolerances for results of those dtypes. sp_name /
    scipy_name (CuPy's scipy module argument) are not supported: simt has no cupyx.scipy."""
    if sp_name is not None or scipy_name is not None:
        raise NotImplementedError("numpy_cupy_allclose: sp_name/scipy_name need cupyx.scipy, which simt does not provide")

    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            import simt
            expected, np_error = _run(fn, np, name, args, kwargs)
            actual, simt_error = _run(fn, simt, name, args, kwargs)
            if np_error is not None or simt_error is not None:
                _check_errors(np_error, simt_error, accept_error, actual)
                return
            pairs = [(expected, actual)] if isinstance(actual, ndarray) or not isinstance(expected, (tuple, list)) \
                else list(zip(expected, actual, strict=True))
            for e, a in pairs:
                _compare(e, a, rtol, atol, err_msg, verbose, type_check, contiguous_check,
                         (rtol_by_dtype, atol_by_dtype))
        sig = inspect.signature(fn)  # (without `name`, so pytest does not look for an xp fixture)
        wrapper.__signature__ = sig.replace(parameters=[p for n, p in sig.parameters.items() if n != name])
        return wrapper
    return decorate
