"""simt.RawKernel and simt.RawModule: kernels written in CUDA C++, as CuPy has them. NVRTC
compiles them on the cuda backend; on the cpu backend the host compiler compiles the same source
over a prelude that gives CUDA's built-ins, barriers, warp functions and atomics host meaning
(src/simt/codegen/raw_module.cpp), so one program runs on both."""
import numbers
import os
import re

import numpy as np

from . import _simt
from ._kernel_attributes import KernelAttributeProperties
from ._ndarray import ndarray

_BACKENDS = ("nvrtc", "nvcc")
# simt's own versions of CuPy's headers (<cupy/complex.cuh>, <cupy/float16.cuh>, <cupy/carray.cuh>):
# every raw kernel compiles with this include path on both backends, as CuPy's do with its own.
INCLUDE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")


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


class RawKernel(KernelAttributeProperties):
    """A kernel in CUDA C++ source: `RawKernel(code, name)(grid, block, args, shared_mem=0)`.
    Arrays are passed as pointers to their first element; Python int, float, complex and bool
    as long long, double, double complex and bool; NumPy scalars as their own type. Where the
    backend knows the kernel's parameter sizes, an argument of another size is a TypeError
    (CuPy would pass the bytes through). Attributes as CuPy's (`attributes`, `num_regs`, ...,
    `max_dynamic_shared_size_bytes` settable): see _kernel_attributes.py."""

    def __init__(self, code, name, options=(), backend="nvrtc", *, translate_cucomplex=False,
                 enable_cooperative_groups=False, jitify=False, _name_expressions=(), _module=None):
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
        self._module = _module  # the RawModule it was taken from, whose kernels share one compiled module

    @property
    def kernel(self):
        """The compiled kernel (compiled and loaded on first use, through the disk cache)."""
        if self._function is None:
            names = _simt._raw_kernel_names(self.code)
            if self.name not in names and self.name not in self._name_expressions:
                raise ValueError(f"raw kernel '{self.name}' is not a __global__ function of the code (its kernels: "
                                 f"{', '.join(names) or 'none'}; template kernels need name_expressions)")
            self._function = self._load()
        return self._function

    def _load(self):
        options = list(self.options) + ["-I" + INCLUDE_DIR]
        if self._module is None:
            return _simt._load_raw_kernel(self.code, self.name, options, _label(self.name),
                                          name_expressions=list(self._name_expressions))
        # One label and one list of kernels for the whole module: the same translation unit for
        # each of its kernels, compiled and loaded once (its __device__ variables shared).
        module = self._module
        kernels = module._kernel_list()
        try:
            return _simt._load_raw_kernel(self.code, self.name, options, _label("module"),
                                          name_expressions=list(self._name_expressions), kernels=kernels)
        except _simt.CompilerError:
            if len(kernels) < 2 or _simt.backend_name() == "cuda":
                raise
        # (cpu: a kernel the text names may be hidden by the preprocessor (#if): each kernel then
        # compiles on its own, as a RawKernel does, and the module's globals are not shared)
        module._separate = True
        return _simt._load_raw_kernel(self.code, self.name, options, _label("module"),
                                      name_expressions=list(self._name_expressions))

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
        self._separate = False  # (cpu: set when the kernels could not compile as one unit)
        self.options = _check_options(options, backend, translate_cucomplex, enable_cooperative_groups, jitify)
        self.backend = backend
        self._kernels = {}

    def get_function(self, name):
        """The kernel `name`: an extern "C" __global__ function of the module, or one of the
        module's name_expressions (a template kernel's C++ name such as 'k<float, 4>')."""
        k = self._kernels.get(name)
        if k is None:
            k = RawKernel(self.code, name, self.options, self.backend, _name_expressions=self.name_expressions,
                          _module=self)
            k.kernel  # (compiles now: a missing name is an error here, as in CuPy)
            self._kernels[name] = k
        return k

    def compile(self, log_stream=None):
        """Compiles the module (its kernels load when first taken by get_function)."""
        for name in self._kernel_list():
            self.get_function(name)

    def _kernel_list(self):
        """The kernels compiled together: the text's __global__ functions and the name expressions."""
        if self._separate:
            return []
        return _simt._raw_kernel_names(self.code) + [e for e in self.name_expressions]

    def get_global(self, name):
        """The device memory of the module-scope __device__ or __constant__ variable `name`, as a
        GlobalMemoryPointer (CuPy's MemoryPointer, simt.cuda.memory's: ptr, mem.size,
        copy_from_host, copy_to_host, memset; and as_array(dtype, shape) for a simt.ndarray
        view). The module's kernels read and write the same memory."""
        from ._module_globals import GlobalMemoryPointer
        if not isinstance(name, str) or not name:
            raise TypeError(f"get_global() takes the variable's name as a non-empty str, got {name!r}")
        kernel = next(iter(self._kernels.values()), None)
        for kernel_name in ([] if kernel else _simt._raw_kernel_names(self.code) + list(self.name_expressions)):
            try:
                kernel = self.get_function(kernel_name)
                break
            except _simt.CompilerError:
                if self._separate:  # (a kernel the preprocessor hides: try the next)
                    continue
                raise
        if kernel is None:
            raise NotImplementedError("get_global() needs a module with at least one kernel: simt loads a module "
                                      "through its kernels")
        if self._separate:
            raise RuntimeError("the kernels of this module could not be compiled as one unit on the cpu backend (one "
                               "of the __global__ functions its text names is hidden by the preprocessor), so each "
                               "has its own copy of the module's variables and get_global() cannot name one")
        ptr, size = kernel.kernel.global_variable(name)
        return GlobalMemoryPointer(name, ptr, size, kernel)
