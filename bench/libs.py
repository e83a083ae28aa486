"""The libraries a workload runs through, simt and the anchors a user would pick instead, behind
one small interface: arrays in and out, synchronize, a timer, named operations, launch kits."""
import importlib

import numpy as np

from .timing import EventTimer, HostTimer


class NotAvailable(Exception):
    """A library, or one operation of it, cannot run here; the message says why."""


# Operations a workload may ask for. "out" operations write their last argument; the others
# return a new array (or scalar).
OPS_WITH_OUT = {"vecadd", "copy", "tiled_matmul", "tiled_matmul_unchecked", "tile_add"}


class Library:
    name = ""
    on_device = True

    def __init__(self, backend):
        self.backend = backend          # simt's active backend: "cpu" or "cuda"
        self._reason = None
        self._checked = False
        self._ops = {}

    # -- availability -------------------------------------------------------------------------
    def unavailable_reason(self):
        """None when the library can run here, else why not (checked once)."""
        if not self._checked:
            self._checked = True
            try:
                self._reason = self._check()
            except Exception as e:  # an import that fails in any way means "not here"
                self._reason = f"{self.name} failed to load ({type(e).__name__}: {e})"
        return self._reason

    def require(self):
        reason = self.unavailable_reason()
        if reason:
            raise NotAvailable(reason)

    def _check(self):
        return None

    def _gpu_module(self, module_name, pretty_name):
        """(module, None) when this GPU anchor can be imported and compared here, else (None, reason)."""
        if self.backend != "cuda":
            return None, "GPU anchors are compared when simt runs on the cuda backend"
        try:
            return importlib.import_module(module_name), None
        except ImportError as e:
            return None, f"{pretty_name} is not installed ({e})"

    def version(self):
        return ""

    def release_memory(self):
        """Hands cached device memory back, so the next library finds it free."""

    # -- operations -----------------------------------------------------------------------------
    def op(self, name):
        """The callable for operation `name` (see OPS_WITH_OUT); raises NotAvailable."""
        self.require()
        if name not in self._ops:
            try:
                self._ops[name] = (self._op(name), None)
            except NotAvailable as e:
                self._ops[name] = (None, str(e))
        fn, reason = self._ops[name]
        if fn is None:
            raise NotAvailable(reason)
        return fn

    def _op(self, name):
        fn = self._op_table().get(name)
        if fn is None:
            raise NotAvailable(f"{self.name} has no '{name}' here")
        return fn

    def _op_table(self):
        """Operation name -> callable, for libraries whose operations need no probing."""
        return {}

    def _tiled_matmul(self, name):
        """The shared-memory tiled matmul kernel (bench/kernels.py), for libraries that jit it."""
        from .kernels import launch_tiled_matmul
        k = getattr(self.kernels(), name)
        return lambda a, b, c: launch_tiled_matmul(k, a, b, c)

    def launch_kit(self):
        """An object with spin(iters), burst(nargs, count) and synchronize() (see workloads/launch)."""
        raise NotAvailable(f"{self.name} launches no user kernels")


