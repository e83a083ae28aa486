"""histogram_even / make_histogram_even: counts of samples in num_output_levels - 1 equal bins over
[lower_level, upper_level); samples outside are not counted. Blocks count into shared memory
(when the bins fit) and add their counts to d_histogram, which is zeroed first."""
import numpy as np

from ._algorithm import NO_TEMP, Algorithm, cached, count, temp_bytes
from ._iterators import _ArrayIterator, check_length, input_access
from ._kernels import KernelSource, block_cap, launch
from ._streams import on_stream

THREADS = 256
SHARED_BINS = 4096  # 16 KiB of int32 counters per block
_COUNTERS = {np.dtype(t) for t in (np.int32, np.int64, np.uint32, np.uint64)}


def _level(value, what):
    if isinstance(value, np.ndarray) and value.size == 1:
        value = value.reshape(-1)[0]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = np.float64(value) if isinstance(value, float) else np.int64(value)
    if not isinstance(value, np.generic) or value.dtype.kind not in "iuf":
        raise TypeError(f"histogram_even: {what} must be a real number, not {type(value).__name__}")
    return value


class _Histogram(Algorithm):
    name = "histogram_even"

    def __init__(self, d_samples, d_histogram, h_num_output_levels, h_lower_level, h_upper_level, num_samples):
        super().__init__()
        vt = self.bind("d_samples", d_samples).value_type
        hist = self.bind("d_histogram", d_histogram)
        if vt is not None and (vt.is_tuple or vt.dtype.kind not in "iuf"):
            raise TypeError(f"histogram_even: d_samples must hold real numbers, not {vt}")
        if not isinstance(hist, _ArrayIterator) or hist.value_type.dtype not in _COUNTERS:
            raise TypeError("histogram_even: d_histogram must be an array of int32, int64, uint32 or uint64 counters, "
                            f"not a {type(hist).__name__} of {hist.value_type}")
        self.sample_vt, self.counter = vt, hist.value_type.dtype
        self._kernels = {}

    def _compile(self, samples, hist, nbins, integer):
        shared = nbins <= SHARED_BINS
        key = (shared, integer)
        k = self._kernels.get(key)
        if k is None:
            ks = KernelSource("simt_compute_histogram_even")
            inp = input_access(samples, ks, "histogram_even: d_samples")
            hist_name = ks.param("hist")
            ks.params += ["nbins", "lo", "hi", "n"]
            counter = f"np.{self.counter.name}"
            L = ["    tid = cuda.threadIdx.x",
                 "    i = np.int64(cuda.blockIdx.x) * np.int64(cuda.blockDim.x) + np.int64(tid)",
                 "    step = np.int64(cuda.gridDim.x) * np.int64(cuda.blockDim.x)"]
            if shared:
                ks.prologue.append(f"    counts = cuda.shared.array({SHARED_BINS}, np.int32)")
                L += [f"    for j in range(tid, nbins, {THREADS}):", "        counts[j] = 0", "    cuda.syncthreads()"]
            # Integer samples bin exactly in int64; others in float64, as a fraction of the range.
            L += ["    while i < n:",
                  f"        s = {inp.load('i')}"]
            if integer:
                L += ["        if s >= lo and s < hi:",
                      "            bin = (np.int64(s) - lo) * nbins // (hi - lo)"]
            else:
                L += ["        if np.float64(s) >= lo and np.float64(s) < hi:",
                      "            bin = min(np.int64((np.float64(s) - lo) / (hi - lo) * nbins), nbins - 1)"]
            if shared:
                L.append("            cuda.atomic.add(counts, bin, 1)")
            else:
                L.append(f"            cuda.atomic.add({hist_name}, bin, {counter}(1))")
            L.append("        i += step")
            if shared:
                L += ["    cuda.syncthreads()",
                      f"    for j in range(tid, nbins, {THREADS}):",
                      "        if counts[j] != 0:",
                      f"            cuda.atomic.add({hist_name}, j, {counter}(counts[j]))"]
            ks.lines = L
            k = self._kernels[key] = ks.compile()
        return k

    def __call__(self, temp_storage, d_samples, d_histogram, h_num_output_levels, h_lower_level, h_upper_level,
                 num_samples, stream=None):
        samples, hist = self.same("d_samples", d_samples), self.same("d_histogram", d_histogram)
        levels = count(np.asarray(h_num_output_levels).reshape(-1)[0], "histogram_even: num_output_levels")
        if levels < 2:
            raise ValueError(f"histogram_even: num_output_levels must be at least 2 (one bin), got {levels}")
        lo, hi = _level(h_lower_level, "lower_level"), _level(h_upper_level, "upper_level")
        if not lo < hi:
            raise ValueError(f"histogram_even: lower_level ({lo}) must be below upper_level ({hi})")
        n = count(num_samples, "histogram_even: num_samples")
        nbins = levels - 1
        check_length(samples, n, "histogram_even: d_samples", "num_samples")
        check_length(hist, nbins, "histogram_even: d_histogram", "num_output_levels - 1")
        if temp_storage is None:
            return 0
        temp_bytes(temp_storage, 0, "histogram_even")
        svt = samples.value_type
        integer = (svt is not None and svt.dtype.kind in "iu" and lo.dtype.kind in "iu" and hi.dtype.kind in "iu")
        if integer and (int(hi) - int(lo)) * nbins >= 2**63:
            # (the kernel bins integers exactly as (s - lo) * nbins // (hi - lo) in int64)
            raise ValueError(f"histogram_even: integer levels [{lo}, {hi}) with {nbins} bins need (upper - lower) * bins "
                             "below 2**63; pass float levels for wider ranges")
        k = self._compile(samples, hist, nbins, integer)
        conv = np.int64 if integer else np.float64
        with on_stream(stream, "histogram_even"):
            _zero(hist, nbins)
            if n:
                grid = max(1, min(block_cap(THREADS), -(-n // THREADS)))
                launch(k, grid, THREADS, samples.state() + hist.state() +
                       [np.int64(nbins), conv(lo), conv(hi), np.int64(n)])
        return 0


def _zero(hist, nbins):
    hist.array[:nbins] = 0


def make_histogram_even(d_samples, d_histogram, h_num_output_levels, h_lower_level, h_upper_level, num_samples):
    """A reusable histogram: obj(temp_storage, d_samples, d_histogram, h_num_output_levels,
    h_lower_level, h_upper_level, num_samples, stream=None); the levels as NumPy arrays of one
    value."""
    return _Histogram(d_samples, d_histogram, h_num_output_levels, h_lower_level, h_upper_level, num_samples)


def histogram_even(d_samples, d_histogram, num_output_levels, lower_level, upper_level, num_samples, stream=None):
    """d_histogram[b] = number of samples in bin b of num_output_levels - 1 equal bins over
    [lower_level, upper_level); samples outside the range are not counted."""
    levels = np.array([num_output_levels], dtype=np.int32)
    lo, hi = np.array([lower_level]), np.array([upper_level])
    h = cached(_Histogram, d_samples, d_histogram, levels, lo, hi, num_samples)
    h(NO_TEMP, d_samples, d_histogram, levels, lo, hi, num_samples, stream)
