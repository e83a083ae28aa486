"""cuda.declare_device: device functions written in CUDA C++ that kernels call, as numba's FFI
declares them. Kernels that call one compile the CUDA C++ files linked for it together with
their own code (simt has no separate device linker): on the cuda backend through NVRTC, on the
cpu backend through the host compiler over the same prelude as simt.RawKernel."""
import os

from .. import _simt


def link_paths(link, where):
    """The files of a link= argument as absolute paths (a kernel compiled later, after a chdir,
    still finds them)."""
    if link is None:
        return []
    if isinstance(link, (str, bytes, os.PathLike)) or not isinstance(link, (list, tuple)):
        raise TypeError(f"{where}(link=...) takes a list of files, not {type(link).__name__}")
    paths = []
    for item in link:
        if not isinstance(item, (str, os.PathLike)):
            raise TypeError(f"{where}(link=...): {item!r} is not a file path (a str or os.PathLike)")
        paths.append(os.path.abspath(os.fspath(item)))
    return paths


class ForeignFunction:
    """A CUDA C++ device function declared for kernels: `extern "C" __device__ int name(T*
    return_value, args...)` (numba's ABI: the result through the first pointer, 0 returned)."""

    def __init__(self, name, sig, link=None):
        if not isinstance(name, str):
            raise TypeError(f"cuda.declare_device: the name must be a str, not {type(name).__name__}")
        from .numba_types import Signature
        if isinstance(sig, Signature):  # numba's types: float32(float32, float32)
            sig = str(sig)
        if not isinstance(sig, str):
            raise TypeError(f"cuda.declare_device('{name}', ...): the signature must be a string such as "
                            f"'float32(float32, CPointer(float32))', not {type(sig).__name__}")
        self.link = link_paths(link, "cuda.declare_device")
        self._declaration = _simt._declare_foreign(name, sig, self.link)
        self.name = name
        self.sig = sig
        self.__name__ = name

    def __repr__(self):
        return f"<cuda.declare_device {self.name}: {self.sig}>"

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.name}() is a CUDA C++ device function declared with cuda.declare_device: call it "
                        "from a kernel")


def declare_device(name, sig, link=None):
    """Declares the CUDA C++ device function `name` with the numba-style signature `sig`
    ('float32(float32, float32)', 'void(CPointer(float64), int32)', 'int32(voidptr)') for kernels
    to call. Pointer parameters take C- or F-contiguous arrays (or cffi's ffi.from_buffer(array)). The files that
    define it come with link= here or with @cuda.jit(link=[...]) of the calling kernel."""
    return ForeignFunction(name, sig, link)
