"""Iterators of simt.compute. An iterator is code: emit() writes the kernel text that reads (or
writes) item i, fused into the algorithm's kernel; state() gives the values its parameters take
at a launch (arrays, start values). Device arrays become array iterators."""
import numpy as np

from .._interop import device_view
from .._kernelgen import flat, type_name
from .._ndarray import ndarray
from ._ops import Op
from ._values import ValueType, _supported, scalar_value_type


class Access:
    """An iterator bound into one kernel: load(i) is the text of item i, store(i, var, vt, ind) the
    statements writing `var` (of value type vt, None when unknown) as item i."""

    def __init__(self, load=None, store=None):
        self._load, self._store = load, store

    def load(self, idx):
        return self._load(idx)

    def store(self, idx, var, vt, ind):
        return self._store(idx, var, vt, ind)


class IteratorBase:
    """What every simt.compute iterator provides."""
    readable = True
    writable = False
    value_type = None   # a ValueType, or None where only the kernel compiler knows (a user op's result)

    def key(self):
        raise NotImplementedError

    def emit(self, ks):
        raise NotImplementedError

    def state(self):
        return []

    def length(self):
        """Items available (None: unbounded)."""
        return None

    def __repr__(self):
        return f"{type(self).__name__}({self.value_type})"


class _ArrayIterator(IteratorBase):
    """A 1-D device array (any strides), read and written in place."""
    writable = True

    def __init__(self, array):
        self.array = array
        self.value_type = scalar_value_type(array.dtype, "the array")

    def key(self):
        return ("array", self.value_type.key())

    def emit(self, ks):
        name = ks.param("a")
        dt = self.value_type.dtype

        def store(idx, var, vt, ind):
            _check_scalar_store(vt, dt)
            return [f"{ind}{name}[{idx}] = {type_name(dt)}({var})"]
        return Access(lambda idx: f"{name}[{idx}]", store)

    def state(self):
        return [self.array]

    def length(self):
        return self.array.shape[0]


def _check_scalar_store(vt, dt):
    if vt is None:
        return
    if vt.is_tuple:
        raise TypeError(f"a tuple value ({vt}) cannot be written to an array of dtype {dt}; write it through a "
                        "ZipIterator of arrays, one per field")
    if vt.dtype.kind == "c" and dt.kind != "c":
        raise TypeError(f"a {vt.dtype} value cannot be written to an array of dtype {dt} (complex to real)")


class _FieldArrays(IteratorBase):
    """Temporaries holding values of a ValueType: one array per field (internal)."""
    writable = True

    def __init__(self, vt, arrays):
        self.value_type, self.arrays = vt, list(arrays)

    def key(self):
        return ("fields", self.value_type.key())

    def emit(self, ks):
        names = [ks.param("f") for _ in self.arrays]
        vt = self.value_type
        return Access(lambda idx: vt.array_load(names, idx),
                      lambda idx, var, _vt, ind: vt.array_store(names, idx, var, ind))

    def state(self):
        return list(self.arrays)

    def length(self):
        return self.arrays[0].shape[0]


def _scalar_value(value, what):
    if isinstance(value, np.generic):
        return value
    if isinstance(value, np.ndarray) and value.size == 1:
        return value.reshape(-1)[0]
    if isinstance(value, bool):
        return np.bool_(value)
    if isinstance(value, int):
        return np.int64(value)
    if isinstance(value, float):
        return np.float64(value)
    if isinstance(value, complex):
        return np.complex128(value)
    raise TypeError(f"{what} must be a number or NumPy scalar, not {type(value).__name__}")


class CountingIterator(IteratorBase):
    """offset, offset + 1, offset + 2, ... in the dtype of `offset` (int64 for a Python int)."""

    def __init__(self, offset):
        self.offset = _scalar_value(offset, "CountingIterator's offset")
        self.value_type = ValueType.scalar(_supported(self.offset.dtype, "CountingIterator's offset"))

    def key(self):
        return ("counting", self.value_type.key())

    def emit(self, ks):
        p = ks.param("start")
        t = type_name(self.value_type.dtype)
        return Access(lambda idx: f"{t}({p} + {idx})")

    def state(self):
        return [self.offset]


