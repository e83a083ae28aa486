"""unary_transform / binary_transform and their make_* objects: d_out[i] = op(d_in1[i][, d_in2[i]]),
one kernel in which each thread handles several items a block-width apart (coalesced)."""
import numpy as np

from ._algorithm import Algorithm, cached, count
from ._iterators import check_length, input_access, output_access
from ._kernels import KernelSource, launch
from ._ops import Op
from ._streams import on_stream

THREADS = 256
ITEMS = 4


class _Transform(Algorithm):
    """`arity` inputs (1 or 2) through op into d_out."""

    def __init__(self, inputs, d_out, op, arity):
        super().__init__()
        self.name = "unary_transform" if arity == 1 else "binary_transform"
        self.roles = ["d_in"] if arity == 1 else ["d_in1", "d_in2"]
        for role, obj in zip(self.roles, inputs):
            self.bind(role, obj)
        self.bind("d_out", d_out)
        self.op = Op(op, arity, f"{self.name}: op")
        self._kernel = None

    def _compile(self, ins, out_it):
        if self._kernel is None:
            ks = KernelSource(f"simt_compute_{self.name}")
            accs = [input_access(it, ks, f"{self.name}: {role}") for it, role in zip(ins, self.roles)]
            out = output_access(out_it, ks, f"{self.name}: d_out")
            ks.params.append("n")
            L = [f"    base = np.int64(cuda.blockIdx.x) * {THREADS * ITEMS} + np.int64(cuda.threadIdx.x)",
                 f"    for q in range({ITEMS}):",
                 f"        i = base + q * {THREADS}",
                 "        if i < n:",
                 f"            y = {self.op.call(ks, *[a.load('i') for a in accs])}"]
            L += out.store("i", "y", None, " " * 12)
            ks.lines = L
            self._kernel = ks.compile()
        return self._kernel

    def run(self, inputs, d_out, num_items, stream):
        ins = [self.same(role, obj) for role, obj in zip(self.roles, inputs)]
        out_it = self.same("d_out", d_out)
        n = count(num_items, f"{self.name}: num_items")
        for it, role in zip(ins + [out_it], self.roles + ["d_out"]):
            check_length(it, n, f"{self.name}: {role}")
        k = self._compile(ins, out_it)
        with on_stream(stream, self.name):
            args = [v for it in ins for v in it.state()] + out_it.state() + [np.int64(n)]
            launch(k, -(-n // (THREADS * ITEMS)), THREADS, args)


class _UnaryTransform(_Transform):
    def __init__(self, d_in, d_out, op):
        super().__init__([d_in], d_out, op, 1)

    def __call__(self, d_in, d_out, num_items, stream=None):
        self.run([d_in], d_out, num_items, stream)


class _BinaryTransform(_Transform):
    def __init__(self, d_in1, d_in2, d_out, op):
        super().__init__([d_in1, d_in2], d_out, op, 2)

    def __call__(self, d_in1, d_in2, d_out, num_items, stream=None):
        self.run([d_in1, d_in2], d_out, num_items, stream)


def make_unary_transform(d_in, d_out, op):
    """A reusable transform: obj(d_in, d_out, num_items, stream=None)."""
    return _UnaryTransform(d_in, d_out, op)


def make_binary_transform(d_in1, d_in2, d_out, op):
    """A reusable transform: obj(d_in1, d_in2, d_out, num_items, stream=None)."""
    return _BinaryTransform(d_in1, d_in2, d_out, op)


def unary_transform(d_in, d_out, op, num_items, stream=None):
    """d_out[i] = op(d_in[i]) for i < num_items (cast to d_out's dtype)."""
    cached(_UnaryTransform, d_in, d_out, op)(d_in, d_out, num_items, stream)


def binary_transform(d_in1, d_in2, d_out, op, num_items, stream=None):
    """d_out[i] = op(d_in1[i], d_in2[i]) for i < num_items (cast to d_out's dtype)."""
    cached(_BinaryTransform, d_in1, d_in2, d_out, op)(d_in1, d_in2, d_out, num_items, stream)
