"""reduce_into / make_reduce_into: a device-wide reduction in two launches. A bounded grid of blocks
strides over full tiles (threads x items, coalesced), each thread folding its items into one
value; the block combines its threads in shared memory and stores one partial; one more block
folds the partials and h_init into d_out[0]. The operator is assumed associative and commutative
(as CUB's DeviceReduce assumes)."""
import numpy as np

from ._algorithm import NO_TEMP, Algorithm, cached, check_value_type, count, temp_bytes
from ._blocks import block_reduce, combine, load_cast
from ._iterators import _FieldArrays, check_length, input_access, output_access
from ._kernels import KernelSource, block_cap, launch
from ._ops import Op
from ._streams import on_stream
from ._values import host_value

from .. import _kernelgen as kg

THREADS = 256
LANES = 8  # independent accumulators of the cpu backend's fold


def items_per_thread(vt):
    """Items each thread loads per tile: about 64 bytes of loads in flight."""
    return max(1, min(16, 64 // max(1, vt.itemsize)))


def reduce_source(ks, vt, op, inp, threads, items):
    """Body of the reduction kernel (parameters: input, output or partials, [init], n)."""
    T, I = threads, items
    tile = T * I
    L = ["    tid = np.int64(cuda.threadIdx.x)",
         "    b = np.int64(cuda.blockIdx.x)",
         "    g = np.int64(cuda.gridDim.x)",
         f"    nfull = n // {tile}",
         f"    acc = {vt.zero()}",
         f"    v = {vt.zero()}",
         "    t = b",
         # The host sizes the grid so that every block owns a full tile when there is one.
         "    if t < nfull:"]
    L += load_cast(ks, vt, inp, f"t * {tile} + tid", "acc", " " * 8)
    L += [f"        for q in range(1, {I}):"]
    L += load_cast(ks, vt, inp, f"t * {tile} + q * {T} + tid", "v", " " * 12)
    L += combine(ks, vt, op, "acc", "acc", "v", " " * 12)
    L += ["        t += g",
          "    while t < nfull:",
          f"        for q in range({I}):"]
    L += load_cast(ks, vt, inp, f"t * {tile} + q * {T} + tid", "v", " " * 12)
    L += combine(ks, vt, op, "acc", "acc", "v", " " * 12)
    L += ["        t += g",
          # The partial tile goes to the block whose turn it would be.
          f"    if b == nfull % g and nfull * {tile} < n:",
          f"        for q in range({I}):",
          f"            p = nfull * {tile} + q * {T} + tid",
          "            if p < n:"]
    L += load_cast(ks, vt, inp, "p", "v", " " * 16)
    L += ["                if nfull == 0 and q == 0:",
          "                    acc = v",
          "                else:"]
    L += combine(ks, vt, op, "acc", "acc", "v", " " * 20)
    L += [f"    nvalid = {T} if nfull > 0 else min(n, {T})"]
    L += block_reduce(ks, vt, op, "acc", "nvalid", T, "    ")
    return L


def serial_reduce_source(ks, vt, op, inp, lanes):
    """The cpu backend's body of the reduction kernel (one thread per block): block b folds the
    b-th of gridDim.x contiguous runs into `acc`, in `lanes` independent accumulators so that
    the fold is not one chain of dependent operations. (Blocks of many threads run one thread
    after another there, and threads striding over the same cache lines read them back many
    times: 2**24 float32 took 1.1 GB/s that way, against NumPy's 15.)"""
    L = ["    tid = np.int64(0)",
         "    b = np.int64(cuda.blockIdx.x)",
         "    g = np.int64(cuda.gridDim.x)",
         "    chunk = (n + g - 1) // g",
         "    lo = b * chunk",
         "    hi = min(lo + chunk, n)",
         f"    acc = {vt.zero()}",
         f"    v = {vt.zero()}",
         f"    if hi - lo >= {lanes}:"]
    for j in range(lanes):
        L += [f"        lane{j} = {vt.zero()}"]
        L += load_cast(ks, vt, inp, f"lo + {j}", f"lane{j}", " " * 8)
    L += [f"        i = lo + {lanes}",
          f"        while i + {lanes} <= hi:"]
    for j in range(lanes):
        L += load_cast(ks, vt, inp, f"i + {j}", "v", " " * 12)
        L += combine(ks, vt, op, f"lane{j}", f"lane{j}", "v", " " * 12)
    L += [f"            i += {lanes}",
          "        while i < hi:"]
    L += load_cast(ks, vt, inp, "i", "v", " " * 12)
    L += combine(ks, vt, op, "lane0", "lane0", "v", " " * 12)
    L += ["            i += 1"]
    width = lanes
    while width > 1:  # pairwise: lane j op lane j + width
        width //= 2
        for j in range(width):
            L += combine(ks, vt, op, f"lane{j}", f"lane{j}", f"lane{j + width}", " " * 8)
    L += ["        acc = lane0",
          "    else:",
          "        for i in range(lo, hi):"]
    L += load_cast(ks, vt, inp, "i", "v", " " * 12)
    L += ["            if i == lo:",
          "                acc = v",
          "            else:"]
    L += combine(ks, vt, op, "acc", "acc", "v", " " * 16)
    return L


class _Reduce(Algorithm):
    name = "reduce_into"

    def __init__(self, d_in, d_out, op, h_init):
        super().__init__()
        in_it = self.bind("d_in", d_in)
        self.bind("d_out", d_out)
        self.op = Op(op, 2, "reduce_into: op")
        self.vt, _ = host_value(h_init, "reduce_into: h_init")
        check_value_type(in_it.value_type, self.vt, "reduce_into: d_in")
        # On the cpu backend one thread per block folds a contiguous run (serial_reduce_source).
        self.threads, self.items = (1, 4 * LANES) if kg.backend_kind() == "cpu" else (THREADS, items_per_thread(self.vt))
        self._kernels = {}

    def _kernel(self, kind, in_it, out_it):
        """"first": d_in -> partials; "parts": partials and h_init -> d_out; "direct": d_in and
        h_init -> d_out (inputs that are one block's work)."""
        k = self._kernels.get(kind)
        if k is None:
            vt = self.vt
            ks = KernelSource("simt_compute_reduce")
            fields = _FieldArrays(vt, [None] * len(vt.dtypes))
            inp = fields.emit(ks) if kind == "parts" else input_access(in_it, ks, "reduce_into: d_in")
            if kind == "first":
                part = fields.emit(ks)
            else:
                out = output_access(out_it, ks, "reduce_into: d_out")
                init = vt.assemble([ks.param("init") for _ in vt.dtypes])
            ks.params.append("n")
            ks.lines = (serial_reduce_source(ks, vt, self.op, inp, LANES) if self.threads == 1 else
                        reduce_source(ks, vt, self.op, inp, self.threads, self.items))
            if kind != "first":
                ks.lines.insert(0, f"    init = {init}")
            ks.lines.append("    if tid == 0:")
            if kind == "first":
                ks.lines += part.store("b", "acc", vt, " " * 8)
            else:
                ks.lines += ["        if n > 0:"]
                ks.lines += combine(ks, vt, self.op, "acc", "init", "acc", " " * 12)
                ks.lines += ["        else:", "            acc = init"]
                ks.lines += out.store("0", "acc", vt, " " * 8)
            k = self._kernels[kind] = ks.compile()
        return k

    def _grid(self, n):
        full = n // (self.threads * self.items)
        g = max(1, min(block_cap(self.threads), full))
        if self.threads == 1:
            # serial_reduce_source gives block b the run [b * ceil(n / g), ...): fewer blocks
            # until the last run starts inside the input (an empty run would store a partial
            # that is no value of the input, and operators have no identity).
            while g > 1 and (g - 1) * (-(-n // g)) >= n:
                g -= 1
        return g

    def __call__(self, temp_storage, d_in, d_out, num_items, h_init, stream=None):
        in_it, out_it = self.same("d_in", d_in), self.same("d_out", d_out)
        init = self.same_init(self.vt, h_init)
        n = count(num_items, "reduce_into: num_items")
        check_length(in_it, n, "reduce_into: d_in")
        check_length(out_it, 1, "reduce_into: d_out", "1 (the result)")
        grid = self._grid(n)
        needed = grid * self.vt.itemsize if grid > 1 else 0
        if temp_storage is None:
            return needed
        temp_bytes(temp_storage, needed, "reduce_into")
        with on_stream(stream, "reduce_into"):
            n64 = np.int64(n)
            if grid == 1:
                launch(self._kernel("direct", in_it, out_it), 1, self.threads,
                       in_it.state() + out_it.state() + list(init) + [n64])
            else:
                parts = self.vt.alloc(grid)
                launch(self._kernel("first", in_it, out_it), grid, self.threads, in_it.state() + parts + [n64])
                launch(self._kernel("parts", in_it, out_it), 1, self.threads,
                       parts + out_it.state() + list(init) + [np.int64(grid)])
        return needed


def make_reduce_into(d_in, d_out, op, h_init):
    """A reusable reduction: call it as obj(temp_storage, d_in, d_out, num_items, h_init,
    stream=None); with temp_storage=None it returns the bytes of temporary storage it needs."""
    return _Reduce(d_in, d_out, op, h_init)


def reduce_into(d_in, d_out, op, num_items, h_init, stream=None):
    """d_out[0] = h_init op d_in[0] op ... op d_in[num_items - 1] (in some order: op must be
    associative and commutative). h_init (a NumPy array of one element or scalar) sets the
    accumulator's type."""
    r = cached(_Reduce, d_in, d_out, op, h_init)
    r(NO_TEMP, d_in, d_out, num_items, h_init, stream)
