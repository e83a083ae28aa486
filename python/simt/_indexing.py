"""NumPy's advanced indexing on simt arrays (a[idx], a[mask], a[0, :, [1, 2]], a[idx] = v): keys
the C++ subscript slot does not handle as basic land here. The key becomes a basic view plus
index arrays over some of the view's dimensions, checked against their extents, then a
generated gather or scatter kernel (python/simt/_index_kernels.py) does the copy."""
import numbers
import operator

import numpy as np

from . import _index_kernels
from ._ndarray import ndarray

_VALID = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean "
          "arrays are valid indices")
_NOT_INTEGER = "arrays used as indices must be of integer (or boolean) type"


class _Mask:
    """A boolean index (host or device) covering `array.ndim` consecutive dimensions."""
    def __init__(self, array):
        self.array = array


def _normalize_item(item):
    """One key item as None, Ellipsis, a slice, an int, a _Mask, or an integer index array
    (NumPy or simt) of at least one dimension."""
    if item is None or item is Ellipsis or isinstance(item, slice):
        return item
    if isinstance(item, (bool, np.bool_)):
        return _Mask(np.array(bool(item)))
    if isinstance(item, ndarray):
        kind = item.dtype.kind
        if kind == "b":
            return _Mask(item)
        if kind not in "iu":
            raise IndexError(_NOT_INTEGER)
        return operator.index(item) if item.ndim == 0 else item
    if isinstance(item, (str, bytes)):
        raise IndexError(_VALID)
    if isinstance(item, numbers.Integral):
        return operator.index(item)
    if isinstance(item, (list, tuple)):
        if any(isinstance(x, ndarray) for x in item):
            raise IndexError("a list of simt arrays is not an index; stack them into one index array first "
                             "(simt.stack)")
        host = np.asarray(item)
        if host.size == 0:  # [] and [[], []] index with integers
            host = host.astype(np.intp)
        if host.dtype.kind not in "biu":
            raise IndexError(_VALID if host.dtype.kind in "OUS" else _NOT_INTEGER)
        item = host
    if isinstance(item, np.ndarray):
        if item.dtype.kind == "b":
            return _Mask(item)
        if item.dtype.kind not in "iu":
            raise IndexError(_NOT_INTEGER if item.dtype.kind in "fc" else _VALID)
        return int(item) if item.ndim == 0 else item
    if hasattr(item, "__index__"):
        return operator.index(item)
    raise IndexError(_VALID)


def _items(key):
    return [_normalize_item(x) for x in (key if isinstance(key, tuple) else (key,))]


def _consumed(x):
    if x is None or x is Ellipsis:
        return 0
    return x.array.ndim if isinstance(x, _Mask) else 1


def _check_host_bounds(values, size, axis):
    if values.size == 0:
        return
    lo, hi = int(values.min()), int(values.max())
    _raise_out_of_bounds(lo, hi, size, axis)


def _raise_out_of_bounds(lo, hi, size, axis):
    bad = hi if hi >= size else lo if lo < -size else None
    if bad is not None:
        raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {size}")


def _check_device_bounds(pending):
    """Checks device index arrays, (values, size, axis) each, with one synchronize: their
    smallest and largest indices come to the host together."""
    pending = [p for p in pending if p[0].size]
    if not pending:
        return
    from ._manipulation import stack
    from ._reductions import max as amax, min as amin
    ends = stack([r.astype(np.int64) for values, _, _ in pending for r in (amin(values), amax(values))]).get()
    for i, (_, size, axis) in enumerate(pending):
        _raise_out_of_bounds(int(ends[2 * i]), int(ends[2 * i + 1]), size, axis)


def _to_device(host):
    from ._creation import asarray
    return asarray(np.ascontiguousarray(host, dtype=np.int64))


def _mask_indices(mask, shape, axis):
    """The index arrays (device, int64) that boolean `mask` over dimensions shape stands for."""
    if mask.ndim > 0 and tuple(mask.shape) != tuple(shape):
        for d, (n, m) in enumerate(zip(shape, mask.shape)):
            if n != m:
                raise IndexError(f"boolean index did not match indexed array along axis {axis + d}; size of axis is "
                                 f"{n} but size of corresponding boolean axis is {m}")
    if isinstance(mask, np.ndarray):
        coords = _to_device(np.stack(np.nonzero(mask)) if mask.ndim else np.zeros((1, int(mask)), np.int64))
    else:
        coords = _index_kernels.nonzero_coords(mask.reshape(1) if mask.ndim == 0 else mask)
    return [coords[d] for d in range(max(mask.ndim, 1))]


