"""numba's type objects, for signatures written with them: `void(float32[:], int32)`,
`float32(float32, float32)`, `(float32[:, ::1], int64)`, `types.float64[:]`. Each stands for its
NumPy dtype (np.zeros(n, float32) and `float32(x)` in kernels work as with NumPy's types) and
renders as the signature text @cuda.jit parses (str(void(float32[:])) == 'void(float32[:])').
Under simt.compat these are `from numba import float32, void` and `numba.types`."""
import numpy as np

__all__ = ["ArrayType", "CPointer", "Signature", "ScalarType", "from_dtype", "signature_text", "typeof", "void",
           "voidptr"]


class Signature:
    """`return_type(arg types...)`: what @cuda.jit and cuda.jit(device=True) take as a signature."""

    def __init__(self, return_type, args):
        self.return_type, self.args = return_type, tuple(args)

    def __str__(self):
        return f"{self.return_type}({', '.join(str(a) for a in self.args)})"

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, Signature) and str(other) == str(self)

    def __hash__(self):
        return hash(str(self))


class _Type:
    """A numba type: called with types it makes a signature."""

    def __call__(self, *args):
        if all(isinstance(a, _Type) for a in args):
            return Signature(self, args)
        return self._cast(*args)

    def _cast(self, *args):
        raise TypeError(f"{self} takes types (to make a signature), not values")

    def __repr__(self):
        return str(self)

    def __eq__(self, other):
        return isinstance(other, _Type) and str(other) == str(self)

    def __hash__(self):
        return hash(str(self))


class ScalarType(_Type):
    """float32, int64, complex128, boolean, ...: subscripted it gives an array type."""

    def __init__(self, name, dtype):
        self.name, self.dtype = name, np.dtype(dtype)

    def __str__(self):
        return self.name

    def _cast(self, value):  # numba.float32(1.5) on the host: NumPy's scalar
        return self.dtype.type(value)

    def __getitem__(self, key):
        dims = key if isinstance(key, tuple) else (key,)
        text = []
        for d in dims:
            if not isinstance(d, slice) or d.start is not None or d.stop is not None or d.step not in (None, 1):
                raise TypeError(f"an array type is written {self.name}[:], {self.name}[:, ::1] or {self.name}[::1, :]; "
                                f"got {self.name}[{key!r}]")
            text.append("::1" if d.step == 1 else ":")
        return ArrayType(self, text)


class ArrayType(_Type):
    """float32[:], float64[:, ::1]: an array argument type."""

    def __init__(self, dtype, dims):
        self.dtype_type, self.dims = dtype, list(dims)
        self.ndim, self.dtype = len(self.dims), dtype.dtype

    def __str__(self):
        return f"{self.dtype_type}[{', '.join(self.dims)}]"


class _Named(_Type):
    """void, voidptr: types with only a name."""

    def __init__(self, name):
        self.name = name

    def __str__(self):
        return self.name


class CPointer(_Type):
    """CPointer(float32): a pointer argument of a cuda.declare_device function."""

    def __init__(self, pointee):
        self.pointee = pointee

    def __str__(self):
        return f"CPointer({self.pointee})"


void = none = _Named("void")
voidptr = _Named("voidptr")
_SCALARS = {"boolean": np.bool_, "bool_": np.bool_, "int8": np.int8, "int16": np.int16, "int32": np.int32,
            "int64": np.int64, "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64,
            "float16": np.float16, "float32": np.float32, "float64": np.float64, "complex64": np.complex64,
            "complex128": np.complex128,
            # numba's other names for them
            "byte": np.uint8, "intc": np.intc, "uintc": np.uintc, "intp": np.intp, "uintp": np.uintp,
            "int_": np.int64, "float_": np.float64, "double": np.float64, "single": np.float32, "half": np.float16,
            "f2": np.float16, "f4": np.float32, "f8": np.float64, "c8": np.complex64, "c16": np.complex128,
            "i1": np.int8, "i2": np.int16, "i4": np.int32, "i8": np.int64, "u1": np.uint8, "u2": np.uint16,
            "u4": np.uint32, "u8": np.uint64}
for _name, _type in _SCALARS.items():
    # (rendered by the canonical name the signature parser reads: intp is int64, f4 float32, ...)
    globals()[_name] = ScalarType("bool" if _type is np.bool_ else np.dtype(_type).name, _type)
    __all__.append(_name)


def signature_text(sig):
    """The text of a signature given as numba type objects (a Signature; a tuple of argument
    types, as numba reads one), or the string itself; None for anything else."""
    if isinstance(sig, str):
        return sig
    if isinstance(sig, Signature):
        return str(sig)
    if isinstance(sig, tuple) and all(isinstance(a, _Type) for a in sig):
        return f"({', '.join(str(a) for a in sig)})"
    return None


def from_dtype(dtype):
    """numba.from_dtype: the scalar type of a NumPy dtype (float32 for np.dtype('float32'))."""
    dt = np.dtype(dtype)
    for value in _SCALARS.values():
        if np.dtype(value) == dt:
            return globals()["bool_" if dt == np.bool_ else dt.name]
    raise NotImplementedError(f"from_dtype: simt kernels have no type for the dtype {dt} (they take bool, "
                              "int8-64, uint8-64, float16/32/64, complex64/128)")


def typeof(value):
    """numba.typeof: the type a kernel argument of this value has. Scalars give their scalar type
    (Python int: int64, float: float64, complex: complex128, bool: boolean); arrays (NumPy, simt,
    or anything with __cuda_array_interface__) an array type whose layout is C ([:, ::1]), F
    ([::1, :]) or any ([:, :])."""
    if isinstance(value, np.generic):
        return from_dtype(value.dtype)
    for python_type, dtype in ((bool, np.bool_), (int, np.int64), (float, np.float64), (complex, np.complex128)):
        if isinstance(value, python_type):
            return from_dtype(dtype)
    shape, dtype, flags = getattr(value, "shape", None), getattr(value, "dtype", None), getattr(value, "flags", None)
    if shape is None or dtype is None or flags is None or not len(shape):
        raise ValueError(f"typeof: cannot give a kernel argument type for {type(value).__name__} {value!r:.80}")
    scalar = from_dtype(dtype)
    ndim = len(shape)
    if flags["C_CONTIGUOUS"]:
        return ArrayType(scalar, [":"] * (ndim - 1) + ["::1"])
    if flags["F_CONTIGUOUS"]:
        return ArrayType(scalar, ["::1"] + [":"] * (ndim - 1))
    return ArrayType(scalar, [":"] * ndim)
