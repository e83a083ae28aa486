"""The segmented LSD radix sort: digit passes over rows of unsigned keys (a histogram per tile, a
scan of the histograms along each row, a stable scatter), the entry point other parts of simt call
(`radix_sort`), and the stable argsort by several keys that lexsort and complex sorts use."""
import operator

import numpy as np

from . import _kernelgen as kg
from . import _onesweep
from . import _radix_serial
from . import _radix_kernels as rk
from . import _sort_keys
from ._indexing import overlaps

# Per backend: threads per block and keys per thread of a tile, and the digit bits of a pass, for
# rows longer than `block_row`; rows of at most `short_row` keys take one thread each, rows of at
# most `block_row` one block each (a sorting network in shared memory: one launch in all).
# (cuda: block_row 2048 sorts 2**10 float32 keys in one launch instead of eight digit passes of a
# few launches each; measured on an H200 2026-12-01, see docs/performance.md.)
# `serial` (the cpu backend): every row longer than `short_row` goes to _radix_serial, one thread
# per tile, at least `serial_min_tile` keys a tile and `serial_tiles_per_core` tiles a core
# (2**22 float32 keys on 2 cores: 3 Mkeys/s through the block-wide paths on fibers, 84 through
# these in the benchmark of docs/performance.md).
# `onesweep_min` > 0: single rows of at least that many keys take the one-sweep passes
# (_onesweep), `onesweep_items` keys per thread at most. (H200, 2026-12-01, python -m
# bench.probes.sort_paths, float32 Mkeys/s, digit passes / one-sweep with 8 items: 2**14 55 / 108,
# 2**18 723 / 1554, 2**22 9368 / 10541, 2**26 11547 / 12119; 16 and 24 items were slower.)
TUNING = {
    "cuda": {"threads": 256, "items": 8, "radix_bits": 8, "short_row": 16, "block_row": 2048,
             "onesweep_min": 2049, "onesweep_items": 8},
    "cpu": {"threads": 64, "items": 16, "radix_bits": 8, "short_row": 16, "block_row": 2048,
            "onesweep_min": 0, "onesweep_items": 16,
            "serial": True, "serial_tiles_per_core": 4, "serial_min_tile": 4096},
}


def _sort_short_rows(keys, values, keys_out, values_out, n, begin_bit, end_bit, descending):
    mask = (1 << (end_bit - begin_bit)) - 1
    src = rk.short_rows_source(np.dtype(keys.dtype), None if values is None else np.dtype(values.dtype),
                               max(1, n))
    k = kg.kernel("simt_sort_short_rows", src, boundscheck=False)
    args = (keys, keys_out) if values is None else (keys, values, keys_out, values_out)
    nrows = keys.size // n
    kg.launch_1d(k, nrows, *args, nrows, n, begin_bit, np.uint64(mask), np.uint64(mask if descending else 0))


