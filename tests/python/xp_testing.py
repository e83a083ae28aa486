"""CuPy-style array tests: one test body runs with xp=numpy and with xp=simt, and the results
must agree (dtype, shape, values with allclose) — or both runs must raise the same kind of
error."""
import functools
import inspect

import numpy as np
import pytest

import simt

BOOL = [np.bool_]
SIGNED = [np.int8, np.int16, np.int32, np.int64]
UNSIGNED = [np.uint8, np.uint16, np.uint32, np.uint64]
INTS = SIGNED + UNSIGNED
FLOATS = [np.float16, np.float32, np.float64]
COMPLEX = [np.complex64, np.complex128]
ALL = BOOL + INTS + FLOATS + COMPLEX
NUMERIC = INTS + FLOATS + COMPLEX


def random_host(rng, shape, dtype, low=None, high=None):
    """Random NumPy data of a dtype: small integers (no overflow in sums and products),
    floats of either sign, complex numbers with both parts set."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        lo = (0 if dtype.kind == "u" else -20) if low is None else low
        hi = 20 if high is None else high
        return rng.integers(lo, hi, size=shape).astype(dtype)
    lo = -4.0 if low is None else low
    hi = 4.0 if high is None else high
    real = rng.uniform(lo, hi, size=shape)
    if dtype.kind == "c":
        return (real + 1j * rng.uniform(lo, hi, size=shape)).astype(dtype)
    return real.astype(dtype)


def make(xp, rng, shape, dtype, **kwargs):
    """An xp array of random values (the same values for both xp when the rng is reseeded)."""
    return xp.asarray(random_host(rng, shape, dtype, **kwargs))


# float16: a few ulps (eps is 2**-10 ~ 9.8e-4, so 2 ulps near the bottom of a binade exceed 1e-3).
_DEFAULT_RTOL = {np.dtype(np.float16): 4e-3, np.dtype(np.float32): 1e-5, np.dtype(np.complex64): 1e-5}


def to_host(x):
    if isinstance(x, simt.ndarray):
        return x.get()
    return np.asarray(x)


def assert_same(expected, actual, rtol=None, atol=0, type_check=True):
    """`actual` (simt) matches `expected` (NumPy): dtype, shape and values."""
    if isinstance(expected, (tuple, list)):
        assert isinstance(actual, (tuple, list)) and len(actual) == len(expected)
        for e, a in zip(expected, actual):
            assert_same(e, a, rtol, atol, type_check)
        return
    if isinstance(expected, np.ndarray) or isinstance(expected, np.generic):
        assert isinstance(actual, simt.ndarray), f"expected a simt array, got {type(actual)}"
    e, a = np.asarray(expected), to_host(actual)
    if type_check:
        assert a.dtype == e.dtype, f"dtype: simt {a.dtype}, numpy {e.dtype}"
    assert a.shape == e.shape, f"shape: simt {a.shape}, numpy {e.shape}"
    if e.dtype.kind in "fc" or a.dtype.kind in "fc":
        if rtol is None:
            rtol = max(_DEFAULT_RTOL.get(e.dtype, 1e-12), _DEFAULT_RTOL.get(a.dtype, 1e-12))
        np.testing.assert_allclose(a, e, rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(a, e)


def numpy_simt_allclose(rtol=None, atol=0, type_check=True, accept_error=(), must_raise=False):
    """Decorator: the test takes `xp` and returns a result; it runs once with NumPy and once with
    simt (a test `rng` is reseeded identically for both) and the results must match. With
    `accept_error`, both runs may instead raise an error of one of those types."""

    def decorator(test):
        signature = inspect.signature(test)
        params = [p for name, p in signature.parameters.items() if name != "xp"]

        @functools.wraps(test)
        def wrapper(*args, **kwargs):
            seed = None
            if "rng" in kwargs:
                seed = int(kwargs["rng"].integers(2 ** 62))

            def run(xp):
                if seed is not None:
                    kwargs["rng"] = np.random.default_rng(seed)
                try:
                    with np.errstate(all="ignore"):  # NumPy warns where simt (like CuPy) is silent
                        return test(*args, xp=xp, **kwargs), None
                except Exception as e:  # noqa: BLE001 - compared below
                    return None, e

            expected, np_error = run(np)
            actual, simt_error = run(simt)
            if np_error or simt_error:
                if not (np_error and simt_error) or not accept_error:
                    outcome = f"numpy: {np_error!r}, simt: {simt_error!r}"
                    raise AssertionError(f"the two runs differ ({outcome})") from (simt_error or np_error)
                assert isinstance(np_error, accept_error) and isinstance(simt_error, accept_error), \
                    f"numpy raised {np_error!r}, simt raised {simt_error!r}"
                return
            assert not must_raise, f"expected one of {accept_error} from both runs"
            assert_same(expected, actual, rtol, atol, type_check)

        wrapper.__signature__ = signature.replace(parameters=params)
        return wrapper

    return decorator


def numpy_simt_raises(*errors):
    """Decorator: the test must raise one of `errors` with NumPy and with simt alike."""
    return numpy_simt_allclose(accept_error=errors, must_raise=True)


def assert_both_raise(error, match, fn):
    """fn(numpy) and fn(simt) both raise `error` with a message matching the regex `match`."""
    for xp in (np, simt):
        with pytest.raises(error, match=match):
            fn(xp)


def dtype_id(d):
    return np.dtype(d).name


def parametrize_dtypes(name, dtypes):
    return pytest.mark.parametrize(name, dtypes, ids=dtype_id)
