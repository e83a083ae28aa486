"""Value types of simt.compute: a scalar dtype or a tuple of them (what a ZipIterator yields), and
the kernel text that casts, stores and loads such values (shared memory keeps one array per field)."""
import numpy as np

from .._dtypes import SUPPORTED
from .._kernelgen import type_name


class ValueType:
    """A scalar dtype (`is_tuple` False, one field) or a tuple of scalar dtypes."""
    __slots__ = ("dtypes", "is_tuple")

    def __init__(self, dtypes, is_tuple):
        self.dtypes = tuple(np.dtype(d) for d in dtypes)
        self.is_tuple = bool(is_tuple)

    @classmethod
    def scalar(cls, dtype):
        return cls((dtype,), False)

    def __eq__(self, other):
        return isinstance(other, ValueType) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def key(self):
        return self.dtypes, self.is_tuple

    def __repr__(self):
        names = ", ".join(d.name for d in self.dtypes)
        return f"tuple({names})" if self.is_tuple else names

    @property
    def dtype(self):
        """The dtype of a scalar value type."""
        return self.dtypes[0]

    @property
    def itemsize(self):
        return sum(d.itemsize for d in self.dtypes)

    def cast(self, var):
        """Kernel text of `var` (a name) converted to this type."""
        if not self.is_tuple:
            return f"{type_name(self.dtype)}({var})"
        return "(" + "".join(f"{type_name(d)}({var}[{k}]), " for k, d in enumerate(self.dtypes)) + ")"

    def zero(self):
        """Kernel text of a value of this type (a placeholder before the first real one)."""
        if not self.is_tuple:
            return f"{type_name(self.dtype)}(0)"
        return "(" + "".join(f"{type_name(d)}(0), " for d in self.dtypes) + ")"

    def fields(self, var):
        """Kernel text of each field of `var`."""
        return [f"{var}[{k}]" for k in range(len(self.dtypes))] if self.is_tuple else [var]

    def assemble(self, parts):
        return "(" + "".join(p + ", " for p in parts) + ")" if self.is_tuple else parts[0]

    # Shared memory: one array per field; complex fields as two real arrays (CUDA cannot have
    # shared arrays of a type with a constructor).
    def shared_decl(self, name, size):
        lines = []
        for k, d in enumerate(self.dtypes):
            if d.kind == "c":
                part = type_name(np.dtype(d.char.lower()))
                lines += [f"    {name}{k}r = cuda.shared.array({size}, {part})",
                          f"    {name}{k}i = cuda.shared.array({size}, {part})"]
            else:
                lines.append(f"    {name}{k} = cuda.shared.array({size}, {type_name(d)})")
        return lines

    def shared_store(self, name, idx, var, ind):
        lines = []
        for k, (d, f) in enumerate(zip(self.dtypes, self.fields(var))):
            if d.kind == "c":
                lines += [f"{ind}{name}{k}r[{idx}] = {f}.real", f"{ind}{name}{k}i[{idx}] = {f}.imag"]
            else:
                lines.append(f"{ind}{name}{k}[{idx}] = {f}")
        return lines

    def shared_load(self, name, idx):
        parts = []
        for k, d in enumerate(self.dtypes):
            if d.kind == "c":
                parts.append(f"{type_name(d)}(complex({name}{k}r[{idx}], {name}{k}i[{idx}]))")
            else:
                parts.append(f"{name}{k}[{idx}]")
        return self.assemble(parts)

    # Global temporaries: one array per field.
    def alloc(self, n):
        from .._creation import empty
        return [empty((max(int(n), 1),), d) for d in self.dtypes]

    def array_load(self, names, idx):
        return self.assemble([f"{a}[{idx}]" for a in names])

    def array_store(self, names, idx, var, ind):
        return [f"{ind}{a}[{idx}] = {f}" for a, f in zip(names, self.fields(var))]


def _supported(dt, what):
    dt = np.dtype(dt)
    if dt not in SUPPORTED:
        raise TypeError(f"{what} has dtype {dt}, which simt kernels cannot hold")
    return dt


_scalar_types = {}  # dtype -> its ValueType (immutable, so shared)


def scalar_value_type(dtype, what):
    """ValueType.scalar(dtype) for a dtype simt kernels hold (else TypeError naming `what`)."""
    vt = _scalar_types.get(dtype)
    if vt is None:
        vt = ValueType.scalar(_supported(dtype, what))
        _scalar_types[vt.dtype] = vt
    return vt


def host_value(h_init, what="h_init"):
    """(ValueType, field values as NumPy scalars) of a host initial value: a NumPy array of one
    element or a NumPy scalar (a structured one, or a tuple of them, for tuple values)."""
    if isinstance(h_init, tuple):
        parts = [host_value(v, f"{what}[{k}]") for k, v in enumerate(h_init)]
        if any(vt.is_tuple for vt, _ in parts):
            raise TypeError(f"{what}: nested tuples are not supported")
        return ValueType([vt.dtype for vt, _ in parts], True), [vals[0] for _, vals in parts]
    if isinstance(h_init, np.ndarray):
        if h_init.size != 1:
            raise ValueError(f"{what} must hold exactly one value, got a NumPy array of shape {h_init.shape}")
        h_init = h_init.reshape(-1)[0]  # a NumPy scalar of the array's dtype (np.void when structured)
    if isinstance(h_init, np.void) and h_init.dtype.names:
        dts = [_supported(h_init.dtype.fields[n][0], f"{what} field {n!r}") for n in h_init.dtype.names]
        return ValueType(dts, True), [np.asarray(h_init[n], dtype=d)[()] for n, d in zip(h_init.dtype.names, dts)]
    if isinstance(h_init, np.generic):
        return scalar_value_type(h_init.dtype, what), [h_init]
    if hasattr(h_init, "__cuda_array_interface__") or hasattr(h_init, "__dlpack__"):
        raise TypeError(f"{what} must be a host value (a NumPy array or scalar), not a device array")
    raise TypeError(f"{what} must be a NumPy array of one element or a NumPy scalar (it sets the value type), "
                    f"not {type(h_init).__name__}: write e.g. np.array([0], dtype=np.int32)")
