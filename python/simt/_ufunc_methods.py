"""The methods of simt's binary ufuncs that NumPy and CuPy ufuncs have: reduce, accumulate,
outer and at (np.add.reduce(d) and np.multiply.outer(d, e) reach them through __array_ufunc__).
reduce and accumulate run simt's reductions and scans; at() applies the operation once per index,
repeated indices included, through atomics or one sequential pass."""
import numpy as np

from . import _kernelgen as kg
from . import _simt
from ._ndarray import ndarray

ufunc = _simt.ufunc

# reduce(): the simt reduction each ufunc's fold is.
_REDUCTIONS = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min", "logical_and": "all",
               "logical_or": "any"}
# accumulate(): the scan each ufunc's running fold is.
_SCANS = {"add": "cumsum", "multiply": "cumprod"}
# at(): each ufunc as an expression of the current value x and the operand y.
_AT_EXPRESSIONS = {"add": "x + y", "subtract": "x - y", "multiply": "x * y",
                   "maximum": "x if x > y or x != x else y", "minimum": "x if x < y or x != x else y",
                   "bitwise_and": "x & y", "bitwise_or": "x | y", "bitwise_xor": "x ^ y"}
# at(): the atomic that applies each ufunc concurrently (subtract adds the negated operand), and
# the dtypes atomics take.
_AT_ATOMICS = {"add": "add", "subtract": "add", "maximum": "max", "minimum": "min"}
_ATOMIC_DTYPES = {np.dtype(t) for t in (np.int32, np.int64, np.uint32, np.uint64, np.float32, np.float64)}
_NO_VALUE = object()


def _as_device(x, what):
    from ._manipulation import _device_array
    return _device_array(x, what)


def _unsupported(u, method, supported):
    return TypeError(f"simt.{u.__name__}.{method} is not supported; simt has {method} for "
                     f"{', '.join(sorted(supported))}")


def _reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NO_VALUE, where=True):
    """Fold `array` along `axis` (default 0; None: all axes; a tuple: those) with this ufunc."""
    from . import _reductions
    name = _REDUCTIONS.get(self.__name__)
    if name is None:
        raise _unsupported(self, "reduce", _REDUCTIONS)
    a = _as_device(array, f"{self.__name__}.reduce's argument")
    kwargs = {"axis": axis, "out": out, "keepdims": keepdims}
    if initial is not _NO_VALUE and initial is not None:
        kwargs["initial"] = initial
    if where is not True:
        kwargs["where"] = where
    if name in ("sum", "prod"):
        kwargs["dtype"] = dtype
    elif dtype is not None:
        a = a.astype(dtype)
    return getattr(_reductions, name)(a, **kwargs)


def _accumulate(self, array, axis=0, dtype=None, out=None):
    """The running fold of `array` along `axis` (NumPy's accumulate is cumsum/cumprod, small
    integers and booleans widened alike)."""
    from . import _scan
    name = _SCANS.get(self.__name__)
    if name is None:
        raise _unsupported(self, "accumulate", _SCANS)
    a = _as_device(array, f"{self.__name__}.accumulate's argument")
    if a.ndim == 0:
        raise TypeError("cannot accumulate on a scalar")
    return getattr(_scan, name)(a, axis=axis, dtype=dtype, out=out)


def _outer(self, A, B, **kwargs):
    """self(a, b) for every pair: result[i..., j...] = self(A[i...], B[j...])."""
    if self.nin != 2:
        raise ValueError(f"simt.{self.__name__}.outer needs a ufunc of two arguments")
    a = _as_device(A, f"{self.__name__}.outer's first argument")
    b = _as_device(B, f"{self.__name__}.outer's second argument")
    return self(a.reshape(a.shape + (1,) * b.ndim), b, **kwargs)


def _at_source(name, atomic, dtype):
    t = kg.type_name(np.dtype(dtype))
    if atomic:
        value = "-v[i]" if name == "subtract" else "v[i]"
        return (f"def simt_ufunc_at(target, pos, v, n):\n"
                f"    i = cuda.grid(1)\n"
                f"    if i < n:\n"
                f"        cuda.atomic.{_AT_ATOMICS[name]}(target, pos[i], {t}({value}))\n")
    # One thread, in index order: repeated indices see each other's updates, as in NumPy.
    return (f"def simt_ufunc_at(target, pos, v, n):\n"
            f"    if cuda.grid(1) == 0:\n"
            f"        for i in range(n):\n"
            f"            x = target[pos[i]]\n"
            f"            y = {t}(v[i])\n"
            f"            target[pos[i]] = {t}({_AT_EXPRESSIONS[name]})\n")


def _at(self, a, indices, b=None):
    """a[indices] = self(a[indices], b) in place, applied once per index even where an index
    repeats (np.add.at(a, [0, 0], 1) adds 2 to a[0])."""
    from ._creation import asarray
    from ._manipulation import arange, broadcast_to
    if self.__name__ not in _AT_EXPRESSIONS or b is None:
        raise _unsupported(self, "at (with an operand b)", _AT_EXPRESSIONS)
    if not isinstance(a, ndarray):
        raise TypeError(f"simt.{self.__name__}.at: the first argument must be a simt array, not "
                        f"{type(a).__module__}.{type(a).__qualname__} (at() updates it in place)")
    target = a if a._c_contiguous else a.copy()
    selected = arange(a.size, dtype=np.int64).reshape(a.shape)[indices]  # the flat positions indexed
    positions = selected.reshape(-1).copy()
    if isinstance(b, (bool, int, float, complex)):  # a Python scalar is weak: its kind matters, not int64
        given = np.result_type(a.dtype, b)
        values = asarray(b, dtype=a.dtype) if np.can_cast(given, a.dtype, "same_kind") else asarray(b)
    else:
        values = b if isinstance(b, ndarray) else asarray(b)
    if not np.can_cast(values.dtype, a.dtype, "same_kind"):
        raise TypeError(f"simt.{self.__name__}.at: cannot cast operands of dtype {values.dtype} to {a.dtype} "
                        "with casting rule 'same_kind'")
    values = broadcast_to(values, selected.shape).reshape(-1).copy()
    n = positions.size
    integer_extreme = a.dtype.kind in "iu" and self.__name__ in ("maximum", "minimum")
    atomic = a.dtype in _ATOMIC_DTYPES and (self.__name__ in ("add", "subtract") or integer_extreme)
    k = kg.kernel("simt_ufunc_at", _at_source(self.__name__, atomic, a.dtype))
    flat = kg.as_shape(target, (a.size,))
    if atomic:
        kg.launch(k, max(1, -(-n // 256)), 256, flat, positions, values, n)
    else:
        kg.launch(k, 1, 1, flat, positions, values, n)
    if target is not a:
        a[...] = target


for _name, _fn in {"reduce": _reduce, "accumulate": _accumulate, "outer": _outer, "at": _at}.items():
    setattr(ufunc, _name, _fn)
