"""CuPy-style comparison tests: one test body, run once with xp=numpy and once with xp=simt on
the same random data, and the results compared (shape, dtype, values with allclose, NaNs equal),
or the same exception type required of both."""
import functools
import inspect
import warnings

import numpy as np

import simt


def _call(fn, xp, args, kwargs, seed):
    if "rng" in kwargs:
        kwargs = dict(kwargs, rng=np.random.default_rng(seed))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            return fn(*args, xp=xp, **kwargs), None
        except Exception as e:  # compared below
            return None, e


def _host(x):
    if isinstance(x, simt.ndarray):
        return x.get()
    return x


def numpy_simt_allclose(rtol=1e-7, atol=0.0, type_check=True, rtol_by_dtype=None, atol_by_dtype=None):
    """Decorates `test(..., xp)`: runs it against NumPy and simt and compares what they return.
    `rtol_by_dtype` / `atol_by_dtype` loosen the tolerances for some result dtypes (float16 and
    float32 accumulate in a different order, so sums that cancel differ in absolute terms)."""
    def decorate(fn):
        sig = inspect.signature(fn)
        params = [p for name, p in sig.parameters.items() if name != "xp"]

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            seed = int(kwargs["rng"].integers(2**62)) if "rng" in kwargs else 0
            expected, np_error = _call(fn, np, args, kwargs, seed)
            actual, simt_error = _call(fn, simt, args, kwargs, seed)
            if np_error is not None:
                assert simt_error is not None, f"NumPy raised {np_error!r}, simt returned {actual!r}"
                assert isinstance(simt_error, type(np_error)), f"NumPy raised {np_error!r}, simt raised {simt_error!r}"
                return
            if simt_error is not None:
                raise simt_error
            if isinstance(actual, simt.ndarray) or not isinstance(expected, (tuple, list)):
                pairs = [(expected, actual)]
            else:
                pairs = list(zip(expected, actual))
            for e, a in pairs:
                if isinstance(a, np.ndarray) and not isinstance(e, np.ndarray):
                    raise AssertionError(f"simt returned a NumPy array {a!r}; device results must stay simt arrays")
                a = _host(a)
                e = np.asarray(e)
                a = np.asarray(a)
                assert a.shape == e.shape, f"shape {a.shape} != NumPy's {e.shape}"
                if type_check:
                    assert a.dtype == e.dtype, f"dtype {a.dtype} != NumPy's {e.dtype}"
                tol, atol_ = rtol, atol
                for dt, r in (rtol_by_dtype or {}).items():
                    if e.dtype == np.dtype(dt) or a.dtype == np.dtype(dt):
                        tol = max(tol, r)
                for dt, t in (atol_by_dtype or {}).items():
                    if e.dtype == np.dtype(dt) or a.dtype == np.dtype(dt):
                        atol_ = max(atol_, t)
                if e.dtype == np.bool_ or e.dtype.kind in "iu":
                    np.testing.assert_array_equal(a, e)
                else:
                    np.testing.assert_allclose(a, e, rtol=tol, atol=atol_, equal_nan=True)

        wrapper.__signature__ = sig.replace(parameters=params)
        return wrapper
    return decorate