class ConstantIterator(IteratorBase):
    """`value` at every position, in its dtype (int64 / float64 for Python numbers)."""

    def __init__(self, value):
        self.value = _scalar_value(value, "ConstantIterator's value")
        self.value_type = ValueType.scalar(_supported(self.value.dtype, "ConstantIterator's value"))

    def key(self):
        return ("constant", self.value_type.key())

    def emit(self, ks):
        p = ks.param("value")
        return Access(lambda idx: p)

    def state(self):
        return [self.value]


class TransformIterator(IteratorBase):
    """op(it[i]) at position i: `op` runs inside the algorithm's kernel as items are read."""

    def __init__(self, it, op):
        self.it = as_iterator(it, "TransformIterator's it")
        if not self.it.readable:
            raise TypeError(f"TransformIterator reads its iterator, and a {type(self.it).__name__} cannot be read")
        self.op = Op(op, 1, "TransformIterator's op")
        self.value_type = self.it.value_type if self.op.is_builtin else None

    def key(self):
        return ("transform", self.it.key(), self.op.key())

    def emit(self, ks):
        inner = self.it.emit(ks)
        return Access(lambda idx: self.op.call(ks, inner.load(idx)))

    def state(self):
        return self.it.state()

    def length(self):
        return self.it.length()


class TransformOutputIterator(IteratorBase):
    """Writes op(value) to it[i] when the algorithm writes value at position i."""
    readable = False
    writable = True

    def __init__(self, it, op):
        self.it = as_iterator(it, "TransformOutputIterator's it")
        if not self.it.writable:
            raise TypeError(f"TransformOutputIterator writes its iterator, and a {type(self.it).__name__} "
                            "cannot be written")
        self.op = Op(op, 1, "TransformOutputIterator's op")

    def key(self):
        return ("transform_output", self.it.key(), self.op.key())

    def emit(self, ks):
        inner = self.it.emit(ks)

        def store(idx, var, vt, ind):
            t = ks.tmp("tout")
            return [f"{ind}{t} = {self.op.call(ks, var)}"] + inner.store(idx, t, None, ind)
        return Access(None, store)

    def state(self):
        return self.it.state()

    def length(self):
        return self.it.length()


class ZipIterator(IteratorBase):
    """(it0[i], it1[i], ...) at position i: a tuple that operators index (v[0], v[1]); written
    through, field k goes to iterator k."""

    def __init__(self, *iterators):
        if not iterators:
            raise ValueError("ZipIterator needs at least one iterator")
        self.its = [as_iterator(it, f"ZipIterator's iterator {k}") for k, it in enumerate(iterators)]
        self.readable = all(it.readable for it in self.its)
        self.writable = all(it.writable for it in self.its)
        vts = [it.value_type for it in self.its]
        if any(vt is None for vt in vts):
            self.value_type = None
        elif any(vt.is_tuple for vt in vts):
            raise NotImplementedError("ZipIterator of ZipIterators (nested tuples) is not supported")
        else:
            self.value_type = ValueType([vt.dtype for vt in vts], True)

    def key(self):
        return ("zip",) + tuple(it.key() for it in self.its)

    def emit(self, ks):
        inner = [it.emit(ks) for it in self.its]

        def load(idx):
            return "(" + "".join(a.load(idx) + ", " for a in inner) + ")"

        def store(idx, var, vt, ind):
            if vt is not None and (not vt.is_tuple or len(vt.dtypes) != len(inner)):
                raise TypeError(f"a ZipIterator of {len(inner)} iterators cannot take values of type {vt}")
            lines = []
            for k, a in enumerate(inner):
                field = None if vt is None else ValueType.scalar(vt.dtypes[k])
                lines += a.store(idx, f"{var}[{k}]", field, ind)
            return lines
        return Access(load if self.readable else None, store if self.writable else None)

    def state(self):
        return [v for it in self.its for v in it.state()]

    def length(self):
        lengths = [n for n in (it.length() for it in self.its) if n is not None]
        return min(lengths) if lengths else None


