"""Shapes and strides given by users, and the bytes they reach: shared by the views that check a
layout against the memory under it (lib.stride_tricks.as_strided, ndarray(memptr=))."""
import numbers
import operator


def byte_span(shape, strides, itemsize):
    """[lo, hi): the bytes the elements reach, relative to element 0 (None when there are none)."""
    if 0 in shape:
        return None
    lo, hi = 0, itemsize
    for extent, stride in zip(shape, strides):
        reach = (extent - 1) * stride
        lo, hi = (lo + reach, hi) if reach < 0 else (lo, hi + reach)
    return lo, hi


def int_tuple(value, fname, what):
    """An int or a sequence of ints as a tuple; a TypeError naming `fname` and `what` otherwise."""
    try:
        return (operator.index(value),) if isinstance(value, numbers.Integral) else tuple(operator.index(v) for v in value)
    except TypeError:
        raise TypeError(f"{fname}: {what} must be an int or a sequence of ints, not {value!r}") from None
