"""numba's DeviceNDArray.split(section, stream=0) on simt's arrays: a 1-D array with unit stride
as consecutive views of `section` elements (the last one shorter when they do not divide it)."""
import operator

from .._ndarray import ndarray


def split(self, section, stream=0):
    """Yields views of this 1-D contiguous array, `section` elements each (the last may be
    shorter). The views share its memory; `stream` is accepted as numba's is (views copy nothing)."""
    try:
        section = operator.index(section)
    except TypeError:
        raise TypeError(f"split() takes the section size as an int, got {type(section).__name__}") from None
    if section <= 0:
        raise ValueError(f"split() needs a positive section size, got {section}")
    if self.ndim != 1:
        raise ValueError(f"split() supports 1-d arrays only, got a {self.ndim}-d array")
    if self.size > 1 and self.strides[0] != self.dtype.itemsize:
        raise ValueError(f"split() supports unit-stride arrays only (stride {self.strides[0]} bytes, item "
                         f"{self.dtype.itemsize} bytes)")
    return (self[begin:begin + section] for begin in range(0, self.size, section))


ndarray.split = split
