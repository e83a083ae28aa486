"""Names that only have meaning inside kernels (cuda.threadIdx, cuda.grid, ...). Each stub carries
its canonical builtin name so the kernel compiler recognizes it under any alias."""


class KernelOnlyError(RuntimeError):
    pass


class _Stub:
    """A kernel builtin seen from host code."""

    def __init__(self, canonical, doc=""):
        self._simt_builtin = canonical
        self.__doc__ = doc
        self.__name__ = canonical.rsplit(".", 1)[-1]

    def __call__(self, *args, **kwargs):
        raise KernelOnlyError(f"{self._simt_builtin}() can only be called inside a @cuda.jit kernel")

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise KernelOnlyError(f"{self._simt_builtin}.{name} can only be used inside a @cuda.jit kernel")

    def __repr__(self):
        return f"<simt kernel builtin {self._simt_builtin}>"


class _Namespace(_Stub):
    """A group of kernel builtins (cuda.atomic, cuda.shared, ...)."""

    def __init__(self, canonical, members, doc=""):
        super().__init__(canonical, doc)
        for m in members:
            object.__setattr__(self, m, _Stub(f"{canonical}.{m}"))


threadIdx = _Stub("cuda.threadIdx", "Index of the thread in its block (.x .y .z).")
blockIdx = _Stub("cuda.blockIdx", "Index of the block in the grid (.x .y .z).")
blockDim = _Stub("cuda.blockDim", "Threads per block (.x .y .z).")
gridDim = _Stub("cuda.gridDim", "Blocks in the grid (.x .y .z).")
grid = _Stub("cuda.grid", "grid(n): the absolute thread index (an int for n=1, a tuple for n=2, 3).")
gridsize = _Stub("cuda.gridsize", "gridsize(n): the number of threads in the grid along each axis.")
laneid = _Stub("cuda.laneid", "Index of the thread in its warp.")
warpsize = 32
