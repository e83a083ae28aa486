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

# Memory spaces, synchronization, atomics, warp and bit operations.
shared = _Namespace("cuda.shared", ["array"], "Shared memory of a block: shared.array(shape, dtype); shape 0 is the "
                                              "launch's dynamic shared memory.")
local = _Namespace("cuda.local", ["array"], "Per-thread local memory: local.array(shape, dtype).")
const = _Namespace("cuda.const", ["array_like"], "Constant memory: const.array_like(numpy_array_global).")
atomic = _Namespace("cuda.atomic", ["add", "sub", "and_", "or_", "xor", "inc", "dec", "exch", "max", "min", "nanmax",
                                    "nanmin", "compare_and_swap", "cas"],
                    "Atomic operations on array elements; each returns the element's old value.")
syncthreads = _Stub("cuda.syncthreads", "Wait until every thread of the block reaches this barrier.")
syncthreads_count = _Stub("cuda.syncthreads_count", "Barrier; returns how many threads passed a true predicate.")
syncthreads_and = _Stub("cuda.syncthreads_and", "Barrier; returns 1 if every thread's predicate is true, else 0.")
syncthreads_or = _Stub("cuda.syncthreads_or", "Barrier; returns 1 if any thread's predicate is true, else 0.")
syncwarp = _Stub("cuda.syncwarp", "syncwarp(mask=0xffffffff): wait for the lanes of the warp named in mask.")
threadfence = _Stub("cuda.threadfence", "Memory fence for the device.")
threadfence_block = _Stub("cuda.threadfence_block", "Memory fence for the block.")
threadfence_system = _Stub("cuda.threadfence_system", "Memory fence for the device and the host.")
nanosleep = _Stub("cuda.nanosleep", "nanosleep(ns): pause the thread about ns nanoseconds (a hint; CUDA allows 0 to 2 ns).")
shfl_sync = _Stub("cuda.shfl_sync", "shfl_sync(mask, value, src_lane): value of lane src_lane.")
shfl_up_sync = _Stub("cuda.shfl_up_sync", "shfl_up_sync(mask, value, delta): value of lane laneid - delta.")
shfl_down_sync = _Stub("cuda.shfl_down_sync", "shfl_down_sync(mask, value, delta): value of lane laneid + delta.")
shfl_xor_sync = _Stub("cuda.shfl_xor_sync", "shfl_xor_sync(mask, value, lane_mask): value of lane laneid ^ lane_mask.")
all_sync = _Stub("cuda.all_sync", "all_sync(mask, predicate): true if the predicate holds for every lane in mask.")
any_sync = _Stub("cuda.any_sync", "any_sync(mask, predicate): true if the predicate holds for any lane in mask.")
eq_sync = _Stub("cuda.eq_sync", "eq_sync(mask, predicate): true if every lane in mask has the same predicate.")
ballot_sync = _Stub("cuda.ballot_sync", "ballot_sync(mask, predicate): bit mask of the lanes whose predicate holds.")
match_any_sync = _Stub("cuda.match_any_sync", "match_any_sync(mask, value): lanes in mask holding the same value.")
match_all_sync = _Stub("cuda.match_all_sync", "match_all_sync(mask, value): (mask, True) if every lane holds the same "
                                              "value, else (0, False).")
activemask = _Stub("cuda.activemask", "Mask of the warp's lanes that are running.")
lanemask_lt = _Stub("cuda.lanemask_lt", "Mask of the lanes below the calling lane.")
popc = _Stub("cuda.popc", "Number of set bits.")
brev = _Stub("cuda.brev", "Bits in reverse order (uint32 or uint64).")
clz = _Stub("cuda.clz", "Number of leading zero bits.")
ffs = _Stub("cuda.ffs", "1-based position of the lowest set bit (0 if none).")
fma = _Stub("cuda.fma", "fma(a, b, c): a * b + c with a single rounding.")
cbrt = _Stub("cuda.cbrt", "Cube root.")
selp = _Stub("cuda.selp", "selp(test, a, b): a where test holds, else b.")


# Cooperative groups (numba's cuda.cg): g = cg.this_grid(); g.sync() waits for every thread of the
# grid. Kernels that call it are launched cooperatively (all blocks resident at once).
cg = _Namespace("cuda.cg", ["this_grid"], "Cooperative groups: this_grid() and its sync().")
