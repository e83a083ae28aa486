"""One generated kernel of simt.compute: its parameters, the user device functions it calls and
its lines, compiled through the @cuda.jit pipeline (cached by source) and launched."""
from .. import _kernelgen as kg
from .. import _simt

_compiled = {}


class KernelSource:
    """A kernel being generated. Parameters are named in the order they are asked for, which is the
    order the launch passes their values in."""

    def __init__(self, name):
        self.name = name
        self.params = []
        self.funcs = {}      # name in the source -> device Dispatcher
        self.prologue = []   # shared-memory declarations (top of the body)
        self.lines = []
        self._count = 0
        # Data-dependent indices (segment offsets, permutations) keep masked accesses: an index
        # out of range reads 0 / drops the store instead of touching other memory.
        self.masked = False

    def param(self, hint):
        name = f"{hint}{len(self.params)}"
        self.params.append(name)
        return name

    def tmp(self, hint="t"):
        """A fresh local name."""
        self._count += 1
        return f"{hint}_{self._count}"

    def device(self, dispatcher):
        for name, d in self.funcs.items():
            if d is dispatcher:
                return name
        name = f"op{len(self.funcs)}"
        self.funcs[name] = dispatcher
        return name

    def source(self):
        body = self.prologue + self.lines
        return f"def {self.name}({', '.join(self.params)}):\n" + "\n".join(body) + "\n"

    def compile(self, max_registers=None):
        """The Dispatcher of this kernel (the same one for the same source and device functions)."""
        src = self.source()
        key = (self.name, src, tuple((n, id(d)) for n, d in sorted(self.funcs.items())), max_registers, self.masked)
        entry = _compiled.get(key)
        if entry is None:
            funcs = dict(self.funcs)

            def resolve(name):
                if name in funcs:
                    from ..cuda._resolve import describe
                    return describe(funcs[name])
                return kg._resolve(name)

            options = {} if self.masked else {"boundscheck": False}
            if max_registers:
                options["max_registers"] = int(max_registers)
            d = _simt.Dispatcher(self.name, src, f"<simt.compute {self.name}>", 1, 0, resolve, options)
            entry = _compiled[key] = (d, funcs)  # the functions live as long as the kernel
        return entry[0]


def launch(k, grid, block, args):
    """Launches `k` on the current stream (simt.compute makes the caller's stream current; a
    launch configuration without a stream takes the current one)."""
    if grid > 0:
        k[int(grid), int(block)](*args)


def block_cap(threads):
    """How many blocks a bounded grid gets: enough to fill the device (GPU) or the cores (cpu)."""
    if kg.backend_kind() == "cpu":
        return kg.cpu_cores() * 4
    return kg.multiprocessor_count() * max(1, 2048 // threads)