class ReverseIterator(IteratorBase):
    """A device array read (or written) from its last element back: position i is
    sequence[len - 1 - i]."""

    def __init__(self, sequence):
        it = as_iterator(sequence, "ReverseIterator's sequence")
        if not isinstance(it, _ArrayIterator):
            raise TypeError("ReverseIterator needs a device array (it starts from the array's last element), "
                            f"not a {type(it).__name__}")
        self.it = it
        self.value_type = it.value_type
        self.writable = True

    def key(self):
        return ("reverse", self.it.key())

    def emit(self, ks):
        inner = self.it.emit(ks)
        n = ks.param("len")

        def flip(idx):
            return f"({n} - 1 - ({idx}))"
        return Access(lambda idx: inner.load(flip(idx)), lambda idx, var, vt, ind: inner.store(flip(idx), var, vt, ind))

    def state(self):
        return self.it.state() + [np.int64(self.it.length())]

    def length(self):
        return self.it.length()


class PermutationIterator(IteratorBase):
    """values[indices[i]] at position i."""

    def __init__(self, values, indices):
        self.values = as_iterator(values, "PermutationIterator's values")
        self.indices = as_iterator(indices, "PermutationIterator's indices")
        vt = self.indices.value_type
        if vt is not None and (vt.is_tuple or vt.dtype.kind not in "iu"):
            raise TypeError(f"PermutationIterator's indices must be integers, not {vt}")
        self.value_type = self.values.value_type

    def key(self):
        return ("permutation", self.values.key(), self.indices.key())

    def emit(self, ks):
        vals, idxs = self.values.emit(ks), self.indices.emit(ks)
        ks.masked = True
        return Access(lambda idx: vals.load(f"np.int64({idxs.load(idx)})"))

    def state(self):
        return self.values.state() + self.indices.state()

    def length(self):
        return self.indices.length()


class DiscardIterator(IteratorBase):
    """An output that drops what is written to it."""
    readable = False
    writable = True

    def __init__(self, reference_iterator=None):
        self.reference = reference_iterator

    def key(self):
        return ("discard",)

    def emit(self, ks):
        return Access(None, lambda idx, var, vt, ind: [])


def CacheModifiedInputIterator(device_array, modifier):
    """A device array read with a cache hint; simt reads it as a plain array (the hint is not
    expressible in the kernel language). Only modifier "stream" is accepted, as cuda.compute."""
    if modifier != "stream":
        raise NotImplementedError(f"CacheModifiedInputIterator supports the modifier 'stream' only, not {modifier!r}")
    return as_iterator(device_array, "CacheModifiedInputIterator's device_array")


def as_iterator(obj, where):
    """`obj` as an iterator: iterators as they are, device arrays (simt, or anything with
    __cuda_array_interface__ / DLPack on the device) as array iterators."""
    if type(obj) is ndarray and obj.ndim == 1:  # the common case first
        return _ArrayIterator(obj)
    if isinstance(obj, IteratorBase):
        return obj
    arr = obj if isinstance(obj, ndarray) else device_view(obj)
    if arr is None:
        if isinstance(obj, np.ndarray):
            raise TypeError(f"{where} is a NumPy array (host memory); copy it to the device first with "
                            "simt.asarray(x)")
        raise TypeError(f"{where} must be a device array or a simt.compute iterator, not {type(obj).__name__}")
    if arr.ndim != 1:
        if not arr._c_contiguous:
            raise ValueError(f"{where} is a {arr.ndim}-d array that is not C-contiguous; pass a 1-d array")
        arr = flat(arr)
    return _ArrayIterator(arr)


def input_access(it, ks, where):
    if not it.readable:
        raise TypeError(f"{where} cannot be read (a {type(it).__name__} is output only)")
    return it.emit(ks)


def output_access(it, ks, where):
    if not it.writable:
        raise TypeError(f"{where} cannot be written (a {type(it).__name__} is input only)")
    return it.emit(ks)


def check_length(it, needed, where, what="num_items"):
    n = it.length()
    if n is not None and needed > n:
        raise ValueError(f"{where} has {n} items, fewer than {what}={needed}")
