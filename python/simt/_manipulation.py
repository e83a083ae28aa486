"""Shape manipulation, joining and ranges: NumPy's functions over simt arrays, built from views
(C++) and elementwise copies, plus arange/linspace/eye generated on the device."""
import math
import numbers
import operator

import numpy as np

from . import _dtypes, _simt
from ._creation import empty, host_value, zeros
from ._ndarray import ndarray

_HOST_DATA = ("simt arrays never combine with host (NumPy) arrays implicitly; copy it to the device with "
              "simt.asarray(x), or copy simt arrays to the host with .get() / simt.asnumpy()")


def _device_array(a, where):
    if isinstance(a, ndarray):
        return a
    if isinstance(a, (np.ndarray, list, tuple)):
        raise TypeError(f"{where} is host data ({type(a).__module__}.{type(a).__qualname__}); " + _HOST_DATA)
    if isinstance(a, (numbers.Number, np.generic)):
        from ._creation import asarray
        return asarray(np.asarray(a))
    raise TypeError(f"{where} must be a simt array, not {type(a).__module__}.{type(a).__qualname__}")


def reshape(a, shape, order="C"):
    return _device_array(a, "reshape's argument").reshape(shape, order=order)


def ravel(a, order="C"):
    return _device_array(a, "ravel's argument").ravel(order)


def transpose(a, axes=None):
    a = _device_array(a, "transpose's argument")
    return a.transpose() if axes is None else a.transpose(tuple(axes))


def swapaxes(a, axis1, axis2):
    return _device_array(a, "swapaxes' argument").swapaxes(axis1, axis2)


