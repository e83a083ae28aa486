"""inclusive_scan / exclusive_scan and their make_* objects: a reduce-then-scan in three launches.
A bounded grid of blocks each owns a contiguous run of tiles; pass 1 folds each block's run into
one partial, pass 2 (one block) scans the partials with the initial value, pass 3 rescans each
block's run from its carry and writes the output. Within a tile, items are loaded coalesced into
shared memory, each thread scans a run of consecutive items, and the threads' totals are scanned
across the block; operand order is kept throughout, so op need only be associative."""
import numpy as np

from . import _array_fast_path
from ._algorithm import NO_TEMP, Algorithm, cached, check_value_type, count, temp_bytes
from ._blocks import block_scan, combine, load_cast
from ._iterators import _FieldArrays, as_iterator, check_length, input_access, output_access
from ._kernels import KernelSource, block_cap, launch
from ._ops import Op
from ._streams import on_stream
from ._values import host_value

THREADS = 128


def items_per_thread(vt):
    """Items per thread: a tile of at most 16 KiB of shared memory."""
    return max(1, min(16, 16384 // (THREADS * max(1, vt.itemsize))))


def _slot(p):
    """Shared-memory slot of tile position p: a pad slot after every 32 keeps the per-thread runs
    free of bank conflicts."""
    return f"({p}) + ({p}) // 32"


def _thread_run(ks, vt, op, qs, result, ind):
    """Statements over this thread's items base + q (q in qs) of the tile: item = run op item,
    kept in `result` (the running value itself, or a scratch name)."""
    L = [f"{ind}for q in range({qs.start}, {qs.stop}):",
         f"{ind}    p = base + q",
         f"{ind}    if p < cnt:",
         f"{ind}        v = {vt.shared_load('sh', _slot('p'))}"]
    L += combine(ks, vt, op, result, "run", "v", ind + " " * 8)
    return L + vt.shared_store("sh", _slot("p"), result, ind + " " * 8)


def scan_source(ks, vt, op, inp, out, carry, init, mode, threads, items):
    """Body of a scan pass. mode: "up" (store each block's total in carry[b]), "inclusive" or
    "exclusive" (write out from the carry: carry[b - 1] for b > 0, else `init` when not None).
    Parameters n (items) and tpb (tiles per block) come last."""
    T, I = threads, items
    tile = T * I
    ks.prologue += vt.shared_decl("sh", tile + tile // 32)
    L = ["    tid = np.int64(cuda.threadIdx.x)",
         "    b = np.int64(cuda.blockIdx.x)",
         "    t = b * tpb",
         f"    tend = min(t + tpb, (n + {tile - 1}) // {tile})",
         f"    carry = {vt.zero()}",
         f"    run = {vt.zero()}",
         f"    v = {vt.zero()}",
         "    has = False"]
    if mode != "up":
        if init is not None:
            L += [f"    carry = {init}", "    has = True"]
        L += ["    if b > 0:",
              f"        carry = {carry.load('b - 1')}",
              "        has = True"]
    L += ["    while t < tend:",
          f"        start = t * {tile}",
          f"        cnt = min({tile}, n - start)",
          f"        for q in range({I}):",
          f"            p = q * {T} + tid",
          "            if p < cnt:"]
    L += load_cast(ks, vt, inp, "start + p", "v", " " * 16)
    L += vt.shared_store("sh", _slot("p"), "v", " " * 16)
    L += ["        cuda.syncthreads()",
          f"        base = tid * {I}",
          "        if base < cnt:",
          f"            run = {vt.shared_load('sh', _slot('base'))}"]
    L += _thread_run(ks, vt, op, range(1, I), "run", " " * 8)
    L += block_scan(ks, vt, op, "run", T, " " * 8)
    # Thread tid's runs start from the scan of the threads before it.
    L += ["        if tid > 0 and base < cnt:",
          f"            run = {vt.shared_load('tot', 'tid - 1')}"]
    L += _thread_run(ks, vt, op, range(I), "v", " " * 12)
    L.append("        cuda.syncthreads()")
    if mode != "up":
        L += [f"        for q in range({I}):",
              f"            p = q * {T} + tid",
              "            if p < cnt:"]
        ind = " " * 16
        if mode == "inclusive":
            L += [f"{ind}v = {vt.shared_load('sh', _slot('p'))}", f"{ind}if has:"]
            L += combine(ks, vt, op, "v", "carry", "v", ind + "    ")
        else:  # an exclusive scan always has a carry (its initial value)
            L += [f"{ind}if p == 0:", f"{ind}    v = carry", f"{ind}else:",
                  f"{ind}    v = {vt.shared_load('sh', _slot('p - 1'))}"]
            L += combine(ks, vt, op, "v", "carry", "v", ind + "    ")
        L += out.store("start + p", "v", vt, ind)
    L += [f"        v = {vt.shared_load('sh', _slot('cnt - 1'))}",
          "        if has:"]
    L += combine(ks, vt, op, "carry", "carry", "v", " " * 12)
    L += ["        else:",
          "            carry = v",
          "        has = True",
          "        cuda.syncthreads()",  # the next tile overwrites sh
          "        t += 1"]
    if mode == "up":
        L += ["    if tid == 0 and has:"] + carry.store("b", "carry", vt, " " * 8)
    return L


class _Scan(Algorithm):
    """Both scans; `inclusive` says which."""

    def __init__(self, d_in, d_out, op, init_value, inclusive):
        super().__init__()
        self.name = "inclusive_scan" if inclusive else "exclusive_scan"
        self.inclusive = inclusive
        in_it = self.bind("d_in", d_in)
        out_it = self.bind("d_out", d_out)
        self.op = Op(op, 2, f"{self.name}: op")
        self.init_kind, self.vt = self._init_kind(init_value, in_it, out_it)
        check_value_type(in_it.value_type, self.vt, f"{self.name}: d_in")
        self.items = items_per_thread(self.vt)
        self._kernels = {}

    def _init_kind(self, init_value, in_it, out_it):
        """("none" | "value" | "future", value type). A device array's first element is a
        "future" initial value, read when the scan runs."""
        if init_value is None:
            if not self.inclusive:
                raise ValueError("exclusive_scan needs an init_value (its first output)")
            vt = in_it.value_type or out_it.value_type
            if vt is None:
                raise TypeError(f"{self.name}: cannot tell the value type of d_in; pass an init_value")
            return "none", vt
        if isinstance(init_value, (np.ndarray, np.generic, tuple)):
            return "value", host_value(init_value, f"{self.name}: init_value")[0]
        future = as_iterator(init_value, f"{self.name}: init_value")
        self.built["init_value"] = (future.key(), "device array")
        return "future", future.value_type

    def _kernel(self, mode, inp_it, out_it, init_it, source):
        """The pass `mode` ("up", "inclusive", "exclusive") reading `source` ("input" or
        "partials"), writing `out_it` (None for "up")."""
        key = (mode, source)
        k = self._kernels.get(key)
        if k is None:
            vt = self.vt
            ks = KernelSource(f"simt_compute_scan_{mode}")
            fields = _FieldArrays(vt, [None] * len(vt.dtypes))
            inp = fields.emit(ks) if source == "partials" else input_access(inp_it, ks, f"{self.name}: d_in")
            out = None if mode == "up" else (fields.emit(ks) if source == "partials" else
                                             output_access(out_it, ks, f"{self.name}: d_out"))
            carry = fields.emit(ks)
            init = None
            if mode != "up" and self.init_kind == "value":
                init = vt.assemble([ks.param("init") for _ in vt.dtypes])
            elif mode != "up" and self.init_kind == "future":
                init = init_it.emit(ks).load("0")
            ks.params += ["n", "tpb"]
            lines = scan_source(ks, vt, self.op, inp, out, carry, None if init is None else "init0_", mode,
                                THREADS, self.items)
            if init is not None:
                x = ks.tmp("x")
                lines = [f"    {x} = {init}", f"    init0_ = {vt.cast(x)}"] + lines
            ks.lines = lines
            k = self._kernels[key] = ks.compile()
        return k

    def _grid(self, n):
        tiles = -(-n // (THREADS * self.items))
        cap = min(block_cap(THREADS), THREADS * self.items)  # the partials are one tile
        grid = max(1, min(cap, tiles))
        tpb = max(1, -(-tiles // grid))
        return -(-tiles // tpb) if tiles else 1, tpb

    def __call__(self, temp_storage, d_in, d_out, num_items, init_value, stream=None):
        where = self.name
        in_it, out_it = self.same("d_in", d_in), self.same("d_out", d_out)
        init_vals, init_it = [], None
        if self.init_kind == "value":
            init_vals = self.same_init(self.vt, init_value, "init_value")
        elif self.init_kind == "future":
            init_it = self.same("init_value", init_value)
            check_length(init_it, 1, f"{where}: init_value", "1")
        elif init_value is not None:
            raise TypeError(f"{where}: this object was built without an init_value")
        n = count(num_items, f"{where}: num_items")
        check_length(in_it, n, f"{where}: d_in")
        check_length(out_it, n, f"{where}: d_out")
        grid, tpb = self._grid(n)
        needed = 2 * grid * self.vt.itemsize if grid > 1 else 0
        if temp_storage is None:
            return needed
        temp_bytes(temp_storage, needed, where)
        if n == 0:
            return needed
        mode = "inclusive" if self.inclusive else "exclusive"
        init_args = list(init_vals) + (init_it.state() if init_it is not None else [])
        n64 = np.int64(n)
        fast = _array_fast_path.inclusive_scan(self.op, self.vt, in_it, out_it) \
            if self.inclusive and self.init_kind == "none" else None
        with on_stream(stream, where):
            if fast is not None:
                fast(in_it.array, out_it.array, n)
                return needed
            if grid == 1:
                dummy = self.vt.alloc(1)
                k = self._kernel(mode, in_it, out_it, init_it, "input")
                launch(k, 1, THREADS, in_it.state() + out_it.state() + dummy + init_args + [n64, np.int64(tpb)])
                return needed
            parts, scanned = self.vt.alloc(grid), self.vt.alloc(grid)
            launch(self._kernel("up", in_it, None, None, "input"), grid, THREADS,
                   in_it.state() + parts + [n64, np.int64(tpb)])
            # The partials' inclusive scan, with the initial value in front: block b's carry.
            k = self._kernel("inclusive", None, None, init_it, "partials")
            launch(k, 1, THREADS, parts + scanned + parts + init_args + [np.int64(grid), np.int64(1)])
            k = self._kernel(mode, in_it, out_it, init_it, "input")
            launch(k, grid, THREADS, in_it.state() + out_it.state() + scanned + init_args + [n64, np.int64(tpb)])
        return needed


def make_inclusive_scan(d_in, d_out, op, init_value):
    """A reusable inclusive scan: obj(temp_storage, d_in, d_out, num_items, init_value, stream=None);
    with temp_storage=None it returns the bytes of temporary storage it needs."""
    return _Scan(d_in, d_out, op, init_value, True)


def make_exclusive_scan(d_in, d_out, op, init_value):
    """A reusable exclusive scan (see make_inclusive_scan)."""
    return _Scan(d_in, d_out, op, init_value, False)


def inclusive_scan(d_in, d_out, op, init_value, num_items, stream=None):
    """d_out[i] = init_value op d_in[0] op ... op d_in[i] (without init_value when it is None)."""
    cached(_Scan, d_in, d_out, op, init_value, True)(NO_TEMP, d_in, d_out, num_items, init_value, stream)


def exclusive_scan(d_in, d_out, op, init_value, num_items, stream=None):
    """d_out[0] = init_value, d_out[i] = init_value op d_in[0] op ... op d_in[i - 1]."""
    cached(_Scan, d_in, d_out, op, init_value, False)(NO_TEMP, d_in, d_out, num_items, init_value, stream)
