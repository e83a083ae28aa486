"""CuPy-style comparison tests: one test body, run once with xp=numpy and once with xp=simt on
the same random data, and the results compared (shape, dtype, values with allclose, NaNs equal),
or the same exception type required of both (simt.testing.numpy_cupy_allclose, accept_error=True)."""
import functools
import inspect
import warnings

import numpy as np

import simt


def numpy_simt_allclose(rtol=1e-7, atol=0.0, type_check=True, rtol_by_dtype=None, atol_by_dtype=None):
    """Decorates `test(..., xp)`: runs it against NumPy and simt and compares what they return.
    `rtol_by_dtype` / `atol_by_dtype` loosen the tolerances for some result dtypes (float16 and
    float32 accumulate in a different order, so sums that cancel differ in absolute terms). A test
    taking the `rng` fixture gets a fresh Generator of one seed in each run, so both see the same data."""
    def decorate(fn):
        def with_fresh_rng(*args, **kwargs):
            if "rng" in kwargs:
                kwargs["rng"] = np.random.default_rng(kwargs["rng"])
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                return fn(*args, **kwargs)
        compared = simt.testing.numpy_cupy_allclose(rtol, atol, type_check=type_check, accept_error=True,
                                                    contiguous_check=False, rtol_by_dtype=rtol_by_dtype,
                                                    atol_by_dtype=atol_by_dtype)(with_fresh_rng)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            if "rng" in kwargs:  # (the seed for both runs' Generators)
                kwargs["rng"] = int(kwargs["rng"].integers(2**62))
            return compared(*args, **kwargs)
        sig = inspect.signature(fn)
        wrapper.__signature__ = sig.replace(parameters=[p for n, p in sig.parameters.items() if n != "xp"])
        return wrapper
    return decorate
