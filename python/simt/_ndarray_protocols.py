"""Python protocols of simt.ndarray that CuPy arrays support: format() of results, pickling and
copy/deepcopy, `.data` (simt.cuda.memory's MemoryPointer), and `.view(dtype)` (the same memory read as another dtype)."""
import builtins

import numpy as np

from . import _simt

ndarray = _simt.ndarray


def _format(self, spec):
    """f"{x.sum():.3f}" formats the value of a 0-d array; other arrays format like NumPy's."""
    host = self.get()
    return format(host[()] if self.ndim == 0 else host, spec)


def _rebuild(host):
    from ._creation import asarray
    return asarray(host)


def _reduce(self):
    # Pickled through the host: the values travel, the device memory does not.
    return _rebuild, (self.get(),)


def _deepcopy(self, memo):
    copied = self.copy(order="K")
    memo[id(self)] = copied
    return copied


def _data(self):
    from .cuda._memory_views import array_data  # (simt.cuda imports this module's ndarray)
    return array_data(self)


def _viewing(self, view):
    """`view` (of self's memory) with self's base, or self, as its base (ndarray.base)."""
    view._base = vars(self).get("_base", self)
    return view


def _view(self, dtype=None, type=None):
    """The same memory as dtype `dtype` (NumPy's rules): the last axis rescales when the item size
    changes, which needs it contiguous and of a whole number of new items."""
    if type is not None or (isinstance(dtype, builtins.type) and issubclass(dtype, np.ndarray)):
        raise TypeError("simt ndarray.view() takes a dtype; views as other array classes are not supported")
    if dtype is None:
        return _viewing(self, _simt._foreign_array(self._ptr, self.shape, self.strides, self.dtype, self))
    from ._dtypes import normalize
    new = normalize(np.dtype(dtype))
    old = self.dtype.itemsize
    if self._ptr % new.alignment:  # (NumPy allows such views; device loads of them would fault)
        raise ValueError(f"a view as {new} would start at an address not aligned to {new.alignment} bytes; copy the "
                         "array first")
    if new.itemsize == old:
        return _viewing(self, _simt._foreign_array(self._ptr, self.shape, self.strides, new, self))
    if self.ndim == 0:
        raise ValueError("Changing the dtype of a 0d array is only supported if the itemsize is unchanged")
    if self.shape[-1] != 1 and self.strides[-1] != old:
        raise ValueError("To change to a dtype of a different size, the last axis must be contiguous")
    last_bytes = self.shape[-1] * old
    if new.itemsize < old and old % new.itemsize:
        raise ValueError("When changing to a smaller dtype, its size must be a divisor of the size of original dtype")
    if last_bytes % new.itemsize:
        raise ValueError("When changing to a larger dtype, its size must be a divisor of the total size in bytes of "
                         "the last axis of the array.")
    shape = self.shape[:-1] + (last_bytes // new.itemsize,)
    if self.size == 0:  # no memory to share
        from ._creation import empty
        return empty(shape, new)
    strides = self.strides[:-1] + (new.itemsize,)
    return _viewing(self, _simt._foreign_array(self._ptr, shape, strides, new, self))


for _name, _fn in {"__format__": _format, "__reduce__": _reduce, "__copy__": lambda self: self.copy(order="K"),
                   "__deepcopy__": _deepcopy, "view": _view}.items():
    setattr(ndarray, _name, _fn)
ndarray.data = property(_data)
