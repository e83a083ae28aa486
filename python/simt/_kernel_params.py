"""The parameter lists of CuPy-style user kernels (simt.ElementwiseKernel, simt.ReductionKernel):
parsing "T x, raw float32 y", binding the arguments of a call (dtypes, type placeholders, Python
scalars, output allocation), and the C++ spelling of each type in the generated CUDA C++."""
import numbers
import re

import numpy as np

from ._ndarray import ndarray

_CTYPES = {
    np.dtype(np.bool_): "bool", np.dtype(np.int8): "signed char", np.dtype(np.int16): "short",
    np.dtype(np.int32): "int", np.dtype(np.int64): "long long", np.dtype(np.uint8): "unsigned char",
    np.dtype(np.uint16): "unsigned short", np.dtype(np.uint32): "unsigned int",
    np.dtype(np.uint64): "unsigned long long", np.dtype(np.float32): "float", np.dtype(np.float64): "double",
    # (CuPy's spellings, from simt's <cupy/float16.cuh> and <cupy/complex.cuh>: see headers_for)
    np.dtype(np.float16): "float16", np.dtype(np.complex64): "complex<float>",
    np.dtype(np.complex128): "complex<double>",
}
_NAME = re.compile(r"[A-Za-z_]\w*$")
RESERVED = {"i", "_ind"}


def is_identifier(text):
    return bool(_NAME.match(text))


def ctype(dtype, where):
    """The C++ type of a NumPy dtype in generated code."""
    c = _CTYPES.get(np.dtype(dtype))
    if c is None:
        raise TypeError(f"{where}: {np.dtype(dtype)} has no C++ type in simt's user kernels "
                        "(bool, integers, float16, float32, float64, complex64 and complex128)")
    return c


def headers_for(dtypes, snippets):
    """The #include lines a user kernel needs: <cupy/complex.cuh> where a complex type is used
    (or a snippet names `complex`), <cupy/float16.cuh> likewise for float16 / half."""
    dtypes = {np.dtype(d) for d in dtypes}
    text = "\n".join(snippets)
    lines = []
    if any(d.kind == "c" for d in dtypes) or re.search(r"\bcomplex\b", text):
        lines.append("#include <cupy/complex.cuh>")
    if np.dtype(np.float16) in dtypes or re.search(r"\b(float16|half|__half)\b", text):
        lines.append("#include <cupy/float16.cuh>")
    return "".join(line + "\n" for line in lines)


class Param:
    """One declared parameter: name, a dtype or a type placeholder (one letter), raw or not."""

    def __init__(self, text, where):
        words = text.split()
        self.raw = words[:1] == ["raw"]
        if self.raw:
            words = words[1:]
        if len(words) != 2 or not _NAME.match(words[1]):
            raise ValueError(f"{where}: cannot read the parameter {text.strip()!r} (expected 'type name' or "
                             "'raw type name')")
        type_text, self.name = words
        if self.name in RESERVED or self.name.startswith("_"):
            raise ValueError(f"{where}: the parameter name {self.name!r} is reserved (i and names starting with _)")
        if len(type_text) == 1 and type_text.isalpha():
            self.placeholder, self.dtype = type_text, None
        else:
            self.placeholder = None
            try:
                self.dtype = np.dtype(type_text)
            except TypeError:
                raise ValueError(f"{where}: unknown type {type_text!r} of parameter {self.name!r}") from None
            ctype(self.dtype, where)


def parse_params(text, where):
    if not isinstance(text, str):
        raise TypeError(f"{where}: parameter lists are strings such as 'float32 x, T y', not {type(text).__name__}")
    params = [Param(p, where) for p in text.split(",") if p.strip()]
    names = [p.name for p in params]
    for n in set(names):
        if names.count(n) > 1:
            raise ValueError(f"{where}: the parameter name {n!r} is used twice")
    return params


def parse_kernel(kind, name, in_params, out_params, snippets):
    """(where, inputs, outputs) of a user kernel's declaration, checked: a C identifier for a
    name, at least one output, distinct parameter names, snippets (name -> text) that are str."""
    if not isinstance(name, str) or not is_identifier(name):
        raise ValueError(f"{kind}: name must be a C identifier, got {name!r}")
    where = f"{kind} '{name}'"
    ins, outs = parse_params(in_params, where), parse_params(out_params, where)
    if not outs:
        raise ValueError(f"{where}: needs at least one output parameter")
    names = [p.name for p in ins + outs]
    if len(set(names)) != len(names):
        raise ValueError(f"{where}: an input and an output share a name")
    for what, text in snippets.items():
        if not isinstance(text, str):
            raise TypeError(f"{where}: {what} must be a str of CUDA C++, not {type(text).__name__}")
    return where, ins, outs


def is_scalar(value):
    return isinstance(value, (numbers.Number, np.generic)) and not isinstance(value, np.ndarray)


def device_argument(value, param, where):
    """A call's argument for `param` as a simt array or a scalar (other libraries' device arrays
    come in zero-copy; host arrays are refused)."""
    if isinstance(value, ndarray) or is_scalar(value):
        if param.raw and not isinstance(value, ndarray):
            raise TypeError(f"{where}: the raw parameter {param.name!r} needs a device array, got a scalar")
        return value
    if isinstance(value, np.ndarray):
        raise TypeError(f"{where}: argument {param.name!r} is a NumPy (host) array; copy it to the device first "
                        "(simt.asarray)")
    from ._interop import device_view
    view = device_view(value)
    if view is None:
        raise TypeError(f"{where}: argument {param.name!r} is a {type(value).__name__}: pass device arrays or "
                        "scalars")
    return view


def bind_types(params, values, where, types=None):
    """Placeholder letter -> dtype: from the arrays of the given values first (a placeholder that
    several arrays share must have one dtype), then from NumPy scalars, then from Python
    scalars; `types` may already hold some."""
    types = dict(types or {})
    for pass_kind in ("array", "numpy", "python"):
        for p, v in zip(params, values):
            if p.placeholder is None or v is None:
                continue
            if pass_kind == "array" and isinstance(v, ndarray):
                dt = np.dtype(v.dtype)
                if types.setdefault(p.placeholder, dt) != dt:
                    raise TypeError(f"{where}: type {p.placeholder} is {types[p.placeholder]} from an earlier argument, "
                                    f"but {p.name!r} is {dt}")
            elif pass_kind == "numpy" and isinstance(v, np.generic):
                types.setdefault(p.placeholder, np.dtype(v.dtype))
            elif pass_kind == "python" and is_scalar(v) and not isinstance(v, np.generic):
                types.setdefault(p.placeholder, np.result_type(v))
    return types


def dtype_of(param, types, where):
    if param.placeholder is None:
        return param.dtype
    dt = types.get(param.placeholder)
    if dt is None:
        raise TypeError(f"{where}: cannot tell type {param.placeholder} of {param.name!r}: no argument gives it "
                        "(pass the output array, or an input of that type)")
    ctype(dt, where)
    return dt
