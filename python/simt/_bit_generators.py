"""cupy.random's BitGenerator classes (XORWOW, MRG32k3a, Philox4x3210), for
Generator(XORWOW(seed)). simt has one generator algorithm, counter-based Philox4x32-10, on both
backends; each class is a stream of it of its own (a per-class constant mixed into the seed), so
the numbers are reproducible per class and seed, and the same on the cpu and cuda backends, but
they are not the numbers cuRAND's XORWOW or MRG32k3a (which CuPy uses) would give."""
import numpy as np

from ._random_state import RandomState, _seed_value


class BitGenerator:
    """A seeded stream of random bits; Generators made from the same BitGenerator share (advance)
    its state, as in NumPy and CuPy."""
    _STREAM = 0  # mixed into the seed: which class's stream

    def __init__(self, seed=None, *, size=-1):
        # (size: CuPy's cap on samples per call for its cuRAND states; simt has none to allocate)
        if isinstance(seed, np.random.SeedSequence):
            seed = int(seed.generate_state(1, np.uint64)[0])
        elif seed is not None and not isinstance(seed, (int, np.integer)):
            raise TypeError(f"{type(self).__name__}(seed): seed must be None, an int or a numpy.random.SeedSequence, "
                            f"got {type(seed).__name__}")
        self._rs = RandomState(_seed_value(seed) ^ self._STREAM)

    def random_raw(self, size=None, output=True):
        """Raw 64-bit draws as uint64 (a 0-d array for size=None); output=False draws and returns None."""
        raw = self._rs.randint(0, 2 ** 64, size, np.uint64)
        return raw if output else None

    def state(self):
        """(seed, counter) of simt's counter-based generator: the whole state."""
        return self._rs._state

    def __repr__(self):
        return f"{type(self).__name__}()"


class XORWOW(BitGenerator):
    """CuPy's default bit generator's name; simt draws a Philox4x32-10 stream of its own for it."""
    _STREAM = 0x5851F42D4C957F2D


class MRG32k3a(BitGenerator):
    """CuPy's MRG32k3a bit generator's name; simt draws a Philox4x32-10 stream of its own for it."""
    _STREAM = 0x2545F4914F6CDD1D


class Philox4x3210(BitGenerator):
    """Philox4x32-10, simt's own algorithm: the same stream as default_rng(seed) and RandomState(seed)."""
    _STREAM = 0
