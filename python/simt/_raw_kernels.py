"""simt.RawKernel and simt.RawModule: kernels written in CUDA C++, as CuPy has them. NVRTC
compiles them on the cuda backend; on the cpu backend the host compiler compiles the same source
over a prelude that gives CUDA's built-ins, barriers, warp functions and atomics host meaning
(src/simt/codegen/raw_module.cpp), so one program runs on both."""
import numbers
import re

import numpy as np

from . import _simt
from ._ndarray import ndarray

_BACKENDS = ("nvrtc", "nvcc")


def _label(name):
    """The file name compiler messages give the source (kept to characters #line accepts)."""
    return "raw_kernel_" + re.sub(r"[^A-Za-z0-9_]", "_", name) + ".cu"


def _check_options(options, backend, translate_cucomplex, enable_cooperative_groups, jitify):
    if isinstance(options, str):
        raise TypeError(f"options must be a tuple of strings, got the string {options!r} (write ({options!r},))")
    options = tuple(options)
    for o in options:
        if not isinstance(o, str):
            raise TypeError(f"options must be strings, got {type(o).__name__} {o!r}")
    if backend not in _BACKENDS:
        raise ValueError(f"backend must be 'nvrtc' or 'nvcc' (both compile with NVRTC here), got {backend!r}")
    for flag, what in ((translate_cucomplex, "translate_cucomplex"), (enable_cooperative_groups,
                                                                      "enable_cooperative_groups"), (jitify, "jitify")):
        if flag:
            raise NotImplementedError(f"{what}=True is not supported by simt's raw kernels")
    return options


def _argument(value, index, name):
    """`value` as the launch path takes it: foreign device arrays become simt views."""
    if isinstance(value, (ndarray, numbers.Number, np.generic)) or isinstance(value, np.ndarray):
        return value
    from ._interop import device_view
    view = device_view(value)
    if view is None:
        raise TypeError(f"argument {index} of raw kernel '{name}' is a {type(value).__name__}: pass device arrays, "
                        "NumPy scalars or Python numbers")
    return view


class RawKernel:
    """A kernel in CUDA C++ source: `RawKernel(code, name)(grid, block, args, shared_mem=0)`.
    Arrays are passed as pointers to their first element; Python int, float, complex and bool
    as long long, double, double complex and bool; NumPy scalars as their own type. Where the
    backend knows the kernel's parameter sizes, an argument of another size is a TypeError
    (CuPy would pass the bytes through)."""

    def __init__(self, code, name, options=(), backend="nvrtc", *, translate_cucomplex=False,
                 enable_cooperative_groups=False, jitify=False, _name_expressions=()):
        if not isinstance(code, str):
            raise TypeError(f"code must be a str of CUDA C++, got {type(code).__name__}")
        if not isinstance(name, str) or not name:
            raise TypeError(f"name must be the kernel's name as a non-empty str, got {name!r}")
        self.code = code
        self.name = name
        self.options = _check_options(options, backend, translate_cucomplex, enable_cooperative_groups, jitify)
        self.backend = backend
        self._function = None
        self._name_expressions = tuple(_name_expressions)  # (RawModule's: template kernels by C++ name)

    @property
    def kernel(self):
        """The compiled kernel (compiled and loaded on first use, through the disk cache)."""
        if self._function is None:
            names = _simt._raw_kernel_names(self.code)
            if self.name not in names and self.name not in self._name_expressions:
                raise ValueError(f"raw kernel '{self.name}' is not a __global__ function of the code (its kernels: "
                                 f"{', '.join(names) or 'none'}; template kernels need name_expressions)")
            self._function = _simt._load_raw_kernel(self.code, self.name, list(self.options), _label(self.name),
                                                    name_expressions=list(self._name_expressions))
        return self._function

    def compile(self, log_stream=None):
        """Compiles now rather than at the first launch."""
        self.kernel

    def __call__(self, grid, block, args, *, shared_mem=0):
        if not isinstance(args, tuple):
            raise TypeError(f"args of raw kernel '{self.name}' must be a tuple, got {type(args).__name__}")
        f = self.kernel
        args = tuple(_argument(a, i, self.name) for i, a in enumerate(args))
        f.launch(grid, block, args, int(shared_mem))

    def inspect_source(self):
        """The source the active backend compiles (on the cpu backend: with the raw prelude)."""
        return self.kernel.compiled_source

    def inspect_asm(self):
        """PTX of the kernel (cuda backend)."""
        return self.kernel.assembly()

    def __repr__(self):
        return f"<simt.RawKernel '{self.name}'>"


class RawModule:
    """A CUDA C++ translation unit whose kernels are taken by name: `get_function(name)`."""

    def __init__(self, code=None, *, path=None, options=(), backend="nvrtc", translate_cucomplex=False,
                 enable_cooperative_groups=False, name_expressions=None, jitify=False):
        if path is not None:
            raise NotImplementedError("RawModule(path=...) loads compiled cubin or PTX files; simt compiles CUDA C++ "
                                      "source only (pass code=)")
        if not isinstance(code, str):
            raise TypeError(f"code must be a str of CUDA C++, got {type(code).__name__}")
        if isinstance(name_expressions, str) or not all(isinstance(e, str) for e in (name_expressions or ())):
            raise TypeError("name_expressions must be a sequence of C++ names such as 'my_kernel<float>'")
        self.name_expressions = tuple(name_expressions or ())
        self.code = code
        self.options = _check_options(options, backend, translate_cucomplex, enable_cooperative_groups, jitify)
        self.backend = backend
        self._kernels = {}

    def get_function(self, name):
        """The kernel `name`: an extern "C" __global__ function of the module, or one of the
        module's name_expressions (a template kernel's C++ name such as 'k<float, 4>')."""
        k = self._kernels.get(name)
        if k is None:
            k = RawKernel(self.code, name, self.options, self.backend, _name_expressions=self.name_expressions)
            k.kernel  # (compiles now: a missing name is an error here, as in CuPy)
            self._kernels[name] = k
        return k

    def compile(self, log_stream=None):
        """Compiles the module (its kernels load when first taken by get_function)."""
        for name in _simt._raw_kernel_names(self.code) + list(self.name_expressions):
            self.get_function(name)
