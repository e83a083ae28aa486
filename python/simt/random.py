"""simt.random: counter-based (Philox4x32-10) random arrays; one seed gives the same numbers on
every backend. Float64 is the default dtype, as in NumPy and CuPy."""
import numbers
import operator

import numpy as np

from . import _dtypes, _simt
from ._creation import asarray, empty
from ._manipulation import broadcast_shapes
from ._ndarray import ndarray
from ._random_state import state_lock


def _shape(size):
    if size is None:
        return ()
    if isinstance(size, numbers.Integral):
        return (int(size),)
    return tuple(int(s) for s in size)


def _float_dtype(dtype):
    dt = _dtypes.normalize(dtype)
    if dt not in (np.float32, np.float64):
        raise TypeError(f"random floats must be float32 or float64, not {dt}")
    return dt


def _scalar(x, where):
    """A real Python or NumPy number (or 0-d host array): the parameter goes to the generator as is."""
    if isinstance(x, (numbers.Number, np.generic)) or isinstance(x, np.ndarray) and x.ndim == 0:
        if np.iscomplexobj(x):
            raise TypeError(f"{where} must be real, not {type(x).__name__} {x!r}")
        return True
    return False


# Each distribution's parameter names and, for array parameters, the map from its standard
# variates (uniform on [0, 1), normal with mean 0 and deviation 1: the numbers scalar parameters
# would give, from the same counters) to the result, as one elementwise kernel.
_PARAMS = {"uniform": ("low", "high", "y0 = x0 + (x1 - x0) * x2"), "normal": ("loc", "scale", "y0 = x0 + x1 * x2")}
_AFFINE = _simt.ElementwiseKernel("random_affine")


def _draw(name, a, b, size, dtype):
    dt = _float_dtype(dtype)
    first, second, body = _PARAMS[name]
    if _scalar(a, f"{name}: {first}") and _scalar(b, f"{name}: {second}"):  # the generator applies them
        out = empty(_shape(size), dt)
        with state_lock:
            _simt.random_fill(out, name, float(a), float(b))
        return out
    return _affine(name, body, {first: a, second: b}, size, dt)


def _affine(name, body, params, size, dt):
    arrays = {}
    for key, value in params.items():
        if _scalar(value, f"{name}: {key}"):
            arrays[key] = float(value)  # (as the scalar path converts it)
            continue
        a = value if isinstance(value, ndarray) else asarray(value)  # host data: copied to the device
        if a.dtype.kind not in "biuf":
            raise TypeError(f"{name}: {key} must be real, not an array of {a.dtype}")
        arrays[key] = a
    shape = broadcast_parameters(name, arrays, size)
    out = empty(shape, dt)
    with state_lock:
        _simt.random_fill(out, name, 0.0, 1.0)
    loop = list(_PARAMS).index(name) * 1000 + dt.num
    _AFFINE(loop, [dt, dt, dt], [False] * 3, [dt], body, [*arrays.values(), out], [out], casting="unsafe")
    return out


def broadcast_parameters(name, params, size):
    """The result shape of distribution `name`: its array parameters (`params`: name -> simt
    array, or anything else for scalars) broadcast together, which `size`, when given, must be
    as NumPy requires."""
    arrays = {k: a for k, a in params.items() if isinstance(a, ndarray)}
    shape = None if size is None else _shape(size)
    try:
        fits = broadcast_shapes(*[a.shape for a in arrays.values()], *([] if shape is None else [shape]))
    except ValueError:
        fits = None
    if fits is None or shape not in (None, fits):
        given = " and ".join(f"{k} of shape {a.shape}" for k, a in arrays.items())
        raise ValueError(f"{name}: {given} cannot be broadcast " + ("together" if shape is None else f"to size {shape}"))
    return fits


def seed(seed=None):
    """Reset the generator. None draws a seed from the operating system's entropy."""
    if seed is None:
        seed = int.from_bytes(np.random.default_rng().bytes(8), "little")
    with state_lock:
        _simt.random_seed(int(seed) & 0xFFFFFFFFFFFFFFFF)


def uniform(low=0.0, high=1.0, size=None, dtype=None):
    """Floats in [low, high). low and high may be arrays (device arrays, or host data copied to
    the device), broadcast against size as in NumPy; their shape is the result's when size is None."""
    return _draw("uniform", low, high, size, dtype)


def random(size=None, dtype=None):
    """Uniform floats in [0, 1)."""
    return uniform(0.0, 1.0, size, dtype)


random_sample = random


def rand(*size, dtype=None):
    return random(size, dtype)


def normal(loc=0.0, scale=1.0, size=None, dtype=None):
    """Normal floats. loc and scale may be arrays (as uniform's low and high)."""
    return _draw("normal", loc, scale, size, dtype)


def standard_normal(size=None, dtype=None):
    return normal(0.0, 1.0, size, dtype)


def randn(*size, dtype=None):
    return normal(0.0, 1.0, size, dtype)


def randint(low, high=None, size=None, dtype=np.int64):
    """Integers in [low, high) (or [0, low) when high is None)."""
    low = _int_bound(low, "low")
    low, high = (0, low) if high is None else (low, _int_bound(high, "high"))
    if high <= low:
        raise ValueError(f"randint needs low < high (got low={low}, high={high})")
    dt = _dtypes.normalize(dtype)
    if dt.kind not in "iu":
        raise TypeError(f"randint needs an integer dtype, not {dt}")
    info = np.iinfo(dt)
    if low < info.min or high - 1 > info.max:
        raise ValueError(f"[{low}, {high}) does not fit in {dt}")
    out = empty(_shape(size), dt)
    # Exact 64-bit bounds (through floats, bounds past 2**53 lost their low bits): low's bit
    # pattern and the count of values, both mod 2**64 (a count of 2**64 becomes 0, meaning all).
    with state_lock:
        _simt.random_integers(out, low % 2**64, (high - low) % 2**64)
    return out


def _int_bound(value, name):
    """randint's bound as a Python int. Array bounds are not supported: NumPy checks low < high
    for every element, which would need the device's values on the host."""
    if isinstance(value, (list, tuple)) or getattr(value, "ndim", 0):
        raise TypeError(f"randint: {name} must be an integer; array bounds are not supported")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"randint: {name} must be an integer, not {type(value).__name__}") from None


from ._random_sampling import choice, exponential, permutation, shuffle, standard_exponential  # noqa: E402,F401
from ._random_distributions import FUNCTIONS as _DISTRIBUTIONS  # noqa: E402
# beta, binomial, chisquare, f, gamma, geometric, gumbel, hypergeometric, laplace, logistic,
# lognormal, negative_binomial, noncentral_chisquare, pareto, poisson, power, rayleigh,
# standard_cauchy, standard_gamma, standard_t, triangular, vonmises, wald, weibull, zipf
globals().update(_DISTRIBUTIONS)
from ._random_multivariate import dirichlet, multinomial, multivariate_normal  # noqa: E402,F401
from ._random_state import Generator, RandomState, default_rng, get_random_state  # noqa: E402,F401
from ._bit_generators import MRG32k3a, XORWOW, BitGenerator, Philox4x3210  # noqa: E402,F401