class Simt(Library):
    name = "simt"

    def _check(self):
        import simt
        self.simt = simt
        self._kernels = None
        return None

    def version(self):
        return self.simt.__version__

    def kernels(self):
        if self._kernels is None:
            from simt import cuda
            from .kernels import Compiled
            self._kernels = Compiled(cuda)
        return self._kernels

    def asarray(self, host):
        return self.simt.asarray(host)

    def full(self, shape, value, dtype):
        return self.simt.full(shape, value, dtype)

    def to_host(self, x):
        return self.simt.asnumpy(x) if isinstance(x, self.simt.ndarray) else np.asarray(x)

    def synchronize(self):
        """The device's work done, and simt's background cubin compiles for the disk cache
        (docs/cuda-compile-path.md): every warm-up ends here, so no timed sample shares the CPU
        with a compile that only a cold cache causes (the host-cost workloads pin to one CPU)."""
        self.simt.synchronize()
        self.simt._simt._wait_for_cubin_backfill()

    def timer(self):
        if self.backend == "cuda":
            from simt import cuda
            return EventTimer(cuda.Event, lambda e: e.record(), lambda s, e: s.elapsed_time(e), self.simt.synchronize)
        return HostTimer(self.simt.synchronize)

    def _probe(self, label, call):
        """Runs `call` on tiny arrays; a missing or failing API makes the operation n/a."""
        try:
            call()
            self.simt.synchronize()
        except AttributeError as e:
            raise NotAvailable(f"{label} is not available yet ({e})") from None
        except Exception as e:
            raise NotAvailable(f"{label} is not available yet ({type(e).__name__}: {e})") from None

    def _op(self, name):
        s = self.simt
        if name == "vecadd":
            k = self.kernels().vecadd
            return lambda a, b, c: k[(a.size + 255) // 256, 256](a, b, c)
        if name in ("tiled_matmul", "tiled_matmul_unchecked"):
            return self._tiled_matmul(name)
        if name == "copy":
            self._probe("ndarray.copy", lambda: s.ones(4).copy())
            return lambda a, c: a.copy()  # no copy-into yet: returns a new array (allocation is timed too)
        if name == "add":
            self._probe("simt.add on simt arrays", lambda: s.add(s.ones(4), s.ones(4)))
            return s.add  # called as CuPy's and PyTorch's add are, with no lambda of the benchmark's around it
        if name in ("sum", "cumsum", "sort"):
            self._probe(f"simt.{name}", lambda: getattr(s, name)(s.ones(4)))
            return getattr(s, name)
        if name in ("algo_reduce", "algo_scan"):
            return self._compute_op(name)
        if name == "fused_dot":
            self._probe("simt.fuse with a reduction", lambda: s.fuse(lambda x: s.sum(x * x))(s.ones(4)))
            return s.fuse(_fused_dot(s))
        if name in ("tile_add", "tile_softmax", "tile_matmul", "tile_matmul_large"):
            from . import tile_kernels as tk
            return {"tile_add": tk.launch_add, "tile_softmax": tk.launch_softmax, "tile_matmul": tk.launch_matmul,
                    "tile_matmul_large": tk.launch_matmul_large}[name]
        if name == "matmul":
            self._probe("a @ b on simt arrays", lambda: s.ones((2, 2)) @ s.ones((2, 2)))
            return lambda a, b: a @ b
        return super()._op(name)

    def _compute_op(self, name):
        """simt.compute.reduce_into / inclusive_scan with OpKind.PLUS, returning what sum / cumsum
        return (the other libraries run those for the same work)."""
        import importlib
        s = self.simt
        self._probe("simt.compute", lambda: importlib.import_module("simt.compute").OpKind)
        cc = importlib.import_module("simt.compute")

        def reduce(a):
            out = s.empty(1, a.dtype)
            cc.reduce_into(a, out, cc.OpKind.PLUS, a.size, np.zeros(1, a.dtype))
            return out.reshape(())

        def scan(a):
            out = s.empty(a.size, a.dtype)
            cc.inclusive_scan(a, out, cc.OpKind.PLUS, None, a.size)
            return out
        return reduce if name == "algo_reduce" else scan

    def launch_kit(self):
        self.require()
        return _JitLaunchKit(self.kernels(), self.asarray, self.synchronize)


def _fused_dot(xp):
    """sum(x * y) as a named function (cupy.fuse names its kernel after the function: not a lambda)."""
    def fused_dot(x, y):
        return xp.sum(x * y)
    return fused_dot


class Numpy(Library):
    name = "numpy"
    on_device = False

    def _check(self):
        if self.backend != "cpu":
            return "NumPy (host) is compared when simt runs on the cpu backend"
        return None

    def version(self):
        return np.__version__

    def asarray(self, host):
        return np.array(host, copy=True)

    def full(self, shape, value, dtype):
        return np.full(shape, value, dtype)

    def to_host(self, x):
        return np.asarray(x)

    def synchronize(self):
        pass

    def timer(self):
        return HostTimer(self.synchronize)

    def _op_table(self):
        return {"vecadd": lambda a, b, c: np.add(a, b, out=c), "copy": lambda a, c: np.copyto(c, a),
                "add": np.add, "sum": np.sum, "cumsum": np.cumsum, "matmul": np.matmul, "sort": np.sort,
                "algo_reduce": np.sum, "algo_scan": np.cumsum, "fused_dot": np.dot,
                "tile_add": lambda a, b, c: np.add(a, b, out=c), "tile_matmul": np.matmul, "tile_matmul_large": np.matmul,
                "tile_softmax": lambda x: _softmax(np, x)}


class Numba(Library):
    name = "numba"

    def _check(self):
        if self.backend == "cuda":
            np.row_stack = np.vstack  # numba-cuda 0.30 still calls np.row_stack, which NumPy 2.5 removed
        cuda, reason = self._gpu_module("numba.cuda", "numba")
        if reason:
            return reason
        if not cuda.is_available():
            return "numba.cuda.is_available() is False"
        self.cuda = cuda
        self._kernels = None
        return None

    def version(self):
        import numba
        try:
            from importlib.metadata import version
            return f"{numba.__version__} (numba-cuda {version('numba-cuda')})"
        except Exception:
            return numba.__version__

    def kernels(self):
        if self._kernels is None:
            from .kernels import Compiled
            self._kernels = Compiled(self.cuda)
        return self._kernels

    def asarray(self, host):
        return self.cuda.to_device(np.ascontiguousarray(host))

    def full(self, shape, value, dtype):
        return self.cuda.to_device(np.full(shape, value, dtype))

    def to_host(self, x):
        return x.copy_to_host()

    def release_memory(self):
        pending = getattr(self.cuda.current_context(), "deallocations", None)  # absent in the simulator
        if pending is not None:
            pending.clear()

    def synchronize(self):
        self.cuda.synchronize()

    def timer(self):
        cuda = self.cuda
        return EventTimer(cuda.event, lambda e: e.record(), lambda s, e: s.elapsed_time(e), cuda.synchronize)

    def _op(self, name):
        if name == "vecadd":
            k = self.kernels().vecadd
            return lambda a, b, c: k[(a.size + 255) // 256, 256](a, b, c)
        if name in ("tiled_matmul", "tiled_matmul_unchecked"):
            return self._tiled_matmul(name)
        raise NotAvailable("numba-cuda device arrays have no array operations")

    def launch_kit(self):
        self.require()
        return _JitLaunchKit(self.kernels(), self.asarray, self.synchronize)


def _softmax(xp, x):
    e = xp.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


class Cupy(Library):
    name = "cupy"

    def _check(self):
        cupy, reason = self._gpu_module("cupy", "CuPy")
        if reason:
            return reason
        if cupy.cuda.runtime.getDeviceCount() < 1:
            return "CuPy sees no GPU"
        self.cupy = cupy
        return None

    def version(self):
        return self.cupy.__version__

    def asarray(self, host):
        return self.cupy.asarray(host)

    def full(self, shape, value, dtype):
        return self.cupy.full(shape, value, dtype)

    def to_host(self, x):
        return self.cupy.asnumpy(x)

    def release_memory(self):
        self.cupy.get_default_memory_pool().free_all_blocks()

    def synchronize(self):
        self.cupy.cuda.runtime.deviceSynchronize()

    def timer(self):
        cp = self.cupy
        return EventTimer(cp.cuda.Event, lambda e: e.record(), cp.cuda.get_elapsed_time, self.synchronize)

    def _op_table(self):
        cp = self.cupy
        return {"vecadd": lambda a, b, c: cp.add(a, b, out=c), "copy": lambda a, c: cp.copyto(c, a),
                "add": cp.add, "sum": cp.sum, "cumsum": cp.cumsum, "matmul": cp.matmul, "sort": cp.sort,
                "algo_reduce": cp.sum, "algo_scan": cp.cumsum, "fused_dot": cp.fuse(_fused_dot(cp)),
                # what a CuPy user writes for the tile workload's kernels
                "tile_add": lambda a, b, c: cp.add(a, b, out=c), "tile_matmul": cp.matmul, "tile_matmul_large": cp.matmul,
                "tile_softmax": lambda x: _softmax(cp, x)}

    def launch_kit(self):
        self.require()
        return _CupyLaunchKit(self.cupy)


class Torch(Library):
    name = "torch"

    def _check(self):
        torch, reason = self._gpu_module("torch", "PyTorch")
        if reason:
            return reason
        if not torch.cuda.is_available():
            return "torch.cuda.is_available() is False"
        torch.backends.cuda.matmul.allow_tf32 = False  # full float32 matmul, as the others compute
        self.torch = torch
        return None

    def version(self):
        return self.torch.__version__

    def asarray(self, host):
        return self.torch.from_numpy(np.ascontiguousarray(host)).to("cuda")

    def full(self, shape, value, dtype):
        t = self.torch
        return t.full(shape if isinstance(shape, tuple) else (shape,), value,
                      dtype=getattr(t, np.dtype(dtype).name), device="cuda")

    def to_host(self, x):
        return x.cpu().numpy() if hasattr(x, "cpu") else np.asarray(x)

    def release_memory(self):
        self.torch.cuda.empty_cache()

    def synchronize(self):
        self.torch.cuda.synchronize()

    def timer(self):
        t = self.torch
        return EventTimer(lambda: t.cuda.Event(enable_timing=True), lambda e: e.record(),
                          lambda s, e: s.elapsed_time(e), t.cuda.synchronize)

    def _op_table(self):
        t = self.torch
        return {"vecadd": lambda a, b, c: t.add(a, b, out=c), "copy": lambda a, c: c.copy_(a),
                "add": t.add, "sum": t.sum, "cumsum": lambda a: t.cumsum(a, 0), "matmul": t.matmul,
                "sort": lambda a: t.sort(a).values, "algo_reduce": t.sum, "algo_scan": lambda a: t.cumsum(a, 0),
                "fused_dot": t.dot,
                "tile_add": lambda a, b, c: t.add(a, b, out=c), "tile_matmul": t.matmul, "tile_matmul_large": t.matmul,
                "tile_softmax": lambda x: t.softmax(x, 1)}


class _JitLaunchKit:
    """Launches of the shared kernels (bench/kernels.py) through simt or numba-cuda."""

    def __init__(self, kernels, asarray, synchronize):
        from .kernels import launch_burst
        self._k, self._burst = kernels, launch_burst
        self.synchronize = synchronize
        self._spin_out = asarray(np.ones(1))
        self._arrays = [asarray(np.zeros(32)) for _ in range(3)]

    def spin(self, iters):
        self._k.spin[1, 1](self._spin_out, iters)

    def burst(self, nargs, count):
        self._burst(self._k.empties[nargs], tuple(self._arrays[:nargs]), count)


_CUPY_KERNELS = r"""
extern "C" __global__ void empty0() {}
extern "C" __global__ void empty1(double* a) {}
extern "C" __global__ void empty3(double* a, double* b, double* c) {}
extern "C" __global__ void spin(double* out, long long iters) {
    double x = out[0];
    for (long long i = 0; i < iters; ++i) x = x * 0.999999 + 1e-6;
    out[0] = x;
}
"""


class _CupyLaunchKit:
    """The same kernels as CUDA C++ RawKernels: CuPy's cheapest launch path."""

    def __init__(self, cupy):
        module = cupy.RawModule(code=_CUPY_KERNELS)
        self._empties = {n: module.get_function(f"empty{n}") for n in (0, 1, 3)}
        self._spin = module.get_function("spin")
        self._spin_out = cupy.ones(1)
        self._arrays = [cupy.zeros(32) for _ in range(3)]
        self.synchronize = cupy.cuda.runtime.deviceSynchronize

    def spin(self, iters):
        self._spin((1,), (1,), (self._spin_out, np.int64(iters)))

    def burst(self, nargs, count):
        k, args = self._empties[nargs], tuple(self._arrays[:nargs])
        grid, block = (1,), (32,)
        for _ in range(count):
            k(grid, block, args)


ALL = (Simt, Numpy, Numba, Cupy, Torch)


def load_all(backend):
    """Every library adapter, in table column order (simt first)."""
    return {cls.name: cls(backend) for cls in ALL}
