"""What the make_* objects of simt.compute share: argument checks, the temporary-storage protocol
(called with temp_storage=None an object returns the bytes it needs; called with a buffer at least
that large it runs), and the check that a call passes the kinds of arguments it was built for."""
import operator

import numpy as np

from .._ndarray import ndarray
from ._iterators import IteratorBase, _ArrayIterator, as_iterator
from ._ops import OpKind, operator_key
from ._values import host_value


def count(value, what):
    """A non-negative item count."""
    try:
        n = operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}") from None
    if n < 0:
        raise ValueError(f"{what} must be non-negative, got {n}")
    return n


def temp_bytes(temp_storage, needed, where):
    """Checks a caller's temporary storage against the bytes needed."""
    nbytes = getattr(temp_storage, "nbytes", None)
    if nbytes is None:
        raise TypeError(f"{where}: temp_storage must be a device array (or None to ask for its size), "
                        f"not {type(temp_storage).__name__}")
    if nbytes < needed:
        raise ValueError(f"{where}: temp_storage holds {nbytes} bytes, this call needs {needed}")


class Algorithm:
    """Base of the objects make_* returns. Subclasses set `name` and keep the iterators they were
    built for in `self.built` (role -> iterator)."""
    name = "algorithm"

    def __init__(self):
        self.built = {}

    def bind(self, role, obj):
        """The iterator for argument `role` at build time (the object keeps its kind, not the
        iterator: no arrays stay alive in cached objects)."""
        it = as_iterator(obj, f"{self.name}: {role}")
        self.built[role] = (it.key(), _describe(it))
        return it

    def same(self, role, obj):
        """The iterator for argument `role` at call time, checked against the build-time kind."""
        it = as_iterator(obj, f"{self.name}: {role}")
        key, described = self.built[role]
        if it.key() != key:
            now = _describe(it)
            if now == described:  # the same kind of iterator over other operators
                now, described = now + " with other operators", described + " with its own"
            raise TypeError(f"{self.name}: {role} is {now}, but this object was built for {described}; "
                            f"make a new one with make_{self.name}")
        return it

    def same_init(self, built_vt, h_init, role="h_init"):
        vt, values = host_value(h_init, f"{self.name}: {role}")
        if vt != built_vt:
            raise TypeError(f"{self.name}: {role} has type {vt}, but this object was built for {built_vt}")
        return values


def _describe(it):
    if isinstance(it, _ArrayIterator):
        return f"an array of {it.value_type}"
    return "a " + type(it).__name__ + (f" of {it.value_type}" if it.value_type is not None else "")


def check_value_type(it_vt, vt, where):
    """Tuple values only meet tuple values of as many fields."""
    if it_vt is None or vt is None:
        return
    if it_vt.is_tuple != vt.is_tuple or len(it_vt.dtypes) != len(vt.dtypes):
        raise TypeError(f"{where} yields values of type {it_vt}, which do not convert to {vt}")
    for a, b in zip(it_vt.dtypes, vt.dtypes):
        if a.kind == "c" and b.kind != "c":
            raise TypeError(f"{where} yields {a} values, which do not convert to {b} (complex to real)")


class _Unlimited:
    """The temporary storage of the one-call functions: they allocate what they need themselves."""
    nbytes = float("inf")


NO_TEMP = _Unlimited()
_objects = {}


def _kind(a):
    """What a cached make_* object depends on in argument `a` (the common kinds are tested first:
    this runs on every one-call invocation)."""
    t = type(a)
    if t is ndarray:  # (the kind as_iterator gives every simt array, without building it)
        return ("array", a.dtype.str)
    if t is OpKind:
        return ("opkind", int(a))
    if a is None:
        return None
    if isinstance(a, (np.ndarray, np.generic)):  # host values (h_init): by value type, not identity
        try:
            return ("value", host_value(a)[0].key())
        except (TypeError, ValueError):
            return ("other", id(a))
    if isinstance(a, IteratorBase) or hasattr(a, "__cuda_array_interface__") or hasattr(a, "shape"):
        try:
            return as_iterator(a, "").key()
        except (TypeError, ValueError):
            return ("other", id(a))
    if callable(a):
        return ("op", operator_key(a))
    try:
        return ("value", host_value(a)[0].key())
    except (TypeError, ValueError):
        return ("other", t, a if isinstance(a, (int, str)) else id(a))


def cached(cls, *args):
    """A make_* object for these arguments' kinds, reused by the one-call functions (building one
    generates kernel text; the compiled kernels are cached by that text anyway)."""
    try:
        key = (cls,) + tuple(map(_kind, args))
        obj = _objects.get(key)
    except TypeError:  # something unhashable: build without caching
        return cls(*args)
    if obj is None:
        if len(_objects) > 256:
            _objects.clear()
        obj = _objects[key] = cls(*args)
    return obj