class Plan:
    """How a key indexes `a`: view = a[basic part]; index arrays over the view's dimensions
    `adv` (ints or device arrays broadcast to `index_shape`); the result has the index shape
    at `offset` (where the advanced indices were, or first when a slice or None separates them)."""

    def __init__(self, a, key):
        items = _items(key)
        if sum(x is Ellipsis for x in items) > 1:
            raise IndexError("an index can only have a single ellipsis ('...')")
        used = sum(_consumed(x) for x in items)
        if used > a.ndim:
            raise IndexError(f"too many indices for array: array is {a.ndim}-dimensional, but {used} were indexed")
        at = next((i for i, x in enumerate(items) if x is Ellipsis), None)
        if at is not None:
            items[at:at + 1] = [slice(None)] * (a.ndim - used)
        else:
            items += [slice(None)] * (a.ndim - used)
        self.basic = not any(isinstance(x, (_Mask, np.ndarray, ndarray)) for x in items)
        if self.basic:
            self.key = tuple(items)
            return
        basic, adv, indices, axis, unchecked = [], [], [], 0, []
        for x in items:
            if x is None or isinstance(x, slice):
                basic.append(x)
                axis += x is not None
                continue
            if isinstance(x, _Mask):
                k = x.array.ndim
                if k == 0:  # a 0-d boolean adds an axis of length 1, kept (True) or emptied (False)
                    adv.append(len(basic))
                    basic.append(None)
                    indices += _mask_indices(x.array, (), axis)
                    continue
                adv += range(len(basic), len(basic) + k)
                indices += _mask_indices(x.array, a.shape[axis:axis + k], axis)
                basic += [slice(None)] * k
                axis += k
                continue
            size = a.shape[axis]
            if isinstance(x, int):
                _raise_out_of_bounds(x, x, size, axis)
            elif isinstance(x, np.ndarray):
                _check_host_bounds(x, size, axis)
                x = _to_device(x)
            else:
                unchecked.append((x, size, axis))
            adv.append(len(basic))
            indices.append(x)
            basic.append(slice(None))
            axis += 1
        _check_device_bounds(unchecked)
        self.view = a[tuple(basic)]
        shapes = [() if isinstance(x, int) else tuple(x.shape) for x in indices]
        try:
            self.index_shape = tuple(np.broadcast_shapes(*shapes))
        except ValueError:
            raise IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes " +
                             " ".join(str(s) for s in shapes)) from None
        from ._manipulation import broadcast_to
        self.indices = [x if isinstance(x, int) else broadcast_to(x, self.index_shape) for x in indices]
        self.adv = adv
        together = adv[-1] - adv[0] + 1 == len(adv)
        self.offset = adv[0] if together else 0
        rest = [n for d, n in enumerate(self.view.shape) if d not in adv]
        self.shape = tuple(rest[:self.offset]) + self.index_shape + tuple(rest[self.offset:])


def _whole_mask(a, key):
    """The device mask when `key` is one boolean simt array of a's shape (a[a > 0]), else None:
    those take a one-pass compaction or fill instead of coordinates and a gather."""
    if isinstance(key, ndarray) and key.dtype == np.bool_ and key.ndim == a.ndim >= 1 and key.shape == a.shape:
        return key
    return None


def getitem(a, key):
    whole = _whole_mask(a, key)
    if whole is not None:
        return _index_kernels.compact(a, whole)
    plan = Plan(a, key)
    if plan.basic:
        return a[plan.key]
    from ._creation import empty
    out = empty(plan.shape, a.dtype)
    if out.size:
        _index_kernels.run_indexed(False, plan.view, out, plan.adv, plan.indices, plan.offset,
                                   len(plan.index_shape))
    return out


def overlaps(a, b):
    """Whether the memory a and b span may overlap (byte ranges from pointers and strides)."""
    def span(x):
        lo = hi = x._ptr
        for n, s in zip(x.shape, x.strides):
            if n == 0:
                return 0, 0
            lo, hi = (lo + (n - 1) * s, hi) if s < 0 else (lo, hi + (n - 1) * s)
        return lo, hi + x.itemsize
    (alo, ahi), (blo, bhi) = span(a), span(b)
    return alo < bhi and blo < ahi


def _values(value, dst, shape):
    """`value` as a device array of dst's dtype (cast like basic assignment), not sharing memory
    with dst, broadcast to the indexing result's shape."""
    from ._creation import asarray, empty
    from ._manipulation import broadcast_to
    if isinstance(value, ndarray):
        v = value
    elif isinstance(value, (numbers.Number, np.generic)):
        v = empty((), dst.dtype)
        v[...] = value
    else:
        v = asarray(value)
    if v.dtype != dst.dtype or overlaps(v, dst):
        staged = empty(v.shape, dst.dtype)
        staged[...] = v
        v = staged
    while v.ndim > len(shape) and v.shape[0] == 1:  # NumPy drops leading length-1 dimensions
        v = v[0]
    try:
        return broadcast_to(v, shape)
    except ValueError:
        raise ValueError(f"shape mismatch: value array of shape {tuple(v.shape)} could not be broadcast to indexing "
                         f"result of shape {tuple(shape)}") from None


def setitem(a, key, value):
    """a[key] = value. Where an index repeats, one of the values written there wins, which one is
    not defined (threads race) — NumPy documents no order either; a[idx] += 1 is not a counter."""
    whole = _whole_mask(a, key)
    if whole is not None and (isinstance(value, (numbers.Number, np.generic)) or
                              (isinstance(value, ndarray) and value.size == 1 and value.ndim <= 1)):
        _index_kernels.masked_fill(a, whole, _values(value, a, (1,)))
        return
    plan = Plan(a, key)
    if plan.basic:
        a[plan.key] = value
        return
    vals = _values(value, a, plan.shape)
    if vals.size:
        _index_kernels.run_indexed(True, plan.view, vals, plan.adv, plan.indices, plan.offset,
                                   len(plan.index_shape))
