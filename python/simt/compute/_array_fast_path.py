"""Where a reduction or scan is a plain sum or product of one array's elements into an array of
the same dtype, simt.compute runs simt's own tuned sum / prod / cumsum / cumprod (the array
library's kernels: at memory bandwidth on the GPU, few launches for small inputs) instead of its
general kernels, which must also take iterators and user operators."""
from ._iterators import _ArrayIterator
from ._ops import OpKind

_REDUCTIONS = {OpKind.PLUS: ("sum", "add"), OpKind.MULTIPLIES: ("prod", "multiply")}
_SCANS = {OpKind.PLUS: "cumsum", OpKind.MULTIPLIES: "cumprod"}


def _same_dtype_arrays(vt, *iterators):
    if vt.is_tuple or vt.dtype.kind not in "iufc":
        return False
    return all(isinstance(it, _ArrayIterator) and it.value_type.dtype == vt.dtype for it in iterators)


def reduction(op, vt, in_it, out_it):
    """A function (d_in array, d_out array, n, init scalar) for the reduction, or None."""
    names = _REDUCTIONS.get(op.kind)
    if names is None or not _same_dtype_arrays(vt, in_it, out_it):
        return None
    import simt
    reduce, combine = getattr(simt, names[0]), getattr(simt, names[1])

    def run(d_in, d_out, n, init):
        combine(reduce(d_in[:n], dtype=vt.dtype), init, out=d_out[:1].reshape(()))
    return run


def inclusive_scan(op, vt, in_it, out_it):
    """A function (d_in array, d_out array, n) for an inclusive scan without an initial value, or None."""
    name = _SCANS.get(op.kind)
    if name is None or not _same_dtype_arrays(vt, in_it, out_it):
        return None
    import simt
    scan = getattr(simt, name)

    def run(d_in, d_out, n):
        scan(d_in[:n], dtype=vt.dtype, out=d_out[:n])
    return run
