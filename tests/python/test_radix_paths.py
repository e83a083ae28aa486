"""Every path of the radix sort on the active backend, each forced through the backend's tuning
table: one thread per short row, one block per row (sorting network), the serial tiles of the
cpu backend (one thread per row, and rows split into tiles), the digit passes with per-tile
histograms, and the one-sweep passes with decoupled look-back. Keys (and values carried along)
are compared with NumPy's stable sort on fresh random data, ascending and descending, on bit
ranges, one row and many."""
import numpy as np
import pytest

import simt
import simt.compute as cc
from simt import _kernelgen, _radix_sort

# Tuning overrides that send rows longer than 16 keys down one path.
PATHS = {
    "block_rows": {"serial": False, "onesweep_min": 0, "block_row": 2048},
    "serial": {"serial": True, "serial_min_tile": 4096, "serial_tiles_per_core": 4},
    "serial_tiles": {"serial": True, "serial_min_tile": 64, "serial_tiles_per_core": 8},
    "digit_passes": {"serial": False, "onesweep_min": 0, "block_row": 16},
    "onesweep": {"serial": False, "onesweep_min": 17, "block_row": 16},
    "onesweep_small_tiles": {"serial": False, "onesweep_min": 17, "block_row": 16, "onesweep_items": 1},
}


@pytest.fixture(params=sorted(PATHS))
def path(request, monkeypatch):
    table = dict(_radix_sort.TUNING[_kernelgen.backend_kind()])
    table.update(PATHS[request.param])
    monkeypatch.setitem(_radix_sort.TUNING, _kernelgen.backend_kind(), table)
    return request.param


def _sizes(path):
    return [17, 1000, 2048] if path == "block_rows" else [17, 1000, 20_011]


def _keys(rng, n, dtype):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(n) < 0.5
    if dtype.kind == "f":
        k = rng.standard_normal(n).astype(dtype)
        k[rng.random(n) < 0.03] = np.nan
        k[rng.random(n) < 0.03] = -0.0
        return k
    info = np.iinfo(dtype)
    # Multiples of 1024 (of 4 for bytes): runs of equal keys, and low digits that are all zero.
    step = 1024 if dtype.itemsize > 1 else 4
    return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True) // step * step


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint64, np.int16, np.float64, np.int8, np.bool_])
def test_sort_and_argsort_match_numpy(rng, path, dtype):
    for n in _sizes(path):
        keys = _keys(rng, n, dtype)
        d = simt.asarray(keys)
        np.testing.assert_array_equal(simt.sort(d).get(), np.sort(keys))
        np.testing.assert_array_equal(simt.argsort(d).get(), np.argsort(keys, kind="stable"))


def test_rows_of_a_matrix_sorted_on_their_own(rng, path):
    for rows, n in ((3, _sizes(path)[-1]), (40, 300)):
        keys = rng.integers(-500, 500, (rows, n)).astype(np.int32)
        np.testing.assert_array_equal(simt.sort(simt.asarray(keys), axis=1).get(), np.sort(keys, axis=1))
        np.testing.assert_array_equal(simt.argsort(simt.asarray(keys), axis=1).get(),
                                      np.argsort(keys, axis=1, kind="stable"))


@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
def test_radix_sort_carries_values_stably(rng, path, descending):
    n = _sizes(path)[-1]
    keys = rng.integers(0, 50, n).astype(np.uint32)  # few distinct keys: stability is visible
    values = rng.standard_normal(n)
    ok, ov = simt.empty(n, np.uint32), simt.empty(n, np.float64)
    order = cc.SortOrder.DESCENDING if descending else cc.SortOrder.ASCENDING
    cc.radix_sort(simt.asarray(keys), ok, simt.asarray(values), ov, order, n)
    perm = np.argsort(-keys.astype(np.int64) if descending else keys, kind="stable")
    np.testing.assert_array_equal(ok.get(), keys[perm])
    np.testing.assert_array_equal(ov.get(), values[perm])


def test_a_bit_range_sorts_on_those_bits_only(rng, path):
    n = _sizes(path)[-1]
    keys = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    perm = np.argsort((keys >> 5) & ((1 << 14) - 1), kind="stable")
    out = simt.empty(n, np.uint32)
    cc.radix_sort(simt.asarray(keys), out, None, None, cc.SortOrder.ASCENDING, n, begin_bit=5, end_bit=19)
    np.testing.assert_array_equal(out.get(), keys[perm])


def test_all_keys_equal_keep_their_order(path):
    n = _sizes(path)[-1]
    values = np.arange(n, dtype=np.int64)[::-1].copy()
    ok, ov = simt.empty(n, np.float32), simt.empty(n, np.int64)
    cc.radix_sort(simt.full(n, 2.5, np.float32), ok, simt.asarray(values), ov, cc.SortOrder.ASCENDING, n)
    np.testing.assert_array_equal(ov.get(), values)
    assert (ok.get() == 2.5).all()
