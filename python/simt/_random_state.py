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
    """NumPy's (and CuPy's) Generator interface over a BitGenerator (_bit_generators.py):
    Generator(XORWOW(seed)), or Generator(seed) for simt's own (Philox4x3210) stream."""

    def __init__(self, bit_generator=None):
        from ._bit_generators import BitGenerator, Philox4x3210
        if not isinstance(bit_generator, BitGenerator):
            bit_generator = Philox4x3210(bit_generator)
        self.bit_generator = bit_generator
        self._rs = bit_generator._rs  # (shared: Generators of one BitGenerator advance one state)

    def random(self, size=None, dtype=np.float64, out=None):
        return _fill(self._rs.random_sample, "random", size, dtype, out)

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        if high is None:
            low, high = 0, low
        return self._rs.randint(low, high + 1 if endpoint else high, size, dtype)

    def uniform(self, low=0.0, high=1.0, size=None):
        return self._rs.uniform(low, high, size)

    def normal(self, loc=0.0, scale=1.0, size=None):
        return self._rs.normal(loc, scale, size)

    def standard_normal(self, size=None, dtype=np.float64, out=None):
        return _fill(self._rs.standard_normal, "standard_normal", size, dtype, out)

    def exponential(self, scale=1.0, size=None):
        return self._rs.exponential(scale, size)

    def standard_exponential(self, size=None, dtype=np.float64, method="zig", out=None):
        # (method: NumPy's choice of algorithm, 'zig' or 'inv'; simt has one, the same for both)
        if method not in ("zig", "inv"):
            raise ValueError(f"Generator.standard_exponential: method must be 'zig' or 'inv', not {method!r}")
        return _fill(self._rs.standard_exponential, "standard_exponential", size, dtype, out)

    def standard_gamma(self, shape, size=None, dtype=np.float64, out=None):
        return _fill(lambda sz, dt: self._rs._call("standard_gamma", shape, size=sz, dtype=dt), "standard_gamma",
                     size, dtype, out)

    def permutation(self, x):
        return self._rs.permutation(x)

    def shuffle(self, x):
        return self._rs.shuffle(x)

    def choice(self, a, size=None, replace=True, p=None):
        return self._rs.choice(a, size, replace, p)


def _fill(draw, name, size, dtype, out):
    """draw(size, dtype), or, with out= (a simt array), drawn at out's shape and written into it
    (NumPy's rules: size, if given, is out's shape; dtype is out's dtype)."""
    if out is None:
        return draw(size, dtype)
    from ._ndarray import ndarray
    from .random import _shape
    if not isinstance(out, ndarray):
        raise TypeError(f"Generator.{name}: out must be a simt.ndarray, got {type(out).__name__}")
    if size is not None and _shape(size) != out.shape:
        raise ValueError(f"Generator.{name}: size {_shape(size)} does not match out's shape {out.shape}")
    if np.dtype(dtype) != out.dtype:
        raise TypeError(f"Generator.{name}: dtype {np.dtype(dtype)} does not match out's dtype {out.dtype}")
    out[...] = draw(out.shape, dtype)
    return out


def default_rng(seed=None):
    """A Generator seeded with `seed` (an int, None for fresh entropy, a BitGenerator to wrap, or a
    Generator, returned as it is)."""
    return seed if isinstance(seed, Generator) else Generator(seed)


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
        if name not in vars(Generator):  # (standard_gamma has its own, taking out=)
            setattr(Generator, name, method(name))


_add_distribution_methods()