def _sort_block_rows(keys, values, keys_out, values_out, n, begin_bit, end_bit, descending):
    mask = (1 << (end_bit - begin_bit)) - 1
    padded = 1 << (n - 1).bit_length()
    threads = min(padded // 2, 1024)
    src = rk.block_rows_source(None if values is None else np.dtype(values.dtype), padded, threads)
    k = kg.kernel("simt_sort_block_rows", src, boundscheck=False)
    args = (keys, keys_out) if values is None else (keys, values, keys_out, values_out)
    kg.launch(k, keys.size // n, threads, *args, n, begin_bit, np.uint64(mask), np.uint64(mask if descending else 0))


def sort_rows(keys, n, values=None, keys_out=None, values_out=None, begin_bit=0, end_bit=None, descending=False):
    """Stable sort of each row of `n` keys of the 1-D C-contiguous unsigned array `keys` (rows laid
    end to end) on bits [begin_bit, end_bit), carrying `values` (1-D, same size) along; returns
    (keys_out, values_out), new arrays where not given. The inputs are left as they are."""
    from ._creation import empty
    key_dt = np.dtype(keys.dtype)
    if end_bit is None:
        end_bit = 8 * key_dt.itemsize
    if keys_out is None:
        keys_out = empty(keys.shape, key_dt)
    if values is not None and values_out is None:
        values_out = empty(values.shape, values.dtype)
    N = keys.size
    if N == 0:
        return keys_out, values_out
    if n <= 1 or end_bit <= begin_bit:
        kg.copy_into(keys_out, keys)
        if values is not None:
            kg.copy_into(values_out, values)
        return keys_out, values_out
    tuning = TUNING[kg.backend_kind()]
    if n <= tuning["short_row"]:
        _sort_short_rows(keys, values, keys_out, values_out, n, begin_bit, end_bit, descending)
        return keys_out, values_out
    if tuning.get("serial"):
        _radix_serial.sort_rows(keys, values, keys_out, values_out, n, begin_bit, end_bit, descending, tuning)
        return keys_out, values_out
    if n <= tuning["block_row"]:
        _sort_block_rows(keys, values, keys_out, values_out, n, begin_bit, end_bit, descending)
        return keys_out, values_out
    if _onesweep.applies(N // n, n, tuning):
        _onesweep.sort_row(keys, values, keys_out, values_out, begin_bit, end_bit, descending, tuning)
    else:
        _digit_passes(keys, values, keys_out, values_out, n, begin_bit, end_bit, descending, tuning)
    return keys_out, values_out


def sort_values(x, n, out):
    """Sorts each row of `n` values of C-contiguous x (bool, integer or float) into C-contiguous
    `out` straight from the values' bits, where the backend's path can make them keys as it reads
    them (the cpu backend's serial tiles); False where it cannot (the caller goes through keys)."""
    tuning = TUNING[kg.backend_kind()]
    if not tuning.get("serial") or n <= tuning["short_row"] or not (x._c_contiguous and out._c_contiguous):
        return False
    bits_in, bits_out = kg.flat(_sort_keys.bits_view(x)), kg.flat(_sort_keys.bits_view(out))
    _radix_serial.sort_rows(bits_in, None, bits_out, None, n, 0, 8 * x.itemsize, False, tuning, raw_dtype=x.dtype)
    return True


def _digit_passes(keys, values, keys_out, values_out, n, begin_bit, end_bit, descending, tuning):
    from ._creation import empty
    from ._scan import cumsum
    N = keys.size
    nrows = N // n
    bits = tuning["radix_bits"]
    R = 1 << bits
    T, I = tuning["threads"], tuning["items"]
    tpr = -(-n // (T * I))
    count_dt = np.dtype(np.int32) if N < 2 ** 31 else np.dtype(np.int64)
    counts = empty((nrows, R * tpr), count_dt)
    val_dt = None if values is None else np.dtype(values.dtype)
    hist = kg.kernel("simt_radix_histogram", rk.histogram_source(keys.dtype, T, I, R, count_dt), boundscheck=False)
    scatter = kg.kernel("simt_radix_scatter", rk.scatter_source(keys.dtype, val_dt, T, I, R), boundscheck=False)
    steps = rk.digit_passes(begin_bit, end_bit, descending, bits)
    tmp_k = empty((N,), keys.dtype) if len(steps) > 1 else None
    tmp_v = empty((N,), val_dt) if len(steps) > 1 and values is not None else None
    for _, step, src_k, args in rk.ping_pong(steps, keys, values, keys_out, values_out, tmp_k, tmp_v):
        kg.launch(hist, nrows * tpr, T, src_k, counts, n, tpr, *step)
        incl = cumsum(counts, axis=1, dtype=count_dt)
        kg.launch(scatter, nrows * tpr, T, *args, counts, incl, n, tpr, *step)


def _bit(value, what):
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"radix_sort: {what} must be an integer, not {type(value).__name__}") from None


def _check_1d(x, what):
    from ._ndarray import ndarray
    if not isinstance(x, ndarray):
        raise TypeError(f"radix_sort: {what} must be a simt array, not {type(x).__module__}.{type(x).__qualname__}")
    if x.ndim != 1:
        raise ValueError(f"radix_sort: {what} must be 1-D (got shape {x.shape})")


def radix_sort(keys, values=None, *, keys_out=None, values_out=None, descending=False, begin_bit=0, end_bit=None,
               segment_length=None):
    """Stable radix sort of the 1-D device array `keys` (bool, int, uint or float) into `keys_out`,
    carrying `values` (1-D, same length, any dtype) into `values_out`; outputs are made when not
    given and returned as (keys_out, values_out) (values_out None without values). Ascending, or
    descending with `descending` (equal keys keep their order either way). Floats sort by value
    with NaN last (first when descending); -0.0 and 0.0 are equal keys and keep their signs.
    `begin_bit`/`end_bit` restrict the sort to those bits of the key's order-preserving unsigned
    image (the key itself for unsigned integers; the sign bit flipped for signed ones; for floats
    all bits of negatives flipped, the sign bit of the others). `segment_length`: sort each run of
    that many keys on its own (keys.size must be a multiple). The inputs are never written, and
    the outputs may not be the inputs."""
    _check_1d(keys, "keys")
    dt = np.dtype(keys.dtype)
    if dt.kind not in "biuf":
        raise TypeError(f"radix_sort: keys of dtype {dt} cannot be radix sorted (bool, integer or float keys)")
    width = 8 * dt.itemsize
    begin_bit = _bit(begin_bit, "begin_bit")
    end_bit = width if end_bit is None else _bit(end_bit, "end_bit")
    if not 0 <= begin_bit <= end_bit <= width:
        raise ValueError(f"radix_sort: need 0 <= begin_bit <= end_bit <= {width} for {dt} keys "
                         f"(got begin_bit={begin_bit}, end_bit={end_bit})")
    n = keys.size if segment_length is None else int(segment_length)
    if keys.size and (n <= 0 or keys.size % n):
        raise ValueError(f"radix_sort: segment_length={segment_length} does not divide the {keys.size} keys")
    if values is not None:
        _check_1d(values, "values")
        if values.size != keys.size:
            raise ValueError(f"radix_sort: values has {values.size} elements, keys has {keys.size}")
        values = kg.contiguous(values)
    from ._creation import empty
    keys_out = empty(keys.shape, dt) if keys_out is None else keys_out
    _check_1d(keys_out, "keys_out")
    if keys_out.dtype != dt or keys_out.size != keys.size or not keys_out._c_contiguous:
        raise ValueError("radix_sort: keys_out must be a contiguous array of the keys' dtype and length")
    for out_name, out in (("keys_out", keys_out), ("values_out", values_out)):
        for in_name, inp in (("keys", keys), ("values", values)):
            if out is not None and inp is not None and overlaps(out, inp):
                raise ValueError(f"radix_sort: {out_name} overlaps {in_name} in memory; it sorts out of place, so the "
                                 "outputs must be other memory than the inputs")
    if values is not None:
        values_out = empty(values.shape, values.dtype) if values_out is None else values_out
        _check_1d(values_out, "values_out")
        if values_out.dtype != values.dtype or values_out.size != values.size or not values_out._c_contiguous:
            raise ValueError("radix_sort: values_out must be a contiguous array of the values' dtype and length")
    n = max(n, 1)
    if dt.kind == "u":
        sort_rows(kg.contiguous(keys), n, values, keys_out, values_out, begin_bit, end_bit, descending)
    elif dt.kind == "f":
        # -0.0 and 0.0 are equal keys (as in CUB) but keep their sign bits: sort positions, then
        # gather the keys and values through them.
        from ._sort_layout import take_along_rows
        ukeys, index = _sort_keys.to_keys(keys, n, canonical_zero=True, with_index=True)
        _, perm = sort_rows(ukeys, n, index, None, None, begin_bit, end_bit, descending)
        rows = (keys.size // n, n)
        take_along_rows(kg.view(keys, rows, (n * keys.strides[0], keys.strides[0])), perm, kg.as_shape(keys_out, rows))
        if values is not None:
            take_along_rows(kg.as_shape(values, rows), perm, kg.as_shape(values_out, rows))
    else:
        ukeys, _ = _sort_keys.to_keys(keys)
        sorted_keys, _ = sort_rows(ukeys, n, values, None, values_out, begin_bit, end_bit, descending)
        _sort_keys.from_keys(sorted_keys, keys_out)
    return keys_out, values_out


def argsort_keys(key_list, index, n):
    """Row positions (int64, rows of n laid end to end) that stably sort each row by the unsigned
    key arrays `key_list`, the last one primary (lexsort's order). `index`: each element's own
    position in its row (the identity permutation), consumed."""
    from ._creation import empty
    from ._sort_layout import take_along_rows
    perm = index
    for j, keys in enumerate(key_list):
        if j:  # the next key, read in the order the previous keys sorted the rows into
            rows = (keys.size // max(n, 1), n)
            gathered = empty(keys.shape, keys.dtype)
            take_along_rows(kg.as_shape(keys, rows), perm, kg.as_shape(gathered, rows))
            keys = gathered
        _, perm = sort_rows(keys, max(n, 1), perm)
    return perm
