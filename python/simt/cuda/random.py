"""simt.cuda.random: random numbers inside kernels, with numba.cuda.random's names.

Each thread draws from its own xoroshiro128+ stream (Blackman & Vigna). The states live in a
device array of dtype uint64 and shape (n, 2), row i holding stream i's two state words (numba
uses a structured dtype; simt has none). Stream 0 starts from the seed through splitmix64 and
each next stream starts 2**64 steps further along, so streams never overlap in practice. The
streams are the same on every backend for the same seed; the float transforms agree to the last
bit for uniforms and to a few units in the last place for normals (the GPU's log/cos differ
slightly from the host's).

    states = create_xoroshiro128p_states(n_threads, seed=1)

    @cuda.jit
    def k(states, out):
        i = cuda.grid(1)
        out[i] = xoroshiro128p_uniform_float32(states, i)

The kernel functions also run on the host on a NumPy states array (same numbers), which is
handy for checking kernels.
"""
import math

import numpy as np

from .. import _simt

__all__ = [
    "create_xoroshiro128p_states", "init_xoroshiro128p_states", "init_xoroshiro128p_state", "xoroshiro128p_next",
    "xoroshiro128p_jump", "xoroshiro128p_uniform_float32", "xoroshiro128p_uniform_float64",
    "xoroshiro128p_normal_float32", "xoroshiro128p_normal_float64", "xoroshiro128p_dtype",
]

# The element type of a states array (shape (n, 2)).
xoroshiro128p_dtype = np.dtype(np.uint64)

_MASK = (1 << 64) - 1


def _seed_bits(seed):
    try:
        return int(seed) & _MASK
    except (TypeError, ValueError):
        raise TypeError(f"the seed must be an integer, not {type(seed).__name__}") from None


def _host_states(n, seed, subsequence_start):
    n = int(n)
    if n < 0:
        raise ValueError(f"the number of states must be non-negative, not {n}")
    if int(subsequence_start) < 0:
        raise ValueError(f"subsequence_start must be non-negative, not {subsequence_start}")
    raw = _simt.xoroshiro128p_states(n, _seed_bits(seed), int(subsequence_start))
    return np.frombuffer(raw, dtype=np.uint64).reshape(n, 2).copy()


def init_xoroshiro128p_states(states, seed, subsequence_start=0, stream=0):
    """Fill a device states array (uint64, shape (n, 2)) with n streams starting from `seed`,
    the first jumped ahead `subsequence_start` times (2**64 steps each)."""
    from .._ndarray import ndarray
    if not isinstance(states, ndarray):
        raise TypeError(f"states must be a simt device array of dtype uint64 and shape (n, 2), not {type(states).__name__}")
    if states.dtype != xoroshiro128p_dtype or states.ndim != 2 or states.shape[1] != 2:
        raise ValueError(f"states must have dtype uint64 and shape (n, 2), not {states.dtype} {states.shape}")
    states.set(_host_states(states.shape[0], seed, subsequence_start), stream)


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """A new device array of `n` xoroshiro128+ states (uint64, shape (n, 2)), one per thread."""
    from .._creation import empty
    if int(n) < 0:
        raise ValueError(f"the number of states must be non-negative, not {n}")
    states = empty((int(n), 2), dtype=np.uint64)
    init_xoroshiro128p_states(states, seed, subsequence_start, stream)
    return states


# ---- kernel functions (typed and compiled by the kernel compiler; see sema/builtins_random.cpp)
# On the host they run on a NumPy states array, with the same results as in kernels.

def _kernel_function(func):
    func._simt_builtin = f"cuda.random.{func.__name__}"
    return func


def _host_row(states, index, name):
    if not isinstance(states, np.ndarray) or states.dtype != np.uint64 or states.ndim != 2:
        raise TypeError(f"{name}() runs inside kernels, or on the host with a NumPy uint64 states array "
                        "of shape (n, 2) (copy device states with .get())")
    return states[index]


def _rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & _MASK


def _step(s0, s1):
    """One xoroshiro128+ step: (output, new s0, new s1)."""
    result = (s0 + s1) & _MASK
    s1 ^= s0
    return result, _rotl(s0, 55) ^ s1 ^ ((s1 << 14) & _MASK), _rotl(s1, 36)


@_kernel_function
def xoroshiro128p_next(states, index):
    """The next uint64 of stream `index`, advancing it."""
    row = _host_row(states, index, "xoroshiro128p_next")
    result, s0, s1 = _step(int(row[0]), int(row[1]))
    row[0], row[1] = s0, s1
    return np.uint64(result)


@_kernel_function
def xoroshiro128p_jump(states, index):
    """Advance stream `index` by 2**64 steps."""
    row = _host_row(states, index, "xoroshiro128p_jump")
    s0, s1 = int(row[0]), int(row[1])
    a = b = 0
    for word in (0xbeac0467eba5facb, 0xd86b048b86aa9922):
        for bit in range(64):
            if word >> bit & 1:
                a ^= s0
                b ^= s1
            _, s0, s1 = _step(s0, s1)
    row[0], row[1] = a, b


@_kernel_function
def init_xoroshiro128p_state(states, index, seed):
    """Seed stream `index` from `seed` (splitmix64), as create_xoroshiro128p_states seeds stream 0."""
    row = _host_row(states, index, "init_xoroshiro128p_state")
    row[:] = _host_states(1, seed, 0)[0]


@_kernel_function
def xoroshiro128p_uniform_float64(states, index):
    """A float64 uniform on [0, 1) from stream `index`."""
    return np.float64(int(xoroshiro128p_next(states, index)) >> 11) * np.float64(2.0 ** -53)


@_kernel_function
def xoroshiro128p_uniform_float32(states, index):
    """A float32 uniform on [0, 1) from stream `index`."""
    return np.float32(int(xoroshiro128p_next(states, index)) >> 40) * np.float32(2.0 ** -24)


@_kernel_function
def xoroshiro128p_normal_float64(states, index):
    """A float64 standard normal from stream `index` (Box-Muller on two uniforms)."""
    u1 = 1.0 - float(xoroshiro128p_uniform_float64(states, index))
    u2 = float(xoroshiro128p_uniform_float64(states, index))
    return np.float64(math.sqrt(-2.0 * math.log(u1)) * math.cos(2 * math.pi * u2))


@_kernel_function
def xoroshiro128p_normal_float32(states, index):
    """A float32 standard normal from stream `index` (Box-Muller on two uniforms, in float32)."""
    u1 = np.float32(1.0) - xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    two_pi = np.float32(6.28318531)
    return np.float32(np.sqrt(np.float32(-2.0) * np.log(u1)) * np.cos(two_pi * u2))