def moveaxis(a, source, destination):
    a = _device_array(a, "moveaxis' argument")
    src = _axis_list(source, a.ndim, "source")
    dst = _axis_list(destination, a.ndim, "destination")
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    order = [n for n in range(a.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return a.transpose(order)


def _axis_list(axis, ndim, argname=None):
    """NumPy's normalize_axis_tuple: an int or a sequence of distinct ints (True counts as 1 here,
    as in NumPy's moveaxis and flip)."""
    if not isinstance(axis, (tuple, list)):
        try:
            axis = [operator.index(axis)]
        except TypeError:
            pass  # another iterable (an array of axes)
    out = [_simt._normalize_axis(operator.index(x), ndim) for x in axis]
    if len(set(out)) != len(out):
        raise ValueError("repeated axis" if argname is None else f"repeated axis in `{argname}` argument")
    return out


def squeeze(a, axis=None):
    return _device_array(a, "squeeze's argument").squeeze(axis)


def expand_dims(a, axis):
    return _simt._expand_dims(_device_array(a, "expand_dims' argument"), axis)


def broadcast_to(array, shape):
    shape = (int(shape),) if isinstance(shape, numbers.Integral) else tuple(shape)
    return _simt._broadcast_to(_device_array(array, "broadcast_to's argument"), shape)


def broadcast_shapes(*shapes):
    return _simt._broadcast_shapes([(s,) if isinstance(s, numbers.Integral) else tuple(s) for s in shapes])


def broadcast_arrays(*args):
    arrays = [_device_array(a, f"argument {i + 1} of broadcast_arrays") for i, a in enumerate(args)]
    shape = broadcast_shapes(*(a.shape for a in arrays))
    return [broadcast_to(a, shape) for a in arrays]


def atleast_1d(*arys):
    out = [a if a.ndim >= 1 else a.reshape(1) for a in (_device_array(x, "atleast_1d's argument") for x in arys)]
    return out[0] if len(out) == 1 else out


def atleast_2d(*arys):
    out = []
    for x in arys:
        a = _device_array(x, "atleast_2d's argument")
        out.append(a.reshape(1, 1) if a.ndim == 0 else a[None] if a.ndim == 1 else a)
    return out[0] if len(out) == 1 else out


def atleast_3d(*arys):
    """Arrays viewed with 3 or more dimensions: (N,) becomes (1, N, 1), (M, N) becomes (M, N, 1)."""
    out = []
    for x in arys:
        a = _device_array(x, "atleast_3d's argument")
        out.append(a.reshape(1, 1, 1) if a.ndim == 0 else a[None, :, None] if a.ndim == 1
                   else a[:, :, None] if a.ndim == 2 else a)
    return out[0] if len(out) == 1 else out


def astype(x, dtype, copy=True):
    return _device_array(x, "astype's argument").astype(dtype, copy=copy)


def copy(a, order="K"):
    return _device_array(a, "copy's argument").copy(order=order)


def ascontiguousarray(a, dtype=None):
    a = _device_array(a, "ascontiguousarray's argument")
    dt = a.dtype if dtype is None else _dtypes.normalize(dtype)
    if a._c_contiguous and dt == a.dtype:
        return a if a.ndim >= 1 else a.reshape(1)
    out = a.astype(dt, order="C")
    return out if out.ndim >= 1 else out.reshape(1)


def asfortranarray(a, dtype=None):
    a = _device_array(a, "asfortranarray's argument")
    dt = a.dtype if dtype is None else _dtypes.normalize(dtype)
    if a._f_contiguous and dt == a.dtype:
        return a if a.ndim >= 1 else a.reshape(1)
    out = a.astype(dt, order="F")
    return out if out.ndim >= 1 else out.reshape(1)  # (ndim >= 1, as NumPy's and CuPy's)


def real(val):
    return _device_array(val, "real's argument").real


def imag(val):
    return _device_array(val, "imag's argument").imag


def concatenate(arrays, axis=0, out=None, dtype=None):
    """Join arrays along an existing axis (axis=None: flattened first)."""
    arrays = [_device_array(a, f"array {i} of concatenate") for i, a in enumerate(arrays)]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        arrays = [a.ravel() for a in arrays]
        axis = 0
    first = arrays[0]
    if first.ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    from ._reduce_passes import normalize_axes
    (axis,) = normalize_axes(axis, first.ndim, single=True)  # NumPy's errors (a bool axis: TypeError)
    for i, a in enumerate(arrays[1:], 1):
        if a.ndim != first.ndim:
            raise ValueError("all the input arrays must have same number of dimensions, but the array at index 0 has "
                             f"{first.ndim} dimension(s) and the array at index {i} has {a.ndim} dimension(s)")
        for d in range(first.ndim):
            if d != axis and a.shape[d] != first.shape[d]:
                raise ValueError("all the input array dimensions except for the concatenation axis must match exactly, "
                                 f"but along dimension {d}, the array at index 0 has size {first.shape[d]} and the array "
                                 f"at index {i} has size {a.shape[d]}")
    shape = list(first.shape)
    shape[axis] = sum(a.shape[axis] for a in arrays)
    if out is None:
        dt = np.result_type(*(a.dtype for a in arrays)) if dtype is None else _dtypes.normalize(dtype)
        out = empty(tuple(shape), dt)
    elif out.shape != tuple(shape):
        raise ValueError(f"Output array is the wrong shape: expected {tuple(shape)}, got {out.shape}")
    start = 0
    lead = (slice(None),) * axis
    for a in arrays:
        n = a.shape[axis]
        out[lead + (slice(start, start + n),)] = a
        start += n
    return out


def stack(arrays, axis=0, out=None, dtype=None):
    """Join arrays along a new axis."""
    arrays = [_device_array(a, f"array {i} of stack") for i, a in enumerate(arrays)]
    if not arrays:
        raise ValueError("need at least one array to stack")
    if any(a.shape != arrays[0].shape for a in arrays):
        raise ValueError("all input arrays must have the same shape")
    axis = _simt._normalize_axis(operator.index(axis), arrays[0].ndim + 1)
    return concatenate([expand_dims(a, axis) for a in arrays], axis=axis, out=out, dtype=dtype)


def vstack(tup):
    return concatenate(atleast_2d(*tup) if len(tup) > 1 else [atleast_2d(*tup)], axis=0)


def hstack(tup):
    arrs = atleast_1d(*tup) if len(tup) > 1 else [atleast_1d(*tup)]
    return concatenate(arrs, axis=0 if arrs[0].ndim == 1 else 1)


def dstack(tup):
    """Join arrays along the third axis (after atleast_3d)."""
    arrs = atleast_3d(*tup)
    return concatenate(arrs if isinstance(arrs, list) else [arrs], axis=2)


def column_stack(tup):
    """Join 1-D arrays as columns of a 2-D array (2-D arrays as they are) along axis 1."""
    arrays = []
    for i, v in enumerate(tup):
        a = _device_array(v, f"array {i} of column_stack")
        arrays.append(a.reshape(-1, 1) if a.ndim < 2 else a)
    return concatenate(arrays, axis=1)


# ---- ranges: generated elementwise kernels over the element index `_i` ----------------------------
_RANGE = _simt.ElementwiseKernel("range")


def _fill_range(out, first, delta):
    """out[i] = first + i * delta, computed in float64 (int64 for integer outputs, uint64 for
    uint64 ones: integer arithmetic wraps, so a delta taken modulo 2**64 steps down too)."""
    compute = np.dtype(np.float64)
    if out.dtype.kind in "biu":
        compute = np.dtype(np.uint64 if out.dtype == np.uint64 else np.int64)
    elif out.dtype.kind == "c":
        compute = np.dtype(np.complex128)
    body = f"y0 = x0 + {compute.name}(_i) * x1"
    _RANGE(compute.num, [compute, compute], [False, False], [compute], body, [first, delta], [out], casting="unsafe")
    return out


def _wrap_int(value, unsigned):
    """A Python int reduced modulo 2**64 into the range of uint64 (else int64)."""
    value %= 2**64
    return value - 2**64 if not unsigned and value >= 2**63 else value


def arange(start, stop=None, step=1, dtype=None):
    """Evenly spaced values in [start, stop) (NumPy's rules for length and dtype)."""
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ZeroDivisionError("step must not be zero")
    # (NumPy infers the dtype as for Python numbers, np.float32(3) giving float64, except that an
    # unsigned scalar meets int64: np.uint64 values give float64)
    values = [x.item() if isinstance(x, np.generic) and x.dtype.kind != "u" else x for x in (start, stop, step)]
    if any(isinstance(x, np.unsignedinteger) for x in values):
        values.append(np.dtype(np.int64))
    dt = np.result_type(*values) if dtype is None else np.dtype(dtype)
    dt = _dtypes.normalize(dt)
    n = max(0, math.ceil((stop - start) / step))
    out = empty((n,), dt)
    if n == 0:
        return out
    # NumPy's values: the first two elements in the output dtype fix the step.
    first = host_value(start, dt)[()]
    second = host_value(start + step, dt)[()]
    if dt.kind in "biu":  # an exact integer step, in the wrapping arithmetic _fill_range uses
        return _fill_range(out, int(first), _wrap_int(int(second) - int(first), dt == np.uint64))
    delta = second - first
    return _fill_range(out, first.item(), delta.item())


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """`num` evenly spaced samples over [start, stop] (or [start, stop) without the endpoint).
    Array endpoints give one such sequence per element, along `axis` of the result."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    if np.ndim(start) or np.ndim(stop) or isinstance(start, ndarray) or isinstance(stop, ndarray):
        return _linspace_of_arrays(start, stop, num, endpoint, retstep, dtype, axis)
    if axis not in (0, -1):
        raise np.exceptions.AxisError(axis, 1)
    calc = _dtypes.normalize(np.result_type(start, stop, float(num)))  # NumPy computes in a float type
    dt = calc if dtype is None else _dtypes.normalize(np.dtype(dtype))
    div = (num - 1) if endpoint else num
    step = (stop - start) / div if div > 0 else math.nan
    out = empty((num,), dt)
    if num > 0:
        # As NumPy: float samples with the exact endpoint, floored for integer dtypes, then cast
        # (bool: nonzero is True).
        work = out if dt.kind not in "biu" else empty((num,), calc)
        _fill_range(work, start, step if div > 0 else 0.0)
        if endpoint and num > 1:
            work[-1] = stop
        if dt.kind in "iu":
            from ._ufuncs import floor
            floor(work, out=work)
        if work is not out:
            out[...] = work
    return (out, step) if retstep else out


def _linspace_of_arrays(start, stop, num, endpoint, retstep, dtype, axis):
    """linspace with array endpoints, as NumPy computes it: start + i * step for each i, the last
    sample set to stop, the new axis first and then moved to `axis`."""
    from ._creation import asarray
    s = start if isinstance(start, ndarray) else asarray(np.asarray(start))
    e = stop if isinstance(stop, ndarray) else asarray(np.asarray(stop))
    calc = _dtypes.normalize(np.result_type(s.dtype, e.dtype, float(num)))  # (a weak float: float32 stays)
    dt = calc if dtype is None else _dtypes.normalize(np.dtype(dtype))
    s, e = s.astype(calc), e.astype(calc)
    div = (num - 1) if endpoint else num
    delta = e - s
    step = delta / div if div > 0 else math.nan
    shape = broadcast_shapes(s.shape, e.shape)
    ramp = arange(num, dtype=calc).reshape((num,) + (1,) * len(shape))
    out = ramp * step + s if div > 0 else ramp * delta + s
    out = ascontiguousarray(broadcast_to(out, (num,) + shape))
    if endpoint and num > 1:
        out[-1] = e
    if dt.kind in "iu":
        from ._ufuncs import floor
        floor(out, out=out)
    out = out.astype(dt) if dt != calc else out
    if axis != 0:
        out = moveaxis(out, 0, axis)
    return (out, step) if retstep else out


def eye(N, M=None, k=0, dtype=float, order="C"):
    """A 2-D array with ones on the k-th diagonal and zeros elsewhere."""
    N, k = operator.index(N), operator.index(k)  # NumPy's TypeError for floats
    M = N if M is None else operator.index(M)
    out = zeros((N, M), dtype, order)
    out.diagonal(k).fill(1)
    return out


def identity(n, dtype=float):
    return eye(n, dtype=dtype)
