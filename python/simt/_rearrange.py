"""flip, fliplr, flipud, roll, tile, repeat: NumPy's rearrangements of elements. flip is a view
(negative strides); the others are one or a few strided copies of slices and broadcast views,
so they run on every backend through the existing copy kernels."""
import itertools
import operator

import numpy as np

from . import _simt
from ._creation import asarray, empty
from ._manipulation import _axis_list, _device_array, broadcast_to
from ._ndarray import ndarray


def flip(m, axis=None):
    """Elements in reverse order along `axis` (None: every axis); a view, as NumPy's."""
    m = _device_array(m, "flip's argument")
    axes = range(m.ndim) if axis is None else _axis_list(axis, m.ndim)
    return m[tuple(slice(None, None, -1) if d in axes else slice(None) for d in range(m.ndim))]


def fliplr(m):
    """Columns in reverse order (axis 1); a view."""
    m = _device_array(m, "fliplr's argument")
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return m[:, ::-1]


def flipud(m):
    """Rows in reverse order (axis 0); a view."""
    m = _device_array(m, "flipud's argument")
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return m[::-1]


def roll(a, shift, axis=None):
    """Elements shifted cyclically by `shift` along `axis` (None: of the flattened array; shifts
    and axes pair up as NumPy broadcasts them, and shifts on one axis add up)."""
    a = _device_array(a, "roll's argument")
    if axis is None:
        return roll(a.ravel(), shift, 0).reshape(a.shape)
    axes = [_simt._normalize_axis(operator.index(ax), a.ndim) for ax in np.atleast_1d(axis).tolist()]
    pairs = np.broadcast(shift, axes)  # NumPy's pairing rules and its shape-mismatch error
    if pairs.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    shifts = [0] * a.ndim
    for sh, ax in pairs:
        shifts[ax] += int(sh)
    # Each rolled axis splits into two blocks that trade places: 2**k block copies for k axes.
    moves = []
    for ax, n in enumerate(a.shape):
        s = shifts[ax] % (n or 1)
        full = slice(None)
        moves.append([(full, full)] if s == 0 else [(slice(None, n - s), slice(s, None)),
                                                     (slice(n - s, None), slice(None, s))])
    out = empty(a.shape, a.dtype)
    for combo in itertools.product(*moves):
        out[tuple(dst for _, dst in combo)] = a[tuple(src for src, _ in combo)]
    return out


def _counts(reps):
    """Non-negative repetition counts, with NumPy's errors (floats are TypeErrors)."""
    counts = [operator.index(r) for r in reps]
    if any(r < 0 for r in counts):
        raise ValueError("negative dimensions are not allowed")
    return counts


def tile(A, reps):
    """A repeated reps[i] times along each axis (reps padded with 1s, or A's shape with leading
    1s, to the same length). One copy: A is broadcast along an inserted axis before each of its
    axes and the pairs of axes merged."""
    A = _device_array(A, "tile's argument")
    try:
        reps = tuple(reps)
    except TypeError:
        reps = (reps,)
    reps = _counts(reps)
    ndim = max(len(reps), A.ndim)
    reps = [1] * (ndim - len(reps)) + reps
    shape = [1] * (ndim - A.ndim) + list(A.shape)
    interleaved = [x for pair in zip(reps, shape) for x in pair]
    spread = broadcast_to(A.reshape([x for n in shape for x in (1, n)]), interleaved)
    return spread.copy().reshape([r * n for r, n in zip(reps, shape)])


def repeat(a, repeats, axis=None):
    """Each element repeated `repeats` times along `axis` (None: of the flattened array).
    `repeats` is an int or a host sequence of one count per element: the result's length depends
    on the counts, so a simt array of counts would need a device-to-host copy (CuPy refuses it too)."""
    a = _device_array(a, "repeat's argument")
    if isinstance(repeats, ndarray):
        raise ValueError("simt.repeat: repeats must be an int or a host sequence of ints (list, tuple or NumPy "
                         "array), not a simt array: the result's shape would depend on device data")
    if axis is None or a.ndim == 0:  # (NumPy repeats a 0-d array as a 1-d one on axis 0 or -1 too)
        a, axis = a.ravel(), 0 if axis is None else _simt._normalize_axis(operator.index(axis), 1)
    else:
        axis = _simt._normalize_axis(operator.index(axis), a.ndim)
    n = a.shape[axis]
    counts = np.asarray(repeats)
    if counts.ndim > 1:
        raise ValueError(f"repeats must be an int or a 1-d sequence, not an array of shape {counts.shape}")
    if counts.size == 1:
        # One count for every element: a broadcast view along a new axis after `axis`, copied once.
        # (np.repeat on one host element applies NumPy's checks and conversion of the count.)
        r = np.repeat(np.zeros(1, np.int8), counts.reshape(())).size
        shape = a.shape[:axis + 1] + (1,) + a.shape[axis + 1:]
        spread = broadcast_to(a.reshape(shape), shape[:axis + 1] + (r,) + shape[axis + 2:])
        return spread.copy().reshape(a.shape[:axis] + (n * r,) + a.shape[axis + 1:])
    # One count per element: the source index of each output position, worked out on the host
    # from host counts (NumPy's errors for negative or mismatched counts), then one gather.
    index = np.repeat(np.arange(n, dtype=np.int64), counts)
    return a[(slice(None),) * axis + (asarray(index),)]
