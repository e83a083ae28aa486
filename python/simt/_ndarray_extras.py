"""More of CuPy's ndarray surface: .flat (a flatiter), .mT, tobytes/tofile/dump/dumps (through
host memory, as CuPy's are) and the choose method."""
import numbers
import pickle

import numpy as np

from ._ndarray import ndarray


class flatiter:  # noqa: N801 (NumPy's and CuPy's class name)
    """a.flat: the array seen as 1-D in C order. Indexing reads (a copy: ints give 0-d arrays,
    slices, integer and boolean arrays give 1-D arrays); assignment writes through to the array,
    the values repeated as often as needed to cover the positions selected (NumPy's rule)."""

    def __init__(self, a):
        self._base = a

    @property
    def base(self):
        """The array iterated over."""
        return self._base

    def __len__(self):
        return self._base.size

    def _positions(self, key):
        """The flat (C-order) positions `key` selects, as an int64 device array (1-D or 0-d)."""
        from ._manipulation import arange
        a = self._base
        if isinstance(key, tuple):
            if len(key) != 1:
                raise IndexError("unsupported iterator index: a.flat takes one index")
            key = key[0]
        if isinstance(key, numbers.Integral) and not isinstance(key, (bool, np.bool_)):
            if not -a.size <= int(key) < a.size:
                raise IndexError(f"index {int(key)} is out of bounds for size {a.size}")
        return arange(a.size, dtype=np.int64)[key]

    def __getitem__(self, key):
        a = self._base
        if a._c_contiguous:
            picked = a.reshape(-1)[key]
            return picked.copy() if isinstance(picked, ndarray) and picked.base is not None else picked
        return a.reshape(-1)[key]  # (not contiguous: reshape gave a copy already)

    def __setitem__(self, key, value):
        from ._creation import asarray
        from ._numpy_extras import unravel_index
        a = self._base
        pos = self._positions(key)
        values = value if isinstance(value, ndarray) else asarray(np.asarray(value))
        values = values.astype(a.dtype, copy=False).reshape(-1)
        count = pos.size
        if count == 0:
            return
        if values.size == 0:
            raise ValueError("a.flat assignment: no values to assign")
        if values.size != count:  # NumPy repeats the values over the positions
            from ._manipulation import arange
            values = values[arange(count, dtype=np.int64) % values.size]
        values = values.reshape(pos.shape)
        if a._c_contiguous:
            a.reshape(-1)[pos] = values
        else:
            a[unravel_index(pos, a.shape)] = values

    def __iter__(self):
        flat = self._base.reshape(-1)
        return (flat[i] for i in range(flat.size))

    def copy(self):
        """The array's elements as a new 1-D array (C order)."""
        return self._base.flatten()

    def __eq__(self, other):
        return self.copy() == other

    def __ne__(self, other):
        return self.copy() != other

    def __lt__(self, other):
        return self.copy() < other

    def __le__(self, other):
        return self.copy() <= other

    def __gt__(self, other):
        return self.copy() > other

    def __ge__(self, other):
        return self.copy() >= other

    __hash__ = None

    def __repr__(self):
        return f"<simt.flatiter over an array of shape {self._base.shape}>"


def _set_flat(self, value):
    flatiter(self)[...] = value


def _matrix_transpose(self):
    if self.ndim < 2:
        raise ValueError("matrix transpose with ndim < 2 is undefined")
    return self.swapaxes(-1, -2)


def _tobytes(self, order="C"):
    """The elements' raw bytes in C or Fortran order (a copy through host memory)."""
    if order not in ("C", "F", "A", "K", None):
        raise ValueError(f"order must be one of 'C', 'F', 'A', 'K' (got {order!r})")
    return self.get(order="K" if order in ("A", "K", None) else order).tobytes(order or "C")


def _tofile(self, fid, sep="", format="%s"):  # noqa: A002 (NumPy's name)
    """Write the elements to a file (NumPy's ndarray.tofile of a host copy)."""
    self.get().tofile(fid, sep=sep, format=format)


def _dump(self, file):
    """Pickle the array to `file` (a path or an open binary file); pickle.load gives it back."""
    if isinstance(file, (str, bytes)) or hasattr(file, "__fspath__"):
        with open(file, "wb") as f:
            pickle.dump(self, f, protocol=2)
    else:
        pickle.dump(self, file, protocol=2)


def _dumps(self):
    """The array pickled to bytes (pickle.loads gives it back)."""
    return pickle.dumps(self, protocol=2)


def _choose(self, choices, out=None, mode="raise"):
    from ._numpy_extras2 import choose
    return choose(self, choices, out=out, mode=mode)


ndarray.flat = property(flatiter, _set_flat)
ndarray.mT = property(_matrix_transpose)
for _name, _fn in {"tobytes": _tobytes, "tofile": _tofile, "dump": _dump, "dumps": _dumps, "choose": _choose}.items():
    setattr(ndarray, _name, _fn)
