"""A compiled kernel's attributes (cuFuncGetAttribute's), as CuPy's RawKernel and numba's
dispatcher report them. The cuda backend asks the driver. The cpu backend reports what its
modelled device defines (max_threads_per_block, max_dynamic_shared_size_bytes, the carveout
hint) and the sizes simt knows of its own kernels (static shared and local memory); it raises
NotImplementedError, with the reason, for what it has no honest value of (registers, PTX and
binary versions, and the sizes raw CUDA C++ declares); from a property that error is also an
AttributeError (_unavailable.py), so hasattr() says False."""
from ._unavailable import unavailable_as_attribute_error

# CUfunction_attribute numbers (runtime/backend.h's KernelAttribute).
NUMBERS = {
    "max_threads_per_block": 0,
    "shared_size_bytes": 1,
    "const_size_bytes": 2,
    "local_size_bytes": 3,
    "num_regs": 4,
    "ptx_version": 5,
    "binary_version": 6,
    "cache_mode_ca": 7,
    "max_dynamic_shared_size_bytes": 8,
    "preferred_shared_memory_carveout": 9,
}
SETTABLE = ("max_dynamic_shared_size_bytes", "preferred_shared_memory_carveout")


def check_value(name, value, where):
    """An attribute value as the driver takes it (an int)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{where}: {name} must be an int, got {type(value).__name__} {value!r}")
    if not -(2 ** 31) <= value < 2 ** 31:
        raise ValueError(f"{where}: {name}={value} does not fit the driver's 32-bit int")
    return value


class KernelAttributes(dict):
    """CuPy's RawKernel.attributes: {name: value} of the attributes the backend reports. Asking
    for one it cannot report raises NotImplementedError saying why (rather than a KeyError)."""

    def __init__(self, values, missing):
        super().__init__(values)
        self._missing = missing  # name -> why the backend has no value

    def __missing__(self, key):
        if key in self._missing:
            raise NotImplementedError(self._missing[key])
        raise KeyError(key)


def read_all(function):
    """KernelAttributes of a RawFunction (bind_raw.cpp)."""
    values, missing = {}, {}
    for name, number in NUMBERS.items():
        try:
            values[name] = function.attribute(number)
        except NotImplementedError as e:
            missing[name] = str(e)
    return KernelAttributes(values, missing)


def _getter(name):
    @unavailable_as_attribute_error
    def get(self):
        return self.kernel.attribute(NUMBERS[name])
    get.__name__ = name
    get.__doc__ = f"The kernel's {name} (cuFuncGetAttribute) on the current device."
    return get


def _setter(name):
    def set_(self, value):
        self.kernel.set_attribute(NUMBERS[name], check_value(name, value, f"raw kernel '{self.name}'"))
    return set_


class KernelAttributeProperties:
    """Mixin for classes with a `kernel` (a RawFunction) and a `name`: CuPy's RawKernel attribute
    properties, two of them settable (cuFuncSetAttribute)."""

    @property
    def attributes(self):
        return read_all(self.kernel)


for _name in NUMBERS:
    setattr(KernelAttributeProperties, _name,
            property(_getter(_name), _setter(_name) if _name in SETTABLE else None))
