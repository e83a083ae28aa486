"""simt.modf, frexp (NumPy's two-output ufuncs: simt's C++ ufuncs have one output, so these are
generated elementwise kernels with two) and nan_to_num (one kernel per real part)."""
import numpy as np

from . import _simt
from ._creation import empty
from ._manipulation import _device_array

_KERNEL = _simt.ElementwiseKernel("float_parts")
# (kernel body, loop id base): loop ids key the kernel's compiled loops, one per body and dtype.
_BODIES = {
    "modf": ("t_p = math.modf(x0)\ny0 = t_p[0]\ny1 = t_p[1]", 0),
    "frexp": ("t_p = math.frexp(x0)\ny0 = t_p[0]\ny1 = t_p[1]", 100),
    "nan_to_num": ("y0 = x1 if x0 != x0 else (x0 if not math.isinf(x0) else (x2 if x0 > 0 else x3))", 200),
}


def _float_loop(name, x):
    """NumPy's loop for a float-only ufunc: the first of float16, float32, float64 that x's dtype
    casts to safely (int8 -> float16, int32 -> float64)."""
    for dt in (np.float16, np.float32, np.float64):
        if np.can_cast(x.dtype, dt):
            return np.dtype(dt)
    raise TypeError(f"ufunc '{name}' not supported for the input types, and the inputs could not be safely "
                    "coerced to any supported types according to the casting rule ''safe''")


def _two_outputs(name, x, second, outs, out):
    x = _device_array(x, f"{name}'s argument")
    if out is not None:
        if any(o is not None for o in outs):
            raise TypeError("cannot specify 'out' as both a positional and keyword argument")
        outs = tuple(out) if isinstance(out, (tuple, list)) else (out,)
        if len(outs) != 2:
            raise ValueError(f"The 'out' tuple must have exactly 2 entries: one per ufunc output ({name} has 2)")
    dt = _float_loop(name, x)
    types = [dt, dt if second is None else np.dtype(second)]
    outs = [empty(x.shape, t) if o is None else o for o, t in zip(outs, types)]
    body, base = _BODIES[name]
    _KERNEL(base + dt.num, [dt], [False], types, body, [x], out=outs)
    return tuple(outs)


def modf(x, out1=None, out2=None, /, *, out=None):
    """Fractional and integral parts, elementwise, both with x's sign (a float type: integers
    as NumPy converts them)."""
    return _two_outputs("modf", x, None, (out1, out2), out)


def frexp(x, out1=None, out2=None, /, *, out=None):
    """Mantissa in [0.5, 1) (with x's sign) and int32 exponent, x = m * 2**e elementwise."""
    return _two_outputs("frexp", x, np.int32, (out1, out2), out)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN replaced by `nan`, +-inf by `posinf`/`neginf` (default: the dtype's largest and most
    negative finite values); complex numbers part by part. With copy=False, in place."""
    x = _device_array(x, "nan_to_num's argument")
    result = x.copy() if copy else x
    if x.dtype.kind not in "fc":
        return result
    parts = (result.real, result.imag) if x.dtype.kind == "c" else (result,)
    dt = parts[0].dtype
    info = np.finfo(dt)
    values = [float(nan), float(info.max if posinf is None else posinf), float(info.min if neginf is None else neginf)]
    body, base = _BODIES["nan_to_num"]
    for p in parts:
        _KERNEL(base + dt.num, [dt] * 4, [False] * 4, [dt], body, [p] + values, out=[p], casting="unsafe")
    return result
