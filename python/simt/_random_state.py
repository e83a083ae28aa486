"""Generator objects of simt.random: CuPy's RandomState (and get_random_state) and NumPy's
Generator (default_rng). The generator is counter-based, so an object's state is just a seed and
a counter: each call swaps the object's state in, draws through simt.random's functions, and
swaps it back out, so objects and the module-level functions draw independent streams."""
import contextlib
import threading

import numpy as np

from . import _simt

# Held while a RandomState's state is swapped in (for its whole call) and around every draw or
# seed of the global generator, so another thread's draws never land inside that window.
# Reentrant: an object's call draws through the module functions, which take it again.
state_lock = threading.RLock()


def _seed_value(seed):
    if seed is None:
        return int.from_bytes(np.random.default_rng().bytes(8), "little")
    return int(seed) & 0xFFFFFFFFFFFFFFFF


class RandomState:
    """Random numbers from a state of one's own (cupy.random.RandomState)."""

    def __init__(self, seed=None):
        self._state = (_seed_value(seed), 0)

    def seed(self, seed=None):
        self._state = (_seed_value(seed), 0)

    @contextlib.contextmanager
    def _drawing(self):
        with state_lock:
            saved = _simt.random_state()
            _simt.set_random_state(*self._state)
            try:
                yield
            finally:
                self._state = _simt.random_state()
                _simt.set_random_state(*saved)

    def _call(self, name, *args, **kwargs):
        from . import random
        with self._drawing():
            return getattr(random, name)(*args, **kwargs)

    def random_sample(self, size=None, dtype=None):
        return self._call("random", size, dtype)

    random = random_sample

    def rand(self, *size, dtype=None):
        return self._call("random", size, dtype)

    def randn(self, *size, dtype=None):
        return self._call("standard_normal", size, dtype)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=None):
        return self._call("uniform", low, high, size, dtype)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=None):
        return self._call("normal", loc, scale, size, dtype)

    def standard_normal(self, size=None, dtype=None):
        return self._call("standard_normal", size, dtype)

    def randint(self, low, high=None, size=None, dtype=np.int64):
        return self._call("randint", low, high, size, dtype)

    def exponential(self, scale=1.0, size=None, dtype=None):
        return self._call("exponential", scale, size, dtype)

    def standard_exponential(self, size=None, dtype=None):
        return self._call("standard_exponential", size, dtype)

    def permutation(self, x):
        return self._call("permutation", x)

    def shuffle(self, x):
        return self._call("shuffle", x)

    def choice(self, a, size=None, replace=True, p=None):
        return self._call("choice", a, size, replace, p)


class _GlobalState(RandomState):
    """The module's own generator as a RandomState (what get_random_state() returns)."""

    def __init__(self):
        pass

    def seed(self, seed=None):
        from . import random
        random.seed(seed)

    @contextlib.contextmanager
    def _drawing(self):
        yield


_global = _GlobalState()


def get_random_state():
    """The generator behind simt.random's functions, as a RandomState (cupy.random.get_random_state)."""
    return _global


class Generator:
    """NumPy's Generator interface over a RandomState of its own (numpy.random.default_rng)."""

    def __init__(self, seed=None):
        self._rs = RandomState(seed)

    def random(self, size=None, dtype=np.float64, out=None):
        r = self._rs.random_sample(size, dtype)
        if out is None:
            return r
        out[...] = r
        return out

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        if high is None:
            low, high = 0, low
        return self._rs.randint(low, high + 1 if endpoint else high, size, dtype)

    def uniform(self, low=0.0, high=1.0, size=None):
        return self._rs.uniform(low, high, size)

    def normal(self, loc=0.0, scale=1.0, size=None):
        return self._rs.normal(loc, scale, size)

    def standard_normal(self, size=None, dtype=np.float64):
        return self._rs.standard_normal(size, dtype)

    def exponential(self, scale=1.0, size=None):
        return self._rs.exponential(scale, size)

    def standard_exponential(self, size=None, dtype=np.float64):
        return self._rs.standard_exponential(size, dtype)

    def permutation(self, x):
        return self._rs.permutation(x)

    def shuffle(self, x):
        return self._rs.shuffle(x)

    def choice(self, a, size=None, replace=True, p=None):
        return self._rs.choice(a, size, replace, p)


def default_rng(seed=None):
    """A Generator seeded with `seed` (an int, or None for fresh entropy)."""
    return Generator(seed)


def _add_distribution_methods():
    """RandomState's and Generator's gamma, poisson, binomial, ... (python/simt/_random_distributions.py),
    each drawing from the object's own state."""
    from ._random_distributions import NAMES

    def method(name):
        def draw(self, *args, **kwargs):
            rs = self if isinstance(self, RandomState) else self._rs
            return rs._call(name, *args, **kwargs)
        draw.__name__ = draw.__qualname__ = name
        return draw
    for name in NAMES + ("multivariate_normal", "dirichlet", "multinomial"):  # (+ _random_multivariate.py)
        setattr(RandomState, name, method(name))
        setattr(Generator, name, method(name))


_add_distribution_methods()
