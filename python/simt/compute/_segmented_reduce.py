"""segmented_reduce / make_segmented_reduce: d_out[s] = h_init op (d_in[start[s]] op ... op
d_in[end[s] - 1]), h_init alone for an empty segment. A bounded grid of blocks takes segments in
turn; a block's threads stride over its segment and combine in shared memory."""
import numpy as np

from ._algorithm import NO_TEMP, Algorithm, cached, check_value_type, count, temp_bytes
from ._blocks import block_reduce, combine, load_cast
from ._iterators import check_length, input_access, output_access
from ._kernels import KernelSource, block_cap, launch
from ._ops import Op
from ._streams import on_stream
from ._values import host_value

THREADS = 128


class _SegmentedReduce(Algorithm):
    name = "segmented_reduce"

    def __init__(self, d_in, d_out, start_offsets_in, end_offsets_in, op, h_init):
        super().__init__()
        in_it = self.bind("d_in", d_in)
        self.bind("d_out", d_out)
        for role, obj in (("start_offsets_in", start_offsets_in), ("end_offsets_in", end_offsets_in)):
            vt = self.bind(role, obj).value_type
            if vt is not None and (vt.is_tuple or vt.dtype.kind not in "iu"):
                raise TypeError(f"segmented_reduce: {role} must hold integers, not {vt}")
        self.op = Op(op, 2, "segmented_reduce: op")
        self.vt, _ = host_value(h_init, "segmented_reduce: h_init")
        check_value_type(in_it.value_type, self.vt, "segmented_reduce: d_in")
        self._kernel = None

    def _compile(self, its):
        if self._kernel is None:
            vt, T = self.vt, THREADS
            ks = KernelSource("simt_compute_segmented_reduce")
            ks.masked = True  # offsets come from device data
            inp = input_access(its[0], ks, "segmented_reduce: d_in")
            out = output_access(its[1], ks, "segmented_reduce: d_out")
            starts = input_access(its[2], ks, "segmented_reduce: start_offsets_in")
            ends = input_access(its[3], ks, "segmented_reduce: end_offsets_in")
            init = vt.assemble([ks.param("init") for _ in vt.dtypes])
            ks.params.append("nseg")
            L = [f"    init = {init}",
                 "    tid = np.int64(cuda.threadIdx.x)",
                 "    s = np.int64(cuda.blockIdx.x)",
                 f"    acc = {vt.zero()}",
                 f"    v = {vt.zero()}",
                 "    while s < nseg:",
                 f"        beg = np.int64({starts.load('s')})",
                 f"        end = np.int64({ends.load('s')})",
                 "        p = beg + tid",
                 "        if p < end:"]
            L += load_cast(ks, vt, inp, "p", "acc", " " * 12)
            L += [f"            p += {T}",
                  "        while p < end:"]
            L += load_cast(ks, vt, inp, "p", "v", " " * 12)
            L += combine(ks, vt, self.op, "acc", "acc", "v", " " * 12)
            L += [f"            p += {T}",
                  f"        nvalid = min(max(end - beg, 0), {T})"]
            L += block_reduce(ks, vt, self.op, "acc", "nvalid", T, " " * 8)
            L += ["        if tid == 0:",
                  "            if nvalid > 0:"]
            L += combine(ks, vt, self.op, "acc", "init", "acc", " " * 16)
            L += ["            else:",
                  "                acc = init"]
            L += out.store("s", "acc", vt, " " * 12)
            L += ["        cuda.syncthreads()",  # the next segment reuses the shared arrays
                  "        s += np.int64(cuda.gridDim.x)"]
            ks.lines = L
            self._kernel = ks.compile()
        return self._kernel

    def __call__(self, temp_storage, d_in, d_out, num_segments, start_offsets_in, end_offsets_in, h_init,
                 stream=None):
        its = [self.same(r, o) for r, o in (("d_in", d_in), ("d_out", d_out), ("start_offsets_in", start_offsets_in),
                                            ("end_offsets_in", end_offsets_in))]
        init = self.same_init(self.vt, h_init)
        nseg = count(num_segments, "segmented_reduce: num_segments")
        for it, role in zip(its[1:], ("d_out", "start_offsets_in", "end_offsets_in")):
            check_length(it, nseg, f"segmented_reduce: {role}", "num_segments")
        if temp_storage is None:
            return 0
        temp_bytes(temp_storage, 0, "segmented_reduce")
        k = self._compile(its)
        with on_stream(stream, "segmented_reduce"):
            args = [v for it in its for v in it.state()] + list(init) + [np.int64(nseg)]
            launch(k, min(nseg, block_cap(THREADS) * 4), THREADS, args)
        return 0


def make_segmented_reduce(d_in, d_out, start_offsets_in, end_offsets_in, op, h_init):
    """A reusable segmented reduction: obj(temp_storage, d_in, d_out, num_segments,
    start_offsets_in, end_offsets_in, h_init, stream=None)."""
    return _SegmentedReduce(d_in, d_out, start_offsets_in, end_offsets_in, op, h_init)


def segmented_reduce(d_in, d_out, start_offsets_in, end_offsets_in, op, h_init, num_segments, stream=None):
    """d_out[s] = h_init op d_in[start_offsets_in[s]] op ... op d_in[end_offsets_in[s] - 1] for each
    of num_segments segments (h_init for an empty one). op: associative and commutative."""
    r = cached(_SegmentedReduce, d_in, d_out, start_offsets_in, end_offsets_in, op, h_init)
    r(NO_TEMP, d_in, d_out, num_segments, start_offsets_in, end_offsets_in, h_init, stream)
