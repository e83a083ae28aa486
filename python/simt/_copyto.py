"""simt.copyto: NumPy's checked copy of one array (or scalar) into another, broadcast, cast by a
named rule, optionally only where a mask is true (one select kernel, then the assignment)."""
import numbers

import numpy as np

from ._creation import asarray, host_value
from ._manipulation import _device_array
from ._ndarray import ndarray
from ._ufuncs import where as select


def _broadcasts_to(shape, target):
    return len(shape) <= len(target) and all(n in (1, t) for n, t in zip(shape[::-1], target[::-1]))


def copyto(dst, src, casting="same_kind", where=True):
    """Copies `src` (broadcast) into `dst` where `where` is true, if NumPy's `casting` rule allows
    the cast. A Python scalar's kind is checked as NumPy 2 checks it (1.5 into an int array is
    an error, 1000 into int8 an OverflowError)."""
    if not isinstance(dst, ndarray):
        raise TypeError(f"copyto's destination must be a simt array, not {type(dst).__module__}."
                        f"{type(dst).__qualname__}")
    scalar = not isinstance(src, ndarray)
    src = src if scalar and isinstance(src, (numbers.Number, np.generic)) else _device_array(src, "copyto's source")
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' (got {casting!r})")
    from_dt = np.result_type(dst.dtype, src) if isinstance(src, (bool, int, float, complex)) else src.dtype
    if not np.can_cast(from_dt, dst.dtype, casting):
        raise TypeError(f"Cannot cast {'scalar' if scalar else 'array data'} from {from_dt!r} to {dst.dtype!r} "
                        f"according to the rule '{casting}'")
    if not isinstance(src, ndarray):
        src = host_value(src, dst.dtype)[()]  # NumPy's value checks (OverflowError)
    elif src.shape != dst.shape and not _broadcasts_to(src.shape, dst.shape):
        raise ValueError(f"could not broadcast input array from shape {src.shape} into shape {dst.shape}")
    if where is True:
        dst[...] = src
        return
    mask = asarray(where)
    if not np.can_cast(mask.dtype, np.bool_, "safe"):
        raise TypeError(f"Cannot cast array data from {mask.dtype!r} to dtype('bool') according to the rule 'safe'")
    dst[...] = select(mask, src, dst)
