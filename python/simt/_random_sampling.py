"""simt.random's sampling functions (CuPy's and NumPy's names): permutation, shuffle, choice,
exponential, built on the uniform generator, sort and searchsorted."""
import numbers
import operator

import numpy as np


def _module():
    from . import random
    return random


def _device(x, what):
    from ._manipulation import _device_array
    return _device_array(x, what)


def _random_order(n):
    """A uniformly random permutation of range(n), as int64 indices: the order of n random keys."""
    from ._sorting import argsort
    return argsort(_module().random(n))


def permutation(x):
    """A random permutation of range(x) (x an int), or a copy of array x shuffled along axis 0."""
    from ._manipulation import arange
    from ._selection import take
    if isinstance(x, (numbers.Integral, np.integer)):
        n = operator.index(x)
        if n < 0:
            raise ValueError(f"permutation: x must be non-negative, not {n}")
        return take(arange(n, dtype=np.int64), _random_order(n))
    a = _device(x, "permutation's argument")
    if a.ndim == 0:
        raise TypeError("permutation: x must be an integer or an array of at least one dimension")
    return take(a, _random_order(a.shape[0]), axis=0)


def shuffle(x):
    """Shuffle simt array x along axis 0, in place."""
    from ._ndarray import ndarray
    if not isinstance(x, ndarray):
        raise TypeError(f"shuffle: x must be a simt array (it is shuffled in place), not "
                        f"{type(x).__module__}.{type(x).__qualname__}")
    if x.ndim == 0:
        raise TypeError("shuffle: x must have at least one dimension")
    x[...] = permutation(x)


def _probabilities(p, n):
    """p as a float64 device array of n non-negative probabilities summing to 1 (NumPy's checks)."""
    host = p.get() if hasattr(p, "get") else np.asarray(p, dtype=np.float64)
    host = np.asarray(host, dtype=np.float64)
    if host.ndim != 1:
        raise ValueError("choice: p must be 1-dimensional")
    if host.size != n:
        raise ValueError("choice: a and p must have same size")
    if np.any(host < 0) or not np.all(np.isfinite(host)):
        raise ValueError("choice: probabilities are not non-negative")
    if abs(host.sum() - 1.0) > np.sqrt(np.finfo(np.float64).eps):
        raise ValueError("choice: probabilities do not sum to 1")
    from ._creation import asarray
    return asarray(host)


def choice(a, size=None, replace=True, p=None):
    """Random samples from a 1-D array, or from range(a) when a is an int; with p, each element's
    probability; without replacement, distinct positions (weighted by p when given)."""
    from ._creation import asarray
    from ._scan import cumsum
    from ._searchsorted import searchsorted
    from ._selection import take
    from ._sorting import argsort
    random = _module()
    if isinstance(a, (numbers.Integral, np.integer)):
        n = operator.index(a)
        if n <= 0:
            raise ValueError("choice: a must be greater than 0 unless no samples are taken")
        population = None
    else:
        population = _device(a, "choice's argument") if hasattr(a, "shape") else asarray(np.asarray(a))
        if population.ndim != 1:
            raise ValueError("choice: a must be 1-dimensional or an integer")
        n = population.shape[0]
        if n == 0:
            raise ValueError("choice: a cannot be empty unless no samples are taken")
    shape = () if size is None else ((operator.index(size),) if np.ndim(size) == 0 else tuple(map(int, size)))
    k = int(np.prod(shape, dtype=np.int64))
    probabilities = None if p is None else _probabilities(p, n)
    if replace:
        if probabilities is None:
            positions = random.randint(0, n, shape)
        else:
            cdf = cumsum(probabilities)
            cdf = cdf / cdf[-1]  # (the last bin ends at exactly 1)
            positions = searchsorted(cdf, random.random(shape), side="right")
            positions = positions.clip(0, n - 1)  # (u < 1 = cdf[-1]: only rounding could reach n)
    else:
        if k > n:
            raise ValueError("choice: Cannot take a larger sample than population when replace is False")
        if probabilities is None:
            order = _random_order(n)
        else:
            if int((probabilities.get() > 0).sum()) < k:
                raise ValueError("choice: Fewer non-zero entries in p than size")
            # Weighted sampling without replacement: the k largest u**(1/p) (as log(u) / p).
            from ._ufuncs import log
            with np.errstate(divide="ignore"):
                keys = log(random.random(n)) / probabilities
            order = argsort(-keys)
        positions = order[:k].reshape(shape)
    if population is None:
        return positions if shape else positions.reshape(())
    out = take(population, positions.reshape(-1)).reshape(shape)
    return out


def standard_exponential(size=None, dtype=None):
    """Exponential floats of mean 1."""
    return exponential(1.0, size, dtype)


def exponential(scale=1.0, size=None, dtype=None):
    """Exponential floats of mean `scale` (-scale * log(1 - u) for uniform u in [0, 1)); scale
    may be an array, whose shape is the result's when size is None."""
    from ._creation import asarray
    from ._ufuncs import log1p
    if np.ndim(scale) == 0 and not hasattr(scale, "shape"):
        if float(scale) < 0:
            raise ValueError("exponential: scale < 0")
    else:
        scale = _device(scale, "exponential's scale") if hasattr(scale, "__cuda_array_interface__") or \
            type(scale).__module__ == "simt" else asarray(np.asarray(scale, dtype=np.float64))
        if size is None:
            size = scale.shape
    result = log1p(-_module().random(size, dtype))
    result *= -1
    return result * scale
